package ingest

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// oneMarkdownSyntax is markdownSyntax as one expression, the reference
// looksMarkdown must agree with.
var oneMarkdownSyntax = regexp.MustCompile("" +
	`\*\*[^\s*][^\n]*?\*\*|` +
	`\]\([^)\s]*\)|\]\(\s*(?:https?://|mailto:|/|#)|` +
	`(?m:^ {0,3}#{1,6}[ \t]+\S)|` +
	"(?m:^ {0,3}(?:```|~~~))|" +
	"`[^`\\n]+`|" +
	`(?m:(?:^|[\s(])\*[^\s*](?:[^*\n]*[^\s*])?\*(?:$|[\s).,;:!?]))|` +
	`(?m:(?:^|[\s(])_[^\s_](?:[^_\n]*[^\s_])?_(?:$|[\s).,;:!?]))|` +
	`(?m:^[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+\S)|` +
	`(?m:^ {0,3}\[[^\]\n]+\]:\s*\S)`)

// looksMarkdown, which looks for each form only where its mark is, says
// what the one expression says, on hand-picked texts and on 200,000
// random ones made of Markdown's marks, blanks, digits and letters.
func TestLooksMarkdownAgreesWithOneExpression(t *testing.T) {
	texts := []string{
		"- item", "  * item", "+\titem", "-item", "- \n", "1. first", "123) x", "1234. no", "12.\tx", "a. b",
		"**bold**", "** no**", "[a](b)", "[a]( https://x)", "# Head", "#tag", "```go", "   ~~~", "`code`",
		"a *b* c", "a*b*c", "(_x_).", "[r]: http://x", "text\n  - item", "x\r- y", "-\f x", "1.\n2", "",
	}
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "*_[]()#`~-+.:!? \t\n\r\f0123456789abAB/"
	for range 200000 {
		var b strings.Builder
		for range r.IntN(24) {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		texts = append(texts, b.String())
	}
	for _, s := range texts {
		if got, want := looksMarkdown(s), oneMarkdownSyntax.MatchString(s); got != want {
			t.Fatalf("looksMarkdown(%q) = %v, the one expression says %v", s, got, want)
		}
	}
}

package ingest

import (
	"fmt"
	"html"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// cleanLine turns the invisible variants of a space into a plain space and
// trims the line: the track line of the schedule is indented with a
// non-breaking space, and copied lines carry trailing blanks.
func cleanLine(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\u00a0', r == '\u202f', r == '\u2007', r == '\u2009', r == '\u200a', r == '\t':
			return ' '
		case r == '\u200b', r == '\ufeff', r == '\u00ad':
			return -1 // zero-width space, BOM, soft hyphen
		}
		return r
	}, s)
	// Runs of blanks inside a line are copy artefacts ("Brownie  (Vegetarian)").
	return strings.Join(strings.Fields(s), " ")
}

// cleanText is the one cleaning step every structured reader applies to a
// talk's texts (abstract, description) before they become a Talk: entities
// decoded until stable (exporters escape HTML once, twice, or escape text
// that already held entities), HTML made text, Markdown made text where the
// text shows Markdown syntax, a wrapping pair of quotes dropped (`""` is
// empty). The result is in the Talk.Abstract form: paragraphs separated by
// a blank line, lines within one by "\n". cleanText(cleanText(s)) ==
// cleanText(s): a step is repeated until the text no longer changes, since
// one form can hide another (Markdown inside an HTML block, quotes around
// escaped HTML).
func cleanText(s string) string { return cleanTextIn(s, nil) }

// cleanTextIn is cleanText within a file's Markdown budget (nil: none).
func cleanTextIn(s string, md *markdownBudget) string {
	for i := 0; i < maxCleanRounds; i++ {
		next := cleanStep(s, md)
		if next == s {
			break
		}
		s = next
	}
	return s
}

// cleanField is cleanText for a one-line field: titles, tracks, rooms,
// speaker names.
func cleanField(s string) string {
	if s == "" {
		return ""
	}
	// A field without markup or entities needs only its blanks cleaned:
	// most titles and names, read once per talk.
	if !strings.ContainsAny(s, "&<*_[]`#\"\n\r") {
		return cleanLine(s)
	}
	for i := 0; i < maxCleanRounds; i++ {
		next := cleanLine(strings.ReplaceAll(cleanText(s), "\n", " "))
		if next == s {
			break
		}
		s = next
	}
	return s
}

// maxCleanRounds bounds the repetition of cleanStep; real texts are stable
// after two rounds (the second only confirms the first).
const maxCleanRounds = 4

// maxMarkdownBytes is the largest text given to the Markdown parser: real
// abstracts are a few kilobytes, and the parser's cost on crafted input
// (thousands of unclosed "[a](", lists nested hundreds deep) grows faster
// than its length. A longer text is read as plain text.
const maxMarkdownBytes = 16 << 10

// markdownSafe reports whether the Markdown parser may have s: at most
// maxMarkdownBytes, at most maxMarkdownBrackets opening brackets (each
// unclosed "[a](" makes the parser look ahead again) and block quotes and
// lists opened at most maxMarkdownNesting deep on one line ("> - 1. - x").
func markdownSafe(s string) bool {
	if len(s) > maxMarkdownBytes || strings.Count(s, "[") > maxMarkdownBrackets {
		return false
	}
	for _, l := range strings.Split(s, "\n") {
		if containerDepth(l) > maxMarkdownNesting {
			return false
		}
	}
	return true
}

// containerDepth counts the block quote and list markers that open a line.
func containerDepth(l string) int {
	depth := 0
	for i := 0; i < len(l); {
		switch c := l[i]; {
		case c == ' ' || c == '\t':
			i++
		case c == '>':
			depth++
			i++
		case (c == '-' || c == '*' || c == '+') && (i+1 == len(l) || l[i+1] == ' ' || l[i+1] == '\t'):
			depth++
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(l) && l[j] >= '0' && l[j] <= '9' {
				j++
			}
			if j == len(l) || (l[j] != '.' && l[j] != ')') || (j+1 < len(l) && l[j+1] != ' ' && l[j+1] != '\t') {
				return depth
			}
			depth++
			i = j + 1
		default:
			return depth
		}
	}
	return depth
}

// maxMarkdownPerFile bounds the Markdown parsed for one file: the
// parser's cost per byte on crafted text within the caps above is many
// times that of prose, and a file is up to --max-file-bytes. The largest
// real schedule has a fraction of this in Markdown.
const maxMarkdownPerFile = 4 << 20

// markdownBudget is what is left of a file's maxMarkdownPerFile; a text
// over it is read as plain text, and the file gets one warning.
type markdownBudget struct {
	left    int
	refused int // texts read as plain text for want of budget
}

func newMarkdownBudget() *markdownBudget { return &markdownBudget{left: maxMarkdownPerFile} }

// spend takes n bytes of Markdown from the budget, if it has them; a nil
// budget has any.
func (b *markdownBudget) spend(n int) bool {
	if b == nil {
		return true
	}
	if n > b.left {
		b.refused++
		return false
	}
	b.left -= n
	return true
}

// warnings is the file's warning if texts were read as plain text.
func (b *markdownBudget) warnings(file string) []Warning {
	if b == nil || b.refused == 0 {
		return nil
	}
	return []Warning{{File: file, Line: 1, Msg: fmt.Sprintf("more than %s of Markdown in the file: %d texts past it read as plain text", sizeText(maxMarkdownPerFile), b.refused)}}
}

const (
	maxMarkdownBrackets = 512
	maxMarkdownNesting  = 8
)

func cleanStep(s string, md *markdownBudget) string {
	s = decodeEntities(s)
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = unquote(strings.TrimSpace(s))
	if s == "" {
		return ""
	}
	switch {
	case markdownSafe(s) && looksMarkdown(dedent(s)) && md.spend(len(s)):
		s = renderMarkdown(escapeIntrawordStars(dedent(s)))
	case looksHTML(s):
		s = htmlText(s)
	default:
		s = textParagraphs(s)
	}
	return unquote(s)
}

// textParagraphs is plain text in the Talk.Abstract form: paragraphs at
// blank lines, blanks cleaned in each line, and a line break that cuts a
// sentence joined (see isHardWrap) where the line before it is long
// enough to have been wrapped; short lines are a list's, as the HTML and
// Markdown readers leave them.
func textParagraphs(s string) string {
	var ps []string
	for _, p := range strings.Split(s, "\n\n") {
		var b strings.Builder
		prev := ""
		for _, l := range strings.Split(p, "\n") {
			l = cleanLine(l)
			if l == "" {
				if b.Len() > 0 {
					ps = append(ps, b.String())
					b.Reset()
				}
				prev = ""
				continue
			}
			if b.Len() > 0 {
				if utf8.RuneCountInString(prev) >= minWrappedLine && isHardWrap(prev, l) {
					b.WriteByte(' ')
				} else {
					b.WriteByte('\n')
				}
			}
			b.WriteString(l)
			prev = l
		}
		if b.Len() > 0 {
			ps = append(ps, b.String())
		}
	}
	return joinParagraphs(ps)
}

// minWrappedLine is the shortest line taken to be cut by a hard wrap
// (writers wrap at 60 to 80 columns).
const minWrappedLine = 40

// maxEntityRounds bounds the decoding of entities: each round undoes one
// level of escaping, and runs of escaped ampersands ("&amp;amp;amp;") are
// collapsed first, so only crafted text comes near it.
const maxEntityRounds = 8

// ampRun is an ampersand escaped any number of times ("&amp;amp;",
// "&#38;#38;", the legacy "&amp" without its semicolon).
var ampRun = regexp.MustCompile(`(?i)&(?:amp;?|#0*38;?|#x0*26;?){2,}`)

// decodeEntities decodes HTML character references until the text no
// longer changes.
func decodeEntities(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	s = ampRun.ReplaceAllLiteralString(s, "&amp;")
	for i := 0; i < maxEntityRounds && strings.Contains(s, "&"); i++ {
		next := html.UnescapeString(s)
		if next == s {
			break
		}
		s = next
	}
	return s
}

// unquote drops a pair of double quotes that wraps the whole text (frab
// 0.8 quoted every text: "\"An abstract\"", and "\"\"" for none), but not
// the quotes of a text that starts and ends with two different quotations
// (`"Yes" and "no"`).
func unquote(s string) string {
	for len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		body := s[1 : len(s)-1]
		if i := strings.IndexByte(body, '"'); i >= 0 {
			// The first inner quote must open a quotation, and every one
			// must be closed.
			prev, _ := utf8.DecodeLastRuneInString(body[:i])
			if i > 0 && !unicode.IsSpace(prev) && !strings.ContainsRune("([{-–—/", prev) {
				return s
			}
			if strings.Count(body, `"`)%2 != 0 {
				return s
			}
		}
		s = strings.TrimSpace(body)
	}
	return s
}

// htmlElements are the HTML elements that producers write in abstracts;
// other text in angle brackets ("<1ms", "a<b then", "Vec<T>") is not
// markup.
var htmlElements = map[string]bool{}

func init() {
	for _, name := range strings.Fields(`a abbr b big blockquote br center cite code dd del div dl dt em font
		h1 h2 h3 h4 h5 h6 hr i img ins kbd li mark ol p pre q s samp section small span strike strong sub sup
		table tbody td th thead tr tt u ul var article header footer figure figcaption details summary iframe
		script style noscript textarea title xmp plaintext noembed noframes template`) {
		htmlElements[name] = true
	}
}

// looksHTML reports whether s holds a tag of htmlElements (<p>, </a>,
// <br/>, <a href="…">) or a comment.
func looksHTML(s string) bool {
	for i := strings.IndexByte(s, '<'); i >= 0; {
		if isTagAt(s[i:]) {
			return true
		}
		next := strings.IndexByte(s[i+1:], '<')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

// isTagAt reports whether s starts with a tag of htmlElements.
func isTagAt(s string) bool {
	if strings.HasPrefix(s, "<!--") {
		return true
	}
	j := 1
	if j < len(s) && s[j] == '/' {
		j++
	}
	k := j
	for k < len(s) && k-j < 12 && (s[k]|0x20 >= 'a' && s[k]|0x20 <= 'z' || k > j && s[k] >= '1' && s[k] <= '6') {
		k++
	}
	if k == j || !htmlElements[strings.ToLower(s[j:k])] || k == len(s) {
		return false
	}
	switch s[k] {
	case '>':
		return true
	case '/':
		return k+1 < len(s) && s[k+1] == '>'
	case ' ', '\t', '\n', '\r', '\f':
		// Attributes run to the '>', before any other '<', and one at
		// least has a value: "a<b then b>a" is a comparison.
		end := strings.IndexAny(s[k:], "<>")
		return end >= 0 && s[k+end] == '>' && strings.Contains(s[k:k+end], "=")
	}
	return false
}

// markdownSyntax is what makes a text Markdown rather than plain text that
// happens to hold a star or a bracket: strong emphasis, a link or an
// image, a heading, a fenced block, a code span, emphasis between blanks,
// a reference, and a list item (listItem). Each form is looked for only in
// a text holding its mark: one expression of them all is tried at every
// position of every text, the better part of reading an archive.
var markdownSyntax = []struct {
	mark string
	re   *regexp.Regexp
}{
	{"**", regexp.MustCompile(`\*\*[^\s*][^\n]*?\*\*`)},                                        // **strong**
	{"](", regexp.MustCompile(`\]\([^)\s]*\)|\]\(\s*(?:https?://|mailto:|/|#)`)},               // [text](url)
	{"#", regexp.MustCompile(`(?m:^ {0,3}#{1,6}[ \t]+\S)`)},                                    // # heading
	{"```", regexp.MustCompile("(?m:^ {0,3}```)")},                                             // fenced code
	{"~~~", regexp.MustCompile("(?m:^ {0,3}~~~)")},                                             // fenced code
	{"`", regexp.MustCompile("`[^`\\n]+`")},                                                    // `code`
	{"*", regexp.MustCompile(`(?m:(?:^|[\s(])\*[^\s*](?:[^*\n]*[^\s*])?\*(?:$|[\s).,;:!?]))`)}, // *emphasis*
	{"_", regexp.MustCompile(`(?m:(?:^|[\s(])_[^\s_](?:[^_\n]*[^\s_])?_(?:$|[\s).,;:!?]))`)},   // _emphasis_
	{"]:", regexp.MustCompile(`(?m:^ {0,3}\[[^\]\n]+\]:\s*\S)`)},                               // [ref]: url
}

func looksMarkdown(s string) bool {
	for _, m := range markdownSyntax {
		if strings.Contains(s, m.mark) && m.re.MatchString(s) {
			return true
		}
	}
	return hasListItem(s)
}

// hasListItem says whether a line of s is a list item: after blanks, a
// "-", "*" or "+", or one to three digits and a "." or ")", then blanks
// and text ("- item", "1. item").
func hasListItem(s string) bool {
	for line := range strings.Lines(s) {
		l := strings.TrimLeft(line, " \t")
		n := 0
		switch {
		case l == "":
			continue
		case l[0] == '-' || l[0] == '*' || l[0] == '+':
			n = 1
		default:
			for n < len(l) && n < 4 && l[n] >= '0' && l[n] <= '9' {
				n++
			}
			if n == 0 || n > 3 || n >= len(l) || (l[n] != '.' && l[n] != ')') {
				continue
			}
			n++
		}
		rest := l[n:]
		text := strings.TrimLeft(rest, " \t")
		if len(text) < len(rest) && text != "" && !unicode.IsSpace(rune(text[0])) {
			return true
		}
	}
	return false
}

// dedent removes the indentation that every line after the first shares:
// text pretty-printed into an XML element ("<description>First\n
// Second") would otherwise be a Markdown code block from its second
// paragraph on.
func dedent(s string) string {
	first, rest, ok := strings.Cut(s, "\n")
	if !ok {
		return s
	}
	lines := strings.Split(rest, "\n")
	min := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if min < 0 || n < min {
			min = n
		}
	}
	if min <= 0 {
		return s
	}
	for i, l := range lines {
		if len(l) >= min {
			lines[i] = l[min:]
		} else {
			lines[i] = strings.TrimLeft(l, " \t")
		}
	}
	return first + "\n" + strings.Join(lines, "\n")
}

// escapeIntrawordStars escapes a star between two letters or digits
// ("Teilnehmer*innen", "2*3*4"), which CommonMark would read as emphasis
// but writers mean literally.
func escapeIntrawordStars(s string) string {
	if !strings.Contains(s, "*") {
		return s
	}
	var b strings.Builder
	prev := rune(-1)
	for i, r := range s {
		if r == '*' && (unicode.IsLetter(prev) || unicode.IsDigit(prev)) {
			next, _ := utf8.DecodeRuneInString(s[i+1:])
			if unicode.IsLetter(next) || unicode.IsDigit(next) {
				b.WriteByte('\\')
			}
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

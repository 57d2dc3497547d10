package ingest

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Paragraph is one blank-line separated paragraph of a seed file.
type Paragraph struct {
	File string
	Line int    // 1-based line of the paragraph's first line
	Text string // lines joined as described at joinWrapped
}

// AbstractDump is what ParseAbstracts found in a bare abstract dump.
type AbstractDump struct {
	Header     string      // the conference name on the first line, if any
	Paragraphs []Paragraph // every abstract paragraph, in file order
	Warnings   []Warning
}

// ParseAbstracts reads a bare abstract dump: an optional one-line header
// (the conference name), then abstract paragraphs separated by blank lines.
// It does not decide which paragraphs form a talk: that needs the other
// seed files and is done by Load (see doc.go).
func ParseAbstracts(file string, data []byte) *AbstractDump {
	d := &AbstractDump{}
	lines := splitLines(data)
	paras := paragraphs(lines)
	if len(paras) > 0 && isHeader(paras[0].text) {
		d.Header = paras[0].text
		paras = paras[1:]
	}
	for _, p := range paras {
		d.Paragraphs = append(d.Paragraphs, Paragraph{File: file, Line: p.line + 1, Text: p.text})
	}
	if len(d.Paragraphs) == 0 {
		d.Warnings = append(d.Warnings, Warning{File: file, Msg: "no abstract paragraphs"})
	}
	return d
}

// isHeader reports whether a first paragraph is a title line such as
// "PyTorch Conference Europe 2026" rather than abstract text: one short line
// that is not a sentence.
func isHeader(p string) bool {
	if strings.Contains(p, "\n") || len(strings.Fields(p)) > 8 {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(p)
	return !strings.ContainsRune(".!?:;,", r)
}

// para is a paragraph with the 0-based index of its first line.
type para struct {
	text string
	line int
}

// paragraphs groups cleaned lines into blank-line separated paragraphs.
func paragraphs(lines []string) []para {
	var out []para
	var cur []string
	start := 0
	flush := func() {
		if len(cur) > 0 {
			out = append(out, para{text: joinWrapped(cur), line: start})
			cur = nil
		}
	}
	for i, l := range lines {
		if l == "" {
			flush()
			continue
		}
		if len(cur) == 0 {
			start = i
		}
		cur = append(cur, l)
	}
	flush()
	return out
}

// joinWrapped joins the lines of one paragraph. A line break that cuts a
// sentence (the line does not end a sentence or a list label and the next
// line starts in lower case) is a hard wrap and becomes a space; any other
// line break (list items, "Key takeaways" lines, a menu) is kept as "\n".
func joinWrapped(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			if isHardWrap(lines[i-1], l) {
				b.WriteByte(' ')
			} else {
				b.WriteByte('\n')
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

func isHardWrap(prev, next string) bool {
	last, _ := utf8.DecodeLastRuneInString(prev)
	first, _ := utf8.DecodeRuneInString(next)
	return !strings.ContainsRune(".!?:;", last) && unicode.IsLower(first)
}

// joinParagraphs is the index.Talk.Abstract form of paragraphs.
func joinParagraphs(ps []string) string {
	return strings.Join(ps, "\n\n")
}

// splitParagraphs is the inverse of joinParagraphs.
func splitParagraphs(abstract string) []string {
	if abstract == "" {
		return nil
	}
	return strings.Split(abstract, "\n\n")
}

// derivedTitleWords bounds the title made for an abstract-only talk.
const derivedTitleWords = 12

// DerivedTitle makes a readable title for a talk known only from an
// abstract dump: the first sentence of its abstract, cut after a dozen
// words. It is the talk's own text, never a made-up schedule title.
func DerivedTitle(abstract string) string {
	first, _, _ := strings.Cut(abstract, "\n")
	sentence := first
	for i, r := range first {
		// A sentence ends at ". " (or "? ", "! "), not at "torch.compile".
		if strings.ContainsRune(".?!", r) && i+1 < len(first) && first[i+1] == ' ' && i > 0 {
			sentence = first[:i]
			break
		}
	}
	sentence = strings.TrimRight(sentence, ".?!:; ")
	words := strings.Fields(sentence)
	if len(words) <= derivedTitleWords {
		return strings.Join(words, " ")
	}
	cut := strings.TrimRight(strings.Join(words[:derivedTitleWords], " "), ",;:-–—")
	return cut + "…"
}

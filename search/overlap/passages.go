package overlap

import (
	"html"
	"strings"
)

// sentences splits text at line breaks and at . ! ? followed by a space.
// It is plain on purpose: "e.g. this" becomes two sentences, which costs a
// passage a few words of context and nothing else.
func sentences(text string) []span {
	var out []span
	start := 0
	flush := func(end int) {
		s := text[start:end]
		trimmed := strings.TrimSpace(s)
		if trimmed != "" {
			lead := strings.Index(s, trimmed)
			out = append(out, span{start + lead, start + lead + len(trimmed)})
		}
	}
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '\n':
			flush(i)
			start = i + 1
		case (c == '.' || c == '!' || c == '?') && i+1 < len(text) && (text[i+1] == ' ' || text[i+1] == '\t'):
			flush(i + 1)
			start = i + 1
		}
	}
	flush(len(text))
	return out
}

// mark escapes s and wraps each run of words carrying a marked term in one
// <mark>. Everything from the text is escaped; only the tags are ours.
func (a *textAnalyzer) mark(s string, marked map[string]bool) string {
	toks := tokenize(s)
	hit := make([]bool, len(toks))
	for _, o := range a.occurrences(s, toks) {
		if marked[o.term] {
			for k := o.first; k <= o.last; k++ {
				hit[k] = true
			}
		}
	}
	var b strings.Builder
	last := 0
	for k := 0; k < len(toks); k++ {
		if !hit[k] {
			continue
		}
		end := k
		for end+1 < len(toks) && hit[end+1] && onlySpace(s[toks[end].end:toks[end+1].start]) {
			end++
		}
		b.WriteString(html.EscapeString(s[last:toks[k].start]))
		b.WriteString("<mark>")
		b.WriteString(html.EscapeString(s[toks[k].start:toks[end].end]))
		b.WriteString("</mark>")
		last = toks[end].end
		k = end
	}
	b.WriteString(html.EscapeString(s[last:]))
	return b.String()
}

func onlySpace(s string) bool { return strings.TrimSpace(s) == "" }

func lessForm(a, b string) bool {
	la, lb := a == strings.ToLower(a), b == strings.ToLower(b)
	if la != lb {
		return la
	}
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

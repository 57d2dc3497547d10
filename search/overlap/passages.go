package overlap

import (
	"cmp"
	"html"
	"slices"
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

// mark escapes s and wraps each run of words carrying a marked term (occs
// are the terms of s) in one <mark>: words apart only by spaces are one
// run. Everything from the text is escaped; only the tags are ours.
func mark(s string, occs []occurrence, marked map[string]bool) string {
	var hits []span
	for _, o := range occs {
		if marked[o.term] {
			hits = append(hits, span{o.start, o.end})
		}
	}
	slices.SortFunc(hits, func(x, y span) int { return cmp.Compare(x.start, y.start) })
	joins := func(end int, next span) bool { return next.start <= end || onlySpace(s[end:next.start]) }
	var b strings.Builder
	last := 0
	for k := 0; k < len(hits); k++ {
		start, end := hits[k].start, hits[k].end
		for k+1 < len(hits) && joins(end, hits[k+1]) {
			k++
			end = max(end, hits[k].end)
		}
		if start < last {
			start = last
		}
		b.WriteString(html.EscapeString(s[last:start]))
		b.WriteString("<mark>")
		b.WriteString(html.EscapeString(s[start:end]))
		b.WriteString("</mark>")
		last = end
	}
	b.WriteString(html.EscapeString(s[last:]))
	return b.String()
}

// span is a byte range of a text.
type span struct{ start, end int }

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

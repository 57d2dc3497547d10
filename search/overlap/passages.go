package overlap

import (
	"html"
	"sort"
	"strings"
)

// maxPassages is how many sentences of each abstract a pair shows.
const maxPassages = 3

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

// passages returns up to maxPassages sentences of text that carry the terms
// of marked (term -> weight), the best carriers chosen and shown in text
// order, HTML-escaped with the words of those terms in <mark>.
func (a *textAnalyzer) passages(text string, marked map[string]float64) []string {
	type cand struct {
		sentence string
		weight   float64
		order    int
	}
	var cands []cand
	for k, sp := range sentences(text) {
		s := text[sp.start:sp.end]
		var w float64
		seen := map[string]bool{}
		for _, o := range a.occurrences(s, tokenize(s)) {
			if mw, ok := marked[o.term]; ok && !seen[o.term] {
				seen[o.term] = true
				w += mw
			}
		}
		if w > 0 {
			cands = append(cands, cand{s, w, k})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].weight > cands[j].weight })
	cands = cands[:min(len(cands), maxPassages)]
	sort.Slice(cands, func(i, j int) bool { return cands[i].order < cands[j].order })
	out := make([]string, 0, len(cands))
	for _, c := range cands {
		out = append(out, a.mark(c.sentence, marked))
	}
	return out
}

// mark escapes s and wraps each run of words carrying a marked term in one
// <mark>. Everything from the text is escaped; only the tags are ours.
func (a *textAnalyzer) mark(s string, marked map[string]float64) string {
	toks := tokenize(s)
	hit := make([]bool, len(toks))
	for _, o := range a.occurrences(s, toks) {
		if _, ok := marked[o.term]; ok {
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

// surfaces maps each term of the texts to the words written most often for
// it, so "monarch" is shown as "Monarch", "cudagraph" as "CUDA Graphs".
func (a *textAnalyzer) surfaces(texts ...string) map[string]string {
	forms := map[string]map[string]int{}
	for _, text := range texts {
		toks := tokenize(text)
		for _, o := range a.occurrences(text, toks) {
			word := text[toks[o.first].start:toks[o.last].end]
			word = strings.TrimSuffix(strings.TrimSuffix(word, "'s"), "’s")
			if forms[o.term] == nil {
				forms[o.term] = map[string]int{}
			}
			forms[o.term][word]++
		}
	}
	out := make(map[string]string, len(forms))
	for t, fs := range forms {
		best, n := "", 0
		for f, c := range fs {
			// Ties go to the lower-case, then the shorter, then the
			// alphabetically first form, so output is stable.
			if c > n || (c == n && lessForm(f, best)) {
				best, n = f, c
			}
		}
		out[t] = best
	}
	return out
}

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

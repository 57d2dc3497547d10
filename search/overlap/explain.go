package overlap

import (
	"slices"
	"sort"
	"strings"

	"github.com/talksearch/talksearch/index"
)

// maxPassages is how many sentences of each abstract a pair shows.
const maxPassages = 3

// talkText is what explaining a talk's pairs needs, worked out once per
// talk: a corpus of 10k submissions has far more pairs than talks.
type talkText struct {
	occs  []formOcc  // the terms of title and abstract, as written
	sents []sentence // the sentences of the passage text
}

// formOcc is one term occurrence and the words that carry it.
type formOcc struct {
	id   int32
	form string
}

// sentence is one sentence and its distinct terms.
type sentence struct {
	text string
	ids  []int32
}

func (d *detector) text(k int) *talkText {
	if d.texts[k] != nil {
		return d.texts[k]
	}
	t := d.talks[k]
	tt := &talkText{}
	for _, text := range []string{t.Title, t.Abstract} {
		toks := tokenize(text)
		for _, o := range d.an.occurrences(text, toks) {
			form := text[toks[o.first].start:toks[o.last].end]
			form = strings.TrimSuffix(strings.TrimSuffix(form, "'s"), "’s")
			tt.occs = append(tt.occs, formOcc{d.voc.ids[o.term], form})
		}
	}
	pt := passageText(t)
	for _, sp := range sentences(pt) {
		s := sentence{text: pt[sp.start:sp.end]}
		for _, o := range d.an.occurrences(s.text, tokenize(s.text)) {
			if id, ok := d.voc.ids[o.term]; ok && !slices.Contains(s.ids, id) {
				s.ids = append(s.ids, id)
			}
		}
		tt.sents = append(tt.sents, s)
	}
	d.texts[k] = tt
	return tt
}

// passageText is the abstract, or the title of a talk that has none.
func passageText(t index.Talk) string {
	if strings.TrimSpace(t.Abstract) != "" {
		return t.Abstract
	}
	return t.Title
}

// explain fills in the pair's distinctive shared terms, shown as the talks
// write them.
func (d *detector) explain(p *pairInfo) {
	var sh []sharedTerm
	for _, st := range shared(d.vecs[p.i], d.vecs[p.j]) {
		if st.weight < minShareOfScore*p.cos {
			break
		}
		sh = append(sh, st)
	}
	forms := d.forms(sh, p.i, p.j)
	cands := make([]termShare, 0, len(sh))
	for _, st := range sh {
		term := d.voc.terms[st.id]
		surface := forms[st.id]
		if surface == "" {
			surface = term
		}
		cands = append(cands, termShare{term, surface, st.weight})
	}
	// A phrase and its own words ("KV cache", "KV", "cache") are one
	// reason: keep the phrase, at the place of its heaviest part.
	for _, c := range cands {
		if len(p.shared) == maxShared {
			break
		}
		if phrase := widerSurface(c.surface, cands); phrase >= 0 {
			c = cands[phrase]
		}
		if !containsSurface(p.shared, c.surface) {
			p.shared = append(p.shared, c)
		}
	}
}

// forms returns, for each shared term, the words the two talks write most
// often for it: "Monarch" rather than "monarch", "CUDA Graphs" rather than
// "cudagraph". Ties go to the lower-case, then the shorter, then the
// alphabetically first form, so output is stable.
func (d *detector) forms(sh []sharedTerm, talks ...int) map[int32]string {
	want := make(map[int32]map[string]int, len(sh))
	for _, st := range sh {
		want[st.id] = map[string]int{}
	}
	for _, k := range talks {
		for _, o := range d.text(k).occs {
			if counts, ok := want[o.id]; ok {
				counts[o.form]++
			}
		}
	}
	out := make(map[int32]string, len(want))
	for id, counts := range want {
		best, n := "", 0
		for f, c := range counts {
			if c > n || (c == n && lessForm(f, best)) {
				best, n = f, c
			}
		}
		out[id] = best
	}
	return out
}

// widerSurface returns the index of a candidate whose surface contains all
// the words of s and more, or -1.
func widerSurface(s string, cands []termShare) int {
	words := strings.Fields(strings.ToLower(strings.ReplaceAll(s, "-", " ")))
	for k, c := range cands {
		cw := strings.Fields(strings.ToLower(strings.ReplaceAll(c.surface, "-", " ")))
		if len(cw) <= len(words) {
			continue
		}
		all := true
		for _, w := range words {
			if !slices.Contains(cw, w) {
				all = false
				break
			}
		}
		if all {
			return k
		}
	}
	return -1
}

func containsSurface(ts []termShare, s string) bool {
	for _, t := range ts {
		if strings.EqualFold(t.surface, s) {
			return true
		}
	}
	return false
}

// passages returns up to maxPassages sentences of talk k that carry the
// marked terms, the best carriers chosen and shown in text order,
// HTML-escaped with the words of those terms in <mark>.
func (d *detector) passages(k int, weight map[int32]float64, marked map[string]bool) []string {
	type cand struct {
		text   string
		weight float64
		order  int
	}
	var cands []cand
	for n, s := range d.text(k).sents {
		var w float64
		for _, id := range s.ids {
			w += weight[id]
		}
		if w > 0 {
			cands = append(cands, cand{s.text, w, n})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].weight > cands[j].weight })
	cands = cands[:min(len(cands), maxPassages)]
	sort.Slice(cands, func(i, j int) bool { return cands[i].order < cands[j].order })
	out := make([]string, 0, len(cands))
	for _, c := range cands {
		out = append(out, d.an.mark(c.text, marked))
	}
	return out
}

func (d *detector) reportPair(p pairInfo) Pair {
	a, b := d.talks[p.i], d.talks[p.j]
	weight := make(map[int32]float64, len(p.shared))
	marked := make(map[string]bool, len(p.shared))
	terms := make([]string, 0, len(p.shared))
	for _, st := range p.shared {
		weight[d.voc.ids[st.term]] = st.weight
		marked[st.term] = true
		terms = append(terms, st.surface)
	}
	jac, _ := resemblance(d.shingles(p.i), d.shingles(p.j))
	if p.kind == KindDuplicate {
		jac = 1
	}
	out := Pair{
		A: a.ID, B: b.ID, TitleA: a.Title, TitleB: b.Title,
		Score: round(p.score), Kind: p.kind, Resemblance: round(jac),
		SharedTerms: terms,
		Passages:    Passages{A: d.passages(p.i, weight, marked), B: d.passages(p.j, weight, marked)},
	}
	d.decorate(&out, p)
	return out
}

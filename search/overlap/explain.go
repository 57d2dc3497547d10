package overlap

import (
	"slices"
	"sort"
	"strings"

	"github.com/talksearch/talksearch/search/termvec"
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

// sentence is one sentence, its distinct terms, and their occurrences
// (offsets within the sentence) for marking them.
type sentence struct {
	text string
	ids  []int32
	occs []occurrence
}

// text analyses title and abstract once, for the forms of their terms and
// the terms of each sentence of the passage text.
func (d *detector) text(k int) *talkText {
	if d.texts[k] != nil {
		return d.texts[k]
	}
	t := d.talks[k]
	tt := &talkText{}
	titleOccs, abstractOccs := d.an.occurrences(t.Title), d.an.occurrences(t.Abstract)
	for _, o := range titleOccs {
		id, _ := d.voc.Lookup(o.term)
		tt.occs = append(tt.occs, formOcc{id, o.form(t.Title)})
	}
	for _, o := range abstractOccs {
		id, _ := d.voc.Lookup(o.term)
		tt.occs = append(tt.occs, formOcc{id, o.form(t.Abstract)})
	}
	pt, occs := t.Abstract, abstractOccs
	if strings.TrimSpace(t.Abstract) == "" {
		pt, occs = t.Title, titleOccs
	}
	for _, sp := range sentences(pt) {
		s := sentence{text: pt[sp.start:sp.end]}
		for _, o := range occs {
			if o.start < sp.start || o.end > sp.end {
				continue // another sentence's, or a phrase across two
			}
			s.occs = append(s.occs, occurrence{o.start - sp.start, o.end - sp.start, o.term})
			if id, ok := d.voc.Lookup(o.term); ok && !slices.Contains(s.ids, id) {
				s.ids = append(s.ids, id)
			}
		}
		tt.sents = append(tt.sents, s)
	}
	d.texts[k] = tt
	return tt
}

// explain fills in the pair's distinctive shared terms, shown as the talks
// write them.
func (d *detector) explain(p *pairInfo) {
	var sh []termvec.Share
	for _, st := range termvec.Shared(d.vecs[p.i], d.vecs[p.j]) {
		if st.Weight < minShareOfScore*p.cos {
			break
		}
		sh = append(sh, st)
	}
	forms := d.forms(sh, p.i, p.j)
	cands := make([]termShare, 0, len(sh))
	for _, st := range sh {
		term := d.voc.Term(st.ID)
		surface := forms[st.ID]
		if surface == "" {
			surface = term
		}
		cands = append(cands, termShare{term, surface, st.Weight})
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
func (d *detector) forms(sh []termvec.Share, talks ...int) map[int32]string {
	want := make(map[int32]map[string]int, len(sh))
	for _, st := range sh {
		want[st.ID] = map[string]int{}
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
	words := surfaceWords(s)
	for k, c := range cands {
		cw := surfaceWords(c.surface)
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

// surfaceWords are the lower-case words of a shown term: "torch.compile"
// and "KV-cache" are two words each.
func surfaceWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == ' ' || r == '-' || r == '.' })
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
		s      sentence
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
			cands = append(cands, cand{s, w, n})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].weight > cands[j].weight })
	cands = cands[:min(len(cands), maxPassages)]
	sort.Slice(cands, func(i, j int) bool { return cands[i].order < cands[j].order })
	out := make([]string, 0, len(cands))
	for _, c := range cands {
		out = append(out, mark(c.s.text, c.s.occs, marked))
	}
	return out
}

func (d *detector) reportPair(p pairInfo) Pair {
	a, b := d.talks[p.i], d.talks[p.j]
	weight := make(map[int32]float64, len(p.shared))
	marked := make(map[string]bool, len(p.shared))
	terms := make([]string, 0, len(p.shared))
	for _, st := range p.shared {
		id, _ := d.voc.Lookup(st.term)
		weight[id] = st.weight
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

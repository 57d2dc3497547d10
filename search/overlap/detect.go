package overlap

import (
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/talksearch/talksearch/index"
)

// Explanations: at most maxShared terms per pair, and none that carries
// less than minShareOfScore of the pair's score (a word the two talks
// happen to share is not a reason they overlap).
const (
	maxShared       = 8
	minShareOfScore = 0.02
	// reasonShare is the part of a pair's cosine a term must carry to count
	// as one of the pair's reasons.
	reasonShare = 0.1
)

// A topical pair that rests on one word (a project name shared by two
// short sessions) is a coincidence of naming more than an overlap of
// content: its score is halved. Likewise a talk with fewer than minTerms
// distinct terms (a title without an abstract) says too little to overlap
// with anything for sure; its pairs are scaled by how much it does say.
const (
	oneWordPenalty = 0.5
	minTerms       = 8
)

// termShare is one shared term and its part of a pair's cosine.
type termShare struct {
	term, surface string
	weight        float64
}

// pairInfo is a pair while it is being scored and explained; i<j index the
// detector's talks.
type pairInfo struct {
	i, j     int
	cos, jac float64
	exact    bool
	score    float64
	kind     string
	shared   []termShare
}

// detector holds one run's analysed talks.
type detector struct {
	talks []index.Talk // breaks left out
	an    *textAnalyzer
	voc   *vocab
	vecs  []vector
	shs   [][]uint64
}

// Detect finds the overlapping pairs, clusters and clashes among talks.
// Breaks are never paired. Pairs are scored 0..1: 1 for the same text,
// the larger of word-shingle resemblance and term cosine for an edited
// copy, the cosine of tf-idf weighted analyzer terms (title counted twice)
// for talks on the same topic.
func Detect(talks []index.Talk, opts Options) *Report {
	minScore := opts.Min
	if minScore <= 0 {
		minScore = DefaultMin
	}
	clashMin := opts.ClashMin
	if clashMin <= 0 {
		clashMin = DefaultClashMin
	}
	d := newDetector(talks)
	all := d.pairs(math.Min(minScore, clashMin))

	rep := &Report{Pairs: []Pair{}, Clusters: []Cluster{}, Clashes: []Clash{}, Merged: merged(d.talks)}
	var reported []pairInfo
	for _, p := range all {
		if p.score < minScore {
			break
		}
		d.explain(&p)
		reported = append(reported, p)
		rep.Pairs = append(rep.Pairs, d.reportPair(p))
	}
	rep.Clusters = d.buildClusters(reported, all, minScore)
	rep.Clashes = d.buildClashes(all, clashMin)
	return rep
}

func newDetector(talks []index.Talk) *detector {
	d := &detector{an: newTextAnalyzer(), voc: newVocab()}
	for _, t := range talks {
		if t.Kind != index.KindBreak {
			d.talks = append(d.talks, t)
		}
	}
	cs := make([]counts, len(d.talks))
	d.shs = make([][]uint64, len(d.talks))
	for k, t := range d.talks {
		cs[k] = d.an.count(d.voc, t.Title, t.Abstract)
		d.shs[k] = shingles(t.Title + "\n" + t.Abstract)
	}
	d.vecs = make([]vector, len(d.talks))
	for k, c := range cs {
		d.vecs[k] = weigh(c, d.voc, len(d.talks))
	}
	return d
}

// pairs returns every pair scoring at least t, best first, from three
// candidate sources: identical texts, MinHash near-duplicates and the
// topical inverted-index search.
func (d *detector) pairs(t float64) []pairInfo {
	cands := map[[2]int]*pairInfo{}
	get := func(i, j int) *pairInfo {
		k := [2]int{i, j}
		if cands[k] == nil {
			cands[k] = &pairInfo{i: i, j: j, cos: -1, jac: -1}
		}
		return cands[k]
	}
	same := map[string][]int{}
	for k, talk := range d.talks {
		if key := textKey(talk); key != "" {
			same[key] = append(same[key], k)
		}
	}
	for _, ks := range same {
		for x := range ks {
			for y := x + 1; y < len(ks); y++ {
				get(ks[x], ks[y]).exact = true
			}
		}
	}
	for _, c := range nearDupCandidates(d.shs) {
		get(c[0], c[1])
	}
	for _, s := range topicalPairs(d.vecs, d.voc.df, t) {
		get(s.i, s.j).cos = s.score
	}

	var out []pairInfo
	for _, p := range cands {
		if p.cos < 0 {
			p.cos = dot(d.vecs[p.i], d.vecs[p.j])
		}
		jac, contain := resemblance(d.shs[p.i], d.shs[p.j])
		p.jac = jac
		switch {
		case p.exact:
			p.kind, p.score = KindDuplicate, 1
		case (jac >= nearDupMin || contain >= nearDupContainment) && p.cos >= nearDupCos:
			p.kind, p.score = KindNearDuplicate, math.Max(p.cos, jac)
		default:
			p.kind, p.score = KindTopical, p.cos
			if reasons(shared(d.vecs[p.i], d.vecs[p.j]), p.cos) < 2 {
				p.score *= oneWordPenalty
			}
			if n := min(len(d.vecs[p.i].ids), len(d.vecs[p.j].ids)); n < minTerms {
				p.score *= float64(n) / minTerms
			}
		}
		if p.score >= t {
			out = append(out, *p)
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].score != out[b].score {
			return out[a].score > out[b].score
		}
		if out[a].i != out[b].i {
			return out[a].i < out[b].i
		}
		return out[a].j < out[b].j
	})
	return out
}

// textKey is a talk's words, lower-cased, without punctuation: two talks
// with the same key are the same submission. Talks with no abstract have no
// key, since a shared title alone (a repeated session) is not a duplicate.
func textKey(t index.Talk) string {
	if strings.TrimSpace(t.Abstract) == "" {
		return ""
	}
	words := strings.FieldsFunc(strings.ToLower(t.Title+" "+t.Abstract), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	return strings.Join(words, " ")
}

// reasons counts the shared terms that carry a real part of the cosine.
func reasons(sh []sharedTerm, cos float64) int {
	n := 0
	for _, st := range sh {
		if st.weight < reasonShare*cos {
			break
		}
		n++
	}
	return n
}

// explain fills in the pair's distinctive shared terms.
func (d *detector) explain(p *pairInfo) {
	a, b := d.talks[p.i], d.talks[p.j]
	forms := d.an.surfaces(a.Title, a.Abstract, b.Title, b.Abstract)
	var cands []termShare
	for _, st := range shared(d.vecs[p.i], d.vecs[p.j]) {
		if st.weight < minShareOfScore*p.cos {
			break
		}
		term := d.voc.terms[st.id]
		surface := forms[term]
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

func (d *detector) reportPair(p pairInfo) Pair {
	a, b := d.talks[p.i], d.talks[p.j]
	marked := map[string]float64{}
	terms := make([]string, 0, len(p.shared))
	for _, st := range p.shared {
		marked[st.term] = st.weight
		terms = append(terms, st.surface)
	}
	return Pair{
		A: a.ID, B: b.ID, TitleA: a.Title, TitleB: b.Title,
		Score: round(p.score), Kind: p.kind, Resemblance: round(p.jac),
		SharedTerms: terms,
		Passages: Passages{
			A: d.an.passages(passageText(a), marked),
			B: d.an.passages(passageText(b), marked),
		},
	}
}

// passageText is the abstract, or the title of a talk that has none.
func passageText(t index.Talk) string {
	if strings.TrimSpace(t.Abstract) != "" {
		return t.Abstract
	}
	return t.Title
}

// merged lists the talks ingestion found in several dumps.
func merged(talks []index.Talk) []Merged {
	out := []Merged{}
	for _, t := range talks {
		if len(t.Sources) > 1 {
			out = append(out, Merged{ID: t.ID, Title: t.Title, Sources: t.Sources})
		}
	}
	return out
}

// round keeps scores readable and the JSON stable across platforms.
func round(x float64) float64 { return math.Round(x*1000) / 1000 }

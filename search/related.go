package search

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/analysis"
)

// Related talks are found in two steps. Bleve has no "more like this", so
// as Elasticsearch's more_like_this does, the talk's own distinctive terms
// (frequent in the talk, rare in the corpus) are searched as a weighted
// disjunction to find candidates. The candidates are then ranked by the
// cosine of their term vectors with the talk's: Bleve's disjunction scales
// a score by the share of terms matched, which favours talks sharing many
// ordinary terms over a talk sharing the one name that matters (the talk
// built on Monarch actors shares "Monarch", and little else, with the
// Monarch talks).
const (
	// relatedTerms is how many distinctive terms of a talk make up its
	// candidate query: enough to describe it, few enough to stay on topic.
	relatedTerms = 25
	// relatedCandidates is how many candidates are ranked by cosine.
	relatedCandidates = 50
	// titleTermBoost multiplies the weight of a term of a scheduled talk's
	// title: a title says what the talk is about. (An unscheduled talk's
	// title is its abstract's first words, nothing more.)
	titleTermBoost = 2
	// nameTermBoost multiplies the weight of a name (Monarch, ROCm,
	// vLLM, FlexAttention): talks about the same product are related
	// more surely than talks sharing common words.
	nameTermBoost = 2
	// sharedTermsShown is how many shared terms explain a related talk.
	sharedTermsShown = 6
)

// relatedFiller are the words that say nothing about what a talk is about:
// function words, and words present in most talks of a machine-learning
// conference (idf discounts those too, but on ~100 talks not enough).
var relatedFiller = append(analysis.FunctionWords(), analysis.GenericTerms()...)

// termStats are corpus-wide document frequencies of index terms in titles
// and abstracts, read from the index's own term dictionaries.
type termStats struct {
	n      int
	df     map[string]uint64
	filler map[string]bool
	// terms analyse talk text with a stem cache of this snapshot's, and
	// words keep the terms of single words (wordTerms): related talks look
	// at every word of every talk on their own (names, display forms),
	// and a corpus repeats a few thousand words.
	terms *analysis.Terms
	words *boundedCache[[]string]
}

// wordCacheSize bounds termStats.words: the vocabulary of a conference.
const wordCacheSize = 50_000

func newTermStats(n int, df map[string]uint64, terms *analysis.Terms) *termStats {
	ts := &termStats{n: n, df: df, filler: map[string]bool{}, terms: terms, words: newBoundedCache[[]string](wordCacheSize)}
	// One word at a time: the analyzer treats a word differently alone
	// and in a run of stop words.
	for _, w := range relatedFiller {
		for _, t := range ts.terms.Analyze(w) {
			ts.filler[t] = true
		}
	}
	return ts
}

// weightedTerm is a term with its weight in one talk.
type weightedTerm struct {
	term   string
	weight float64
}

// termVector is a talk's tf-idf vector, of unit length.
type termVector struct {
	weights map[string]float64
	// top are the heaviest terms, best first: the talk's distinctive terms.
	top []weightedTerm
}

// vector returns the talk's term vector: (1 + log tf) × idf per term, times
// titleTermBoost for title terms and nameTermBoost for names. Terms no
// other talk has cannot relate it to anything and are left out, as are
// filler and numbers.
func (ts *termStats) vector(t *index.Talk) *termVector {
	tf := map[string]int{}
	inTitle := map[string]bool{}
	for _, term := range ts.terms.Analyze(t.Title) {
		tf[term]++
		inTitle[term] = t.Scheduled
	}
	for _, term := range ts.terms.Analyze(t.Abstract) {
		tf[term]++
	}
	names := ts.nameTerms(t.Title + ". " + t.Abstract)
	v := &termVector{weights: make(map[string]float64, len(tf))}
	norm := 0.0
	for term, n := range tf {
		df := ts.df[term]
		if df < 2 || ts.filler[term] || len(term) < 2 || analysis.IsNumber(term) {
			continue
		}
		idf := math.Log(float64(ts.n) / float64(df))
		if idf <= 0 {
			continue
		}
		w := (1 + math.Log(float64(n))) * idf
		if inTitle[term] {
			w *= titleTermBoost
		}
		if names[term] {
			w *= nameTermBoost
		}
		v.weights[term] = w
		norm += w * w
	}
	norm = math.Sqrt(norm)
	for term, w := range v.weights {
		w /= norm
		v.weights[term] = w
		v.top = append(v.top, weightedTerm{term, w})
	}
	sort.Slice(v.top, func(i, j int) bool {
		if v.top[i].weight != v.top[j].weight {
			return v.top[i].weight > v.top[j].weight
		}
		return v.top[i].term < v.top[j].term
	})
	if len(v.top) > relatedTerms {
		v.top = v.top[:relatedTerms]
	}
	return v
}

// cosine of two unit vectors.
func (v *termVector) cosine(o *termVector) float64 {
	a, b := v.weights, o.weights
	if len(b) < len(a) {
		a, b = b, a
	}
	sum := 0.0
	for term, w := range a {
		sum += w * b[term]
	}
	return sum
}

// nameTerms returns the terms of the words of text written as names: with
// a capital letter not at the start of a sentence, or a capital inside
// (vLLM, FlexAttention, ROCm).
func (ts *termStats) nameTerms(text string) map[string]bool {
	out := map[string]bool{}
	sentenceStart := true
	for _, f := range strings.Fields(text) {
		w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if rs := []rune(w); len(rs) > 0 {
			name := unicode.IsUpper(rs[0]) && !sentenceStart
			for _, r := range rs[1:] {
				name = name || unicode.IsUpper(r)
			}
			if name {
				for _, t := range ts.wordTerms(w) {
					out[t] = true
				}
			}
		}
		sentenceStart = strings.ContainsAny(f[len(f)-1:], ".?!:")
	}
	return out
}

// relatedOf returns the talks most similar to d, computed once per snapshot.
func (s *snapshot) relatedOf(ctx context.Context, d *doc) ([]Related, error) {
	if v, ok := s.related.Load(d.talk.ID); ok {
		return v.([]Related), nil
	}
	rel, err := s.computeRelated(ctx, d)
	if err != nil {
		return nil, err
	}
	v, _ := s.related.LoadOrStore(d.talk.ID, rel)
	return v.([]Related), nil
}

// vectorOf returns the term vector of d, computed once per snapshot.
func (s *snapshot) vectorOf(d *doc) *termVector {
	if v, ok := s.vectors.Load(d.talk.ID); ok {
		return v.(*termVector)
	}
	v, _ := s.vectors.LoadOrStore(d.talk.ID, s.stats.vector(d.talk))
	return v.(*termVector)
}

func (s *snapshot) computeRelated(ctx context.Context, d *doc) ([]Related, error) {
	out := []Related{}
	va := s.vectorOf(d)
	if len(va.top) == 0 {
		return out, nil
	}
	clauses := make([]query.Query, 0, 2*len(va.top))
	for _, wt := range va.top {
		for _, f := range []string{index.FieldTitle, index.FieldAbstract} {
			q := query.NewTermQuery(wt.term)
			q.SetField(f)
			q.SetBoost(wt.weight)
			clauses = append(clauses, q)
		}
	}
	breaks := query.NewTermQuery(string(index.KindBreak))
	breaks.SetField(index.FieldKind)
	q := query.NewBooleanQuery(
		[]query.Query{query.NewDisjunctionQuery(clauses)},
		nil,
		[]query.Query{query.NewDocIDQuery([]string{d.talk.ID}), breaks},
	)
	req := bleve.NewSearchRequestOptions(q, relatedCandidates, 0, false)
	res, err := s.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	type cand struct {
		d     *doc
		v     *termVector
		score float64
	}
	cands := make([]cand, 0, len(res.Hits))
	for _, h := range res.Hits {
		o, ok := s.byID[h.ID]
		if !ok || o.talk.Kind == index.KindBreak || o == d {
			continue
		}
		vb := s.vectorOf(o)
		cands = append(cands, cand{o, vb, va.cosine(vb)})
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score > cands[j].score
		}
		return cands[i].d.ord < cands[j].d.ord
	})
	display := s.stats.displayWords(d.talk)
	for _, c := range cands {
		if len(out) == s.opts.RelatedCount || c.score <= 0 {
			break
		}
		out = append(out, Related{
			ID:          c.d.talk.ID,
			Title:       c.d.talk.Title,
			Score:       round3(c.score),
			SharedTerms: sharedTerms(va, c.v, display),
			Room:        c.d.talk.Room,
			Start:       c.d.talk.Start,
			End:         c.d.talk.End,
			Clash:       clash(d.talk, c.d.talk),
		})
	}
	return out, nil
}

// displayWords maps the index terms of a talk to the words the talk writes
// them as ("specul" → "speculative"), so shared terms read as words.
func (ts *termStats) displayWords(t *index.Talk) map[string]string {
	out := map[string]string{}
	for _, text := range []string{t.Title, t.Abstract} {
		for _, w := range surfaceWords(text) {
			if terms := ts.wordTerms(w); len(terms) == 1 {
				if _, ok := out[terms[0]]; !ok {
					out[terms[0]] = w
				}
			}
		}
	}
	return out
}

// sharedTerms are the terms both vectors have, those adding most to their
// cosine first, written as the source talk writes them.
func sharedTerms(a, b *termVector, display map[string]string) []string {
	var shared []weightedTerm
	for term, w := range a.weights {
		if wb, ok := b.weights[term]; ok {
			shared = append(shared, weightedTerm{term, w * wb})
		}
	}
	sort.Slice(shared, func(i, j int) bool {
		if shared[i].weight != shared[j].weight {
			return shared[i].weight > shared[j].weight
		}
		return shared[i].term < shared[j].term
	})
	out := []string{}
	for _, wt := range shared {
		w, ok := display[wt.term]
		if !ok {
			w = wt.term
		}
		out = append(out, w)
		if len(out) == sharedTermsShown {
			break
		}
	}
	return out
}

// clash says whether an attendee cannot see both talks: both scheduled, at
// overlapping times, in different rooms.
func clash(a, b *index.Talk) bool {
	if !a.Scheduled || !b.Scheduled || a.Start == nil || a.End == nil || b.Start == nil || b.End == nil {
		return false
	}
	if a.Room == b.Room {
		return false
	}
	return a.Start.Before(*b.End) && b.Start.Before(*a.End)
}

// wordTerms is the analysis of one word, cached.
func (ts *termStats) wordTerms(w string) []string {
	if v, ok := ts.words.get(w); ok {
		return v
	}
	terms := ts.terms.Analyze(w)
	ts.words.put(w, terms)
	return terms
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

package search

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search/ranking"
	"github.com/talksearch/talksearch/search/termvec"
)

// Term associations answer vocabulary mismatch: a question says "docker"
// where the talks that answer it say "container", "android phone" where
// they say "mobile". Which terms go together is mined from the corpus
// itself, the talks' titles and abstracts: two terms are associated when
// they share far more talks than chance gives (normalised pointwise mutual
// information). One word's associates drift ("rust" → "cargo", "crate"),
// so a term only joins a query when it is associated with every word of a
// two- or three-word query, or half the words of a longer one (assocNeed),
// and only words the corpus lacks as typed are expanded (drift.go):
// the talks about what the question asks, in their own words. It is an optional term of low weight that never counts in the
// coordination factor, and the answer lists it with the synonyms
// ("docker, images → container").
const (
	// assocMinTalks: a pair must share this many talks to be trusted.
	assocMinTalks = 3
	// assocMinNPMI is the least normalised PMI (−1..1, 0 independent) of
	// an associated pair.
	assocMinNPMI = 0.3
	// assocMinWords is the fewest rarer words of a query that
	// associations expand: which of one word's associates the user means
	// is a guess.
	assocMinWords = 2
	// assocMinShare is the least share of a word's talks that have an
	// associated term.
	assocMinShare = 0.1
	// assocPerTerm is how many associates of one query term are kept.
	assocPerTerm = 12
	// assocCacheSize bounds the associates kept per snapshot (by term).
	assocCacheSize = 4096
)

// assocMinTalksMined: a corpus of fewer talks is not mined. On the 73
// seed talks three shared talks are no evidence ("KV cache" → latency,
// token, block), and no judged query of the seeds changed. (A variable for
// the tests' small corpus.)
var assocMinTalksMined = 500

// assocMaxTalksMined is the most talks mined: mining reads every title and
// abstract again, at a cost that grows with the corpus, which a
// 100,000-talk corpus would pay in every build and reload for a barely
// measurable gain in ranking; above it a query gets no associations.
const assocMaxTalksMined = 20_000

// assocTerms is how many associated terms join a query (a variable so the
// relevance collections can measure without: 0).
var assocTerms = 3

// assocIndex is what associations are counted from: each talk's distinct
// content terms (ids of termStats.voc), and each term's talks.
type assocIndex struct {
	docs  [][]int32
	posts [][]int32
	cache *boundedCache[[]associate]
}

// associate is a term associated with another, and how strongly.
type associate struct {
	id   int32
	npmi float64
}

// newAssocIndex reads the content terms of every talk's title and
// abstract. Terms of fewer than assocMinTalks talks, or common ones, are
// left out: they associate nothing.
func newAssocIndex(talks []index.Talk, ts *termStats) *assocIndex {
	return newAssocIndexOf(index.Whole(talks), ts)
}

// newAssocIndexOf is newAssocIndex of a corpus whose texts may be in a
// store (index.Slim).
func newAssocIndexOf(talks index.Slim, ts *termStats) *assocIndex {
	df := ts.voc.DF()
	// A common term ("project", "open": ranking.CommonShare) is associated with
	// everything and says nothing.
	maxDF := int32(ranking.CommonShare * float64(talks.Len()))
	keep := func(id int32) bool {
		return df[id] >= assocMinTalks && df[id] <= maxDF && termvec.Content(ts.voc.Term(id))
	}
	a := &assocIndex{
		docs:  make([][]int32, talks.Len()),
		posts: make([][]int32, len(df)),
		cache: newBoundedCache[[]associate](assocCacheSize),
	}
	seen := map[int32]bool{}
	talks.Each(func(i int, t *index.Talk) {
		clear(seen)
		var ids []int32
		for _, text := range []string{t.Title, t.Abstract} {
			for _, term := range ts.terms.Analyze(text) {
				id, ok := ts.voc.Lookup(term)
				if !ok || seen[id] || !keep(id) {
					continue
				}
				seen[id] = true
				ids = append(ids, id)
			}
		}
		slices.Sort(ids) // as a kept index rebuilds them
		a.docs[i] = ids
		for _, id := range ids {
			a.posts[id] = append(a.posts[id], int32(i))
		}
	})
	return a
}

// keptAssoc is an assocIndex as it is kept (kept.go): each term's talks,
// by term id of termStats.voc, which the same index numbers the same way.
type keptAssoc struct {
	Talks int
	Posts [][]int32
}

// assocIndexOf returns the associations of the talks, read from sc when a
// start on the same index kept them, else mined and kept there: mining
// reads every talk's text again, which a restart should not. Nil below
// assocMinTalksMined and above assocMaxTalksMined.
func (s *snapshot) assocIndexOf(talks index.Slim, sc *index.Sidecar) *assocIndex {
	if talks.Len() < assocMinTalksMined || talks.Len() > assocMaxTalksMined {
		return nil
	}
	var k keptAssoc
	loadErr := loadKept(sc, keptAssociations, &k)
	if loadErr == nil {
		if a, err := k.index(talks.Len(), len(s.stats.voc.DF())); err == nil {
			s.kept.Loaded = append(s.kept.Loaded, keptAssociations)
			sort.Strings(s.kept.Loaded)
			return a
		} else {
			loadErr = fmt.Errorf("sidecar %s: %w", keptAssociations, err)
		}
	}
	a := newAssocIndexOf(talks, s.stats)
	s.kept.Derived = append(s.kept.Derived, keptAssociations)
	sort.Strings(s.kept.Derived)
	for _, p := range []error{loadErr, saveKept(sc, keptAssociations, keptAssoc{Talks: talks.Len(), Posts: a.posts})} {
		if p != nil && !errors.Is(p, errNotKept) {
			s.kept.Problems = append(s.kept.Problems, p.Error())
		}
	}
	sort.Strings(s.kept.Problems)
	return a
}

// index rebuilds the assocIndex that was kept, checking it fits a corpus
// of n talks and a vocabulary of terms terms.
func (k keptAssoc) index(n, terms int) (*assocIndex, error) {
	if k.Talks != n || len(k.Posts) != terms {
		return nil, fmt.Errorf("kept for %d talks and %d terms, not %d and %d", k.Talks, len(k.Posts), n, terms)
	}
	a := &assocIndex{docs: make([][]int32, n), posts: k.Posts, cache: newBoundedCache[[]associate](assocCacheSize)}
	for id, ds := range k.Posts {
		for _, d := range ds {
			if d < 0 || int(d) >= n {
				return nil, fmt.Errorf("term %d: talk %d of %d", id, d, n)
			}
			a.docs[d] = append(a.docs[d], int32(id))
		}
	}
	return a, nil
}

// associates returns the terms most associated with term, strongest first,
// counted over the talks that have it on first use.
func (s *snapshot) associates(term string) []associate {
	a := s.assoc
	if a == nil {
		return nil
	}
	id, ok := s.stats.voc.Lookup(term)
	if !ok || len(a.posts[id]) == 0 {
		return nil
	}
	if v, ok := a.cache.get(term); ok {
		return v
	}
	counts := map[int32]int32{}
	for _, d := range a.posts[id] {
		for _, o := range a.docs[d] {
			if o != id {
				counts[o]++
			}
		}
	}
	n := float64(len(a.docs))
	dt := float64(len(a.posts[id]))
	var out []associate
	for o, c := range counts {
		if c < assocMinTalks {
			continue
		}
		share := float64(c) / dt
		if share < assocMinShare {
			continue
		}
		pxy := float64(c) / n
		pmi := math.Log(pxy / (dt / n * float64(len(a.posts[o])) / n))
		if npmi := pmi / -math.Log(pxy); npmi >= assocMinNPMI {
			// NPMI alone favours the rarest terms (three talks that
			// happen to share a name); weighed by the share of the
			// word's talks that have the term, what the talks about the
			// word keep saying comes first.
			out = append(out, associate{o, share * npmi})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].npmi != out[j].npmi {
			return out[i].npmi > out[j].npmi
		}
		return out[i].id < out[j].id
	})
	if len(out) > assocPerTerm {
		out = out[:assocPerTerm]
	}
	a.cache.put(term, out)
	return out
}

// expansion is a term associated with several words of a query.
type expansion struct {
	term  string
	words []string // the query words it is associated with
	score float64
}

// associatedTerms returns the terms associated with enough of the query's
// words (assocNeed; each word counted by its only index term), strongest
// first, none of them a term the query's clauses (coord) already match: a
// word's own synonyms ("mixture of experts" → MoE) are no news.
func (s *snapshot) associatedTerms(words []string, coord []ranking.Clause) []expansion {
	if s.assoc == nil || len(words) < assocMinWords || len(words) > maxAssocWords || assocTerms == 0 {
		return nil
	}
	inQuery := map[string]bool{}
	for _, c := range coord {
		for _, t := range c.Terms {
			inQuery[t] = true
		}
	}
	var terms []string
	var typed []string
	for _, w := range words {
		ts := s.analyze(w)
		for _, t := range ts {
			inQuery[t] = true
		}
		if len(ts) == 1 {
			terms = append(terms, ts[0])
			typed = append(typed, w)
		}
	}
	var reads uint64
	for _, t := range terms {
		reads += s.dict[t]
	}
	if reads > maxAssocPostings {
		// Associates are counted over every talk of each term: a long
		// query of common words would read most of a large corpus for an
		// optional hint that half its words rarely share.
		return nil
	}
	by := map[int32]*expansion{}
	for i, t := range terms {
		for _, as := range s.associates(t) {
			e := by[as.id]
			if e == nil {
				e = &expansion{term: s.stats.voc.Term(as.id)}
				by[as.id] = e
			}
			e.words = append(e.words, typed[i])
			e.score += as.npmi
		}
	}
	var out []expansion
	for _, e := range by {
		if len(e.words) >= assocNeed(len(terms)) && !inQuery[e.term] {
			out = append(out, *e)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].term < out[j].term
	})
	if len(out) > assocTerms {
		out = out[:assocTerms]
	}
	return out
}

// assocQuery matches an associated term in titles and abstracts at
// ranking.Association of a word's weight.
func (s *snapshot) assocQuery(term string) query.Query {
	var qs []query.Query
	for _, fw := range ranking.Fields {
		if fw.Field != index.FieldTitle && fw.Field != index.FieldAbstract {
			continue
		}
		if !s.hasTerm(fw.Field, term) {
			continue
		}
		q := query.NewTermQuery(term)
		q.SetField(fw.Field)
		q.SetBoost(fw.Weight * ranking.Association)
		qs = append(qs, q)
	}
	return anyOf(qs)
}

// assocNote is how the answer shows an expansion: "docker, images →
// container", the term as the corpus most often writes it.
func (s *snapshot) assocNote(e expansion) string {
	return strings.Join(e.words, ", ") + " → " + s.displayForm(e.term)
}

// displayForm returns the corpus word most talks use whose only term is
// term, else term itself (an index term is a stem: "contain").
func (s *snapshot) displayForm(term string) string {
	words := s.vocab.sorted
	prefix := term
	if r := []rune(term); len(r) > 4 {
		// "opentelemetri" is the stem of "opentelemetry".
		prefix = string(r[:len(r)-1])
	}
	i := sort.SearchStrings(words, prefix)
	best, bestDF := term, 0
	// Bounded: a short stem ("go") starts thousands of words.
	for end := min(len(words), i+200); i < end && strings.HasPrefix(words[i], prefix); i++ {
		w := words[i]
		if s.vocab.df[w] <= bestDF {
			continue
		}
		if ts := s.analyze(w); len(ts) == 1 && ts[0] == term {
			best, bestDF = w, s.vocab.df[w]
		}
	}
	return best
}

// assocNeed is how many of a query's n words a term must be associated
// with to join it: all of two or three ("rust embedded microcontrollers"
// is not about every firmware talk), half of a longer question's.
func assocNeed(n int) int {
	if n <= 3 {
		return n
	}
	return (n + 1) / 2
}

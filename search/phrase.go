package search

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
	bleveidx "github.com/blevesearch/bleve_index_api"
)

// scanPhrase is a phrase for a scan (scan.go), which reads only document
// numbers and scores. Its searcher is Bleve's phrase searcher
// (searcher.NewMultiPhraseSearcher) without the map of maps of locations
// that Bleve's builds for every candidate to check it: the same
// conjunction of the phrase's terms, scored the same, the phrase checked on
// the candidate's term locations as they come. At 100k talks a phrase of
// common words ("distributed training", torch.compile) has tens of
// thousands of candidates, and those maps were two fifths of its search.
// A match keeps no locations: a scan locates its page's words on its own
// (locator), with Bleve's phrase.
// TestScanPhraseIsBlevesPhrase holds the matches and scores to Bleve's.
type scanPhrase struct{ *query.MultiPhraseQuery }

// bleve is the phrase as Bleve's query, for searches that need its
// locations.
func (q scanPhrase) bleve() *query.MultiPhraseQuery { return q.MultiPhraseQuery }

func (q scanPhrase) Searcher(ctx context.Context, r bleveidx.IndexReader, m mapping.IndexMapping, o bsearch.SearcherOptions) (bsearch.Searcher, error) {
	if q.Fuzziness != 0 {
		return q.MultiPhraseQuery.Searcher(ctx, r, m, o)
	}
	o.IncludeTermVectors = true
	boost := q.BoostVal.Value()
	var slots []bsearch.Searcher
	fail := func(err error) (bsearch.Searcher, error) {
		for _, s := range slots {
			_ = s.Close()
		}
		return nil, fmt.Errorf("phrase %v in %s: %w", q.Terms, q.FieldVal, err)
	}
	// What NewMultiPhraseSearcher builds: a term searcher for a position
	// with one term, a disjunction of term searchers for one with more.
	for _, alts := range q.Terms {
		if len(alts) == 1 && alts[0] != "" {
			ts, err := searcher.NewTermSearcher(ctx, r, alts[0], q.FieldVal, boost, o)
			if err != nil {
				return fail(err)
			}
			slots = append(slots, ts)
			continue
		}
		if len(alts) <= 1 {
			continue // a gap
		}
		var any []bsearch.Searcher
		for _, a := range alts {
			if a == "" {
				continue
			}
			ts, err := searcher.NewTermSearcher(ctx, r, a, q.FieldVal, boost, o)
			if err != nil {
				for _, s := range any {
					_ = s.Close()
				}
				return fail(err)
			}
			any = append(any, ts)
		}
		d, err := searcher.NewDisjunctionSearcher(ctx, r, any, 1, o)
		if err != nil {
			return fail(err)
		}
		slots = append(slots, d)
	}
	must, err := searcher.NewConjunctionSearcher(ctx, r, slots, o)
	if err != nil {
		return fail(err)
	}
	must.SetQueryNorm(1 / math.Sqrt(must.Weight())) // as the phrase searcher's own computeQueryNorm
	return &phraseSearcher{must: must, terms: trimLeadingGaps(q.Terms)}, nil
}

// trimLeadingGaps drops the gaps before the first term: Bleve's phrase
// paths start at the first term wherever it stands.
func trimLeadingGaps(terms [][]string) [][]string {
	for len(terms) > 0 && isGap(terms[0]) {
		terms = terms[1:]
	}
	return terms
}

func isGap(alts []string) bool { return len(alts) == 0 || (len(alts) == 1 && alts[0] == "") }

// phraseSearcher follows searcher.PhraseSearcher step for step (Next,
// Advance and the match pool), with hasPhrase as its check.
type phraseSearcher struct {
	must        bsearch.Searcher
	terms       [][]string
	curr        *bsearch.DocumentMatch
	initialized bool
}

func (s *phraseSearcher) advanceMust(ctx *bsearch.SearchContext) error {
	if s.curr != nil {
		ctx.DocumentMatchPool.Put(s.curr)
	}
	var err error
	s.curr, err = s.must.Next(ctx)
	return err
}

func (s *phraseSearcher) Next(ctx *bsearch.SearchContext) (*bsearch.DocumentMatch, error) {
	if !s.initialized {
		if err := s.advanceMust(ctx); err != nil {
			return nil, err
		}
		s.initialized = true
	}
	for s.curr != nil {
		var rv *bsearch.DocumentMatch
		if hasPhrase(s.curr.FieldTermLocations, s.terms) {
			rv, s.curr = s.curr, nil
			rv.FieldTermLocations = rv.FieldTermLocations[:0]
		}
		if err := s.advanceMust(ctx); err != nil {
			return nil, err
		}
		if rv != nil {
			return rv, nil
		}
	}
	return nil, nil
}

func (s *phraseSearcher) Advance(ctx *bsearch.SearchContext, id bleveidx.IndexInternalID) (*bsearch.DocumentMatch, error) {
	if !s.initialized {
		if err := s.advanceMust(ctx); err != nil {
			return nil, err
		}
		s.initialized = true
	}
	if s.curr != nil {
		if s.curr.IndexInternalID.Compare(id) >= 0 {
			return s.Next(ctx)
		}
		ctx.DocumentMatchPool.Put(s.curr)
	}
	if s.curr == nil {
		return nil, nil
	}
	var err error
	if s.curr, err = s.must.Advance(ctx, id); err != nil {
		return nil, err
	}
	return s.Next(ctx)
}

func (s *phraseSearcher) Close() error               { return s.must.Close() }
func (s *phraseSearcher) Weight() float64            { return s.must.Weight() }
func (s *phraseSearcher) SetQueryNorm(norm float64)  { s.must.SetQueryNorm(norm) }
func (s *phraseSearcher) Count() uint64              { return s.must.Count() }
func (s *phraseSearcher) Min() int                   { return 0 }
func (s *phraseSearcher) DocumentMatchPoolSize() int { return s.must.DocumentMatchPoolSize() + 1 }
func (s *phraseSearcher) Size() int                  { return s.must.Size() + 64 }

// hasPhrase says whether the candidate's term locations hold the phrase:
// a term of each position in a row (a gap is any one word), in one field
// and one value of it (array positions), as Bleve's phrase paths without
// slop. A candidate has a few locations of the phrase's terms, so trying
// each first term's location costs less than indexing them.
func hasPhrase(ftls []bsearch.FieldTermLocation, terms [][]string) bool {
	if len(terms) == 0 {
		return false
	}
	for _, first := range ftls {
		if !slices.Contains(terms[0], first.Term) {
			continue
		}
		found := true
		for i := 1; i < len(terms) && found; i++ {
			if isGap(terms[i]) {
				continue
			}
			pos := first.Location.Pos + uint64(i)
			found = slices.ContainsFunc(ftls, func(l bsearch.FieldTermLocation) bool {
				return l.Location.Pos == pos && l.Field == first.Field &&
					slices.Contains(terms[i], l.Term) && l.Location.ArrayPositions.Equals(first.Location.ArrayPositions)
			})
		}
		if found {
			return true
		}
	}
	return false
}

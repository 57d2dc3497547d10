package scan

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
	bleveidx "github.com/blevesearch/bleve_index_api"
)

// Phrase is a phrase of the query text (snapshot.phraseQuery). Its
// searcher is Bleve's phrase searcher (searcher.NewMultiPhraseSearcher)
// without the map of maps of locations that Bleve's builds for every
// candidate to check it: the same conjunction of the phrase's terms, scored
// the same, the phrase checked on the candidate's term locations as they
// come (phrasePaths). In a large corpus a phrase of common words
// ("distributed training", torch.compile) has tens of thousands of
// candidates, and a map of maps for each is work the check does not need.
// Asked for term vectors (a one-pass search, a scan locating its page), a
// match keeps the phrase's locations as Bleve's does; a scan's keep none.
// TestTextPhraseIsBlevesPhrase holds the matches, scores and locations to
// Bleve's.
type Phrase struct{ *query.MultiPhraseQuery }

// MultiPhrase is the Bleve phrase of q, a phrase of either kind.
func MultiPhrase(q query.Query) *query.MultiPhraseQuery {
	if p, ok := q.(Phrase); ok {
		return p.MultiPhraseQuery
	}
	return q.(*query.MultiPhraseQuery)
}

func (q Phrase) Searcher(ctx context.Context, r bleveidx.IndexReader, m mapping.IndexMapping, o bsearch.SearcherOptions) (bsearch.Searcher, error) {
	if q.Fuzziness != 0 {
		return q.MultiPhraseQuery.Searcher(ctx, r, m, o)
	}
	locations := o.IncludeTermVectors
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
		var either []bsearch.Searcher
		for _, a := range alts {
			if a == "" {
				continue
			}
			ts, err := searcher.NewTermSearcher(ctx, r, a, q.FieldVal, boost, o)
			if err != nil {
				for _, s := range either {
					_ = s.Close()
				}
				return fail(err)
			}
			either = append(either, ts)
		}
		d, err := searcher.NewDisjunctionSearcher(ctx, r, either, 1, o)
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
	only, _ := ctx.Value(phraseTalksKey{}).([]uint64)
	return &phraseSearcher{must: must, terms: trimLeadingGaps(q.Terms), locations: locations, only: only}, nil
}

// phraseTalksKey is the context key of the sorted document numbers a
// phrase searcher may stop at (withPhraseTalks).
type phraseTalksKey struct{}

// withPhraseTalks is ctx telling the phrase searchers made with it to look
// at the talks of nums (sorted) only. Locating a page's matched words and
// rescoring a window advance a query's searcher to a few talks, and an
// unrestricted phrase searcher advanced to a talk goes on to the next talk
// with the phrase, reading the positions of every talk with its words on
// the way, though only the few talks it stops at need them. Restricted, the
// phrase matches the same at each of those talks, so a searcher advanced
// to them finds the same matches, locations and scores.
func withPhraseTalks(ctx context.Context, nums []uint64) context.Context {
	return context.WithValue(ctx, phraseTalksKey{}, nums)
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
// Advance and the match pool), with phrasePaths as its check.
type phraseSearcher struct {
	must        bsearch.Searcher
	terms       [][]string
	curr        *bsearch.DocumentMatch
	initialized bool
	// locations: a match keeps the locations of its phrase paths, as
	// Bleve's do (asked for with the term vectors); else none.
	locations bool
	paths     []bsearch.FieldTermLocation
	// only, when not nil, are the sorted document numbers of the talks
	// the searcher may stop at (withPhraseTalks).
	only []uint64
	id   bleveidx.IndexInternalID
}

func (s *phraseSearcher) advanceMust(ctx *bsearch.SearchContext) error {
	if s.curr != nil {
		ctx.DocumentMatchPool.Put(s.curr)
	}
	var err error
	if s.curr, err = s.must.Next(ctx); err != nil {
		return err
	}
	return s.toOnly(ctx)
}

// toOnly moves the candidate on to the first of the talks of only at or
// after it, if the searcher is restricted to them.
func (s *phraseSearcher) toOnly(ctx *bsearch.SearchContext) error {
	for s.only != nil && s.curr != nil {
		n, _ := docNumber(s.curr.IndexInternalID)
		i, found := slices.BinarySearch(s.only, n)
		if found {
			return nil
		}
		ctx.DocumentMatchPool.Put(s.curr)
		s.curr = nil
		if i == len(s.only) {
			return nil
		}
		if s.id == nil {
			s.id = make(bleveidx.IndexInternalID, 8)
		}
		binary.BigEndian.PutUint64(s.id, s.only[i])
		var err error
		if s.curr, err = s.must.Advance(ctx, s.id); err != nil {
			return err
		}
	}
	return nil
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
		var found bool
		if s.paths, found = phrasePaths(s.curr.FieldTermLocations, s.terms, s.locations, s.paths[:0]); found {
			rv, s.curr = s.curr, nil
			rv.FieldTermLocations = append(rv.FieldTermLocations[:0], s.paths...)
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
	if err := s.toOnly(ctx); err != nil {
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

// phrasePaths finds the phrase in a candidate's term locations: a term of
// each position in a row (a gap is any one word), in one field and one
// value of it (array positions), as Bleve's phrase paths without slop
// (findPhrasePaths), in the order Bleve finds them. With all it appends the
// locations of every path to out, as Bleve's phrase searcher leaves them on
// its match; without, it only says whether there is one. A candidate has a
// few locations of the phrase's terms: walking them costs less than
// indexing them.
func phrasePaths(ftls []bsearch.FieldTermLocation, terms [][]string, all bool, out []bsearch.FieldTermLocation) ([]bsearch.FieldTermLocation, bool) {
	if len(terms) == 0 {
		return out, false
	}
	path := make([]int, 0, len(terms))
	found := false
	var walk func(slot int, prev uint64, first *bsearch.FieldTermLocation) bool
	walk = func(slot int, prev uint64, first *bsearch.FieldTermLocation) bool {
		if slot == len(terms) {
			found = true
			for _, i := range path {
				out = append(out, ftls[i])
			}
			return !all
		}
		if isGap(terms[slot]) {
			return walk(slot+1, prev+1, first)
		}
		for _, alt := range terms[slot] {
			for i := range ftls {
				l := &ftls[i]
				if l.Term != alt || (first != nil && (l.Location.Pos != prev+1 || l.Field != first.Field ||
					!l.Location.ArrayPositions.Equals(first.Location.ArrayPositions))) {
					continue
				}
				path = append(path, i)
				f := first
				if f == nil {
					f = l
				}
				done := walk(slot+1, l.Location.Pos, f)
				path = path[:len(path)-1]
				if done {
					return true
				}
			}
		}
		return false
	}
	walk(0, 0, nil)
	return out, found
}

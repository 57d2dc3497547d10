package scan

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
	bleveidx "github.com/blevesearch/bleve_index_api"

	"github.com/talksearch/talksearch/search/ranking"
)

// Fields is a word's clause over the fields it is searched in
// (ranking.Fields): a disjunction whose matches score
// ranking.CombineFields of their fields' scores, Bleve's sum times the
// share of the clauses matched with the share capped. Its searcher is
// Bleve's disjunction searcher but for the score: the same clauses, in
// the same order (by count), the same weight, count and locations. The
// tree scan combines them alike (tree.go); TestTreeScanIsBlevesScan holds
// the two to the same scores.
type Fields struct{ *query.DisjunctionQuery }

// NewFields is the clause of a word over the fields of qs.
func NewFields(qs []query.Query) Fields {
	return Fields{query.NewDisjunctionQuery(qs)}
}

func (q Fields) Searcher(ctx context.Context, r bleveidx.IndexReader, m mapping.IndexMapping, o bsearch.SearcherOptions) (bsearch.Searcher, error) {
	return combinedSearcher(ctx, q.Disjuncts, false, r, m, o)
}

// Concepts is the clause of a query's concepts, one clause for each (its
// word's Fields): a disjunction whose matches score ranking.Balance of
// their clauses' scores, Bleve's sum times the share of the clauses
// matched times how evenly a talk matching them all says them. Its
// searcher is Fields' but for the score; the tree scan combines them
// alike (tree.go).
type Concepts struct{ *query.DisjunctionQuery }

// NewConcepts is the clause of the concepts of qs.
func NewConcepts(qs []query.Query) Concepts {
	return Concepts{query.NewDisjunctionQuery(qs)}
}

func (q Concepts) Searcher(ctx context.Context, r bleveidx.IndexReader, m mapping.IndexMapping, o bsearch.SearcherOptions) (bsearch.Searcher, error) {
	return combinedSearcher(ctx, q.Disjuncts, true, r, m, o)
}

// combinedSearcher is the searcher of Fields, or of Concepts when
// concepts.
func combinedSearcher(ctx context.Context, qs []query.Query, concepts bool, r bleveidx.IndexReader, m mapping.IndexMapping, o bsearch.SearcherOptions) (bsearch.Searcher, error) {
	ss := make(searcher.OrderedSearcherList, 0, len(qs))
	for _, d := range qs {
		s, err := d.Searcher(ctx, r, m, o)
		if err != nil {
			for _, s := range ss {
				_ = s.Close()
			}
			return nil, fmt.Errorf("field clause: %w", err)
		}
		if s != nil {
			ss = append(ss, s)
		}
	}
	if len(ss) == 0 {
		return searcher.NewMatchNoneSearcher(r)
	}
	sort.Sort(ss)
	fs := &fieldsSearcher{
		searchers: ss,
		currs:     make([]*bsearch.DocumentMatch, len(ss)),
		matching:  make([]int, 0, len(ss)),
		explain:   o.Explain,
		concepts:  concepts,
	}
	// As Bleve's disjunction does: the norm of the searchers below when
	// this one is the root.
	fs.SetQueryNorm(1 / math.Sqrt(fs.Weight()))
	return fs, nil
}

// fieldsSearcher is Fields' searcher.
type fieldsSearcher struct {
	searchers   searcher.OrderedSearcherList
	currs       []*bsearch.DocumentMatch
	matching    []int // indices of currs at the lowest document
	initialized bool
	explain     bool
	// concepts: the clauses are a query's concepts (Concepts), scored
	// by ranking.Balance; else a word's fields (Fields).
	concepts bool
}

func (s *fieldsSearcher) init(ctx *bsearch.SearchContext) error {
	for i, ch := range s.searchers {
		if s.currs[i] != nil {
			ctx.DocumentMatchPool.Put(s.currs[i])
		}
		var err error
		if s.currs[i], err = ch.Next(ctx); err != nil {
			return err
		}
	}
	s.update()
	s.initialized = true
	return nil
}

// update finds the clauses at the lowest document.
func (s *fieldsSearcher) update() {
	m := s.matching[:0]
	for i, c := range s.currs {
		if c == nil {
			continue
		}
		if len(m) > 0 {
			cmp := c.IndexInternalID.Compare(s.currs[m[0]].IndexInternalID)
			if cmp > 0 {
				continue
			}
			if cmp < 0 {
				m = m[:0]
			}
		}
		m = append(m, i)
	}
	s.matching = m
}

func (s *fieldsSearcher) Next(ctx *bsearch.SearchContext) (*bsearch.DocumentMatch, error) {
	if !s.initialized {
		if err := s.init(ctx); err != nil {
			return nil, err
		}
	}
	if len(s.matching) == 0 {
		return nil, nil
	}
	// Summed in the order of the clauses, as Bleve's scorer sums them.
	var sum, squares float64
	for _, i := range s.matching {
		sum += s.currs[i].Score
		squares += s.currs[i].Score * s.currs[i].Score
	}
	rv := s.currs[s.matching[0]]
	var score float64
	if s.concepts {
		score = ranking.Balance(sum, squares, len(s.matching), len(s.searchers))
	} else {
		score = ranking.CombineFields(sum, len(s.matching), len(s.searchers))
	}
	if s.explain {
		var ch []*bsearch.Explanation
		for _, i := range s.matching {
			ch = append(ch, s.currs[i].Expl)
		}
		msg := fmt.Sprintf("sum of %d of %d fields times min(%d, %d)/%d, of:", len(s.matching), len(s.searchers), len(s.matching), ranking.CappedFields, len(s.searchers))
		if s.concepts {
			msg = fmt.Sprintf("sum of %d of %d concepts times %d/%d times their evenness to the power %g, of:", len(s.matching), len(s.searchers), len(s.matching), len(s.searchers), ranking.BalancePower)
		}
		rv.Expl = &bsearch.Explanation{Value: score, Message: msg, Children: ch}
	}
	rv.Score = score
	for _, i := range s.matching[1:] {
		rv.FieldTermLocations = bsearch.MergeFieldTermLocationsFromMatch(rv.FieldTermLocations, s.currs[i])
	}
	for _, i := range s.matching {
		if s.currs[i] != rv {
			ctx.DocumentMatchPool.Put(s.currs[i])
		}
		var err error
		if s.currs[i], err = s.searchers[i].Next(ctx); err != nil {
			return nil, err
		}
	}
	s.update()
	return rv, nil
}

func (s *fieldsSearcher) Advance(ctx *bsearch.SearchContext, id bleveidx.IndexInternalID) (*bsearch.DocumentMatch, error) {
	if !s.initialized {
		if err := s.init(ctx); err != nil {
			return nil, err
		}
	}
	for i, ch := range s.searchers {
		if s.currs[i] != nil {
			if s.currs[i].IndexInternalID.Compare(id) >= 0 {
				continue
			}
			ctx.DocumentMatchPool.Put(s.currs[i])
		}
		var err error
		if s.currs[i], err = ch.Advance(ctx, id); err != nil {
			return nil, err
		}
	}
	s.update()
	return s.Next(ctx)
}

func (s *fieldsSearcher) Weight() float64 {
	var w float64
	for _, ch := range s.searchers {
		w += ch.Weight()
	}
	return w
}

func (s *fieldsSearcher) SetQueryNorm(n float64) {
	for _, ch := range s.searchers {
		ch.SetQueryNorm(n)
	}
}

func (s *fieldsSearcher) Count() uint64 {
	var n uint64
	for _, ch := range s.searchers {
		n += ch.Count()
	}
	return n
}

func (s *fieldsSearcher) Close() error {
	var first error
	for _, ch := range s.searchers {
		if err := ch.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func (s *fieldsSearcher) Size() int {
	n := 0
	for _, ch := range s.searchers {
		n += ch.Size()
	}
	return n
}

func (s *fieldsSearcher) Min() int { return 0 }

func (s *fieldsSearcher) DocumentMatchPoolSize() int {
	n := len(s.currs)
	for _, ch := range s.searchers {
		n += ch.DocumentMatchPoolSize()
	}
	return n
}

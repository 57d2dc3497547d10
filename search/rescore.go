package search

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	bleveidx "github.com/blevesearch/bleve_index_api"
)

// The optional part of a large corpus's query (its common words and the
// proximity of its words: compile's should) changes no talk's match, only
// its score, yet Bleve evaluates it at every match of the required words:
// on the FOSDEM archive most of the scan of "open source ai licensing",
// whose common words are in most talks. A scan therefore scores the
// required part alone, with the query norm of the whole query (so each
// score is the whole query's minus the optional part's), and the optional
// part is added afterwards only to the talks that can still reach the
// page: its score has a bound (shouldBound), so a talk whose score plus
// the bound stays below the page's last score without it cannot enter the
// page. The page, its order and its scores are those of the whole query.

// rescoreLater turns this off, for tests to compare with the whole query.
var rescoreLater = true

var rescoreDebug func(todo, all int)

// laterShould is the optional part of a scan's query, scored later.
type laterShould struct {
	// s scores it, with the whole query's norm; rescore advances it
	// once, from talk to talk in document order.
	s     bsearch.Searcher
	bound float64
}

// close releases the searcher, if rescore has not.
func (l *laterShould) close() {
	if l != nil && l.s != nil {
		l.s.Close()
		l.s = nil
	}
}

// splitShould returns the required part of q, a Boolean query with an
// optional part, its searcher and the whole query's norm, and the
// optional part to score later; ok is false when q has none or its bound
// is unknown (then q is scanned whole). Close mustS.
func (sc *scanner) splitShould(ctx context.Context, q query.Query) (must query.Query, mustS bsearch.Searcher, norm float64, later *laterShould, ok bool, err error) {
	b, isBool := q.(*query.BooleanQuery)
	if !isBool || b.Should == nil || b.Must == nil || b.Filter != nil || sc.scoring != bleveidx.BM25Scoring {
		return nil, nil, 0, nil, false, nil
	}
	stats, _ := ctx.Value(bsearch.BM25StatsKey).(*bsearch.BM25Stats)
	if stats == nil {
		return nil, nil, 0, nil, false, nil
	}
	bound, known, err := sc.shouldBound(ctx, stats, b.Should)
	if err != nil || !known {
		return nil, nil, 0, nil, false, err
	}
	must = &query.BooleanQuery{Must: b.Must, MustNot: b.MustNot}
	mustS, err = must.Searcher(ctx, sc.reader, sc.mapping, bsearch.SearcherOptions{})
	if err != nil {
		return nil, nil, 0, nil, false, err
	}
	ss, err := b.Should.Searcher(ctx, sc.reader, sc.mapping, bsearch.SearcherOptions{})
	if err != nil {
		mustS.Close()
		return nil, nil, 0, nil, false, err
	}
	// As BooleanSearcher.computeQueryNorm has it.
	sum := 0.0
	sum += mustS.Weight()
	sum += ss.Weight()
	norm = 1.0 / math.Sqrt(sum)
	if math.IsNaN(norm) || math.IsInf(norm, 0) || norm == 0 {
		mustS.Close()
		ss.Close()
		return nil, nil, 0, nil, false, nil
	}
	mustS.SetQueryNorm(norm)
	ss.SetQueryNorm(norm)
	// A hair above the bound: its sum is not added in Bleve's order.
	return must, mustS, norm, &laterShould{s: ss, bound: bound * norm * (1 + 1e-9)}, true, nil
}

// shouldBound returns, divided by the query norm, the most q can score
// for any talk under Bleve's BM25 (search/scorer/scorer_term.go): a term's
// score is idf·k1·tf/(tf + k1·(1-b+b·len/avg)) times boost·idf·norm, below
// k1·idf²·boost·norm; a disjunction scores the sum of its matched
// clauses times the share matched, a conjunction and a phrase the sum of
// their terms'. known is false for any other query.
func (sc *scanner) shouldBound(ctx context.Context, stats *bsearch.BM25Stats, q query.Query) (float64, bool, error) {
	term := func(field, t string, boost float64) (float64, bool, error) {
		if stats.FieldCardinality[field] <= 0 {
			// Bleve scores the field by tf-idf, which has no bound.
			return 0, false, nil
		}
		r, err := sc.reader.TermFieldReader(ctx, []byte(t), field, false, false, false)
		if err != nil {
			return 0, false, fmt.Errorf("documents of %s:%s: %w", field, t, err)
		}
		df := r.Count()
		r.Close()
		if df == 0 {
			return 0, true, nil
		}
		n := stats.DocCount
		idf := math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
		return bsearch.BM25_k1 * idf * idf * boost, true, nil
	}
	switch q := q.(type) {
	case *query.MatchNoneQuery:
		return 0, true, nil
	case *query.TermQuery:
		return term(q.FieldVal, q.Term, q.BoostVal.Value())
	case *query.MultiPhraseQuery:
		var sum float64
		for _, slot := range q.Terms {
			for _, t := range slot {
				b, ok, err := term(q.FieldVal, t, q.BoostVal.Value())
				if err != nil || !ok {
					return 0, false, err
				}
				sum += b
			}
		}
		return sum, true, nil
	case *query.DisjunctionQuery:
		return sc.sumBound(ctx, stats, q.Disjuncts)
	case *query.ConjunctionQuery:
		return sc.sumBound(ctx, stats, q.Conjuncts)
	}
	return 0, false, nil
}

func (sc *scanner) sumBound(ctx context.Context, stats *bsearch.BM25Stats, qs []query.Query) (float64, bool, error) {
	var sum float64
	for _, c := range qs {
		b, ok, err := sc.shouldBound(ctx, stats, c)
		if err != nil || !ok {
			return 0, false, err
		}
		sum += b
	}
	return sum, true, nil
}

// rescore adds the optional part's score to the matches of ms that can
// reach the first k in score order (all of them for k < 0: a page in time
// order shows the scores of its talks only, which are then all of ms).
// The others keep their score without it, below the k-th.
func (sc *scanner) rescore(ctx context.Context, later *laterShould, ms []match, k int) error {
	var todo []int
	if k >= 0 {
		if k == 0 {
			return nil
		}
		// The k-th best score without the optional part: every talk of
		// the true first k scores at least that.
		los := make([]float64, 0, len(ms))
		for i := range ms {
			if ms[i].pending {
				los = append(los, ms[i].score)
			}
		}
		if len(los) == 0 {
			return nil
		}
		slices.SortFunc(los, func(a, b float64) int { return cmp.Compare(b, a) })
		theta := los[min(k, len(los))-1]
		for i := range ms {
			m := &ms[i]
			if m.pending && m.upper(later.bound) >= theta {
				todo = append(todo, i)
			}
		}
	} else {
		for i := range ms {
			if ms[i].pending {
				todo = append(todo, i)
			}
		}
	}
	if rescoreDebug != nil {
		rescoreDebug(len(todo), len(ms))
	}
	if len(todo) == 0 {
		return nil
	}
	slices.SortFunc(todo, func(a, b int) int { return cmp.Compare(ms[a].d.num, ms[b].d.num) })
	s := later.s
	if s == nil {
		return fmt.Errorf("search: the optional part of the query was rescored twice")
	}
	defer later.close()
	sctx := &bsearch.SearchContext{
		DocumentMatchPool: bsearch.NewDocumentMatchPool(s.DocumentMatchPoolSize()+1, 0),
		IndexReader:       sc.reader,
	}
	id := make(bleveidx.IndexInternalID, 8)
	var dm *bsearch.DocumentMatch
	var err error
	var cur uint64
	done := false
	for _, i := range todo {
		m := &ms[i]
		n := m.d.num
		if !done && (dm == nil || cur < n) {
			if dm != nil {
				sctx.DocumentMatchPool.Put(dm)
			}
			binary.BigEndian.PutUint64(id, n)
			if dm, err = s.Advance(sctx, id); err != nil {
				return fmt.Errorf("search: %w", err)
			}
			if dm == nil {
				done = true
			} else {
				cur, _ = docNumber(dm.IndexInternalID)
			}
		}
		if !done && cur == n {
			m.finish(dm.Score, true)
		} else {
			m.finish(0, false)
		}
	}
	return nil
}

// finish sets a pending match's score to the whole query's, its optional
// part scoring should (matched: it matched at all), in the order of the
// scan's arithmetic: Bleve's sum of the two parts, then the coordination
// and break factors.
func (m *match) finish(should float64, matched bool) {
	score := m.must
	if matched {
		sum := 0.0
		sum += m.must
		sum += should
		score = sum
	}
	score *= m.coordF
	if m.d.isBreak {
		score *= breakFactor
	}
	m.score, m.pending = score, false
}

// upper is the most a pending match's score can be with an optional part
// scoring at most bound.
func (m *match) upper(bound float64) float64 {
	score := (m.must + bound) * m.coordF
	if m.d.isBreak {
		score *= breakFactor
	}
	return score
}

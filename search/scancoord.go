package search

import (
	"context"
	"fmt"
	"slices"

	bsearch "github.com/blevesearch/bleve/v2/search"
	bleveidx "github.com/blevesearch/bleve_index_api"

	"github.com/talksearch/talksearch/index"
)

// A scan reads no word positions, so it cannot tell from a match which of
// the query's clauses it matched, and soft coordination (softCoord) was
// left to Bleve's unweighted factor there: above Options.OnePassMax talks
// a talk with the query's vague words ranked with one that has its rare
// ones (FOSDEM 2024+2025 scanned: nDCG@10 0.833 → 0.768). clauseMasks
// reads the documents of each clause's terms from the term dictionaries
// instead, without frequencies or positions, which costs a fraction of
// scoring the same postings, and a scan applies the same factor as the
// one-pass search.

// coordFields are the fields a word's clause matches (wordClause).
var coordFields = []string{index.FieldTitle, index.FieldAbstract, index.FieldSpeakers, index.FieldTrackText, index.FieldRoomText}

// maxMaskClauses is the most clauses a mask holds; a query has at most
// maxWordClauses plus the clause of the words beyond them.
const maxMaskClauses = 32

// clauseMasks returns, per document number, the clauses of coord it
// matches as bits (bit i: clause i), or nil when there is nothing to
// coordinate. Return the masks to maskPool when done.
func (sc *scanner) clauseMasks(ctx context.Context, coord []coordClause) (*[]uint32, error) {
	if len(coord) < 2 || len(coord) > maxMaskClauses {
		return nil, nil
	}
	mp, _ := sc.maskPool.Get().(*[]uint32)
	if mp == nil || len(*mp) != len(sc.docs) {
		m := make([]uint32, len(sc.docs))
		mp = &m
	}
	masks := *mp
	var tfd bleveidx.TermFieldDoc
	for i, c := range coord {
		bit := uint32(1) << i
		for _, t := range c.terms {
			for _, f := range coordFields {
				r, err := sc.reader.TermFieldReader(ctx, []byte(t), f, false, false, false)
				if err != nil {
					sc.putMasks(mp)
					return nil, fmt.Errorf("documents of %s:%s: %w", f, t, err)
				}
				for {
					d, err := r.Next(&tfd)
					if err != nil {
						r.Close()
						sc.putMasks(mp)
						return nil, fmt.Errorf("documents of %s:%s: %w", f, t, err)
					}
					if d == nil {
						break
					}
					if n, ok := docNumber(d.ID); ok && n < uint64(len(masks)) {
						masks[n] |= bit
					}
				}
				if err := r.Close(); err != nil {
					sc.putMasks(mp)
					return nil, fmt.Errorf("documents of %s:%s: %w", f, t, err)
				}
			}
		}
	}
	return mp, nil
}

// putMasks clears masks and keeps them for the next scan.
func (sc *scanner) putMasks(mp *[]uint32) {
	clear(*mp)
	sc.maskPool.Put(mp)
}

// coordFactors gives softCoord's factor of a query by clause mask,
// computed once per mask and weighting rather than once per matching
// talk: a query's matches share a handful of masks, and a 400-character
// query of real words has dozens of clauses to add up for each of them.
// One per search (not safe for concurrent use).
type coordFactors struct {
	coord []coordClause
	// clauses are the clauses each index term of coord matches, as bits.
	clauses map[string]uint32
	memo    map[uint64]float64
}

func newCoordFactors(coord []coordClause) *coordFactors {
	c := &coordFactors{coord: coord, memo: map[uint64]float64{}}
	if len(coord) <= maxMaskClauses {
		c.clauses = map[string]uint32{}
		for i, cl := range coord {
			for _, t := range cl.terms {
				c.clauses[t] |= 1 << i
			}
		}
	}
	return c
}

// factor is softCoord of the clauses mask says a talk matches.
func (c *coordFactors) factor(mask uint32, weighted bool) float64 {
	key := uint64(mask) << 1
	if weighted {
		key |= 1
	}
	if f, ok := c.memo[key]; ok {
		return f
	}
	f := softCoord(c.coord, func(i int) bool { return mask&(1<<i) != 0 }, weighted)
	c.memo[key] = f
	return f
}

// located is softCoord of a talk whose matched terms are locs: Bleve's
// list of them, read as it is rather than made into the map of
// DocumentMatch.Complete for every match (a seventh of the seeds'
// allocation), which only the highlighted hits need.
func (c *coordFactors) located(locs []bsearch.FieldTermLocation, weighted bool) float64 {
	if c.clauses == nil {
		// More clauses than a mask holds: counted clause by clause.
		return softCoord(c.coord, func(i int) bool {
			for _, l := range locs {
				if slices.Contains(c.coord[i].terms, l.Term) {
					return true
				}
			}
			return false
		}, weighted)
	}
	var mask uint32
	for _, l := range locs {
		mask |= c.clauses[l.Term]
	}
	return c.factor(mask, weighted)
}

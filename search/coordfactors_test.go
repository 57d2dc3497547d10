package search

import (
	"fmt"
	"testing"

	bsearch "github.com/blevesearch/bleve/v2/search"
)

// TestCoordFactorsAsSoftCoord: the factor kept per clause mask is
// softCoord's for that mask, weighted and not (one memo holds both), read
// from a match's list of matched terms as from a mask; past the clauses a
// mask holds, clause by clause.
func TestCoordFactorsAsSoftCoord(t *testing.T) {
	coord := []coordClause{
		{terms: []string{"rust"}, weight: 4.2},
		{terms: []string{"kernel", "kernels"}, weight: 3.1},
		{terms: []string{"state"}, weight: 0.7},
	}
	cf := newCoordFactors(coord)
	for mask := uint32(1); mask < 8; mask++ {
		var locs []bsearch.FieldTermLocation
		for i, c := range coord {
			if mask&(1<<i) != 0 {
				locs = append(locs, bsearch.FieldTermLocation{Field: "abstract", Term: c.terms[len(c.terms)-1]})
			}
		}
		for _, weighted := range []bool{true, false} {
			want := softCoord(coord, func(i int) bool { return mask&(1<<i) != 0 }, weighted)
			// Twice: the second from the memo.
			for range 2 {
				if got := cf.factor(mask, weighted); got != want {
					t.Errorf("factor(%03b, %v) = %v, want %v", mask, weighted, got, want)
				}
				if got := cf.located(locs, weighted); got != want {
					t.Errorf("located(%03b, %v) = %v, want %v", mask, weighted, got, want)
				}
			}
		}
	}
	if cf.factor(0b011, true) == cf.factor(0b011, false) {
		t.Fatal("weighted and unweighted factors agree: the check above could not tell them apart")
	}

	many := make([]coordClause, maxMaskClauses+1)
	for i := range many {
		many[i] = coordClause{terms: []string{fmt.Sprintf("w%d", i)}, weight: float64(i + 1)}
	}
	cf = newCoordFactors(many)
	locs := []bsearch.FieldTermLocation{{Field: "title", Term: "w0"}, {Field: "abstract", Term: fmt.Sprintf("w%d", maxMaskClauses)}}
	want := softCoord(many, func(i int) bool { return i == 0 || i == maxMaskClauses }, true)
	if got := cf.located(locs, true); got != want {
		t.Errorf("%d clauses: located = %v, want %v", len(many), got, want)
	}
}

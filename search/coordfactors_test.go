package search

import (
	"fmt"
	"slices"
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

// TestLocationsLeaveTheHitAlone: a one-pass hit's matched terms become the
// highlighter's map without the hit (shared by concurrent searches)
// changing.
func TestLocationsLeaveTheHitAlone(t *testing.T) {
	h := &bsearch.DocumentMatch{FieldTermLocations: []bsearch.FieldTermLocation{
		{Field: "title", Term: "rust", Location: bsearch.Location{Pos: 1, Start: 0, End: 4}},
		{Field: "abstract", Term: "kernel", Location: bsearch.Location{Pos: 3, Start: 10, End: 16}},
		{Field: "abstract", Term: "rust", Location: bsearch.Location{Pos: 7, Start: 30, End: 34}},
	}}
	before := slices.Clone(h.FieldTermLocations)
	for range 2 {
		locs := locations(h)
		if n := len(locs["title"]["rust"]) + len(locs["abstract"]["kernel"]) + len(locs["abstract"]["rust"]); n != 3 || len(locs) != 2 {
			t.Fatalf("locations = %v, want rust in the title, kernel and rust in the abstract", locs)
		}
		if got := locs["abstract"]["rust"][0].Start; got != 30 {
			t.Errorf("abstract rust starts at %d, want 30", got)
		}
	}
	if h.Locations != nil || !slices.EqualFunc(h.FieldTermLocations, before, func(a, b bsearch.FieldTermLocation) bool {
		return a.Field == b.Field && a.Term == b.Term && a.Location.Pos == b.Location.Pos && a.Location.Start == b.Location.Start
	}) {
		t.Errorf("the hit changed: Locations %v, list %v (was %v)", h.Locations, h.FieldTermLocations, before)
	}
}

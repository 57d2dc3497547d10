package search

import (
	"sort"
	"strings"
)

// Facets whose counts ignore their own selection are counted in one of two
// ways (BenchmarkFacets and BenchmarkFacetsSynthetic compare them):
//
//   - in Go, over every talk matching the query, for corpora of up to
//     goFacetsMax talks: one Bleve search gives the matching talks, and
//     filtering, counting, sorting and paging them costs microseconds;
//   - by Bleve facet requests for larger corpora, where materialising every
//     hit costs more than counting doc values inside Bleve: one search with
//     every selection for the page and the unselected facets, plus one per
//     selected facet without its own selection.

// facetNames are the facets of a result, in the order of Facets' fields.
var facetNames = [3]string{"track", "level", "room"}

// selection is a request's chosen facet values, one set per facet; an empty
// set selects everything.
type selection [3]map[string]bool

// newSelection resolves the requested values against the corpus's values,
// ignoring case ("inference" selects "Inference"); a value the corpus does
// not have is kept as asked and selects nothing.
func (s *snapshot) newSelection(r Request) selection {
	var sel selection
	for i, vs := range [3][]string{r.Tracks, r.Levels, r.Rooms} {
		if len(vs) == 0 {
			continue
		}
		sel[i] = map[string]bool{}
		for _, v := range vs {
			sel[i][s.canonicalValue(facetNames[i], v)] = true
		}
	}
	return sel
}

func (s *snapshot) canonicalValue(facet, v string) string {
	for _, known := range s.values[facet] {
		if strings.EqualFold(known, v) {
			return known
		}
	}
	return v
}

func (d *doc) facetValue(i int) string {
	switch i {
	case 0:
		return d.track
	case 1:
		return d.level
	}
	return d.room
}

// facetCounter counts facet values over candidate talks; a talk counts in
// a facet when it passes the selections of the other facets.
type facetCounter struct {
	sel     selection
	counts  [3]map[string]int
	missing [3]int
}

func newFacetCounter(sel selection) *facetCounter {
	fc := &facetCounter{sel: sel}
	for i := range fc.counts {
		fc.counts[i] = map[string]int{}
	}
	return fc
}

// add counts d and says whether it passes every selection (is a result).
func (fc *facetCounter) add(d *doc) bool {
	var pass [3]bool
	for i := range pass {
		pass[i] = fc.sel[i] == nil || fc.sel[i][d.facetValue(i)]
	}
	for i := range pass {
		// Facet i ignores its own selection: count d if the others pass.
		if pass[(i+1)%3] && pass[(i+2)%3] {
			if v := d.facetValue(i); v != "" {
				fc.counts[i][v]++
			} else {
				fc.missing[i]++
			}
		}
	}
	return pass[0] && pass[1] && pass[2]
}

// facets returns the counts of every facet.
func (fc *facetCounter) facets() Facets {
	return Facets{
		Track:   orderFacet(fc.counts[0], fc.sel[0]),
		Level:   orderFacet(fc.counts[1], fc.sel[1]),
		Room:    orderFacet(fc.counts[2], fc.sel[2]),
		Missing: map[string]int{"track": fc.missing[0], "level": fc.missing[1], "room": fc.missing[2]},
	}
}

// orderFacet returns a facet's counts ordered by count, then value.
// Selected values are marked, and listed even when no talk has them, so
// that a page can show them to be unselected.
func orderFacet(counts map[string]int, selected map[string]bool) []FacetValue {
	vs := make([]FacetValue, 0, len(counts)+len(selected))
	for v, n := range counts {
		vs = append(vs, FacetValue{Value: v, Count: n, Selected: selected[v]})
	}
	for v := range selected {
		if _, ok := counts[v]; !ok {
			vs = append(vs, FacetValue{Value: v, Count: 0, Selected: true})
		}
	}
	sort.Slice(vs, func(a, b int) bool {
		if vs[a].Count != vs[b].Count {
			return vs[a].Count > vs[b].Count
		}
		return vs[a].Value < vs[b].Value
	})
	return vs
}

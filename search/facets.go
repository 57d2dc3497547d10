package search

import (
	"sort"
	"strings"
)

// Facets are counted in Go over the talks that match the query, rather than
// by Bleve facet requests: counts that ignore each facet's own selection
// would need one more Bleve search per selected facet, while the matching
// talks are already at hand (see BenchmarkFacets for the comparison).

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

// facets returns the counts ordered by count, then value. Selected values
// are marked, and listed even when no talk has them, so that a page can
// show them to be unselected.
func (fc *facetCounter) facets() Facets {
	var out [3][]FacetValue
	for i, counts := range fc.counts {
		vs := make([]FacetValue, 0, len(counts))
		for v, n := range counts {
			vs = append(vs, FacetValue{Value: v, Count: n, Selected: fc.sel[i][v]})
		}
		for v := range fc.sel[i] {
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
		out[i] = vs
	}
	return Facets{
		Track: out[0], Level: out[1], Room: out[2],
		Missing: map[string]int{"track": fc.missing[0], "level": fc.missing[1], "room": fc.missing[2]},
	}
}

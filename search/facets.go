package search

import (
	"sort"
	"strings"
)

// Facets whose counts ignore their own selection are counted in Go, over
// every talk matching the query, at any corpus size: a talk's values are
// indexes into the snapshot's sorted values (doc.facet), so counting is a
// loop over the matches. Corpora of up to Options.OnePassMax talks get their
// matches from one Bleve search; larger ones from a scan of the query's
// searcher that reads only document numbers and scores (scan.go), which
// costs less than Bleve's facet requests: those visited every hit's doc
// values once per request, one request per selected facet. So the index
// has no facet fields (index/fields.go); BenchmarkFacets and
// BenchmarkFacetsSynthetic time the counting.

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

// facetCounter counts facet values over candidate talks; a talk counts in
// a facet when it passes the selections of the other facets. Talks carry
// their values as indexes into the snapshot's sorted values (doc.facet), so
// counting is slice arithmetic, not map lookups: a browse of a large corpus
// counts every talk.
type facetCounter struct {
	sel    selection
	values [3][]string
	pass   [3][]bool // by value index (0: no value); nil: every talk passes
	counts [3][]int  // by value index; counts[i][0] are the talks without a value
}

func (s *snapshot) newFacetCounter(sel selection) *facetCounter {
	fc := &facetCounter{sel: sel}
	for i, name := range facetNames {
		fc.values[i] = s.values[name]
		fc.counts[i] = make([]int, len(fc.values[i])+1)
		if sel[i] != nil {
			fc.pass[i] = make([]bool, len(fc.values[i])+1)
			for k, v := range fc.values[i] {
				fc.pass[i][k+1] = sel[i][v]
			}
		}
	}
	return fc
}

// add counts d and says whether it passes every selection (is a result).
func (fc *facetCounter) add(d *doc) bool {
	var pass [3]bool
	for i := range pass {
		pass[i] = fc.pass[i] == nil || fc.pass[i][d.facet[i]]
	}
	for i := range pass {
		// Facet i ignores its own selection: count d if the others pass.
		if pass[(i+1)%3] && pass[(i+2)%3] {
			fc.counts[i][d.facet[i]]++
		}
	}
	return pass[0] && pass[1] && pass[2]
}

// facets returns the counts of every facet.
func (fc *facetCounter) facets() Facets {
	var out [3][]FacetValue
	for i := range out {
		counts := map[string]int{}
		for k, n := range fc.counts[i][1:] {
			if n > 0 {
				counts[fc.values[i][k]] = n
			}
		}
		out[i] = orderFacet(counts, fc.sel[i])
	}
	return Facets{
		Track: out[0], Level: out[1], Room: out[2],
		Missing: map[string]int{"track": fc.counts[0][0], "level": fc.counts[1][0], "room": fc.counts[2][0]},
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

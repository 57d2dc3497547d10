package search

import (
	"cmp"
	"math/bits"
	"slices"
	"strings"
	"sync"
)

// Facets whose counts ignore their own selection are counted in Go, over
// every talk matching the query, at any corpus size: a talk's values are
// indexes into the snapshot's sorted values (snapshot.facets), so counting is a
// loop over the matches. Corpora of up to Options.OnePassMax talks get their
// matches from one Bleve search; larger ones from a scan of the query's
// searcher that reads only document numbers and scores (scan.go), which
// costs less than Bleve's facet requests: those visited every hit's doc
// values once per request, one request per selected facet. So the index
// has no facet fields (index/fields.go); BenchmarkFacets and
// BenchmarkFacetsSynthetic time the counting.

// facetNames are the facets of a result, in the order of Facets' fields.
var facetNames = [nFacets]string{"track", "level", "room", "day", "kind", "conference", "language"}

// nFacets is the number of facets: the fixed-size arrays below are indexed
// by facet.
const nFacets = 7

// languageFacet is the facet whose talks may have several values: a talk
// given in two languages ("de, en") counts under each, and a selection of
// either finds it. Its first value is in the talk's fixed-size row like
// any facet's, the others beside it (snapshot.moreLanguages).
const languageFacet = 6

// The language facet is the last of facetNames: a facet added after it
// must move this check and languageFacet.
var _ = [1]struct{}{}[len(facetNames)-1-languageFacet]

// selection is a request's chosen facet values, one set per facet; an empty
// set selects everything.
type selection [nFacets]map[string]bool

// newSelection resolves the requested values against the corpus's values,
// ignoring case ("inference" selects "Inference"), and for tracks and rooms
// any spelling of a value (facetkey.go: "Rust devroom" selects "Rust"); a
// value the corpus does not have is kept as asked and selects nothing.
func (s *snapshot) newSelection(r Request) selection {
	var sel selection
	for i, vs := range r.facetValues() {
		if len(vs) == 0 {
			continue
		}
		sel[i] = map[string]bool{}
		for _, v := range vs {
			sel[i][s.canonicalValue(i, v)] = true
		}
	}
	return sel
}

func (s *snapshot) canonicalValue(facet int, v string) string {
	if s.shown[facet] != nil {
		return s.shownValue(facet, v)
	}
	for _, known := range s.values[facetNames[facet]] {
		if strings.EqualFold(known, v) {
			return known
		}
	}
	return v
}

// facetCounter counts facet values over candidate talks; a talk counts in
// a facet when it passes the selections of the other facets. Talks carry
// their values as indexes into the snapshot's sorted values (snapshot.facets), so
// counting is slice arithmetic, not map lookups: a browse of a large corpus
// counts every talk.
type facetCounter struct {
	sel selection
	// byNum are the talks' facet values by document number (snapshot.facets).
	byNum [][nFacets]int32
	// docs are the talks by document number (snapshot.docs).
	docs []*doc
	// more are the talks' languages after the first, by document number
	// (snapshot.moreLanguages); nil when no talk has more than one.
	more   [][]int32
	values [nFacets][]string
	pass   [nFacets][]bool // by value index (0: no value); nil: every talk passes
	counts [nFacets][]int  // by value index; counts[i][0] are the talks without a value
	// when is the request's conditions that are not facets (times, "on
	// the schedule only"): a talk failing them is in no count.
	when timeFilter
	// labels name facet values for people where the value is an id
	// (conference id → name).
	labels map[string]string
	// all is the array of every facet's counts, given back to pool by
	// release.
	all  *[]int
	pool *sync.Pool
}

// release gives the counts back for a later search's counter: fc is not
// used after (facets has copied what it returns).
func (fc *facetCounter) release() {
	fc.pool.Put(fc.all)
	fc.all, fc.counts = nil, [nFacets][]int{}
}

func (s *snapshot) newFacetCounter(sel selection, when timeFilter) *facetCounter {
	fc := &facetCounter{sel: sel, byNum: s.facets, docs: s.docs, more: s.moreLanguages, when: when, labels: s.conferenceNames}
	n := 0
	for i, name := range facetNames {
		fc.values[i] = s.values[name]
		n += len(fc.values[i]) + 1
	}
	// Every facet's counts in one array, recycled from search to search
	// (release): an archive has hundreds of tracks and rooms, and a new
	// array each search was kilobytes for the collector.
	fc.all, _ = s.facetCounts.Get().(*[]int)
	if fc.all == nil || len(*fc.all) != n {
		all := make([]int, n)
		fc.all = &all
	} else {
		clear(*fc.all)
	}
	fc.pool = &s.facetCounts
	counts := *fc.all
	for i := range facetNames {
		m := len(fc.values[i]) + 1
		fc.counts[i], counts = counts[:m:m], counts[m:]
		if sel[i] != nil {
			fc.pass[i] = make([]bool, m)
			for k, v := range fc.values[i] {
				fc.pass[i][k+1] = sel[i][v]
			}
		}
	}
	return fc
}

// selects says whether the request leaves any match out: a facet value
// or a time selected.
func (fc *facetCounter) selects() bool {
	for _, p := range fc.pass {
		if p != nil {
			return true
		}
	}
	return fc.when != timeFilter{}
}

// add counts m's talk and says whether it passes every selection (is a
// result).
func (fc *facetCounter) add(m *match) bool {
	if fc.when != (timeFilter{}) && !fc.when.passes(fc.docs[m.Num]) {
		return false
	}
	values := &fc.byNum[m.Num]
	var more []int32
	if fc.more != nil {
		more = fc.more[m.Num]
	}
	failed, fails := -1, 0
	for i := range nFacets {
		if fc.pass[i] != nil && !fc.pass[i][values[i]] && !(i == languageFacet && fc.anyPasses(i, more)) {
			failed, fails = i, fails+1
		}
	}
	// Facet i ignores its own selection: d counts in i when every other
	// facet passes it, so in every facet when all pass, and in the one
	// that fails when only one does.
	switch fails {
	case 0:
		for i := range nFacets {
			fc.counts[i][values[i]]++
		}
		fc.countMore(more)
	case 1:
		fc.counts[failed][values[failed]]++
		if failed == languageFacet {
			fc.countMore(more)
		}
	}
	return fails == 0
}

// anyPasses says whether any of values passes facet i's selection.
func (fc *facetCounter) anyPasses(i int, values []int32) bool {
	for _, v := range values {
		if fc.pass[i][v] {
			return true
		}
	}
	return false
}

// countMore counts a talk's languages after the first.
func (fc *facetCounter) countMore(more []int32) {
	for _, v := range more {
		fc.counts[languageFacet][v]++
	}
}

// addAll counts the talks of ms for a counter that selects nothing, where
// every match is a result: add without the selections, each facet named,
// so that a query matching most of a large corpus pays no selection test
// and no loop over the facets per match. The talks are counted in
// document-number order, read off a bitset of ms: the scan gives its
// matches as runs of its clauses' postings, so in their own order each
// match's row of facet values is a cache miss, which a walk in the rows'
// order lets the processor fetch ahead. ms must hold each talk once, as
// a scan's matches do.
func (fc *facetCounter) addAll(ms []match) {
	if len(ms) == 0 {
		return
	}
	words := (len(fc.byNum) + 63) / 64
	bp, _ := matchBits.Get().(*[]uint64)
	if bp == nil || cap(*bp) < words {
		b := make([]uint64, words)
		bp = &b
	}
	set := (*bp)[:words]
	clear(set)
	for k := range ms {
		n := ms[k].Num
		set[n>>6] |= 1 << (n & 63)
	}
	// A facet more or less than the seven named below fails to compile.
	const _ = uint(nFacets-7) + uint(7-nFacets)
	c0, c1, c2, c3, c4, c5, c6 := fc.counts[0], fc.counts[1], fc.counts[2], fc.counts[3], fc.counts[4], fc.counts[5], fc.counts[6]
	for w, word := range set {
		for word != 0 {
			v := &fc.byNum[w<<6|bits.TrailingZeros64(word)]
			word &= word - 1
			c0[v[0]]++
			c1[v[1]]++
			c2[v[2]]++
			c3[v[3]]++
			c4[v[4]]++
			c5[v[5]]++
			c6[v[6]]++
		}
	}
	if fc.more != nil {
		for w, word := range set {
			for word != 0 {
				fc.countMore(fc.more[w<<6|bits.TrailingZeros64(word)])
				word &= word - 1
			}
		}
	}
	matchBits.Put(bp)
}

// matchBits recycles addAll's bitsets, one bit a document: a corpus of a
// million talks has a bitset of 125 KB, which each search would otherwise
// leave to the collector.
var matchBits sync.Pool

// facets returns the counts of every facet.
func (fc *facetCounter) facets() Facets {
	var out [nFacets][]FacetValue
	missing := make(map[string]int, nFacets)
	for i := range out {
		out[i] = orderFacet(fc.values[i], fc.counts[i], fc.sel[i], facetNames[i] == "day")
		missing[facetNames[i]] = fc.counts[i][0]
	}
	for k := range out[5] { // conference ids are named for people
		out[5][k].Label = fc.labels[out[5][k].Value]
	}
	return Facets{
		Track: out[0], Level: out[1], Room: out[2],
		Day: out[3], Kind: out[4], Conference: out[5], Language: out[6],
		Missing: missing,
	}
}

// orderFacet returns a facet's counted values (counts[k+1] talks have
// values[k], which are sorted) ordered by count, then value, or by value
// alone (days: a programme reads in date order). Selected values are
// marked, and listed even when no talk has them, so that a page can show
// them to be unselected. The counts are read from the slice, not gathered
// in a map first: a browse of the FOSDEM archive has hundreds of tracks
// and rooms, and the map cost a twelfth of a search there.
func orderFacet(values []string, counts []int, selected map[string]bool, byValue bool) []FacetValue {
	var extra []string
	for v := range selected {
		if k, ok := slices.BinarySearch(values, v); !ok || counts[k+1] == 0 {
			extra = append(extra, v)
		}
	}
	// The counted values by count, then value: values are sorted, so by
	// count, then index. Sorting the (count, index) pairs rather than the
	// values compares no strings: a FOSDEM search's hundreds of tracks and
	// rooms, most of them counted once or twice, were a thirtieth of it.
	type counted struct{ n, k int }
	var room [32]counted // most facets of a page's query: no allocation
	cs := room[:0]
	for k, n := range counts[1:] {
		if n > 0 {
			cs = append(cs, counted{n, k})
		}
	}
	if !byValue {
		slices.SortFunc(cs, func(a, b counted) int { return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.k, b.k)) })
	}
	vs := make([]FacetValue, 0, len(cs)+len(extra))
	for _, c := range cs {
		vs = append(vs, FacetValue{Value: values[c.k], Count: c.n, Selected: selected[values[c.k]]})
	}
	if len(extra) == 0 {
		return vs
	}
	// Selected values no talk has: counted 0, so last by count, and in
	// their place by value.
	for _, v := range extra {
		vs = append(vs, FacetValue{Value: v, Selected: true})
	}
	slices.SortFunc(vs, func(a, b FacetValue) int {
		if !byValue && a.Count != b.Count {
			return cmp.Compare(b.Count, a.Count)
		}
		return strings.Compare(a.Value, b.Value)
	})
	return vs
}

package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index/synthetic"
)

// mapOrderFacet is orderFacet as it was, over a map of the counts: the
// order the slice version must keep.
func mapOrderFacet(counts map[string]int, selected map[string]bool, byValue bool) []FacetValue {
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
		if !byValue && vs[a].Count != vs[b].Count {
			return vs[a].Count > vs[b].Count
		}
		return vs[a].Value < vs[b].Value
	})
	return vs
}

// TestOrderFacet: for random counts (many ties, many zeros) and selections
// of counted, uncounted and unknown values, by count and by value, the
// facet lists the values in the order of the map version.
func TestOrderFacet(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 2))
	values := make([]string, 60)
	for i := range values {
		values[i] = fmt.Sprintf("v%03d", i*3)
	}
	for trial := range 500 {
		counts := make([]int, len(values)+1)
		byMap := map[string]int{}
		for k := range values {
			if n := r.IntN(4) * r.IntN(3); n > 0 {
				counts[k+1] = n
				byMap[values[k]] = n
			}
		}
		var selected map[string]bool
		if trial%3 > 0 {
			selected = map[string]bool{}
			for range r.IntN(5) {
				selected[values[r.IntN(len(values))]] = true
			}
			if trial%3 == 2 {
				selected[fmt.Sprintf("v%03d", 1+3*r.IntN(70))] = true // not a value of the corpus
			}
		}
		for _, byValue := range []bool{false, true} {
			want := mapOrderFacet(byMap, selected, byValue)
			got := orderFacet(values, counts, selected, byValue)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("trial %d, by value %v (-map +slice):\n%s", trial, byValue, diff)
			}
		}
	}
}

// BenchmarkOrderFacet: a facet of 800 values (the FOSDEM archive's rooms
// and tracks run to hundreds), most counted once or twice.
func BenchmarkOrderFacet(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	values := make([]string, 800)
	counts := make([]int, len(values)+1)
	for i := range values {
		values[i] = fmt.Sprintf("Track %04d of the conference", i)
		counts[i+1] = r.IntN(3)
	}
	b.ReportAllocs()
	for b.Loop() {
		orderFacet(values, counts, nil, false)
	}
}

// TestFacetsCountedBesideLocating: a large corpus's request that selects
// nothing counts its facets while its page is located (selectPage); its
// total, facet counts and hits (ids, scores, highlights) are those of the
// same request with every kind selected (every talk has one), which
// counts them first, on 20,000 synthetic talks.
func TestFacetsCountedBesideLocating(t *testing.T) {
	if testing.Short() {
		t.Skip("a synthetic corpus of 20,000 talks")
	}
	e, err := NewWithOptions(synthetic.Talks(seedTalksOf(t), 20_000, 3), Options{CacheSize: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	counted := 0
	for _, q := range []string{"pytorch", "inference", "running LLMs on CPUs", "torch.compile", `"distributed training" -monarch`, "KV cache"} {
		plain, err := e.Search(context.Background(), Request{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		var kinds []string
		for _, v := range plain.Facets.Kind {
			kinds = append(kinds, v.Value)
		}
		all, err := e.Search(context.Background(), Request{Query: q, Kinds: kinds})
		if err != nil {
			t.Fatal(err)
		}
		counts := func(fs []FacetValue) map[string]int {
			m := map[string]int{}
			for _, f := range fs {
				m[f.Value] = f.Count
			}
			return m
		}
		for _, pair := range [][2][]FacetValue{{plain.Facets.Track, all.Facets.Track}, {plain.Facets.Level, all.Facets.Level}, {plain.Facets.Room, all.Facets.Room}, {plain.Facets.Day, all.Facets.Day}, {plain.Facets.Kind, all.Facets.Kind}} {
			if !reflect.DeepEqual(counts(pair[0]), counts(pair[1])) {
				t.Errorf("%q: facet counts %v, with every kind selected %v", q, counts(pair[0]), counts(pair[1]))
			}
		}
		if plain.Total != all.Total || !reflect.DeepEqual(plain.Hits, all.Hits) {
			t.Errorf("%q: %d talks and hits\n%+v\nwith every kind selected %d and\n%+v", q, plain.Total, plain.Hits, all.Total, all.Hits)
		}
		if plain.Total >= minCountBeside && len(plain.Hits) > 0 && len(plain.Hits[0].Highlights.Title)+len(plain.Hits[0].Highlights.Abstract) > 0 {
			counted++
		}
	}
	if counted < 2 {
		t.Errorf("%d queries of at least %d matches with highlights: the facets were hardly counted beside locating", counted, minCountBeside)
	}
}

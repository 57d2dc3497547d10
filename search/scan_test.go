package search

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/talksearch/talksearch/search/syntax"

	"github.com/google/go-cmp/cmp"
)

// TestPageOf: the page selected with a heap is the page of the fully
// sorted results, ties in score included, for both orders and pages at the
// start, middle and end.
func TestPageOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	docs := make([]*doc, 500)
	for i := range docs {
		docs[i] = &doc{ord: i}
	}
	ms := make([]match, len(docs))
	for i, j := range rng.Perm(len(docs)) {
		// Scores from a few values, so ties are many.
		ms[i] = match{d: docs[j], score: float64(rng.IntN(7))}
	}
	ords := func(ms []match) []int {
		out := make([]int, len(ms))
		for i, m := range ms {
			out[i] = m.d.ord
		}
		return out
	}
	for _, tc := range []struct {
		name          string
		by            string
		offset, limit int
	}{
		{"first page", SortRelevance, 0, 20},
		{"second page", SortRelevance, 20, 20},
		{"one", SortRelevance, 0, 1},
		{"deep page, sorted whole", SortRelevance, 400, 100},
		{"past the end", SortRelevance, 600, 20},
		{"time, first page", SortTime, 0, 20},
		{"time, middle", SortTime, 37, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			all := append([]match(nil), ms...)
			sortMatches(all, tc.by)
			want := all[min(tc.offset, len(all)):min(tc.offset+tc.limit, len(all))]
			got := pageOf(append([]match(nil), ms...), tc.by, tc.offset, tc.limit)
			if diff := cmp.Diff(ords(want), ords(got)); diff != "" {
				t.Errorf("page (-sorted +selected):\n%s", diff)
			}
		})
	}
}

// TestScannerNumbersEveryTalk: the scanner of a snapshot knows the talk
// behind every document of its index, and a scan, whole or split in parts,
// finds what a Bleve search finds, with the same scores, soft coordination
// included.
func TestScannerNumbersEveryTalk(t *testing.T) {
	s, err := newSnapshot(fixtureTalks(t), Options{CacheSize: -1, OnePassMax: -1}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	defer s.release()
	known := 0
	for _, d := range s.scan.docs {
		if d != nil {
			known++
		}
	}
	if known != len(s.byID) {
		t.Fatalf("scanner knows %d talks of %d", known, len(s.byID))
	}
	pl := s.compile(syntax.Parse("gpus actors cache torch"))
	scanned, err := s.scan.matches(s.withBM25(context.Background()), pl.q, pl.coord, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The same scan split in parts (one per core, up to maxScanParts).
	s.scan.minPart = 1
	split, err := s.scan.matches(s.withBM25(context.Background()), pl.q, pl.coord, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The Bleve search of the small path, for comparison: its soft
	// coordination reads the matched clauses from the match locations,
	// the scan's from the term dictionaries (scancoord.go).
	if len(pl.coord) < 2 {
		t.Fatalf("%d coordinated clauses: the comparison would not check the coordination", len(pl.coord))
	}
	scan := s.scan
	s.scan = nil
	searched, err := s.candidates(context.Background(), pl)
	s.scan = scan
	if err != nil {
		t.Fatal(err)
	}
	if len(searched) == 0 {
		t.Fatal("query matches nothing: the comparison would prove nothing")
	}
	scores := func(ms []match) map[string]float64 {
		out := map[string]float64{}
		for _, m := range ms {
			out[m.d.talk.ID] = m.score
		}
		return out
	}
	if diff := cmp.Diff(scores(searched), scores(scanned)); diff != "" {
		t.Errorf("scores (-search +scan):\n%s", diff)
	}
	plain, err := s.scan.matches(s.withBM25(context.Background()), pl.q, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Equal(scores(plain), scores(scanned)) {
		t.Error("the scan's scores are the same without coordination: it was not applied")
	}
	if len(split) != len(scanned) {
		t.Errorf("split scan has %d matches, one scan %d", len(split), len(scanned))
	}
	if diff := cmp.Diff(scores(scanned), scores(split)); diff != "" {
		t.Errorf("scores (-one scan +split):\n%s", diff)
	}
}

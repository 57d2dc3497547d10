package search

import (
	"context"
	"testing"
)

// TestSearchAllocations bounds the allocations of a search that misses
// the result cache on the seeds: each is work for the garbage collector,
// which under load is a large part of a search's CPU. The bounds are a
// little above what the engine makes today; a change that makes many
// more per search fails here first. A query of several concepts pays for
// the agreement clauses (agreement.go): Bleve makes a searcher per term
// of each. (Counts, not times: they do not depend on the machine.)
func TestSearchAllocations(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an engine of the seeds")
	}
	if raceDetector {
		t.Skip("allocation counts under the race detector are not the engine's: it drops pooled buffers")
	}
	_, c := seedEngine(t)
	e, err := NewWithOptions(c.Talks, Options{CacheSize: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	for _, tc := range []struct {
		req Request
		max float64
	}{
		{Request{Query: "KV cache"}, 740},
		{Request{Query: "Monrach"}, 240},
		{Request{Query: "how do I run PyTorch in the browser"}, 1030},
		{Request{Query: "inference", Tracks: []string{"Inference & Production"}}, 320},
		{Request{}, 30},
	} {
		got := testing.AllocsPerRun(50, func() {
			if _, err := e.Search(ctx, tc.req); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%+v: %.0f allocations", tc.req.Query, got)
		if got > tc.max {
			t.Errorf("search %q (tracks %v): %.0f allocations, want at most %.0f", tc.req.Query, tc.req.Tracks, got, tc.max)
		}
	}
}

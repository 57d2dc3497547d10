package overlap

import (
	"runtime"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/talksearch/talksearch/search/termvec"
)

// scored is a pair i<j with its cosine.
type scored struct {
	i, j  int
	score float64
}

// collectPairs runs topicalPairs and returns its pairs.
func collectPairs(vecs []termvec.Vector, df []int32, t float64) []scored {
	workers := searchWorkers(len(vecs))
	found := make([][]scored, workers)
	topicalPairs(vecs, df, t, workers, func(w, i, j int, cos, _ float64) {
		found[w] = append(found[w], scored{i, j, cos})
	})
	var all []scored
	for _, f := range found {
		all = append(all, f...)
	}
	return all
}

// bruteForcePairs compares every pair: the reference topicalPairs must
// agree with.
func bruteForcePairs(vecs []termvec.Vector, t float64) []scored {
	var out []scored
	for i := range vecs {
		for j := i + 1; j < len(vecs); j++ {
			if s := termvec.Cosine(vecs[i], vecs[j]); s >= t {
				out = append(out, scored{i, j, s})
			}
		}
	}
	return out
}

func sortScored(s []scored) {
	sort.Slice(s, func(a, b int) bool {
		if s[a].i != s[b].i {
			return s[a].i < s[b].i
		}
		return s[a].j < s[b].j
	})
}

// On the seeds no term reaches the df cap, so the prefix filter must find
// exactly the pairs brute force finds.
func TestTopicalPairsMatchBruteForceOnSeeds(t *testing.T) {
	d := newDetector(seedTalks(t), nil)
	for _, threshold := range []float64{0.05, DefaultClashMin, DefaultMin, 0.3} {
		got := collectPairs(d.vecs, d.voc.DF(), threshold)
		want := bruteForcePairs(d.vecs, threshold)
		sortScored(got)
		sortScored(want)
		if len(got) != len(want) {
			t.Fatalf("t=%.2f: %d pairs, brute force finds %d", threshold, len(got), len(want))
		}
		for k := range got {
			if got[k].i != want[k].i || got[k].j != want[k].j || abs(got[k].score-want[k].score) > 1e-9 {
				t.Fatalf("t=%.2f: pair %d is %+v, brute force %+v", threshold, k, got[k], want[k])
			}
		}
		if threshold == DefaultMin && len(got) == 0 {
			t.Fatalf("no pairs at the default threshold")
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// On synthetic submissions many terms are common (kept out of the index),
// so the search is no longer exact by construction: it must still find
// nearly every pair brute force finds, with the same scores.
func TestTopicalPairsRecallOnSynthetic(t *testing.T) {
	if testing.Short() {
		t.Skip("compares 500k pairs")
	}
	d := newDetector(syntheticSubmissions(1000, 3), nil)
	common := 0
	for _, f := range d.voc.DF() {
		if f > commonFloor {
			common++
		}
	}
	if common < 5 {
		t.Fatalf("only %d common terms: the test would not exercise the dense part", common)
	}
	const threshold = DefaultClashMin
	want := bruteForcePairs(d.vecs, threshold)
	got := collectPairs(d.vecs, d.voc.DF(), threshold)
	scores := map[[2]int]float64{}
	for _, w := range want {
		scores[[2]int{w.i, w.j}] = w.score
	}
	for _, g := range got {
		s, ok := scores[[2]int{g.i, g.j}]
		if !ok || abs(s-g.score) > 1e-9 {
			t.Fatalf("pair %v scores %v, brute force %v (found %v)", g, g.score, s, ok)
		}
	}
	if recall := float64(len(got)) / float64(len(want)); recall < 0.99 {
		t.Errorf("recall %.4f (%d of %d pairs), want ≥ 0.99", recall, len(got), len(want))
	}
}

// The search runs on several goroutines; the report must not depend on
// how they interleave.
func TestDetectDeterministic(t *testing.T) {
	talks := syntheticSubmissions(1200, 5)
	first := Detect(talks, Options{MaxPairs: 300})
	for range 2 {
		if diff := cmp.Diff(first, Detect(talks, Options{MaxPairs: 300}), cmpopts.IgnoreUnexported(Report{})); diff != "" {
			t.Fatalf("reports differ (-first +again):\n%s", diff)
		}
	}
	if searchWorkers(len(talks)) < 2 && runtime.GOMAXPROCS(0) > 1 {
		t.Errorf("the search ran on one goroutine: the test proves nothing")
	}
}

package search

import (
	"context"
	"flag"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/talksearch/talksearch/index/synthetic"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search/ranking"
	"github.com/talksearch/talksearch/search/syntax"
)

// syntheticSize is the corpus of the *Synthetic benchmarks: index.Synthetic
// talks (seeded, with the seeds' vocabulary and facet shapes). Building the
// engine over 100k talks is slow, so these benchmarks skip under -short.
//
//	go test ./search -run '^$' -bench Synthetic -benchtime 200x
//	go test ./search -run '^$' -bench Synthetic -synthetic 20000
var syntheticSize = flag.Int("synthetic", 100_000, "talks in the corpus of the *Synthetic benchmarks")

var (
	synthOnce sync.Once
	synthEng  *Engine
	synthErr  error
)

func syntheticEngine(b *testing.B) *Engine {
	b.Helper()
	if testing.Short() {
		b.Skip("synthetic corpus skipped with -short")
	}
	synthOnce.Do(func() {
		talks := synthetic.Talks(seedTalksOf(b), *syntheticSize, 1)
		t0 := time.Now()
		synthEng, synthErr = NewWithOptions(talks, Options{CacheSize: -1})
		b.Logf("engine over %d synthetic talks built in %v", len(talks), time.Since(t0).Round(time.Millisecond))
	})
	if synthErr != nil {
		b.Fatal(synthErr)
	}
	return synthEng
}

// BenchmarkSearchSynthetic: the benchRequests mix (facets, highlights,
// paging, browsing) without the result cache.
func BenchmarkSearchSynthetic(b *testing.B) {
	e := syntheticEngine(b)
	ctx := context.Background()
	runTimed(b, len(benchRequests), func(i int) error {
		_, err := e.Search(ctx, benchRequests[i])
		return err
	})
}

// BenchmarkScanSynthetic: the scan of each query of the bench requests
// on the synthetic corpus (the required part where it rescores), scoring
// every match (every) and only those that could be among the best ten or
// the rescore window (best: scan.Index.MatchesTop).
//
//	go test ./search -run '^$' -bench ScanSynthetic -benchtime 400x
func BenchmarkScanSynthetic(b *testing.B) {
	s := syntheticEngine(b).snap.Load()
	ctx := s.withBM25(context.Background())
	var plans []plan
	for _, r := range benchRequests {
		if pl := s.compile(syntax.Parse(r.Query)); pl.q != nil {
			plans = append(plans, pl)
		}
	}
	for _, mode := range []string{"every", "best"} {
		b.Run(mode, func(b *testing.B) {
			runTimed(b, len(plans), func(i int) error {
				pl := plans[i]
				q, k := pl.q, 10
				if s.rescores(pl) {
					q, k = pl.required, ranking.RescoreWindow
				}
				if mode == "every" {
					k = 0
				}
				ms, _, err := s.scan.MatchesTop(ctx, q, pl.coord, nil, k)
				s.scan.Recycle(ms)
				return err
			})
		})
	}
}

// BenchmarkRelatedSynthetic: related talks computed on first use, as Talk
// does for corpora too large to precompute.
func BenchmarkRelatedSynthetic(b *testing.B) {
	e := syntheticEngine(b)
	s := e.snap.Load()
	ctx := context.Background()
	docs := s.byTime
	runTimed(b, len(docs), func(i int) error {
		_, err := s.computeRelated(ctx, docs[i])
		return err
	})
}

// BenchmarkFacetsSynthetic times facets counted in Go on the synthetic
// corpus.
func BenchmarkFacetsSynthetic(b *testing.B) {
	benchFacets(b, syntheticEngine(b), "training", []string{"Training Systems"})
}

// BenchmarkSearchSyntheticEach times each request of the mix alone, to find
// the ones that make the mix's p99.
//
//	go test ./search -run '^$' -bench SearchSyntheticEach -benchtime 20x
func BenchmarkSearchSyntheticEach(b *testing.B) {
	e := syntheticEngine(b)
	ctx := context.Background()
	for i, r := range benchRequests {
		b.Run(fmt.Sprintf("%02d-%s", i, r.Query), func(b *testing.B) {
			runTimed(b, 1, func(int) error {
				_, err := e.Search(ctx, r)
				return err
			})
		})
	}
}

func seedTalksOf(tb testing.TB) []index.Talk {
	_, c := seedEngine(tb)
	return c.Talks
}

// BenchmarkVocabularySynthetic: the typo vocabulary of the synthetic corpus,
// one of the derivations a large corpus waits for before it serves.
func BenchmarkVocabularySynthetic(b *testing.B) {
	if testing.Short() {
		b.Skip("synthetic corpus skipped with -short")
	}
	talks := synthetic.Talks(seedTalksOf(b), *syntheticSize, 1)
	for b.Loop() {
		newVocabulary(talks)
	}
}

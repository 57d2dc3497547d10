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

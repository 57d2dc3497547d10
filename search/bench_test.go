package search

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/talksearch/talksearch/search/syntax"
	"golang.org/x/sys/unix"
)

// benchRequests is a mix of what attendees ask: product names, topics,
// acronyms, misspellings, questions, speakers, facet selections, paging,
// time order and browsing.
var benchRequests = []Request{
	{Query: "KV cache"},
	{Query: "Monarch"},
	{Query: "Monrach"},
	{Query: "torch.compile"},
	{Query: "MoE"},
	{Query: "mixture of experts"},
	{Query: "running LLMs on CPUs"},
	{Query: "how do I run PyTorch in the browser"},
	{Query: "flexatention"},
	{Query: "speculativ decoding"},
	{Query: "Jane Xu"},
	{Query: "Red Hat"},
	{Query: "fault tolerance", Tracks: []string{"Training Systems"}},
	{Query: "inference", Tracks: []string{"Inference & Production"}, Rooms: []string{"Central Room", "Master Stage"}},
	{Query: `"distributed training" -monarch`},
	{Query: "kernels", Sort: SortTime},
	{Query: "pytorch", Limit: 10, Offset: 10},
	{Query: ""},
	{Query: "", Tracks: []string{"Frameworks & Compilers"}},
	{Query: "C++ <1ms"},
}

// runTimed runs op b.N times over the requests and reports, besides ns/op,
// the 50th and 99th percentile latency of one call, and the CPU time the
// process spent per call (on a shared machine wall-clock latency includes
// waiting for a core; CPU time does not).
func runTimed(b *testing.B, n int, op func(i int) error) {
	b.Helper()
	lat := make([]time.Duration, 0, 1<<16)
	i := 0
	b.ReportAllocs()
	cpu0 := cpuTime()
	defer func() {
		if i > 0 {
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(i), "cpu-µs/op")
		}
	}()
	for b.Loop() {
		t0 := time.Now()
		if err := op(i % n); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
		i++
	}
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	}
}

// cpuTime is the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSearch: a search with facets and highlights on the seeds, with
// the result cache off (every search runs) and on (the mix repeats, so
// after the first round every search is a hit).
//
//	go test ./search -run '^$' -bench 'Search$' -benchtime 3s
func BenchmarkSearch(b *testing.B) {
	_, c := seedEngine(b)
	for _, bc := range []struct {
		name  string
		cache int
	}{{"nocache", -1}, {"cache", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			e, err := NewWithOptions(c.Talks, Options{CacheSize: bc.cache})
			if err != nil {
				b.Fatal(err)
			}
			defer e.Close()
			ctx := context.Background()
			runTimed(b, len(benchRequests), func(i int) error {
				_, err := e.Search(ctx, benchRequests[i])
				return err
			})
		})
	}
	// What `loadgen --distinct` sends: two or three words of the
	// attendees' queries, one misspelt now and then, so no cache helps.
	b.Run("distinct", func(b *testing.B) {
		e, err := NewWithOptions(c.Talks, Options{CacheSize: -1})
		if err != nil {
			b.Fatal(err)
		}
		defer e.Close()
		reqs := distinctRequests(500)
		ctx := context.Background()
		runTimed(b, len(reqs), func(i int) error {
			_, err := e.Search(ctx, reqs[i])
			return err
		})
	})
}

// distinctRequests makes n queries of two or three words of benchRequests'
// queries, the first misspelt (two letters swapped) in a third of them,
// the same every run.
func distinctRequests(n int) []Request {
	var words []string
	for _, r := range benchRequests {
		for _, w := range strings.Fields(r.Query) {
			if w = strings.Trim(w, `"+-:()`); len(w) > 1 && !slices.Contains(words, w) {
				words = append(words, w)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]Request, n)
	for i := range out {
		ws := make([]string, 2+r.IntN(2))
		for j := range ws {
			ws[j] = words[r.IntN(len(words))]
		}
		if w := ws[0]; r.IntN(3) == 0 && len(w) > 3 {
			k := r.IntN(len(w) - 1)
			ws[0] = w[:k] + string(w[k+1]) + string(w[k]) + w[k+2:]
		}
		out[i] = Request{Query: strings.Join(ws, " ")}
	}
	return out
}

// BenchmarkRelated: the related talks of one talk computed from scratch
// (what New does for every talk of a conference-sized corpus, and Talk does
// on first use for larger ones), and Talk with them precomputed.
func BenchmarkRelated(b *testing.B) {
	e, c := seedEngine(b)
	s := e.snap.Load()
	ctx := context.Background()
	b.Run("compute", func(b *testing.B) {
		runTimed(b, len(c.Talks), func(i int) error {
			d, _ := s.lookUp(c.Talks[i].ID)
			_, err := s.computeRelated(ctx, d)
			return err
		})
	})
	b.Run("talk", func(b *testing.B) {
		runTimed(b, len(c.Talks), func(i int) error {
			_, err := e.Talk(ctx, c.Talks[i].ID)
			return err
		})
	})
}

// BenchmarkNew: indexing the seeds and precomputing the related talks.
func BenchmarkNew(b *testing.B) {
	_, c := seedEngine(b)
	runTimed(b, 1, func(int) error {
		e, err := New(c.Talks)
		if err == nil {
			e.Close()
		}
		return err
	})
}

// BenchmarkFacets times counting facets whose counts ignore their own
// selection, for a query with a track selected, in Go over the matching
// talks. (Bleve facet requests would take one search per selected facet;
// the index keeps no facet fields.)
func BenchmarkFacets(b *testing.B) {
	e, _ := seedEngine(b)
	benchFacets(b, e, "training", []string{"Training Systems"})
}

func benchFacets(b *testing.B, e *Engine, q string, tracks []string) {
	s := e.snap.Load()
	ctx := context.Background()
	pl := s.compile(syntax.Parse(q))
	sel := s.newSelection(Request{Tracks: tracks})
	b.Run("go", func(b *testing.B) {
		runTimed(b, 1, func(int) error {
			cands, _, err := s.candidates(ctx, pl)
			if err != nil {
				return err
			}
			fc := s.newFacetCounter(sel, timeFilter{})
			for _, m := range cands {
				fc.add(&m)
			}
			_ = fc.facets()
			return nil
		})
	})
}

// threadCPUTime is the CPU time of the calling thread so far, from the
// scheduler's own clock: getrusage's per-thread figure moves in clock
// ticks, too coarse for one search, and wall time on a shared machine is
// mostly waiting for a core.
func threadCPUTime() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/talksearch/talksearch/index/ingest"
)

// fosdemArchiveDir is the whole FOSDEM archive (2007–2025, 19 XML files).
var fosdemArchiveDir = filepath.Join("..", "..", "shared", "datasets", "fosdem")

// fosdemArchiveTalks is how many talks the archive's 19 files make.
const fosdemArchiveTalks = 11_262

var (
	archiveOnce sync.Once
	archiveEng  *Engine
	archiveErr  error
)

// archiveEngine is an engine over the whole FOSDEM archive read as `serve
// --seeds ../shared/datasets/fosdem/ --time-zone Europe/Brussels` reads it,
// caches off, built once per binary. It skips when the datasets are absent
// and fails then under CI=true.
func archiveEngine(tb testing.TB) *Engine {
	tb.Helper()
	if _, err := os.Stat(fosdemArchiveDir); err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("FOSDEM archive %s: %v", fosdemArchiveDir, err)
		}
		tb.Skipf("FOSDEM archive %s absent: its benchmark does not run", fosdemArchiveDir)
	}
	archiveOnce.Do(func() {
		loc, err := time.LoadLocation("Europe/Brussels")
		if err != nil {
			archiveErr = err
			return
		}
		c, err := ingest.LoadPaths([]string{fosdemArchiveDir}, ingest.Options{TimeZone: loc})
		if err != nil {
			archiveErr = err
			return
		}
		if n := len(c.Talks); n != fosdemArchiveTalks {
			archiveErr = fmt.Errorf("FOSDEM archive: %d talks, want %d", n, fosdemArchiveTalks)
			return
		}
		archiveEng, archiveErr = NewWithOptions(c.Talks, Options{CacheSize: -1})
	})
	if archiveErr != nil {
		tb.Fatal(archiveErr)
	}
	return archiveEng
}

// fosdemQueries are the FOSDEM collection's judged queries, in file order.
func fosdemQueries(tb testing.TB) []string {
	tb.Helper()
	var qs []string
	readTSV(tb, filepath.Join(fosdemDir, "queries.tsv"), 2, func(_ int, cols []string) { qs = append(qs, cols[0]) })
	return qs
}

// BenchmarkSearchFOSDEM: one iteration asks each of the FOSDEM collection's
// 72 queries once (facets, highlights, exact or estimated total, caches
// off) against the whole archive, and reports the latency of one search
// (p50, p99, max) and the process's CPU time per search.
//
//	go test ./search -run '^$' -bench 'SearchFOSDEM$' -benchtime 20x
func BenchmarkSearchFOSDEM(b *testing.B) {
	e := archiveEngine(b)
	qs := fosdemQueries(b)
	ctx := context.Background()
	lat := make([]time.Duration, 0, 1<<12)
	cpus := make([]time.Duration, 0, 1<<12)
	b.ReportAllocs()
	searches := 0
	// A search of this corpus runs on the calling goroutine (one scan
	// part), so the CPU time of its thread is the search's own, whatever
	// the neighbours take of the cores: the wall-clock tail on a shared
	// machine is mostly waiting for one.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0 := cpuTime()
	for b.Loop() {
		for _, q := range qs {
			t0, c0 := time.Now(), threadCPUTime()
			if _, err := e.Search(ctx, Request{Query: q}); err != nil {
				b.Fatal(err)
			}
			lat = append(lat, time.Since(t0))
			cpus = append(cpus, threadCPUTime()-c0)
			searches++
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(searches), "cpu-µs/search")
	for _, d := range []struct {
		name string
		ds   []time.Duration
	}{{"", lat}, {"thread-cpu-", cpus}} {
		slices.Sort(d.ds)
		b.ReportMetric(float64(d.ds[len(d.ds)/2].Microseconds()), d.name+"p50-µs")
		b.ReportMetric(float64(d.ds[len(d.ds)*99/100].Microseconds()), d.name+"p99-µs")
		b.ReportMetric(float64(d.ds[len(d.ds)-1].Microseconds()), d.name+"max-µs")
	}
}

// BenchmarkSearchFOSDEMEach times each FOSDEM query alone, and logs the
// ten that cost the most CPU per search, to find the queries that make the
// p99.
//
//	go test ./search -run '^$' -bench 'SearchFOSDEMEach' -benchtime 20x
func BenchmarkSearchFOSDEMEach(b *testing.B) {
	e := archiveEngine(b)
	ctx := context.Background()
	type slow struct {
		q     string
		cpuUS float64
		total uint64
	}
	byQuery := map[string]slow{}
	for i, q := range fosdemQueries(b) {
		b.Run(fmt.Sprintf("%02d-%s", i, q), func(b *testing.B) {
			var total uint64
			n := 0
			cpu0 := cpuTime()
			runTimed(b, 1, func(int) error {
				res, err := e.Search(ctx, Request{Query: q})
				if err == nil {
					total = res.Total
				}
				n++
				return err
			})
			byQuery[q] = slow{q, float64((cpuTime() - cpu0).Microseconds()) / float64(max(n, 1)), total}
		})
	}
	all := make([]slow, 0, len(byQuery))
	for _, s := range byQuery {
		all = append(all, s)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].cpuUS > all[j].cpuUS })
	for _, s := range all[:min(10, len(all))] {
		b.Logf("%8.0f cpu-µs  %5d talks  %q", s.cpuUS, s.total, s.q)
	}
}

package index_test

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/index/synthetic"
	"github.com/talksearch/talksearch/seeds"
)

// Index build benchmarks. Reproduce (one run each; the 100k build takes
// tens of seconds on the 2-core machine):
//
//	go test ./index -run '^$' -bench 'BuildSeeds' -benchtime 20x
//	go test ./index -run '^$' -bench 'BuildSynthetic/100k' -benchtime 1x
//	go test ./index -run '^$' -bench 'OpenSynthetic/100k' -benchtime 1x
//
// talks/s is build throughput (talks/cpu-s: see cpuTime). peak-RSS-MiB is
// the process's high-water resident set (VmHWM) after the build, so run
// one 100k benchmark per process; it includes the generated talks held in
// memory, as a serving process holds its corpus. GOMEMLIMIT trades CPU for
// a lower peak (see batchSize):
//
//	GOMEMLIMIT=550MiB go test ./index -run '^$' -bench 'BuildSynthetic/100k' -benchtime 1x

func BenchmarkBuildSeeds(b *testing.B) {
	talks := seedTalks(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		idx, err := index.Build(talks)
		if err != nil {
			b.Fatal(err)
		}
		idx.Close()
	}
	b.ReportMetric(float64(len(talks))*float64(b.N)/b.Elapsed().Seconds(), "talks/s")
}

func BenchmarkBuildSynthetic(b *testing.B) {
	benchSynthetic(b, func(b *testing.B, talks []index.Talk) bleve.Index {
		idx, err := index.Build(talks)
		if err != nil {
			b.Fatal(err)
		}
		return idx
	})
}

// BenchmarkOpenSynthetic builds the persisted index (talksearch serve
// --index DIR) from scratch each time: scorch writes segments to disk and
// merges them there.
func BenchmarkOpenSynthetic(b *testing.B) {
	benchSynthetic(b, func(b *testing.B, talks []index.Talk) bleve.Index {
		b.StopTimer()
		dir := b.TempDir()
		b.StartTimer()
		idx, rep, err := index.Open(dir, talks)
		if err != nil {
			b.Fatal(err)
		}
		if rep.Reused || rep.Docs != uint64(len(talks)) {
			b.Fatalf("open: %+v", rep)
		}
		return idx
	})
}

// benchSynthetic times build on 10k and 100k synthetic talks; closing the
// index is not timed.
func benchSynthetic(b *testing.B, build func(*testing.B, []index.Talk) bleve.Index) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(strconv.Itoa(n/1000)+"k", func(b *testing.B) {
			talks := synthetic.Talks(seedTalks(b), n, 1)
			cpu0 := cpuTime()
			b.ResetTimer()
			for b.Loop() {
				idx := build(b, talks)
				b.StopTimer()
				idx.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "talks/s")
			if cpu := cpuTime() - cpu0; cpu > 0 {
				b.ReportMetric(float64(n)*float64(b.N)/cpu.Seconds(), "talks/cpu-s")
			}
			if rss := peakRSSMiB(); rss > 0 {
				b.ReportMetric(rss, "peak-RSS-MiB")
			}
		})
	}
}

// cpuTime is the user+system CPU time of the process so far. On a machine
// shared with other work, talks per CPU-second is the figure that does not
// depend on the neighbours (wall-clock talks/s does); with 2 idle cores the
// wall figure approaches it, Bleve analysing on both.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakRSSMiB reads VmHWM from /proc/self/status (Linux); 0 elsewhere.
func peakRSSMiB() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err != nil {
				return 0
			}
			return kb / 1024
		}
	}
	return 0
}

// seedTalks are the embedded seeds' talks, ingested.
func seedTalks(tb testing.TB) []index.Talk {
	tb.Helper()
	c, err := ingest.Load(seeds.FS)
	if err != nil {
		tb.Fatal(err)
	}
	return c.Talks
}

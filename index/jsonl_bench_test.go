package index_test

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/talksearch/talksearch/index"
)

// Benchmarks on a corpus file in the export format, the one the peers of
// ../shared/peers read (`talksearch export`, or gen_synth.py's 100k
// generated talks), so build figures compare with theirs:
//
//	python3 ../shared/peers/gen_synth.py seeds.jsonl 100000 /tmp/synth-100k.jsonl
//	go test ./index -run '^$' -bench 'JSONL/build' -benchtime 1x -jsonl /tmp/synth-100k.jsonl
//	go test ./index -run '^$' -bench 'JSONL/open' -benchtime 1x -jsonl /tmp/synth-100k.jsonl
//
// Run one per process: peak-RSS-MiB is the process's high-water mark.
var jsonlCorpus = flag.String("jsonl", "", "corpus in the export format (JSON Lines) of the *JSONL benchmarks")

// readJSONL decodes one index.Talk a line.
func readJSONL(tb testing.TB, path string) []index.Talk {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var talks []index.Talk
	for line := 1; sc.Scan(); line++ {
		var t index.Talk
		if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
			tb.Fatalf("%s:%d: %v", path, line, err)
		}
		talks = append(talks, t)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return talks
}

// BenchmarkJSONL: build (in memory, index.Build), open (a fresh on-disk
// index, index.Open) and reopen (index.Open reusing it, as a restart does).
// heap-MiB is the Go heap the index holds once built (after a GC, less the
// talks), the part of the memory per talk that the index adds.
func BenchmarkJSONL(b *testing.B) {
	if *jsonlCorpus == "" {
		b.Skip("no -jsonl corpus")
	}
	talks := readJSONL(b, *jsonlCorpus)
	heap := func() float64 {
		runtime.GC()
		debug.FreeOSMemory()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.HeapInuse) / (1 << 20)
	}
	// cpu0 is set when a benchmark's loop starts: on this shared machine
	// talks per CPU-second is the figure that does not depend on the
	// neighbours.
	var cpu0 time.Duration
	report := func(b *testing.B, idx bleve.Index, base float64) {
		b.StopTimer()
		b.ReportMetric(float64(len(talks))*float64(b.N)/b.Elapsed().Seconds(), "talks/s")
		b.ReportMetric(float64(len(talks))*float64(b.N)/(cpuTime()-cpu0).Seconds(), "talks/cpu-s")
		b.ReportMetric(heap()-base, "heap-MiB")
		b.ReportMetric(peakRSSMiB(), "peak-RSS-MiB")
		idx.Close()
	}
	b.Run("build", func(b *testing.B) {
		base := heap()
		var idx bleve.Index
		cpu0 = cpuTime()
		for b.Loop() {
			if idx != nil {
				idx.Close()
			}
			var err error
			if idx, err = index.Build(talks); err != nil {
				b.Fatal(err)
			}
		}
		report(b, idx, base)
	})
	dir := b.TempDir()
	open := func(b *testing.B, reused bool) {
		if reused { // the index to reuse, if open did not run before
			idx, _, err := index.Open(dir, talks)
			if err != nil {
				b.Fatal(err)
			}
			idx.Close()
		}
		base := heap()
		var idx bleve.Index
		cpu0 = cpuTime()
		for b.Loop() {
			if idx != nil {
				idx.Close()
			}
			b.StopTimer()
			if !reused {
				os.RemoveAll(dir)
			}
			b.StartTimer()
			var rep index.OpenReport
			var err error
			if idx, rep, err = index.Open(dir, talks); err != nil {
				b.Fatal(err)
			}
			if rep.Reused != reused {
				b.Fatal(fmt.Errorf("open: reused %v, want %v (%s)", rep.Reused, reused, rep.Reason))
			}
		}
		report(b, idx, base)
	}
	b.Run("open", func(b *testing.B) { open(b, false) })
	b.Run("reopen", func(b *testing.B) { open(b, true) })
}

package overlap

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/talksearch/talksearch/index"
)

// archiveShaped is syntheticSubmissions made to look like a FOSDEM
// archive: 17 conferences (one a year), 3,000 speakers of whom some give a
// talk every year, so speakers, conflicts and resubmissions have work.
func archiveShaped(n int) []index.Talk {
	talks := syntheticSubmissions(n, 1)
	for k := range talks {
		year := 2007 + k%17
		talks[k].Conference = index.Conference{ID: fmt.Sprintf("fosdem-%d", year), Name: fmt.Sprintf("FOSDEM %d", year)}
		talks[k].Speakers = []index.Speaker{{Name: fmt.Sprintf("Speaker %d", (k*7919)%3000)}}
		talks[k].Track = fmt.Sprintf("Track %d", k%40)
	}
	return talks
}

// peakHeap runs f and returns the most heap in use (live and not yet
// collected) seen by a sampler every 50 ms, less the heap before, in MiB.
func peakHeap(f func()) float64 {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	done := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		var m runtime.MemStats
		var max uint64
		for {
			select {
			case <-done:
				runtime.ReadMemStats(&m)
				peak <- maxU(max, m.HeapAlloc)
				return
			case <-tick.C:
				runtime.ReadMemStats(&m)
				max = maxU(max, m.HeapAlloc)
			}
		}
	}()
	f()
	close(done)
	return float64(<-peak-before.HeapAlloc) / (1 << 20)
}

func maxU(a, b uint64) uint64 {
	if a > b {
		return a
	}
	return b
}

// go test -run XXX -bench Archive12k -benchtime 1x ./search/overlap
// (the whole FOSDEM archive is 12,262 talks).
func BenchmarkDetectArchive12k(b *testing.B) {
	talks := archiveShaped(12262)
	b.ResetTimer()
	var rep *Report
	mib := peakHeap(func() {
		for range b.N {
			rep = Detect(talks, Options{})
		}
	})
	b.ReportMetric(mib, "peak-MiB")
	b.ReportMetric(float64(len(rep.Conflicts)), "conflicts")
	b.ReportMetric(float64(len(rep.Resubmissions)+rep.MoreResubmissions), "resubmissions")
}

// go test -run XXX -bench ReadCSV1M -benchtime 1x ./search/overlap
// Reads 1,000,000 CSV rows streamed (the talks counted, not kept) and
// reports the peak heap; the file is made in a temporary directory.
func BenchmarkReadCSV1M(b *testing.B) {
	path := filepath.Join(b.TempDir(), "million.csv")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "id,title,abstract,speakers,track,room,start,end")
	words := seedWords()
	for k := range rowsCSV {
		abstract := strings.Join(words[k%(len(words)-60):k%(len(words)-60)+60], " ")
		fmt.Fprintf(w, "s%d,Talk number %d,\"%s\",Speaker %d,Track %d,Room %d,2026-04-08 10:00,2026-04-08 10:30\n",
			k, k, strings.ReplaceAll(abstract, `"`, `""`), k%5000, k%40, k%20)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	st, _ := os.Stat(path)
	b.ResetTimer()
	var sum Summary
	mib := peakHeap(func() {
		for range b.N {
			f, err := os.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			in := NewImporter(ReadOptions{}, func(index.Talk) { n++ })
			if sum, err = in.Read(path, f); err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
	})
	if sum.Kept != rowsCSV {
		b.Fatalf("summary %+v", sum)
	}
	b.ReportMetric(mib, "peak-MiB")
	b.ReportMetric(float64(st.Size())/(1<<20), "file-MiB")
}

var rowsCSV = 1_000_000

// repeatReader yields n bytes of b, without holding them.
type repeatReader struct {
	b byte
	n int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), r.n)
	for i := range p[:k] {
		p[i] = r.b
	}
	r.n -= k
	return k, nil
}

// go test -run XXX -bench HugeLine -benchtime 1x ./search/overlap
// A 17 MiB JSON line read from a stream (never in memory whole): the peak
// heap stays near the 1 MiB row bound.
func BenchmarkHugeLine(b *testing.B) {
	var sum Summary
	mib := peakHeap(func() {
		for range b.N {
			r := io.MultiReader(strings.NewReader(`{"id":"big","title":"Huge","abstract":"`), &repeatReader{'x', 17 << 20},
				strings.NewReader("\"}\n"+`{"id":"c","title":"After","abstract":"The row after."}`+"\n"))
			in := NewImporter(ReadOptions{}, func(index.Talk) {})
			var err error
			if sum, err = in.Read("big.jsonl", r); err != nil {
				b.Fatal(err)
			}
		}
	})
	if sum.Skipped != 1 || sum.Kept != 1 {
		b.Fatalf("summary %+v", sum)
	}
	b.ReportMetric(mib, "peak-MiB")
}

package overlap

import (
	"fmt"
	"runtime"
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

// Package gcgoal tunes a serving process's garbage collector to the heap
// its engine keeps live.
//
// Go's default goal (GOGC=100) is twice the live heap. A conference's
// engine is small, so with that goal the collector runs every few hundred
// searches and costs a noticeable share of a search's CPU. Tune raises
// the percent after every collection so that the goal is Threshold while
// the live heap is below half of it, at most MaxPercent of it; a live heap
// past half of Threshold (a corpus of 100k talks) gets Go's default. So
// the memory it adds is bounded: the goal never passes Threshold unless
// Go's own goal does.
//
// A memory limit (debug.SetMemoryLimit) cannot express this on its own: it
// only ever lowers the goal, and a heap that grew past it (a reload of a
// larger corpus) would make the collector run without pause. A percent set
// once would not follow the heap as the caches fill it. So the percent is
// set again after each collection, from the heap that collection found live.
//
// A large build in the process (a reload's, index.TightenGC) bounds its
// heap with a memory limit instead, which Tune never sets: the goal is the
// lower of the two, so the percent set here leaves the build's bound in
// force, and the build gives the limit back when it is done.
package gcgoal

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

const (
	// Threshold is the heap goal of a small heap.
	Threshold = 128 << 20
	// MaxPercent bounds the goal of a tiny heap at six times its size.
	MaxPercent = 500
	// minPercent is Go's default: a large heap is collected as without Tune.
	minPercent = 100
)

// Tune starts tuning the collector, unless the environment sets GOGC: that
// is the operator's choice, kept as it is. It reports whether the collector
// is tuned. Once started, tuning lasts as long as the process: a later call
// (the tests start serve many times in one process) changes nothing.
func Tune() bool {
	if _, ok := os.LookupEnv("GOGC"); ok {
		return false
	}
	start.Do(func() {
		retune()
		afterNextGC()
	})
	return true
}

var start sync.Once

// sentinel is what afterNextGC hangs its cleanup on. It holds a pointer so
// that it is never one of the tiny pointer-free objects the allocator packs
// together, whose cleanups may wait for a neighbour to die.
type sentinel struct{ _ *byte }

// afterNextGC retunes once the next collection has found a fresh sentinel
// unreachable, and arms itself again for the one after.
func afterNextGC() {
	runtime.AddCleanup(new(sentinel), func(struct{}) {
		retune()
		afterNextGC()
	}, struct{}{})
}

// retune sets the percent from the live heap the last collection marked,
// the figure Go's own goal is a multiple of, so that the goal is Threshold
// itself. It reads no state of its own, so a call from Tune and one from a
// cleanup never race.
func retune() {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	if live := s[0].Value.Uint64(); live > 0 {
		debug.SetGCPercent(percent(live))
	}
}

// percent is the GOGC that makes the goal of a live heap Threshold, within
// minPercent and MaxPercent.
func percent(live uint64) int {
	if live >= Threshold/2 {
		return minPercent
	}
	return int(min(MaxPercent, max(minPercent, (Threshold-live)*100/live)))
}

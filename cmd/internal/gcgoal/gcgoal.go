// Package gcgoal tunes a serving process's garbage collector to the heap
// its engine keeps live.
//
// Go's default goal (GOGC=100) is twice the live heap. A conference's
// engine is small (the embedded seeds keep about 8 MiB live), so the
// collector ran every couple of hundred searches and took a fifth of a
// search's CPU, more than the highlighting. gctuner (bytedance/gopkg)
// raises the percent after every collection so that the goal is
// Threshold while the heap in use is below half of it, at most MaxPercent
// of it; a heap past half of Threshold (100k talks keep 180 MiB) gets Go's
// default. So the memory it adds is bounded: at most Threshold/2 over
// Go's own goal.
package gcgoal

import (
	"os"
	"sync"

	"github.com/bytedance/gopkg/util/gctuner"
)

const (
	// Threshold is the heap goal of a small heap.
	Threshold = 128 << 20
	// MaxPercent bounds the goal of a tiny heap at six times its size.
	MaxPercent = 500
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
		gctuner.SetMinGCPercent(100)
		gctuner.SetMaxGCPercent(MaxPercent)
		gctuner.Tuning(Threshold)
	})
	return true
}

// start applies gctuner's settings once, before its tuner runs: they are
// process-wide, and the tuner reads them after every collection without
// synchronisation, so setting them again while it runs was a data race
// (caught by -race in cmd/talksearch's tests, which serve many times).
var start sync.Once

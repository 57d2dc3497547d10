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

	"github.com/bytedance/gopkg/util/gctuner"
)

const (
	// Threshold is the heap goal of a small heap.
	Threshold = 128 << 20
	// MaxPercent bounds the goal of a tiny heap at six times its size.
	MaxPercent = 500
)

// Tune starts tuning the collector, unless the environment sets GOGC: that
// is the operator's choice, kept as it is. It reports whether it started.
func Tune() bool {
	if _, ok := os.LookupEnv("GOGC"); ok {
		return false
	}
	gctuner.SetMinGCPercent(100)
	gctuner.SetMaxGCPercent(MaxPercent)
	gctuner.Tuning(Threshold)
	return true
}

package gcgoal

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/talksearch/talksearch/index"
)

func TestPercent(t *testing.T) {
	tests := []struct {
		name string
		live uint64
		want int
	}{
		{"tiny heap", 1 << 20, MaxPercent},
		{"a sixth of the threshold", Threshold / 6, MaxPercent},
		{"a quarter of the threshold", Threshold / 4, 300},
		{"just under half", Threshold/2 - 1, 100},
		{"half", Threshold / 2, 100},
		{"past the threshold", 2 * Threshold, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := percent(tt.live); got != tt.want {
				t.Errorf("percent(%d MiB) = %d, want %d", tt.live>>20, got, tt.want)
			}
		})
	}
}

// TestTune: with this test's small heap, the percent after a collection
// is the largest Tune allows; with a heap past half the threshold it is
// Go's default; a GOGC in the environment is left alone.
func TestTune(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "") // restored after the test
	os.Unsetenv("GOGC")
	if !Tune() {
		t.Fatal("Tune did not start without GOGC")
	}
	if got := percentAfterGC(MaxPercent); got != MaxPercent {
		t.Errorf("percent %d with a test's heap, want %d", got, MaxPercent)
	}
	big := make([]byte, Threshold*3/4)
	if got := percentAfterGC(100); got != 100 {
		t.Errorf("percent %d with %d MiB live, want 100", got, len(big)>>20)
	}
	runtime.KeepAlive(big)
	if got := percentAfterGC(MaxPercent); got != MaxPercent {
		t.Errorf("percent %d once the large heap is gone, want %d", got, MaxPercent)
	}
	t.Setenv("GOGC", "100")
	if Tune() {
		t.Error("Tune started with GOGC set")
	}
}

// percentAfterGC collects until the percent in force is want or a few
// seconds have passed, and returns the percent: the tuner sets it in a
// cleanup, which runs after a collection on a goroutine of its own.
func percentAfterGC(want int) int {
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		time.Sleep(time.Millisecond)
		s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
		metrics.Read(s)
		pct := int(s[0].Value.Uint64())
		if pct == want || time.Now().After(deadline) {
			return pct
		}
	}
}

// TestTuneTwice: a second Tune (serve started again in one process, as
// cmd/talksearch's tests do) starts no second tuner and changes nothing.
func TestTuneTwice(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC")
	for range 3 {
		if !Tune() {
			t.Fatal("Tune did not start without GOGC")
		}
		percentAfterGC(MaxPercent)
	}
	if got := percentAfterGC(MaxPercent); got != MaxPercent {
		t.Errorf("percent %d with a test's heap after three Tune calls, want %d", got, MaxPercent)
	}
}

// TestTuneKeepsTightening: while a large build bounds the heap
// (index.TightenGC), the tuner's percent, set again after every
// collection, leaves the build's memory limit in force, and the heap goal
// under it; once the build is done, the tuner's percent is all there is.
func TestTuneKeepsTightening(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC")
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		t.Skip("GOMEMLIMIT is set: index.TightenGC keeps the environment's limit")
	}
	if !Tune() {
		t.Fatal("Tune did not start without GOGC")
	}
	restore := index.TightenGC(1_000_000, 2)
	limit := debug.SetMemoryLimit(-1)
	if limit == math.MaxInt64 {
		t.Fatal("a large build set no memory limit")
	}
	if got := percentAfterGC(MaxPercent); got != MaxPercent {
		t.Errorf("percent %d with a test's heap during a build, want %d", got, MaxPercent)
	}
	s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Errorf("limit %d after the tuner's collections, want the build's %d", got, limit)
	}
	if goal := s[0].Value.Uint64(); goal > uint64(limit) {
		t.Errorf("heap goal %d during a build, past its limit %d", goal, limit)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit %d after the build, want none", got)
	}
	if got := percentAfterGC(MaxPercent); got != MaxPercent {
		t.Errorf("percent %d after the build, want %d", got, MaxPercent)
	}
}

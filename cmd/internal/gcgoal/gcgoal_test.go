package gcgoal

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
)

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
	if got := percentAfterGC(); got != MaxPercent {
		t.Errorf("percent %d with a test's heap, want %d", got, MaxPercent)
	}
	big := make([]byte, Threshold*3/4)
	if got := percentAfterGC(); got != 100 {
		t.Errorf("percent %d with %d MiB live, want 100", got, len(big)>>20)
	}
	runtime.KeepAlive(big)
	t.Setenv("GOGC", "100")
	if Tune() {
		t.Error("Tune started with GOGC set")
	}
}

// percentAfterGC collects (the tuner sets the percent in a finalizer run
// after each collection) and returns the percent in force.
func percentAfterGC() int {
	runtime.GC()
	runtime.GC() // the finalizer of the first has run
	pct := debug.SetGCPercent(-1)
	debug.SetGCPercent(pct)
	return pct
}

// TestTuneTwice: a second Tune while the tuner runs (serve started again
// in one process, as cmd/talksearch's tests do) changes no setting under
// the tuner's feet: under -race, setting gctuner's percents again raced
// with the tuner reading them after a collection.
func TestTuneTwice(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC")
	for range 3 {
		if !Tune() {
			t.Fatal("Tune did not start without GOGC")
		}
		percentAfterGC()
	}
	if got := percentAfterGC(); got != MaxPercent {
		t.Errorf("percent %d with a test's heap after three Tune calls, want %d", got, MaxPercent)
	}
}

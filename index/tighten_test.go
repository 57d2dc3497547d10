package index

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// noEnvGC skips a test of TightenGC when the environment tunes the
// collector, which TightenGC then leaves alone.
func noEnvGC(t *testing.T) {
	t.Helper()
	if envTunesGC() {
		t.Skip("GOGC or GOMEMLIMIT is set: TightenGC keeps the environment's settings")
	}
}

// TestTightenGC: a large build sets a memory limit of at least the heap it
// allows over the heap live, leaves the percent alone and gives the limit
// back; a small build, a limit already set and a collector turned off are
// left as they are.
func TestTightenGC(t *testing.T) {
	noEnvGC(t)
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	const none = math.MaxInt64
	for _, c := range []struct {
		name           string
		talks          int
		percent, limit int64
		tightened      bool
	}{
		{"large build", releaseMemoryMin, 100, none, true},
		{"small build", releaseMemoryMin - 1, 100, none, false},
		{"limit already set", releaseMemoryMin, 100, 1 << 40, false},
		{"collector off", releaseMemoryMin, -1, none, false},
	} {
		debug.SetGCPercent(int(c.percent))
		debug.SetMemoryLimit(c.limit)
		restore := TightenGC(c.talks, 3)
		live, _ := heapFigures()
		during := debug.SetMemoryLimit(-1)
		if c.tightened && (during == none || uint64(during) < 3*live) {
			t.Errorf("%s: limit during the build %d, want at least %d (three times %d live)", c.name, during, 3*live, live)
		}
		if !c.tightened && during != c.limit {
			t.Errorf("%s: limit during the build %d, want %d", c.name, during, c.limit)
		}
		if got := debug.SetGCPercent(int(c.percent)); int64(got) != c.percent {
			t.Errorf("%s: percent during the build %d, want %d", c.name, got, c.percent)
		}
		restore()
		if got := debug.SetMemoryLimit(-1); got != c.limit {
			t.Errorf("%s: limit after the build %d, want %d", c.name, got, c.limit)
		}
	}
	debug.SetGCPercent(100)
}

// TestTightenGCOneAtATime: a tightening while another holds changes
// nothing, and its restore does not lift the first one's limit.
func TestTightenGCOneAtATime(t *testing.T) {
	noEnvGC(t)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	first := TightenGC(releaseMemoryMin, 3)
	limit := debug.SetMemoryLimit(-1)
	second := TightenGC(releaseMemoryMin, 6)
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Errorf("limit %d after a second tightening, want the first's %d", got, limit)
	}
	second()
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Errorf("limit %d after the second tightening's restore, want the first's %d", got, limit)
	}
	first()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit %d after the first's restore, want none", got)
	}
}

// TestTightenGCFollowsLiveHeap: a live heap past four fifths of the bound
// raises the limit after a collection to at least a quarter again the live
// heap, so the collector does not run without pause; once the tightening
// is over, collections leave the limit alone.
func TestTightenGCFollowsLiveHeap(t *testing.T) {
	noEnvGC(t)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	restore := TightenGC(releaseMemoryMin, 1.1)
	start := debug.SetMemoryLimit(-1)
	big := make([]byte, 2*start) // twice the bound, live
	for i := range big {
		big[i] = 1 // resident, so that it counts
	}
	want := int64(len(big)) * 5 / 4
	if got := limitAfterGC(want); got < want {
		t.Errorf("limit %d with %d bytes live, want at least %d", got, len(big), want)
	}
	runtime.KeepAlive(big)
	restore()
	runtime.GC()
	time.Sleep(10 * time.Millisecond) // a cleanup armed before the restore
	runtime.GC()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit %d after the tightening and two collections, want none", got)
	}
}

// limitAfterGC collects until the limit in force is at least want or a few
// seconds have passed, and returns the limit: TightenGC sets it in a
// cleanup, which runs after a collection on a goroutine of its own.
func limitAfterGC(want int64) int64 {
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		time.Sleep(time.Millisecond)
		if l := debug.SetMemoryLimit(-1); l >= want || time.Now().After(deadline) {
			return l
		}
	}
}

func TestEnvTunesGC(t *testing.T) {
	for _, name := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Setenv("GOGC", "")
		t.Setenv("GOMEMLIMIT", "")
		os.Unsetenv("GOGC")
		os.Unsetenv("GOMEMLIMIT")
		if envTunesGC() {
			t.Fatalf("envTunesGC with neither GOGC nor GOMEMLIMIT set")
		}
		t.Setenv(name, "100")
		if !envTunesGC() {
			t.Errorf("envTunesGC false with %s set", name)
		}
	}
}

// TestTightBase: a tightening allows times the live heap, but at most a
// percent of 75 over it beyond tightRoom.
func TestTightBase(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live  uint64
		times float64
		want  uint64
	}{
		{40 * mib, 3, 120 * mib},     // times the live heap
		{100 * mib, 3, 228 * mib},    // the live heap and tightRoom
		{800 * mib, 3, 1400 * mib},   // a percent of 75
		{800 * mib, 1.5, 1200 * mib}, // times it again, under that
	} {
		if got := tightBase(c.live, c.times); got != c.want {
			t.Errorf("tightBase(%d MiB, %v) = %d MiB, want %d", c.live/mib, c.times, got/mib, c.want/mib)
		}
	}
}

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// BenchmarkRestartFOSDEM times what a restart of `serve --index DIR` on the
// FOSDEM archive costs up to serving: each op is a new run() reusing the
// index the first one built, from start to its "serving on" line (the
// index and the engine are ready before it is printed). cpu-µs/op is the
// process's CPU time, the figure to quote on a loaded machine.
//
//	go test ./cmd/talksearch -run '^$' -bench RestartFOSDEM -benchtime 5x -cpuprofile cpu.out
func BenchmarkRestartFOSDEM(b *testing.B) {
	seeds := sharedFosdem(b)
	dir := b.TempDir()
	args := []string{"serve", "--addr", "127.0.0.1:0", "--seeds", seeds, "--time-zone", "Europe/Brussels", "--index", dir, "--log-level", "warn"}
	_, _, stop := startServe(b, args, nil) // builds the index
	if err := stop(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu0 := cpuTime(b)
	for i := 0; i < b.N; i++ {
		_, _, stop := startServe(b, args, nil)
		b.StopTimer()
		if err := stop(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64((cpuTime(b)-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
}

// sharedFosdem returns ../shared/datasets/fosdem, skipping when it is
// absent (failing under CI=true, where it must be there).
func sharedFosdem(tb testing.TB) string {
	tb.Helper()
	p := filepath.Join("..", "..", "..", "shared", "datasets", "fosdem")
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("shared dataset %s missing under CI: %v", p, err)
		}
		tb.Skipf("shared dataset %s absent: %v", p, err)
	}
	return p
}

func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

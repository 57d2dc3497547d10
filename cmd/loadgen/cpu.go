package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"
)

// CPUStats is the processor time a phase cost, which unlike throughput
// does not depend on what else the machine runs: per request, it is what
// a server would need on a machine of its own.
type CPUStats struct {
	ServerSeconds       float64 `json:"server_s,omitempty"`
	ServerCores         float64 `json:"server_cores,omitempty"` // server CPU seconds per second
	ServerMSPerRequest  float64 `json:"server_ms_per_request,omitempty"`
	LoadgenSeconds      float64 `json:"loadgen_s"`
	LoadgenMSPerRequest float64 `json:"loadgen_ms_per_request"`
}

// cpuMeter reads the CPU time of the server (if a PID is known) and of
// this process at the start of a phase.
type cpuMeter struct {
	pid           int
	server, self0 time.Duration
}

func startCPU(pid int) *cpuMeter {
	m := &cpuMeter{pid: pid, self0: selfCPU()}
	if pid > 0 {
		m.server, _ = processCPU(pid)
	}
	return m
}

// stop returns the CPU time used since start, over n requests in elapsed.
func (m *cpuMeter) stop(n int, elapsed time.Duration) CPUStats {
	var st CPUStats
	self := selfCPU() - m.self0
	st.LoadgenSeconds = self.Seconds()
	if n > 0 {
		st.LoadgenMSPerRequest = ms(self) / float64(n)
	}
	if m.pid > 0 {
		if now, err := processCPU(m.pid); err == nil {
			server := now - m.server
			st.ServerSeconds = server.Seconds()
			st.ServerCores = server.Seconds() / elapsed.Seconds()
			if n > 0 {
				st.ServerMSPerRequest = ms(server) / float64(n)
			}
		}
	}
	return st
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// clockTick is the unit of the times in /proc/PID/stat: USER_HZ, which
// Linux fixes at 100 on every architecture Go runs on.
const clockTick = 10 * time.Millisecond

// processCPU is the user plus system time of a process so far.
func processCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("read CPU time of pid %d: %w", pid, err)
	}
	// The command name, field 2, is in parentheses and may hold spaces:
	// the fields that follow are counted from its closing parenthesis.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("read CPU time of pid %d: no command name in %q", pid, b)
	}
	f := bytes.Fields(b[i+1:])
	// f[0] is field 3 (state); utime and stime are fields 14 and 15.
	if len(f) < 13 {
		return 0, fmt.Errorf("read CPU time of pid %d: %d fields", pid, len(f))
	}
	var total time.Duration
	for _, s := range f[11:13] {
		ticks, err := strconv.ParseInt(string(s), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("read CPU time of pid %d: %w", pid, err)
		}
		total += time.Duration(ticks) * clockTick
	}
	return total, nil
}

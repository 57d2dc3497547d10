package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"
)

// RSSStats is the server's resident memory over a run, in KiB. HWM is the
// kernel's own peak (VmHWM), which also sees spikes between samples.
type RSSStats struct {
	StartKiB int64       `json:"start_kib"`
	PeakKiB  int64       `json:"peak_kib"`
	EndKiB   int64       `json:"end_kib"`
	HWMKiB   int64       `json:"hwm_kib"`
	Samples  []RSSSample `json:"samples"` // one per keep period, for a soak
}

// RSSSample is the resident memory at a time into the run.
type RSSSample struct {
	AtSeconds float64 `json:"at_s"`
	KiB       int64   `json:"kib"`
}

// rssSampler reads /proc/PID/status often, to catch the peak, and keeps a
// sample every keep period, to show a trend over a soak.
type rssSampler struct {
	pid   int
	mu    sync.Mutex
	stats RSSStats
	cur   int64
	quit  chan struct{}
	done  chan struct{}
	once  sync.Once
}

func startRSS(pid int, keep time.Duration) (*rssSampler, error) {
	rss, hwm, err := readRSS(pid)
	if err != nil {
		return nil, err
	}
	s := &rssSampler{pid: pid, quit: make(chan struct{}), done: make(chan struct{}), cur: rss}
	s.stats = RSSStats{StartKiB: rss, PeakKiB: rss, EndKiB: rss, HWMKiB: hwm, Samples: []RSSSample{{0, rss}}}
	go s.loop(keep)
	return s, nil
}

func (s *rssSampler) loop(keep time.Duration) {
	defer close(s.done)
	start := time.Now()
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	lastKept := start
	for {
		select {
		case <-s.quit:
			return
		case now := <-t.C:
			rss, hwm, err := readRSS(s.pid)
			if err != nil {
				return // the server is gone; the run reports its errors
			}
			s.mu.Lock()
			s.cur = rss
			s.stats.EndKiB, s.stats.HWMKiB = rss, hwm
			s.stats.PeakKiB = max(s.stats.PeakKiB, rss)
			if now.Sub(lastKept) >= keep {
				s.stats.Samples = append(s.stats.Samples, RSSSample{now.Sub(start).Seconds(), rss})
				lastKept = now
			}
			s.mu.Unlock()
		}
	}
}

func (s *rssSampler) current() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur
}

// stop ends the sampling (once) and returns what it saw.
func (s *rssSampler) stop() *RSSStats {
	s.once.Do(func() { close(s.quit) })
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stats
	return &st
}

// readRSS returns VmRSS and VmHWM of a process, in KiB.
func readRSS(pid int) (rss, hwm int64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, fmt.Errorf("read RSS of pid %d: %w", pid, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		name, rest, ok := bytes.Cut(sc.Bytes(), []byte(":"))
		if !ok {
			continue
		}
		var dst *int64
		switch string(name) {
		case "VmRSS":
			dst = &rss
		case "VmHWM":
			dst = &hwm
		default:
			continue
		}
		// The value reads like "   51234 kB".
		f := bytes.Fields(rest)
		if len(f) != 2 || string(f[1]) != "kB" {
			return 0, 0, fmt.Errorf("read RSS of pid %d: unexpected line %q", pid, sc.Text())
		}
		if *dst, err = strconv.ParseInt(string(f[0]), 10, 64); err != nil {
			return 0, 0, fmt.Errorf("read RSS of pid %d: %w", pid, err)
		}
	}
	if rss == 0 {
		return 0, 0, fmt.Errorf("read RSS of pid %d: no VmRSS line (a kernel thread?)", pid)
	}
	return rss, hwm, nil
}

func mib(kib int64) string { return fmt.Sprintf("%.1f MiB", float64(kib)/1024) }

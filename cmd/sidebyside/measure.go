package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/talksearch/talksearch/cmd/internal/gcgoal"
	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search"
)

// stats is one engine's figures on one corpus: the peers' JSON line (see
// ../shared/peers/peers/common.py), plus what only talksearch reports.
type stats struct {
	Peer       string  `json:"peer"`
	Docs       int     `json:"docs"`
	IndexS     float64 `json:"index_s"`
	IndexBytes int64   `json:"index_bytes"`
	Iters      int     `json:"iters"`
	NTimed     int     `json:"n_timed"`
	P50us      float64 `json:"p50_us"`
	P99us      float64 `json:"p99_us"`
	// ReadyS is, for talksearch, the time from the talks in memory to an
	// engine answering searches (index plus everything the engine derives
	// from the talks); IndexS is the index alone.
	ReadyS float64 `json:"ready_s,omitempty"`
	// LoadS is the time to read the corpus file.
	LoadS float64 `json:"load_s,omitempty"`
	Total uint64  `json:"total,omitempty"` // sum of the queries' totals, a check that engines agree on a run
	// CPUus is the process's CPU time per timed search (all its threads):
	// unlike latency, it hardly depends on what else the machine runs.
	CPUus float64 `json:"cpu_us,omitempty"`
	// ServedRSSMiB is talksearch's resident memory once the timed
	// searches are done: what serving holds, where the peak RSS is the
	// build's. HeapMiB is the live Go heap then.
	ServedRSSMiB float64 `json:"served_rss_mib,omitempty"`
	HeapMiB      float64 `json:"heap_mib,omitempty"`
}

// measureChild is the talksearch side: it runs in a process of its own so
// that the parent reads its peak memory alone.
func measureChild(ctx context.Context, cfg config, stdout io.Writer) error {
	if cfg.cpuProf != "" {
		f, err := os.Create(cfg.cpuProf)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	t0 := time.Now()
	var talks index.Slim
	if cfg.whole {
		all, err := readTalks(cfg.measure)
		if err != nil {
			return err
		}
		talks = index.Whole(all)
	} else {
		var err error
		if talks, err = streamTalks(cfg.measure); err != nil {
			return err
		}
	}
	queries, err := readQueries(cfg.queries)
	if err != nil {
		return err
	}
	st := stats{Peer: "talksearch", Docs: talks.Len(), LoadS: round3(time.Since(t0).Seconds())}
	opts := search.Options{CacheSize: -1}
	var indexTook time.Duration
	switch cfg.mode {
	case "memory":
		opts.IndexSlim = func(ts index.Slim) (bleve.Index, error) {
			t := time.Now()
			idx, err := index.BuildSlim(ctx, ts, nil)
			indexTook = time.Since(t)
			return idx, err
		}
	case "disk-build", "disk-restart":
		st.Peer = "talksearch --index"
		if cfg.mode == "disk-restart" {
			st.Peer = "talksearch restart"
		}
		opts.IndexSlim = func(ts index.Slim) (bleve.Index, error) {
			idx, rep, err := index.OpenSlim(ctx, cfg.indexDir, ts, nil)
			if err != nil {
				return nil, err
			}
			if rep.Reused != (cfg.mode == "disk-restart") {
				idx.Close()
				return nil, fmt.Errorf("index.Open in %s: reused=%v (%s), want reused=%v", cfg.indexDir, rep.Reused, rep.Reason, cfg.mode == "disk-restart")
			}
			indexTook = rep.Took
			return idx, nil
		}
	}
	t1 := time.Now()
	e, err := search.NewSlim(talks, opts)
	if err != nil {
		return err
	}
	defer e.Close()
	st.ReadyS = round3(time.Since(t1).Seconds())
	gcgoal.Tune() // as serve does
	if cfg.memProf != "" {
		if err := writeHeapProfile(cfg.memProf); err != nil {
			return err
		}
	}
	st.IndexS = round3(indexTook.Seconds())
	if cfg.indexDir != "" {
		st.IndexBytes = dirBytes(cfg.indexDir)
	}

	one := func(q string) (uint64, error) {
		res, err := e.Search(ctx, search.Request{Query: q, Limit: 10})
		if err != nil {
			return 0, fmt.Errorf("search %q: %w", q, err)
		}
		return res.Total, nil
	}
	for _, q := range queries { // the peers' untimed pass, which writes their rankings
		n, err := one(q)
		if err != nil {
			return err
		}
		st.Total += n
	}
	var lat []time.Duration
	perQuery := make([]queryTimes, len(queries))
	began, cpu0 := time.Now(), cpuTime()
	for st.Iters < cfg.iters {
		for i, q := range queries {
			s, c, a := time.Now(), time.Duration(0), heapAllocs{}
			if cfg.perQuery {
				c, a = cpuTime(), readHeapAllocs()
			}
			if _, err := one(q); err != nil {
				return err
			}
			took := time.Since(s)
			lat = append(lat, took)
			if cfg.perQuery {
				perQuery[i].add(took, cpuTime()-c, readHeapAllocs().minus(a))
			}
		}
		st.Iters++
		if time.Since(began) > cfg.maxQuery {
			break
		}
	}
	st.CPUus = float64((cpuTime() - cpu0).Microseconds()) / float64(len(lat))
	st.ServedRSSMiB = residentMiB()
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	st.HeapMiB = round3(float64(ms.HeapAlloc) / (1 << 20))
	if cfg.memProf != "" {
		if err := writeHeapProfile(cfg.memProf + ".served"); err != nil {
			return err
		}
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Nanoseconds()/100) / 10
	}
	st.NTimed, st.P50us, st.P99us = len(lat), pct(0.50), pct(0.99)
	if cfg.perQuery {
		for i, q := range queries {
			perQuery[i].print(os.Stderr, q)
		}
	}
	return json.NewEncoder(stdout).Encode(st)
}

// queryTimes are one query's timed searches: wall-clock and the process's
// CPU (its collector's and the other core's too) while each ran.
type queryTimes struct {
	wall   []time.Duration
	cpu    time.Duration
	allocs heapAllocs
}

func (t *queryTimes) add(wall, cpu time.Duration, a heapAllocs) {
	t.wall = append(t.wall, wall)
	t.cpu += cpu
	t.allocs.bytes += a.bytes
	t.allocs.objects += a.objects
}

// heapAllocs are the bytes and objects allocated on the heap so far
// (runtime/metrics: no stop of the world, unlike runtime.ReadMemStats).
type heapAllocs struct{ bytes, objects uint64 }

func readHeapAllocs() heapAllocs {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}, {Name: "/gc/heap/allocs:objects"}}
	metrics.Read(s)
	return heapAllocs{s[0].Value.Uint64(), s[1].Value.Uint64()}
}

func (a heapAllocs) minus(b heapAllocs) heapAllocs {
	return heapAllocs{a.bytes - b.bytes, a.objects - b.objects}
}

func (t *queryTimes) print(w io.Writer, q string) {
	if len(t.wall) == 0 {
		return
	}
	slices.Sort(t.wall)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	n := uint64(len(t.wall))
	fmt.Fprintf(w, "query %-40q p50 %8.2f ms  max %8.2f ms  CPU %8.2f ms a search  %8.1f kB %6d allocations a search\n",
		q, ms(t.wall[n/2]), ms(t.wall[n-1]), ms(t.cpu/time.Duration(n)), float64(t.allocs.bytes/n)/1000, t.allocs.objects/n)
}

// streamTalks is readTalks keeping each talk without its abstract and
// description, which go to a store as they are read (index.TextWriter):
// the corpus is never on the heap whole, as a server's would not be.
func streamTalks(path string) (index.Slim, error) {
	w := index.NewTextWriter("")
	var talks []index.Talk
	err := eachTalk(path, func(t index.Talk) {
		w.Add(t.Abstract, t.Description)
		t.Abstract, t.Description = "", ""
		talks = append(talks, t)
	})
	texts, serr := w.Store()
	if err == nil {
		err = serr
	}
	if err != nil {
		if texts != nil {
			texts.Close()
		}
		return index.Slim{}, err
	}
	return index.Slim{Talks: talks, Texts: texts}, nil
}

// readTalks decodes a corpus in talksearch's export format, one index.Talk a
// line (what `talksearch export` writes and gen_synth.py copies).
func readTalks(path string) ([]index.Talk, error) {
	var talks []index.Talk
	if err := eachTalk(path, func(t index.Talk) { talks = append(talks, t) }); err != nil {
		return nil, err
	}
	return talks, nil
}

// eachTalk calls fn with each talk of the file in turn.
func eachTalk(path string, fn func(index.Talk)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for line := 1; sc.Scan(); line++ {
		b := sc.Bytes()
		if len(strings.TrimSpace(string(b))) == 0 {
			continue
		}
		var t index.Talk
		if err := json.Unmarshal(b, &t); err != nil {
			return fmt.Errorf("%s:%d: %w", path, line, err)
		}
		if t.ID == "" {
			return fmt.Errorf("%s:%d: talk without an id", path, line)
		}
		fn(t)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

// readQueries reads one query a line, skipping blank lines and repeats, as
// the peers do; "" means the embedded list.
func readQueries(path string) ([]string, error) {
	text := defaultQueries
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		text = string(b)
	}
	var qs []string
	for l := range strings.Lines(text) {
		q := strings.TrimSpace(strings.SplitN(l, "\t", 2)[0])
		if q != "" && !slices.Contains(qs, q) {
			qs = append(qs, q)
		}
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("no queries in %q", path)
	}
	return qs, nil
}

func dirBytes(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// residentMiB is the process's resident memory (VmRSS), 0 if unknown.
func residentMiB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for l := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			var kb float64
			if _, err := fmt.Sscan(v, &kb); err == nil {
				return round3(kb / 1024)
			}
		}
	}
	return 0
}

// cpuTime is the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func round3(x float64) float64 { return float64(int64(x*1000+0.5)) / 1000 }

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestLoopbackURL(t *testing.T) {
	tests := []struct {
		name, in string
		ok       bool
	}{
		{"ipv4 loopback", "http://127.0.0.1:8080", true},
		{"other loopback", "http://127.0.0.2:80/", true},
		{"ipv6 loopback", "http://[::1]:8080", true},
		{"localhost", "http://localhost:8080", true},
		{"public ip", "http://8.8.8.8", false},
		{"private ip", "http://10.0.0.1:8080", false},
		{"a name", "http://example.com", false},
		{"all interfaces", "http://0.0.0.0:8080", false},
		{"no scheme", "127.0.0.1:8080", false},
		{"ftp", "ftp://127.0.0.1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loopbackURL(tt.in)
			if (err == nil) != tt.ok {
				t.Errorf("loopbackURL(%q) error = %v, want ok=%v", tt.in, err, tt.ok)
			}
		})
	}
}

func TestParseFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"defaults", nil, ""},
		{"only", []string{"--only", "healthz,search"}, ""},
		{"unknown kind", []string{"--only", "healthz,nope"}, `unknown kind "nope"`},
		{"zero clients", []string{"--clients", "0"}, "need at least 1"},
		{"reload without means", []string{"--reload-after", "1s"}, "needs --reload-token"},
		{"reload after the end", []string{"--reload-after", "2m", "--pid", "1"}, "not within"},
		{"remote", []string{"--url", "http://192.168.1.1"}, "loopback"},
		{"stray argument", []string{"now"}, "unexpected arguments"},
		{"targets", []string{"--want-searches", "3000", "--want-p99", "50ms", "--want-share", "0.4", "--ceiling", "3s"}, ""},
		{"share without ceiling", []string{"--want-share", "0.4"}, "needs --ceiling"},
		{"share as a percentage", []string{"--want-share", "40", "--ceiling", "3s"}, "share from 0 to 1"},
		{"as .ci/run calls it", []string{"--clients", "64", "--duration", "1m", "--ceiling", "5s", "--pid", "1",
			"--reload-after", "10s", "--reload-token", "t", "--want-searches", "3000", "--want-p99", "50ms",
			"--want-share", "0.40", "--hostile", "8", "--only", "search"}, ""},
		{"values after =", []string{"--url=http://127.0.0.1:8080", "--clients=64", "--json=true"}, ""},
		{"unknown flag", []string{"--nope"}, "unknown flag"},
		{"single-dash long flag", []string{"-clients", "8"}, "unknown shorthand"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := parseFlags(tt.args, new(bytes.Buffer))
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("parseFlags(%q): %v", tt.args, err)
				}
				if cfg.Clients != 64 || cfg.Duration != time.Minute || cfg.Target.String() != "http://127.0.0.1:8080" {
					t.Errorf("defaults: clients %d, duration %s, target %s", cfg.Clients, cfg.Duration, cfg.Target)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("parseFlags(%q) error = %v, want it to contain %q", tt.args, err, tt.wantErr)
			}
		})
	}
}

// TestMixFollowsWeights checks that the default mix sends each kind in
// proportion to its weight, and --only sends nothing else.
func TestMixFollowsWeights(t *testing.T) {
	corpus := &corpusInfo{IDs: []string{"a", "b"}, Tracks: []string{"T & U"}, Levels: []string{"Any"}, Rooms: []string{"R"}, Total: 2}
	base, _ := loopbackURL("http://127.0.0.1:1")
	const n = 100_000
	r := rand.New(rand.NewPCG(1, 2))
	m := newMix(base, corpus, nil, false)
	got := map[Kind]int{}
	for range n {
		k, u := m.next(r)
		got[k]++
		if !strings.HasPrefix(u, "http://127.0.0.1:1/") {
			t.Fatalf("url %q is not on the target", u)
		}
	}
	for k, w := range defaultWeights {
		want := float64(w) / 100
		if share := float64(got[k]) / n; share < want-0.01 || share > want+0.01 {
			t.Errorf("%s: share %.3f, want %.2f±0.01", k, share, want)
		}
	}

	m = newMix(base, corpus, []Kind{KindHealthz, KindRelated}, false)
	for range 1000 {
		k, u := m.next(r)
		switch {
		case k == KindHealthz && u == "http://127.0.0.1:1/healthz":
		case k == KindRelated && (u == "http://127.0.0.1:1/api/talks/a" || u == "http://127.0.0.1:1/api/talks/b"):
		default:
			t.Fatalf("--only healthz,related sent %s %s", k, u)
		}
	}
}

// fakeServer answers like talksearch on two talks, except that talk "b"
// is broken: its pages answer 500.
func fakeServer(t *testing.T, reloads *atomic.Int32) *httptest.Server {
	return fakeServerCounting(t, reloads, new(atomic.Int32))
}

// fakeServerCounting is fakeServer, counting the requests for the live
// results of the search page in fragments.
func fakeServerCounting(t *testing.T, reloads, fragments *atomic.Int32) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/search", func(w http.ResponseWriter, r *http.Request) {
		hits := []map[string]string{{"id": "a"}, {"id": "b"}}
		if r.URL.Query().Get("offset") != "" && r.URL.Query().Get("offset") != "0" {
			hits = nil
		}
		json.NewEncoder(w).Encode(map[string]any{
			"total":  2,
			"hits":   hits,
			"facets": map[string]any{"track": []map[string]any{{"value": "T & U", "count": 2}}},
		})
	})
	talk := func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("id") == "b" {
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		fmt.Fprint(w, "{}")
	}
	mux.HandleFunc("GET /api/talks/{id}", talk)
	mux.HandleFunc("GET /talks/{id}", talk)
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(headerFragment) == "1" {
			fragments.Add(1)
		}
		fmt.Fprint(w, "<html>")
	})
	mux.HandleFunc("GET /api/overlaps", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "{}") })
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") })
	mux.HandleFunc("POST /admin/reload", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			http.Error(w, `{"error":"bad token"}`, http.StatusUnauthorized)
			return
		}
		reloads.Add(1)
		fmt.Fprint(w, `{"talks":2}`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestRunCountsEveryRequestAndError(t *testing.T) {
	var reloads, fragments atomic.Int32
	srv := fakeServerCounting(t, &reloads, &fragments)
	target, err := loopbackURL(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{
		Target: target, Clients: 4, Duration: 500 * time.Millisecond, Ceiling: 200 * time.Millisecond,
		Timeout: 5 * time.Second, Seed: 7, PID: os.Getpid(),
		ReloadAfter: 100 * time.Millisecond, ReloadToken: "s3cret",
	}
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Talks != 2 {
		t.Errorf("talks discovered = %d, want 2", sum.Talks)
	}
	total, failed := 0, 0
	for _, k := range sum.Kinds {
		total += k.Count
		failed += k.ErrorCount()
		if k.Name != string(KindTalk) && k.Name != string(KindRelated) && k.ErrorCount() > 0 {
			t.Errorf("%s: errors %v, want none", k.Name, k.Errors)
		}
		if k.P50MS > k.P99MS || k.P99MS > k.MaxMS {
			t.Errorf("%s: p50 %.3f, p99 %.3f, max %.3f not in order", k.Name, k.P50MS, k.P99MS, k.MaxMS)
		}
	}
	for _, k := range sum.Kinds {
		if k.Name == string(KindTyping) && k.Count != int(fragments.Load()) {
			t.Errorf("%d typing requests, but the server saw %d fragment requests", k.Count, fragments.Load())
		}
	}
	if total != sum.All.Count || total == 0 {
		t.Errorf("kinds add up to %d requests, all = %d", total, sum.All.Count)
	}
	if failed == 0 || failed != sum.All.Errors["500"] || len(sum.All.Errors) != 1 {
		t.Errorf("errors = %v, per kind %d; want only 500s, from the broken talk", sum.All.Errors, failed)
	}
	if sum.Errors() != failed {
		t.Errorf("Errors() = %d, want %d", sum.Errors(), failed)
	}
	if len(sum.ErrorSamples) == 0 || !strings.Contains(sum.ErrorSamples[0], "/b") {
		t.Errorf("error samples %q do not name the broken talk", sum.ErrorSamples)
	}
	if sum.Ceiling == nil || sum.Ceiling.Count == 0 || sum.Ceiling.ErrorCount() != 0 {
		t.Errorf("ceiling = %+v, want healthz requests without errors", sum.Ceiling)
	}
	if sum.Searches.Count == 0 || sum.Searches.Count >= sum.All.Count {
		t.Errorf("searches %d of %d requests", sum.Searches.Count, sum.All.Count)
	}
	if sum.Reload == nil || sum.Reload.Status != http.StatusOK || sum.Reload.Err != "" || reloads.Load() != 1 {
		t.Errorf("reload = %+v after %d reloads, want one 200", sum.Reload, reloads.Load())
	}
	if sum.RSS == nil || sum.RSS.PeakKiB < sum.RSS.StartKiB || sum.RSS.StartKiB <= 0 {
		t.Errorf("rss = %+v", sum.RSS)
	}
	// The fake server runs in this process: its CPU time is the load
	// generator's too (TestProcessCPU checks the two agree).
	if c := sum.CPU; c == nil || c.ServerSeconds <= 0 || c.LoadgenSeconds <= 0 || c.ServerMSPerRequest <= 0 {
		t.Errorf("cpu = %+v", sum.CPU)
	}
	if sum.CeilingCPU == nil || sum.CeilingCPU.LoadgenSeconds <= 0 {
		t.Errorf("ceiling cpu = %+v", sum.CeilingCPU)
	}
	var out bytes.Buffer
	if err := sum.writeText(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"searches", "ceiling (healthz alone)", "500×", "server RSS: start", "reload at", "server CPU: "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, out.String())
		}
	}
}

func TestRunExitsWithErrorOnFailures(t *testing.T) {
	var reloads atomic.Int32
	srv := fakeServer(t, &reloads)
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"--url", srv.URL, "--clients", "2", "--duration", "300ms", "--only", "related", "--json",
		"--reload-after", "100ms", "--reload-token", "wrong"}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "requests failed") {
		t.Errorf("run with a broken talk: error = %v, want failed requests", err)
	}
	var sum Summary
	if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil {
		t.Fatalf("--json output: %v\n%s", err, stdout.String())
	}
	if sum.Reload == nil || sum.Reload.Status != http.StatusUnauthorized || !strings.Contains(sum.Reload.Err, "bad token") {
		t.Errorf("reload with a wrong token = %+v, want 401 with the server's message", sum.Reload)
	}
	if reloads.Load() != 0 {
		t.Errorf("server reloaded %d times with a wrong token", reloads.Load())
	}
}

func TestReadRSS(t *testing.T) {
	rss, hwm, err := readRSS(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if rss <= 0 || hwm < rss {
		t.Errorf("rss %d KiB, hwm %d KiB", rss, hwm)
	}
	if _, _, err := readRSS(1 << 30); err == nil {
		t.Error("readRSS of a pid that cannot exist: no error")
	}
}

// TestDistinctQueriesRarelyRepeat guards what --distinct is for: a result
// cache of a thousand entries must miss almost always.
func TestDistinctQueriesRarelyRepeat(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	seen := map[string]bool{}
	const n = 10_000
	for range n {
		seen[distinctQuery(r)] = true
	}
	if len(seen) < n*9/10 {
		t.Errorf("%d distinct queries of %d, want at least 90%%", len(seen), n)
	}
	if len(words) < 50 {
		t.Errorf("only %d words to combine", len(words))
	}
}

// TestProcessCPU checks the server's CPU time, read from /proc, against
// this process's own, from getrusage, over a stretch of busy work.
func TestProcessCPU(t *testing.T) {
	before, err := processCPU(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	self := selfCPU()
	// Spin until this process has had 200 ms of CPU, however busy the
	// machine; the kernel counts in ticks of 10 ms.
	for selfCPU()-self < 200*time.Millisecond {
	}
	after, err := processCPU(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	got, want := after-before, selfCPU()-self
	if d := got - want; d < -50*time.Millisecond || d > 50*time.Millisecond {
		t.Errorf("/proc says %s of CPU, getrusage %s", got, want)
	}
	if _, err := processCPU(1 << 30); err == nil {
		t.Error("processCPU of a pid that cannot exist: no error")
	}
}

func TestTargets(t *testing.T) {
	sum := &Summary{Searches: Stats{PerSec: 3500, P99MS: 42.5}, SearchShareOfCeiling: 0.38}
	want := Targets{SearchesPerS: 3000, P99: 50 * time.Millisecond, Share: 0.40}
	lines, err := want.check(sum)
	if !errors.Is(err, errMissed) || err.Error() != "1 of 3: targets missed" {
		t.Errorf("err = %v, want 1 of 3 missed", err)
	}
	wantLines := []string{
		"searches 3500/s, target at least 3000/s: met",
		"searches p99 42.50 ms, target under 50ms: met",
		"searches 38.0% of the /healthz ceiling, target at least 40%: MISSED",
	}
	if diff := cmp.Diff(wantLines, lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	sum.SearchShareOfCeiling, sum.Searches.P99MS = 0.41, 50
	if _, err := want.check(sum); err == nil || err.Error() != "1 of 3: targets missed" {
		t.Errorf("p99 of exactly 50 ms against under 50 ms: err = %v", err)
	}
	if lines, err := (Targets{}).check(sum); err != nil || len(lines) != 0 {
		t.Errorf("no targets: %q, %v", lines, err)
	}
}

// TestDiscoverStopsAtTheDeepestPage: a server that lists 130 talks but
// answers 400 past offset 60 is discovered as far as it pages, and the browse
// asks for no page deeper than the server answered.
func TestDiscoverStopsAtTheDeepestPage(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/search", func(w http.ResponseWriter, r *http.Request) {
		offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		if offset > 60 {
			http.Error(w, `{"error":"offset must be a whole number from 0 to 60"}`, http.StatusBadRequest)
			return
		}
		var hits []map[string]string
		for i := offset; i < min(offset+limit, 130); i++ {
			hits = append(hits, map[string]string{"id": fmt.Sprint("t", i)})
		}
		json.NewEncoder(w).Encode(map[string]any{"total": 130, "hits": hits})
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	base, _ := loopbackURL(srv.URL)
	info, err := discover(context.Background(), srv.Client(), base)
	if err != nil {
		t.Fatal(err)
	}
	if info.Total != 130 || len(info.IDs) != 100 || info.IDs[99] != "t99" {
		t.Fatalf("discovered total %d, %d ids (last %q); want 130, 100 ids up to t99", info.Total, len(info.IDs), info.IDs[len(info.IDs)-1])
	}
	if info.MaxOffset != 50 {
		t.Errorf("deepest offset answered = %d, want 50", info.MaxOffset)
	}
	m := newMix(base, info, []Kind{KindBrowse}, false)
	r := rand.New(rand.NewPCG(1, 2))
	asked := map[int]bool{}
	for range 1000 {
		_, u := m.next(r)
		q, _ := url.Parse(u)
		off, _ := strconv.Atoi(q.Query().Get("offset"))
		asked[off] = true
	}
	// Pages of 20 up to the deepest offset answered, none the server
	// would refuse.
	if want := map[int]bool{0: true, 20: true, 40: true}; !maps.Equal(asked, want) {
		t.Errorf("browse asked for offsets %v, want %v", asked, want)
	}
}

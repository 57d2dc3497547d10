package main

// End-to-end hardening tests: each starts the real program (run, as main
// does) on 127.0.0.1 and checks, from the outside, that no request failed
// and no data was lost.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/talksearch/talksearch/seeds"
)

// served is a running `talksearch serve`, started by startServe
// (serve_test.go).
type served struct {
	url  string // http://127.0.0.1:PORT, no trailing slash
	log  *syncBuffer
	stop func() error // cancels the context, as SIGTERM does, and waits for run
}

// serveSeeds runs `talksearch serve --addr 127.0.0.1:0 ARGS…` with the
// environment env, and waits until it listens.
func serveSeeds(t *testing.T, env map[string]string, args ...string) *served {
	t.Helper()
	u, log, stop := startServe(t, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), env)
	return &served{url: strings.TrimSuffix(u, "/"), log: log, stop: stop}
}

// getJSON fetches path and decodes its JSON answer into v.
func (s *served) getJSON(t *testing.T, path string, v any) int {
	t.Helper()
	resp, err := http.Get(s.url + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %s, decode: %v", path, resp.Status, err)
	}
	return resp.StatusCode
}

// health is what /healthz says: the generation of the index serving and
// the reloads so far, the server's readiness signals.
type health struct {
	Status         string
	Generation     uint64
	Reloads        int
	ReloadFailures int `json:"reload_failures"`
	Reloading      bool
	Index          string // the on-disk generation served, with --index
}

// waitHealth asks /healthz until its answer satisfies ready, and returns
// that answer: tests wait for what the server says, never a fixed time or
// a log line.
func (s *served) waitHealth(t *testing.T, what string, ready func(health) bool) health {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var last health
	var lastErr error
	for {
		resp, err := http.Get(s.url + "/healthz")
		if err == nil {
			last = health{}
			err = json.NewDecoder(resp.Body).Decode(&last)
			resp.Body.Close()
			if err == nil && resp.StatusCode == http.StatusOK && last.Status == "ok" && ready(last) {
				return last
			}
		}
		lastErr = err
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: /healthz says %+v (%v)", what, last, lastErr)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// total is the number of talks the server lists, and of talks matching q.
func (s *served) total(t *testing.T, q string) int {
	t.Helper()
	var r struct{ Total int }
	if code := s.getJSON(t, "/api/search?q="+q, &r); code != http.StatusOK {
		t.Fatalf("search %q: status %d", q, code)
	}
	return r.Total
}

func (s *served) reload(t *testing.T, token string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.url+"/admin/reload", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST /admin/reload: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// copySeeds copies the embedded seeds into a new directory.
func copySeeds(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := seeds.FS.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".txt") {
			continue
		}
		b, err := seeds.FS.ReadFile(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// hammer sends searches and talk requests from n clients until stop is
// closed, and counts them and their failures.
func hammer(t *testing.T, base string, n int, stop <-chan struct{}) (wait func() (ok, failed int64, firstErr string), served func(n int64)) {
	t.Helper()
	var (
		wg         sync.WaitGroup
		okN, failN atomic.Int64
		mu         sync.Mutex
		first      string
	)
	paths := []string{"/api/search?q=monarch", "/api/search?q=kv+cache&sort=time", "/api/search", "/healthz", "/?q=torch.compile"}
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: n}}
	for i := range n {
		wg.Go(func() {
			for j := i; ; j++ {
				select {
				case <-stop:
					return
				default:
				}
				p := paths[j%len(paths)]
				resp, err := client.Get(base + p)
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if err == nil && resp.StatusCode != http.StatusOK {
						err = fmt.Errorf("GET %s: %s", p, resp.Status)
					}
				}
				if err != nil {
					failN.Add(1)
					mu.Lock()
					if first == "" {
						first = err.Error()
					}
					mu.Unlock()
					continue
				}
				okN.Add(1)
			}
		})
	}
	wait = func() (int64, int64, string) {
		wg.Wait()
		client.CloseIdleConnections()
		return okN.Load(), failN.Load(), first
	}
	// served returns once n more requests have been answered: progress the
	// test waits for instead of a fixed time.
	served = func(n int64) {
		t.Helper()
		target := okN.Load() + failN.Load() + n
		deadline := time.Now().Add(30 * time.Second)
		for okN.Load()+failN.Load() < target {
			if time.Now().After(deadline) {
				t.Fatalf("the clients made %d requests in 30 s, want %d", okN.Load()+failN.Load(), target)
			}
			time.Sleep(time.Millisecond)
		}
	}
	return wait, served
}

// TestReloadUnderLoad re-indexes, through the admin endpoint and by
// SIGHUP, while clients search: no request fails, and new seeds are
// served once a reload returns. On disk, a reload builds the new index
// beside the one serving and removes that one once it is replaced.
func TestReloadUnderLoad(t *testing.T) {
	t.Run("in memory", func(t *testing.T) { testReloadUnderLoad(t, "") })
	t.Run("on disk", func(t *testing.T) {
		requireIndexDir(t)
		testReloadUnderLoad(t, filepath.Join(t.TempDir(), "index"))
	})
}

// testReloadUnderLoad is TestReloadUnderLoad with the index in indexDir,
// or in memory.
func testReloadUnderLoad(t *testing.T, indexDir string) {
	dir := copySeeds(t)
	const token = "test-token-0123456789"
	args := []string{"--seeds", dir}
	if indexDir != "" {
		args = append(args, "--index", indexDir)
	}
	s := serveSeeds(t, map[string]string{"TALKSEARCH_RELOAD_TOKEN": token}, args...)
	before := s.total(t, "")

	stop := make(chan struct{})
	wait, served := hammer(t, s.url, 8, stop)
	served(50) // the clients are under way
	gen := s.waitHealth(t, "the first index", func(health) bool { return true }).Generation
	for range 3 {
		if code, body := s.reload(t, token); code != http.StatusOK {
			t.Errorf("reload of unchanged seeds: %d %s", code, body)
		}
	}
	// A new seed with one new talk, picked up by SIGHUP.
	newTalk := "Zymurgy at scale: brewing quantized kernels with PyTorch. This talk shows how we ferment our zymurgical " +
		"kernels for inference, what failed along the way, and which numbers we measured on real workloads in production.\n"
	if err := os.WriteFile(filepath.Join(dir, "900_new.txt"), []byte(newTalk), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	s.waitHealth(t, "the SIGHUP reload", func(h health) bool { return h.Generation == gen+4 })
	served(50) // and go on after the last swap
	close(stop)
	ok, failed, first := wait()

	if failed > 0 {
		t.Errorf("%d of %d requests failed during reloads, e.g. %s", failed, ok+failed, first)
	}
	if ok < 100 {
		t.Errorf("only %d requests during the reloads: the test did not load the server", ok)
	}
	if got := s.total(t, "zymurgical"); got != 1 {
		t.Errorf("after SIGHUP with a new seed: %d talks match its word, want 1\n%s", got, s.log)
	}
	if got := s.total(t, ""); got != before+1 {
		t.Errorf("after SIGHUP with a new seed: %d talks, want %d", got, before+1)
	}
	// The new engine serves (generation) a moment before its reload is
	// counted done: wait for the count, not only the swap.
	if h := s.waitHealth(t, "the reloads", func(h health) bool { return !h.Reloading }); h.Reloads != 4 || h.ReloadFailures != 0 || h.Generation != gen+4 {
		t.Errorf("after 4 reloads /healthz says %+v, want 4 reloads, none failed, generation %d", h, gen+4)
	}
	if indexDir != "" {
		// The one serving and the one it replaced, which read-only
		// servers of the directory may still be on.
		if got := indexFiles(t, indexDir); len(got) != 2 || got[1] != filepath.Base(currentIndex(t, indexDir)) {
			t.Errorf("index directories after the reloads: %q, want the one before and the one serving", got)
		}
	}
}

// TestBadSeedsDuringReloadKeepTheOldIndex breaks the seeds under a running
// server: every reload is refused with the reason, logged, and the server
// answers exactly as before.
func TestBadSeedsDuringReloadKeepTheOldIndex(t *testing.T) {
	dir := copySeeds(t)
	const token = "test-token-abcdef"
	s := serveSeeds(t, nil, "--seeds", dir, "--reload-token", token)
	before := s.total(t, "")
	monarch := s.total(t, "monarch")
	if before == 0 || monarch == 0 {
		t.Fatalf("seeds serve %d talks, %d on Monarch", before, monarch)
	}
	seed := filepath.Join(dir, "003_dfd754d9b55d5906.txt") // the schedule page: most talks
	tests := []struct {
		name    string
		breakIt func() error
		want    string // in the refusal
	}{
		{"binary garbage", func() error { return os.WriteFile(seed, []byte("\x00\x01\xff\xfe garbage"), 0o644) }, "003_dfd754d9b55d5906.txt"},
		{"emptied file", func() error { return os.WriteFile(seed, nil, 0o644) }, "003_dfd754d9b55d5906.txt"},
		{"unreadable file", func() error { os.Remove(seed); return os.Mkdir(seed, 0o755) }, "003_dfd754d9b55d5906.txt"},
		{"no seeds at all", func() error {
			entries, err := os.ReadDir(dir)
			for _, e := range entries {
				os.RemoveAll(filepath.Join(dir, e.Name()))
			}
			return err
		}, "no seed files"},
	}
	stop := make(chan struct{})
	wait, _ := hammer(t, s.url, 4, stop)
	for _, tt := range tests {
		if err := tt.breakIt(); err != nil {
			t.Fatal(err)
		}
		code, body := s.reload(t, token)
		if code != http.StatusUnprocessableEntity || !strings.Contains(body, tt.want) {
			t.Errorf("%s: reload answered %d %s, want 422 naming %q", tt.name, code, body, tt.want)
		}
		if got := s.total(t, ""); got != before {
			t.Errorf("%s: %d talks served after a refused reload, want the old %d", tt.name, got, before)
		}
		if got := s.total(t, "monarch"); got != monarch {
			t.Errorf("%s: %d Monarch talks after a refused reload, want the old %d", tt.name, got, monarch)
		}
	}
	// SIGHUP with broken seeds: logged, nothing changes.
	logged := strings.Count(s.log.String(), "reload: keeping the old index")
	h0 := s.waitHealth(t, "the refused reloads", func(health) bool { return true })
	if h0.Reloads != len(tests) || h0.ReloadFailures != len(tests) {
		t.Errorf("/healthz says %+v, want %d reloads, all failed", h0, len(tests))
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	h := s.waitHealth(t, "the SIGHUP reload", func(h health) bool { return h.Reloads == h0.Reloads+1 })
	if h.ReloadFailures != h0.ReloadFailures+1 || h.Generation != h0.Generation {
		t.Errorf("SIGHUP with no seeds: /healthz says %+v, want one more failure and generation %d", h, h0.Generation)
	}
	if strings.Count(s.log.String(), "reload: keeping the old index") != logged+1 {
		t.Errorf("SIGHUP with no seeds: no error logged\n%s", s.log)
	}
	if got := s.total(t, ""); got != before {
		t.Errorf("after SIGHUP with no seeds: %d talks, want the old %d", got, before)
	}
	close(stop)
	if ok, failed, first := wait(); failed > 0 {
		t.Errorf("%d of %d requests failed while the seeds were broken, e.g. %s", failed, ok+failed, first)
	}
}

// slowSeeds are ten copies of the seeds: the same 73 talks after dedup,
// but a load and build that last long enough (about a second) for a test
// to act in the middle of them.
func slowSeeds(t *testing.T) string {
	t.Helper()
	dir := copySeeds(t)
	entries, _ := os.ReadDir(dir)
	for i := range 9 {
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("copy%d_%s", i, e.Name())), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// waitAccepting waits until serve accepts connections on addr: it listens
// before it loads and builds, so these are then under way.
func waitAccepting(t *testing.T, addr string, log fmt.Stringer) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve never listened on %s\n%s", addr, log)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestSIGHUPDuringStartup sends SIGHUP while the first index builds: the
// server must not die of it (SIGHUP's default action) but start, then
// reload once.
func TestSIGHUPDuringStartup(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	// Not startServe: it waits for the build this test must interrupt.
	ctx, cancel := context.WithCancel(context.Background())
	stdout, log := &syncBuffer{}, &syncBuffer{}
	errc := make(chan error, 1)
	go func() {
		errc <- run(ctx, []string{"serve", "--addr", addr, "--seeds", slowSeeds(t)}, func(string) string { return "" }, stdout, log)
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-errc; err != nil {
			t.Errorf("serve: %v\n%s", err, log)
		}
	})
	waitAccepting(t, addr, log)
	if strings.Contains(log.String(), "index ready") {
		t.Fatal("the index was built before the signal: the test proves nothing")
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	s := &served{url: "http://" + addr, log: log}
	// The first index is generation 1, the reload's 2.
	s.waitHealth(t, "the reload after a SIGHUP during the start", func(h health) bool { return h.Generation == 2 && h.Reloads == 1 })
	if got := s.total(t, ""); got != 73 {
		t.Errorf("%d talks after the reload, want 73", got)
	}
}

// TestShutdownFinishesRequestsInFlight shuts the server down while a
// request is in its handler (a re-index, the slowest request there is):
// new connections are refused at once, the request is answered in full,
// and only then does the server exit, cleanly.
func TestShutdownFinishesRequestsInFlight(t *testing.T) {
	dir := slowSeeds(t)
	const token = "in-flight-token"
	// The shutdown waits for the reload in flight: give it far longer than
	// the slowest build (a loaded machine under -race), since the test is
	// about waiting, not about the timeout.
	s := serveSeeds(t, nil, "--seeds", dir, "--reload-token", token, "--shutdown-timeout", "2m")
	addr := strings.TrimPrefix(s.url, "http://")

	type answer struct {
		code int
		body string
	}
	answered := make(chan answer, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, s.url+"/admin/reload", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
		if err != nil {
			answered <- answer{0, err.Error()}
			return
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			b = []byte(err.Error())
		}
		answered <- answer{resp.StatusCode, string(b)}
	}()
	s.waitHealth(t, "the reload to begin", func(h health) bool { return h.Reloading })

	stopped := make(chan error, 1)
	go func() { stopped <- s.stop() }()
	// Shutdown closes the listener first: from then on a new connection is
	// refused, which is the sign the shutdown began.
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatalf("no shutdown\n%s", s.log)
		}
		time.Sleep(time.Millisecond)
	}
	select {
	case a := <-answered:
		t.Fatalf("the reload ended (%d) before the shutdown began: the test proves nothing\n%s", a.code, s.log)
	default:
	}

	a := <-answered
	if a.code != http.StatusOK || !strings.Contains(a.body, `"talks":73`) {
		t.Errorf("the request in flight: %d %s, want 200 with the 73 talks", a.code, a.body)
	}
	select {
	case err := <-stopped:
		if err != nil {
			t.Errorf("serve returned %v after a graceful shutdown", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the server did not exit after its last request")
	}
	log := s.log.String()
	if i, j := strings.Index(log, `"path":"/admin/reload"`), strings.Index(log, `"stopped"`); i < 0 || j < i {
		t.Errorf("want the reload's access line, then the stop line:\n%s", log)
	}
}

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer the server goroutine and the test can share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var servingRE = regexp.MustCompile(`^talksearch: serving on (http://127\.0\.0\.1:\d+/)$`)

// startServe runs the real program as main would, and returns the URL it
// prints on standard output once it listens (its documented first line,
// read as it is written, not polled for).
func startServe(t testing.TB, args []string, env map[string]string) (url string, stderr *syncBuffer, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, stdout := io.Pipe()
	stderr = &syncBuffer{}
	errc := make(chan error, 1)
	go func() {
		err := run(ctx, args, func(k string) string { return env[k] }, stdout, stderr)
		stdout.Close()
		errc <- err
	}()
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := servingRE.FindStringSubmatch(sc.Text()); m != nil {
				urls <- m[1]
			}
		}
		io.Copy(io.Discard, out) // never block the program's writes
		close(urls)
	}()
	select {
	case u, ok := <-urls:
		if !ok {
			cancel()
			t.Fatalf("run returned before serving: %v\nstderr:\n%s", <-errc, stderr)
		}
		url = u
	case <-time.After(60 * time.Second):
		cancel()
		t.Fatalf("no URL printed within 60 s; stderr:\n%s", stderr)
	}
	var once sync.Once
	var runErr error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case runErr = <-errc:
			case <-time.After(15 * time.Second):
				t.Fatal("run did not return within 15 s of cancellation")
			}
		})
		return runErr
	}
	t.Cleanup(func() { _ = stop() })
	return url, stderr, stop
}

func TestServe(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes the seeds")
	}
	// The address comes from the environment, as TALKSEARCH_ADDR documents.
	url, stderr, stop := startServe(t, []string{"serve"}, map[string]string{"TALKSEARCH_ADDR": "127.0.0.1:0"})

	waitHealthy(t, url)
	res, err := http.Get(url + "api/search?q=KV+cache")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var got struct {
		Total uint64 `json:"total"`
		Hits  []struct {
			Highlights struct {
				Title    []string `json:"title"`
				Abstract []string `json:"abstract"`
			} `json:"highlights"`
		} `json:"hits"`
		Facets struct {
			Track []struct{ Value string } `json:"track"`
		} `json:"facets"`
	}
	if err := json.Unmarshal(body, &got); err != nil || res.StatusCode != 200 {
		t.Fatalf("status %d, %v: %.300s", res.StatusCode, err, body)
	}
	if got.Total == 0 || len(got.Facets.Track) == 0 {
		t.Fatalf("no hits or no track facet: %.300s", body)
	}
	h := got.Hits[0].Highlights
	if !strings.Contains(strings.Join(append(h.Title, h.Abstract...), " "), "<mark>") {
		t.Errorf("first hit has no highlight: %+v", h)
	}

	if err := stop(); err != nil {
		t.Fatalf("run after shutdown: %v", err)
	}
	if _, err := http.Get(url + "healthz"); err == nil {
		t.Error("server still answers after shutdown")
	}

	// One JSON access line per request, with its status and latency.
	var healthz, search int
	sc := bufio.NewScanner(strings.NewReader(stderr.String()))
	for sc.Scan() {
		var l struct {
			Message string  `json:"message"`
			Path    string  `json:"path"`
			Status  int     `json:"status"`
			Latency float64 `json:"latency"`
			Hits    int     `json:"hits"`
		}
		if json.Unmarshal(sc.Bytes(), &l) != nil || l.Message != "request" {
			continue
		}
		switch {
		case l.Path == "/healthz" && l.Status == 200:
			healthz++
		case l.Path == "/api/search" && l.Status == 200 && l.Hits == int(got.Total) && l.Latency > 0:
			search++
		}
	}
	if healthz == 0 || search != 1 {
		t.Errorf("access log has %d healthz and %d search lines, want ≥1 and 1:\n%s", healthz, search, stderr)
	}
	for _, want := range []string{`"message":"index ready"`, `"message":"shutting down: finishing requests in flight"`, `"message":"stopped"`} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("log lacks %s", want)
		}
	}
}

func waitHealthy(t *testing.T, url string) {
	t.Helper()
	s := &served{url: strings.TrimSuffix(url, "/")}
	s.waitHealth(t, "the server to answer", func(health) bool { return true })
}

func TestServeRefusesBadConfig(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		wantErr string
	}{
		{"bad log level", []string{"serve", "--log-level", "loud"}, nil, `--log-level "loud"`},
		{"bad duration from env", []string{"serve"}, map[string]string{"TALKSEARCH_WRITE_TIMEOUT": "soon"}, `TALKSEARCH_WRITE_TIMEOUT="soon"`},
		{"bad address", []string{"serve", "--addr", "127.0.0.1:99999"}, nil, "listen 127.0.0.1:99999"},
		{"arguments", []string{"serve", "extra"}, nil, `unknown command "extra"`},
		{"negative cache", []string{"serve", "--cache-mib", "-1"}, nil, "--cache-mib -1: need 0"},
		{"huge cache from env", []string{"serve"}, map[string]string{"TALKSEARCH_CACHE_MIB": "100000"}, "--cache-mib 100000: need 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := run(context.Background(), tt.args, func(k string) string { return tt.env[k] }, &out, &errOut)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

func TestResponseCacheBytes(t *testing.T) {
	for _, tt := range []struct {
		mib, want int
		wantErr   bool
	}{{16, 16 << 20, false}, {1, 1 << 20, false}, {0, -1, false}, {-1, 0, true}, {16<<10 + 1, 0, true}} {
		got, err := responseCacheBytes(tt.mib)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("responseCacheBytes(%d) = %d, %v; want %d, error %v", tt.mib, got, err, tt.want, tt.wantErr)
		}
	}
}

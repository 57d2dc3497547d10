package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"slices"
	"testing"
	"time"
)

// BenchmarkFirstQueryAfterStart measures what warming before ready buys:
// each op starts a read-only server on the FOSDEM archive's index (built
// once by index --index), then times, as a client on loopback, its first
// search and first schedule page against the median of the next ones
// (distinct queries, no response cache, so none is answered from a
// previous one), after the /healthz probe that opens the connection.
// first/p50 near 1 is a warm start; the catalog built by a first page, or
// Bleve's first reads, would show as a large first.
//
//	go test ./cmd/talksearch -run '^$' -bench FirstQueryAfterStart -benchtime 5x
func BenchmarkFirstQueryAfterStart(b *testing.B) {
	seeds := sharedFosdem(b)
	dir := b.TempDir()
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"index", "--index", dir, "--seeds", seeds, "--time-zone", "Europe/Brussels"},
		func(string) string { return "" }, &out, &errOut); err != nil {
		b.Fatalf("index: %v\n%s", err, errOut.String())
	}
	words := []string{"kernel", "rust", "postgres", "python", "security", "compiler", "network", "database", "embedded", "graphics",
		"firmware", "browser", "container", "storage", "scheduler", "testing", "packaging", "desktop", "routing", "filesystem", "mail"}
	timed := func(url string) time.Duration {
		began := time.Now()
		resp, err := http.Get(url)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("GET %s: %s", url, resp.Status)
		}
		return time.Since(began)
	}
	var searchRatio, pageRatio, firstSearch, firstPage float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		u, _, stop := startServe(b, []string{"serve", "--addr", "127.0.0.1:0", "--index", dir, "--read-only", "--cache-mib", "0", "--log-level", "warn"}, nil)
		b.StopTimer()
		// The readiness probe a balancer sends first; it also opens the
		// keep-alive connection every request below reuses.
		timed(u + "healthz")
		// Each op starts with another word: no query is always first.
		w := slices.Concat(words[i%len(words):], words[:i%len(words)])
		s0 := timed(u + "api/search?q=" + w[0])
		p0 := timed(u + "schedule?day=2025-02-01")
		var ss, ps []time.Duration
		for _, q := range w[1:] {
			ss = append(ss, timed(u+"api/search?q="+q))
			ps = append(ps, timed(u+"schedule?day=2025-02-01"))
		}
		slices.Sort(ss)
		slices.Sort(ps)
		firstSearch += float64(s0.Microseconds()) / 1000
		firstPage += float64(p0.Microseconds()) / 1000
		searchRatio += float64(s0) / float64(ss[len(ss)/2])
		pageRatio += float64(p0) / float64(ps[len(ps)/2])
		if err := stop(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(firstSearch/n, "first-search-ms")
	b.ReportMetric(searchRatio/n, "search-first/p50")
	b.ReportMetric(firstPage/n, "first-schedule-ms")
	b.ReportMetric(pageRatio/n, "schedule-first/p50")
}

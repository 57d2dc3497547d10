package main

import (
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/rs/zerolog"

	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/search/overlap"
	"github.com/talksearch/talksearch/seeds"
	"github.com/talksearch/talksearch/web"
)

// seedToken is the reload token of the in-process server.
const seedToken = "seed-token"

// newSeedServer serves the real site over the real seeds, logging every
// request at info level (to nowhere) as the production server does. Its
// POST /admin/reload re-reads the seeds and swaps the engine's index, as
// `talksearch serve` does.
func newSeedServer(tb testing.TB) *httptest.Server {
	tb.Helper()
	gin.SetMode(gin.ReleaseMode)
	c, err := ingest.Load(seeds.FS)
	if err != nil {
		tb.Fatal(err)
	}
	e, err := search.New(c.Talks)
	if err != nil {
		tb.Fatal(err)
	}
	reload := func(context.Context, web.ReloadOptions) (web.ReloadReport, error) {
		c, err := ingest.Load(seeds.FS)
		if err != nil {
			return web.ReloadReport{}, err
		}
		return web.ReloadReport{Talks: len(c.Talks)}, e.Replace(c.Talks)
	}
	h, err := web.NewHandler(struct {
		*search.Engine
		*overlap.Reports
	}{e, overlap.NewReports(e)}, zerolog.New(io.Discard).Level(zerolog.InfoLevel), web.Options{ReloadToken: seedToken, Reload: reload})
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(h)
	tb.Cleanup(srv.Close)
	return srv
}

// TestLoadAgainstSeeds runs the default mix briefly against the real
// server, with a re-index halfway: every kind of request must be answered,
// and none may fail.
func TestLoadAgainstSeeds(t *testing.T) {
	srv := newSeedServer(t)
	target, err := loopbackURL(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	d := 3 * time.Second
	if testing.Short() {
		d = time.Second
	}
	sum, err := Run(context.Background(), Config{
		Target: target, Clients: 8, Duration: d, Timeout: 10 * time.Second, Seed: 1,
		ReloadAfter: d / 2, ReloadToken: seedToken,
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := sum.Errors(); n > 0 {
		t.Errorf("%d of %d requests failed: %v, e.g. %q", n, sum.All.Count, sum.All.Errors, sum.ErrorSamples)
	}
	if sum.Talks < 50 {
		t.Errorf("discovered %d talks on the seeds, want all of them", sum.Talks)
	}
	if len(sum.Kinds) != len(kinds) {
		t.Errorf("%d kinds of request answered, want %d: %+v", len(sum.Kinds), len(kinds), sum.Kinds)
	}
	if sum.Reload == nil || sum.Reload.Status != http.StatusOK {
		t.Errorf("reload during the run: %+v, want 200", sum.Reload)
	}
	t.Logf("%.0f req/s, %.0f searches/s, p99 %.1f ms", sum.All.PerSec, sum.Searches.PerSec, sum.All.P99MS)
}

// BenchmarkServeMix is one request of the default mix, over HTTP, against
// the real server on the seeds; with -cpuprofile it shows where a request
// spends its time (client and server share the process). -distinct defeats
// the engine's result cache.
func BenchmarkServeMix(b *testing.B) {
	benchMix(b, nil, false)
}

// BenchmarkServeKind is one request of each kind alone, and a search
// that misses the result cache ("distinct").
func BenchmarkServeKind(b *testing.B) {
	for _, k := range kinds {
		b.Run(string(k), func(b *testing.B) { benchMix(b, []Kind{k}, false) })
	}
	b.Run("distinct", func(b *testing.B) { benchMix(b, []Kind{KindSearch}, true) })
}

func benchMix(b *testing.B, only []Kind, distinct bool) {
	srv := newSeedServer(b)
	target, err := loopbackURL(srv.URL)
	if err != nil {
		b.Fatal(err)
	}
	cfg := Config{Target: target, Clients: 64, Timeout: 10 * time.Second}
	client := newClient(cfg)
	corpus, err := discover(context.Background(), client, target)
	if err != nil {
		b.Fatal(err)
	}
	m := newMix(target, corpus, only, distinct)
	var seed atomic.Uint64
	b.SetParallelism(32) // 64 clients on 2 cores
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		rng := rand.New(rand.NewPCG(1, seed.Add(1)))
		for pb.Next() {
			k, u := m.next(rng)
			if _, class, msg := do(context.Background(), client, k, u); class != "" {
				b.Error(msg)
			}
		}
	})
}

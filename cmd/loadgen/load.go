package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Run discovers the corpus, runs the optional /healthz ceiling phase and
// the main phase, and summarises both. It returns an error only when the
// run could not happen; failed requests are in the summary.
func Run(ctx context.Context, cfg Config) (*Summary, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	client := newClient(cfg)
	defer client.CloseIdleConnections()

	corpus, err := discover(ctx, client, cfg.Target)
	if err != nil {
		return nil, err
	}
	var sampler *rssSampler
	if cfg.PID > 0 {
		if sampler, err = startRSS(cfg.PID, 5*time.Second); err != nil {
			return nil, err
		}
		defer sampler.stop()
	}
	progress := cfg.Progress
	if progress == nil {
		progress = io.Discard
	}

	sum := &Summary{Target: cfg.Target.String(), Clients: cfg.Clients, Talks: len(corpus.IDs)}
	if cfg.Ceiling > 0 {
		fmt.Fprintf(progress, "ceiling: /healthz alone for %s\n", cfg.Ceiling)
		m := newMix(cfg.Target, corpus, []Kind{KindHealthz}, false)
		p := runPhase(ctx, client, m, cfg, cfg.Ceiling, 0, nil, sampler, progress)
		c := p.stats(KindHealthz)
		sum.Ceiling = &c
		sum.CeilingCPU = &p.cpu
		sum.CeilingErrors = p.errorSamples
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}

	fmt.Fprintf(progress, "load: %d clients for %s\n", cfg.Clients, cfg.Duration)
	var reload func(context.Context) *ReloadResult
	if cfg.ReloadAfter > 0 {
		reload = func(ctx context.Context) *ReloadResult { return triggerReload(ctx, client, cfg) }
	}
	p := runPhase(ctx, client, newMix(cfg.Target, corpus, cfg.Only, cfg.Distinct), cfg, cfg.Duration, cfg.Hostile, reload, sampler, progress)
	sum.Seconds = p.elapsed.Seconds()
	for _, k := range kinds {
		if s := p.stats(k); s.Count > 0 {
			sum.Kinds = append(sum.Kinds, s)
		}
	}
	sum.All = p.statsWhere("all", func(Kind) bool { return true })
	sum.Searches = p.statsWhere("searches", Kind.isSearch)
	sum.Hostile = p.hostileStats(cfg.Hostile)
	sum.ErrorSamples = p.errorSamples
	sum.Reload = p.reload
	sum.CPU = &p.cpu
	if sum.Ceiling != nil && sum.Ceiling.PerSec > 0 {
		sum.SearchShareOfCeiling = sum.Searches.PerSec / sum.Ceiling.PerSec
	}
	if sampler != nil {
		sum.RSS = sampler.stop()
	}
	return sum, nil
}

// newClient is a keep-alive client with an idle connection for every
// client, so the run measures the server, not connection setup.
func newClient(cfg Config) *http.Client {
	return &http.Client{
		Timeout: cfg.Timeout,
		Transport: &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			MaxIdleConns:        2 * (cfg.Clients + cfg.Hostile),
			MaxIdleConnsPerHost: 2 * (cfg.Clients + cfg.Hostile),
			IdleConnTimeout:     90 * time.Second,
		},
		// A redirect would be a change in the API under test: report it.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// phase is what the clients of one phase recorded.
type phase struct {
	elapsed      time.Duration
	rec          []*recorder // one per client, merged when summarising
	errorSamples []string
	reload       *ReloadResult
	cpu          CPUStats
}

// recorder is one client's record; it needs no lock as only its client
// writes it until the phase ends.
type recorder struct {
	// took and refused are the hostile searches' (hostile.go).
	took    []float64
	refused int
	lat     map[Kind][]time.Duration
	errors  map[Kind]map[string]int
	first   []string // the first few error messages
}

func newRecorder() *recorder {
	return &recorder{lat: map[Kind][]time.Duration{}, errors: map[Kind]map[string]int{}}
}

func (r *recorder) fail(k Kind, class, msg string) {
	if r.errors[k] == nil {
		r.errors[k] = map[string]int{}
	}
	r.errors[k][class]++
	if len(r.first) < 3 {
		r.first = append(r.first, msg)
	}
}

// runPhase runs cfg.Clients clients for d, then waits for the requests in
// flight. reload, if set, runs once cfg.ReloadAfter into the phase.
func runPhase(ctx context.Context, client *http.Client, m *mix, cfg Config, d time.Duration, hostile int,
	reload func(context.Context) *ReloadResult, sampler *rssSampler, progress io.Writer) *phase {
	var (
		stop  atomic.Bool
		done  atomic.Int64
		errs  atomic.Int64
		wg    sync.WaitGroup
		p     = &phase{rec: make([]*recorder, cfg.Clients+hostile)}
		start = time.Now()
		cpu   = startCPU(cfg.PID)
	)
	for i := range cfg.Clients {
		p.rec[i] = newRecorder()
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
		wg.Go(func() {
			rec := p.rec[i]
			for !stop.Load() && ctx.Err() == nil {
				k, u := m.next(rng)
				lat, class, msg := do(ctx, client, k, u)
				if ctx.Err() != nil {
					return // interrupted: this request says nothing about the server
				}
				rec.lat[k] = append(rec.lat[k], lat)
				done.Add(1)
				if class != "" {
					rec.fail(k, class, msg)
					errs.Add(1)
				}
			}
		})
	}

	for i := cfg.Clients; i < cfg.Clients+hostile; i++ {
		p.rec[i] = newRecorder()
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
		wg.Go(func() {
			rec := p.rec[i]
			for !stop.Load() && ctx.Err() == nil {
				lat, took, refused, class, msg := doHostile(ctx, client, hostileURL(m.base, rng))
				if ctx.Err() != nil {
					return
				}
				rec.lat[KindHostile] = append(rec.lat[KindHostile], lat)
				done.Add(1)
				switch {
				case class != "":
					rec.fail(KindHostile, class, msg)
					errs.Add(1)
				case refused:
					rec.refused++
				default:
					rec.took = append(rec.took, took)
				}
			}
		})
	}

	var side sync.WaitGroup
	if reload != nil {
		side.Go(func() {
			select {
			case <-time.After(cfg.ReloadAfter):
				at := time.Since(start).Seconds()
				p.reload = reload(ctx)
				p.reload.AtSeconds = at
				fmt.Fprintf(progress, "reload at %.1fs: %s\n", p.reload.AtSeconds, p.reload)
			case <-ctx.Done():
			}
		})
	}
	end := time.NewTimer(d)
	var tick <-chan time.Time
	if cfg.Interval > 0 {
		t := time.NewTicker(cfg.Interval)
		defer t.Stop()
		tick = t.C
	}
	last, lastAt := int64(0), start
loop:
	for {
		select {
		case <-end.C:
			break loop
		case <-ctx.Done():
			end.Stop()
			break loop
		case now := <-tick:
			n := done.Load()
			line := fmt.Sprintf("%6.0fs %8.0f req/s  errors %d", now.Sub(start).Seconds(),
				float64(n-last)/now.Sub(lastAt).Seconds(), errs.Load())
			if sampler != nil {
				line += fmt.Sprintf("  rss %s", mib(sampler.current()))
			}
			fmt.Fprintln(progress, line)
			last, lastAt = n, now
		}
	}
	stop.Store(true)
	p.elapsed = time.Since(start)
	wg.Wait()
	p.cpu = cpu.stop(int(done.Load()), time.Since(start))
	side.Wait()
	for _, r := range p.rec {
		for _, m := range r.first {
			if len(p.errorSamples) < 5 {
				p.errorSamples = append(p.errorSamples, m)
			}
		}
	}
	return p
}

// do sends one GET and reads the whole answer. class is empty on success,
// else the HTTP status code or "transport".
func do(ctx context.Context, client *http.Client, k Kind, u string) (lat time.Duration, class, msg string) {
	start := time.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, "transport", err.Error()
	}
	if name, value := k.header(); name != "" {
		req.Header.Set(name, value)
	}
	// Ask for gzip as browsers do, so the server does what it does for
	// phones, but read the bytes as sent (setting the header turns off the
	// transport's inflating): inflating is the phones' work, and here it
	// would take a large share of the loadgen's CPU from the server under
	// test.
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := client.Do(req)
	if err != nil {
		return time.Since(start), "transport", err.Error()
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	lat = time.Since(start)
	switch {
	case err != nil:
		return lat, "transport", fmt.Sprintf("GET %s: read body: %v", u, err)
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return lat, fmt.Sprint(resp.StatusCode), fmt.Sprintf("GET %s: %s", u, resp.Status)
	}
	return lat, "", ""
}

// ReloadResult is how the one re-index of a run went.
type ReloadResult struct {
	AtSeconds float64 `json:"at_s"`
	Via       string  `json:"via"` // "POST /admin/reload" or "SIGHUP"
	Status    int     `json:"status,omitempty"`
	TookMS    float64 `json:"took_ms"`
	Err       string  `json:"error,omitempty"`
}

func (r *ReloadResult) String() string {
	s := fmt.Sprintf("%s in %.1f ms", r.Via, r.TookMS)
	if r.Status != 0 {
		s += fmt.Sprintf(", status %d", r.Status)
	}
	if r.Err != "" {
		s += ": " + r.Err
	}
	return s
}

// triggerReload asks the server to re-index, through the admin endpoint
// when a token is configured, else by SIGHUP.
func triggerReload(ctx context.Context, client *http.Client, cfg Config) *ReloadResult {
	start := time.Now()
	if cfg.ReloadToken == "" {
		r := &ReloadResult{Via: "SIGHUP"}
		if err := syscall.Kill(cfg.PID, syscall.SIGHUP); err != nil {
			r.Err = err.Error()
		}
		r.TookMS = ms(time.Since(start))
		return r
	}
	r := &ReloadResult{Via: "POST /admin/reload"}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint(cfg.Target, "/admin/reload", nil), nil)
	if err != nil {
		r.Err = err.Error()
		return r
	}
	req.Header.Set("Authorization", "Bearer "+cfg.ReloadToken)
	resp, err := client.Do(req)
	r.TookMS = ms(time.Since(start))
	if err != nil {
		r.Err = err.Error()
		return r
	}
	defer resp.Body.Close()
	r.Status = resp.StatusCode
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		r.Err = strings.TrimSpace(string(body))
		if r.Err == "" {
			r.Err = resp.Status
		}
	}
	return r
}

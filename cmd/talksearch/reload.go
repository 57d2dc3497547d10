package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/web"
)

// reloader re-indexes a running server: it re-reads the seeds and hands
// the new corpus to swap, which builds the new index whole before it
// replaces the serving one. Reloads run one at a time, so a SIGHUP and an
// admin request arriving together do not build twice at once.
type reloader struct {
	mu   sync.Mutex
	load func() (*ingest.Corpus, error)
	swap func(*ingest.Corpus) error
	log  zerolog.Logger
	// skipped are the seed files the serving corpus could not use at all.
	skipped map[string]bool
	// serving are the seed files of each serving talk, by id (drop.go).
	serving map[string][]string
	// allowDrop (serve --allow-drop) accepts every reload that loses
	// talks, as a force request accepts one.
	allowDrop bool
	reloads   // what /healthz shows of them
	// fetch and settle, set when seeds are URLs (remote.go): fetch asks
	// each URL for a new copy, how many came; settle accepts them once
	// the corpus read with them serves, or refuses them (nil: it serves).
	fetch  func(ctx context.Context) int
	settle func(refused error)
}

// reloads counts the reloads of a server, or a read-only server's
// switches to a new generation (follower), for /healthz.
type reloads struct {
	mu sync.Mutex
	st web.ReloadStatus
}

// status is a web.Options.ReloadStatus.
func (r *reloads) status() web.ReloadStatus {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.st
}

// setStatus records a reload beginning (running) or ending.
func (r *reloads) setStatus(running bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.st.Running = running
	if !running {
		r.st.Reloads++
		if err != nil {
			r.st.Failures++
		}
	}
}

// newReloader re-reads the seeds named by --seeds (the embedded seeds give
// the same corpus every time) and swaps with swap, the engine's Replace.
// serving is the corpus the server started with. Seeds given as URLs are
// fetched again at each reload; their new copies are read with the other
// seeds and kept only if the reload succeeds (remote.go).
func newReloader(g *globals, serving *ingest.Corpus, swap func(*ingest.Corpus) error, allowDrop bool, log zerolog.Logger) *reloader {
	r := &reloader{
		load:      g.loadCurrent,
		swap:      swap,
		log:       log,
		skipped:   skippedFiles(serving),
		serving:   sourcesOf(serving.Talks),
		allowDrop: allowDrop,
	}
	if len(g.remoteSeeds()) > 0 {
		r.fetch = func(ctx context.Context) int {
			return g.fetchAll(ctx, false, func(url string, err error) {
				log.Warn().Str("url", url).Err(err).Msg("fetch: the last good copy stays")
			})
		}
		r.settle = g.settle
	}
	return r
}

// skippedFiles are the files of a corpus with a whole-file warning (line
// 0), or read only up to a break (Warning.Unread): ingestion could not
// read them as seeds, or not all of them.
func skippedFiles(c *ingest.Corpus) map[string]bool {
	m := map[string]bool{}
	for _, w := range c.Report.Warnings {
		if w.Unread() {
			m[w.File] = true
		}
	}
	return m
}

// check refuses a corpus that would lose talks by accident. Ingestion is
// lenient (a file it cannot read becomes a warning), which is right at
// start but not for a reload, where the old index is the better answer:
// a seed file that was readable and no longer is (or only in part: a cut
// XML file, Warning.Cut), or seeds with no talks
// at all, are an operator's mistake to fix, not data to serve. A seed
// file that is gone (deleted, renamed away) and held the only copy of
// some talks is refused too, unless force: the files that still exist
// cannot show that (drop.go).
func (r *reloader) check(c *ingest.Corpus, force bool) error {
	if len(c.Talks) == 0 {
		return errors.New("the seeds hold no talks")
	}
	for _, w := range c.Report.Warnings {
		if w.Unread() && !r.skipped[w.File] {
			return fmt.Errorf("seed %s: %s", w.File, w.Msg)
		}
	}
	if d := dropped(r.serving, c.Talks); d.talks > 0 {
		if !force && !r.allowDrop {
			return fmt.Errorf("%w: %w", web.ErrWouldDrop, d.err("reload with force=true (or serve --allow-drop)"))
		}
		r.log.Warn().Int("talks", d.talks).Interface("files", d.files).Msg("reload: dropping talks found in no other seed file, as told")
	}
	return nil
}

// reload is a web.ReloadFunc. On any error the old index keeps serving.
func (r *reloader) reload(ctx context.Context, o web.ReloadOptions) (rep web.ReloadReport, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.setStatus(true, nil)
	defer func() { r.setStatus(false, err) }()
	if r.fetch != nil {
		r.fetch(ctx)
	}
	return r.reloadLocked(o)
}

// refresh fetches the seeds given as URLs and reloads when one of them
// changed. A 304, the same bytes or a failed fetch cost no re-index: the
// copies serving stay.
func (r *reloader) refresh(ctx context.Context) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fetch == nil || r.fetch(ctx) == 0 {
		return
	}
	r.log.Info().Msg("reload: a seed URL has a new copy")
	r.setStatus(true, nil)
	_, err := r.reloadLocked(web.ReloadOptions{})
	r.setStatus(false, err)
}

// watchRefresh refreshes every interval until ctx ends or stop is called;
// stop waits for a refresh in progress to finish.
func (r *reloader) watchRefresh(ctx context.Context, every time.Duration) (stop func()) {
	if r.fetch == nil || every <= 0 {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				r.refresh(ctx)
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

func (r *reloader) reloadLocked(o web.ReloadOptions) (rep web.ReloadReport, err error) {
	if r.settle != nil {
		defer func() { r.settle(err) }()
	}
	start := time.Now()
	r.log.Info().Msg("reload: reading the seeds")
	c, err := r.load()
	if err == nil {
		err = r.check(c, o.Force)
	}
	if err != nil {
		err = fmt.Errorf("%w: %w", web.ErrSeedsRejected, err)
		r.log.Error().Err(err).Msg("reload: keeping the old index")
		return web.ReloadReport{}, err
	}
	for _, w := range c.Report.Warnings {
		r.log.Warn().Str("file", w.File).Int("line", w.Line).Msg(w.Msg)
	}
	if err := r.swap(c); err != nil {
		err = fmt.Errorf("build the new index: %w", err)
		r.log.Error().Err(err).Msg("reload: keeping the old index")
		return web.ReloadReport{}, err
	}
	r.skipped = skippedFiles(c)
	r.serving = sourcesOf(c.Talks)
	rep = web.ReloadReport{Talks: len(c.Talks), Warnings: len(c.Report.Warnings), TookMS: float64(time.Since(start).Microseconds()) / 1000}
	r.log.Info().Int("talks", rep.Talks).Int("warnings", rep.Warnings).Float64("took_ms", rep.TookMS).Msg("reload: new index serving")
	return rep, nil
}

// catchSIGHUP makes SIGHUP queue on the returned channel instead of
// killing the process, its default action. serve calls it before it
// builds the first index, so that a SIGHUP during the build is not fatal:
// it reloads once watchSIGHUP runs. stop restores the default.
func catchSIGHUP() (hup <-chan os.Signal, stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGHUP)
	return ch, func() { signal.Stop(ch) }
}

// watchSIGHUP reloads on every signal of hup until ctx ends or stop is
// called; stop waits for a reload in progress to finish.
func (r *reloader) watchSIGHUP(ctx context.Context, hup <-chan os.Signal) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				r.log.Info().Msg("reload: SIGHUP")
				// Errors are logged by reload; the old index serves on.
				_, _ = r.reload(ctx, web.ReloadOptions{})
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

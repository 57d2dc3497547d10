package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/rs/zerolog"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/web"
)

// checkReadOnly refuses the serve flags that mean nothing to a read-only
// server: it has no seeds to read, fetch or compare, and nothing to
// reload but the directory, which it follows by itself.
func checkReadOnly(g *globals, o serveOptions) error {
	var bad []string
	if o.indexDir == "" {
		return errors.New("--read-only needs --index DIR, a directory talksearch index --index built")
	}
	if len(g.seedPaths) > 0 {
		bad = append(bad, "--seeds")
	}
	if o.refresh != 0 {
		bad = append(bad, "--refresh")
	}
	if o.allowDrop {
		bad = append(bad, "--allow-drop")
	}
	if o.reloadToken != "" {
		bad = append(bad, "--reload-token")
	}
	if o.poll < 0 {
		return fmt.Errorf("--poll %s: need 0 (only on SIGHUP) or more", o.poll)
	}
	if len(bad) > 0 {
		return fmt.Errorf("--read-only serves the talks of --index %s as built: %s apply to the writer (talksearch index, or serve without --read-only)", o.indexDir, strings.Join(bad, ", "))
	}
	return nil
}

// openGeneration opens the generation name of dir (serve --read-only) as a
// site: the index as the writer published it, and the talks the writer
// kept beside it (keep.go), whatever seeds they came from. Nothing is
// written into dir: what the engine derives and did not find kept is
// derived in memory (and logged).
func openGeneration(dir, name, decisions string, log zerolog.Logger) (*site, int, error) {
	idx, gen, err := index.OpenGeneration(dir, name)
	if err != nil {
		return nil, 0, err
	}
	var k ingest.KeptCorpus
	if err := index.SidecarOf(idx).LoadAnyKey(keptCorpusName, &k); err != nil {
		idx.Close()
		// A writer keeps the talks just after it publishes the index:
		// a missing corpus is one not kept yet, or kept by another build.
		return nil, 0, fmt.Errorf("generation %s: its talks: %w (built by `talksearch index --index` of this build?)", name, err)
	}
	c, err := k.Restore()
	if err != nil {
		idx.Close()
		return nil, 0, fmt.Errorf("generation %s: its talks: %w", name, err)
	}
	given := false
	e, err := search.NewWithOptions(c.Talks, search.Options{Index: func([]index.Talk) (bleve.Index, error) {
		if given {
			return nil, errors.New("a read-only generation is opened once")
		}
		given = true
		return idx, nil
	}})
	if err != nil {
		if !given {
			idx.Close()
		}
		return nil, 0, fmt.Errorf("generation %s: %w", name, err)
	}
	kept := e.Kept()
	log.Info().Str("index", gen.Name).Time("built", gen.Built).Uint64("docs", gen.Docs).Strs("derivations_kept", kept.Loaded).
		Strs("derived", kept.Derived).Msg("generation opened")
	for _, p := range kept.Problems {
		log.Debug().Str("problem", p).Msg("a kept derivation was not used")
	}
	return newSite(e, decisions, gen.Name), len(c.Talks), nil
}

// follower keeps a read-only server on the newest generation of its
// directory: it reads DIR/current every interval (and on SIGHUP), and
// when it names another generation opens it, warms it and swaps it in.
// A generation that fails to open is logged, counted once, and not
// opened again until DIR/current names another one or SIGHUP asks (its
// check reads every file); the one serving stays.
type follower struct {
	dir, decisions string
	live           *live
	h              *web.Handler
	log            zerolog.Logger

	mu     sync.Mutex // one look at a time
	failed string     // the generation that failed to open last

	reloads // /healthz's "reloads": the generations swapped in, and the failed opens
}

// look swaps in the generation DIR/current names, if it is not the one
// serving, nor (unless again) the one that failed last.
func (f *follower) look(ctx context.Context, again bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	name, err := index.CurrentGeneration(f.dir)
	if err != nil {
		if f.failed != "" {
			return // logged
		}
		f.failed = "\x00" // no name
		f.log.Warn().Err(err).Msg("no generation published: the one serving stays")
		return
	}
	if name == f.live.serving().index || (name == f.failed && !again) {
		return
	}
	began := time.Now()
	f.setStatus(true, nil)
	s, talks, err := openGeneration(f.dir, name, f.decisions, f.log)
	if err == nil {
		err = f.live.swap(ctx, f.h, s)
	}
	f.setStatus(false, err)
	if err != nil {
		f.failed = name
		f.log.Warn().Str("index", name).Err(err).Msg("new generation not opened: the one serving stays")
		return
	}
	f.failed = ""
	f.log.Info().Str("index", name).Int("talks", talks).Uint64("generation", s.gen).Dur("took", time.Since(began)).Msg("new generation serving")
}

// watch looks every interval (0: never) and on every signal of hup, until
// ctx ends or stop is called; stop waits for a look in progress.
func (f *follower) watch(ctx context.Context, every time.Duration, hup <-chan os.Signal) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		var tick <-chan time.Time
		if every > 0 {
			t := time.NewTicker(every)
			defer t.Stop()
			tick = t.C
		}
		for {
			again := false
			select {
			case <-ctx.Done():
				return
			case <-tick:
			case <-hup:
				f.log.Info().Msg("SIGHUP: looking for a new generation")
				again = true
			}
			f.look(ctx, again)
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

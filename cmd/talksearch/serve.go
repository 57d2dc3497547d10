package main

import (
	"context"
	"errors"
	"fmt"
	stdlog "log"
	"net"
	"net/http"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/gin-gonic/gin"
	"github.com/rs/zerolog"
	"github.com/spf13/cobra"

	"github.com/talksearch/talksearch/cmd/internal/gcgoal"
	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/search/overlap"
	"github.com/talksearch/talksearch/web"
)

// serveOptions are the flags of `talksearch serve`.
type serveOptions struct {
	addr              string
	indexDir          string
	readOnly          bool
	poll              time.Duration
	readTimeout       time.Duration
	readHeaderTimeout time.Duration
	writeTimeout      time.Duration
	idleTimeout       time.Duration
	maxHeaderBytes    int
	shutdownTimeout   time.Duration
	requestTimeout    time.Duration
	maxCalendarTalks  int
	reloadToken       string
	cacheMiB          int
	allowDrop         bool
	clientBudget      time.Duration
	refresh           time.Duration
	decisions         string
}

func newServeCmd(g *globals) *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the search page and the JSON API",
		Long: `Serve the search page, talk pages, the organizers' overlap page, the
attendee's pages (/now, /schedule, /agenda, /speakers/NAME, calendar files) and
the JSON API (/api/search, /api/talks/ID, /api/overlaps, /api/now, /api/agenda,
/healthz).

The server prints its URL on standard output once it listens, logs one JSON
line per request on standard error, and on SIGINT or SIGTERM stops accepting
connections, finishes the requests in flight (up to --shutdown-timeout) and
exits. A signal during the start ends its load, fetches and index build, and
the process exits with status 1.

On SIGHUP, or POST /admin/reload with "Authorization: Bearer TOKEN" when
--reload-token (better: TALKSEARCH_RELOAD_TOKEN) is set, it re-reads the
seeds and swaps in a new index once it is built; seeds that fail to load,
or would lose a file's talks, are refused and the old index keeps serving.
Seeds that would drop talks found in no other seed file (a deleted seed)
are refused at a reload, and at start against the talks of the --index
directory, unless --allow-drop (a reload: POST /admin/reload?force=true).

Seeds given as URLs (--seeds https://…/schedule.xml) are fetched at start
and, with --refresh, again at that interval, asking whether the file changed
(If-None-Match, If-Modified-Since): a new copy is re-read with the other seeds
and swapped in like a reload, under the same rules, so a cut or broken
download never replaces a good schedule; a failed fetch keeps the last good
copy. /healthz lists each URL's last success, last error and ETag under
"sources".

One process at a time may serve an --index directory: a second one exits
with an error naming it and removes nothing. With --read-only, any number
may: each serves the index the directory publishes (build it with
talksearch index --index DIR), takes no lock, writes nothing there, and
every --poll (and on SIGHUP) looks for a newer build, which it opens and
warms before it swaps it in; one that fails to open is logged and the old
one serves on. /healthz names the build served ("index").`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// A signal during the start ends its load, fetches and
			// build (g.ctx, as for index); once serving, it stops the
			// server, not its loads (startWriter).
			return serve(cmd.Context(), g, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free port)")
	f.StringVar(&o.indexDir, "index", "", "directory of an on-disk index to reuse or build (default: in memory)")
	f.BoolVar(&o.readOnly, "read-only", false, "serve the index an --index directory publishes (built by talksearch index --index) without locking or writing it, following each new build; any number of servers may share the directory")
	f.DurationVar(&o.poll, "poll", time.Second, "with --read-only: how often to look for a new build in the --index directory (0: only on SIGHUP)")
	f.DurationVar(&o.readTimeout, "read-timeout", 10*time.Second, "longest time to read a whole request")
	f.DurationVar(&o.readHeaderTimeout, "read-header-timeout", 5*time.Second, "longest time to read request headers")
	f.DurationVar(&o.writeTimeout, "write-timeout", 15*time.Second, "longest time to write a response")
	f.DurationVar(&o.idleTimeout, "idle-timeout", 60*time.Second, "how long an idle keep-alive connection stays open")
	f.IntVar(&o.maxHeaderBytes, "max-header-bytes", 16<<10, "largest request header accepted, in bytes")
	f.DurationVar(&o.shutdownTimeout, "shutdown-timeout", 10*time.Second, "how long shutdown waits for requests in flight")
	f.StringVar(&o.reloadToken, "reload-token", "", "bearer token that enables POST /admin/reload (empty: the endpoint answers 403; SIGHUP always reloads)")
	f.DurationVar(&o.requestTimeout, "request-timeout", 10*time.Second, "longest time one request may work")
	f.IntVar(&o.maxCalendarTalks, "max-calendar-talks", 500, "most talks on the schedule one search's calendar (search.ics) holds; a search finding more is refused")
	f.IntVar(&o.cacheMiB, "cache-mib", 8, "MiB of finished answers (pages, JSON) kept for reuse; 0 keeps none")
	f.DurationVar(&o.clientBudget, "client-budget", web.ClientBudgetRate, "server time per second each client address may spend on long searches (more than 8 words or 64 characters), 429 beyond; 0: no budgets (behind a proxy), only the server-wide places")
	f.StringVar(&o.decisions, "decisions", "", "the committee's decisions file (CSV: a, b, decision, note) applied to the organizer report; edits apply at the next reload")
	f.DurationVar(&o.refresh, "refresh", 0, "fetch the --seeds URLs again at this interval (e.g. 5m) and re-index when one changed; 0: only at start and on a reload")
	f.BoolVar(&o.allowDrop, "allow-drop", false, "accept seeds that drop talks found in no other seed file (a deleted seed), at start and on every reload")
	return cmd
}

// serve runs the server until ctx is cancelled (SIGINT/SIGTERM in main),
// then shuts it down gracefully.
func serve(ctx context.Context, g *globals, o serveOptions) error {
	level, err := zerolog.ParseLevel(g.logLevel)
	if err != nil {
		return usage(fmt.Errorf("--log-level %q: %w", g.logLevel, err))
	}
	cacheBytes, err := responseCacheBytes(o.cacheMiB)
	if err != nil {
		return usage(err)
	}
	budget := o.clientBudget
	switch {
	case budget < 0:
		return usage(fmt.Errorf("--client-budget %s: need 0 (none) or more", budget))
	case budget == 0:
		budget = -1 // web: no budgets; its 0 is the default
	}
	if o.refresh < 0 {
		return usage(fmt.Errorf("--refresh %s: need 0 (never) or more", o.refresh))
	}
	if o.readOnly {
		if err := checkReadOnly(g, o); err != nil {
			return usage(err)
		}
	}
	if o.decisions != "" {
		if _, err := overlap.ReadDecisionsFile(o.decisions); err != nil {
			return fmt.Errorf("--decisions: %w", err)
		}
	}
	log := zerolog.New(g.stderr).Level(level).With().Timestamp().Logger()
	hup, restoreHUP := catchSIGHUP() // before the build: see reload.go
	defer restoreHUP()
	// Listen before indexing: a taken port fails at once, and connections
	// that arrive while the index builds wait in the backlog.
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("listen %s: %w", o.addr, err)
	}
	defer ln.Close()

	var (
		lv     *live
		h      *web.Handler
		reload *reloader // the seeds' reloads; nil read-only
		follow *follower // the directory's generations; nil unless read-only
		hlist  []func()  // stop the watchers
	)
	if o.readOnly {
		first, err := startReadOnly(o, log)
		if err != nil {
			return err
		}
		lv = newLive(first)
		follow = &follower{dir: o.indexDir, decisions: o.decisions, live: lv, log: log}
	} else {
		first, corpus, lock, err := startWriter(ctx, g, o, log)
		if err != nil {
			return err
		}
		if lock != nil {
			defer lock.Unlock()
		}
		lv = newLive(first)
		// Live re-index (reload.go): SIGHUP, or POST /admin/reload with
		// the token. Each reload builds a new engine, warmed before it
		// serves (live.swap).
		reload = newReloader(g, corpus, func(c *ingest.Corpus) error {
			e, err := search.NewWithOptions(c.Talks, search.Options{Index: indexFunc(g, o.indexDir, log)})
			if err != nil {
				return err
			}
			return lv.swap(context.WithoutCancel(ctx), h, newSite(e, o.decisions, servedIndex(o.indexDir)))
		}, o.allowDrop, log)
	}
	// Closed after the server has shut down: the index (and, with --index,
	// its files) is released once no request can use it.
	defer lv.close()
	// Deferred after lv.close, so run before it: no watcher swaps a
	// generation in once the server is closing.
	defer func() {
		for _, stop := range hlist {
			stop()
		}
	}()

	gin.SetMode(gin.ReleaseMode)
	opts := web.Options{
		RequestTimeout: o.requestTimeout, MaxCalendarTalks: o.maxCalendarTalks, CacheBytes: cacheBytes, ReloadToken: o.reloadToken,
		ClientBudget: budget, SourcesStatus: g.sourcesStatus(), MaxParseTime: g.maxParse,
		// Times that name no zone read in --time-zone; every other in its
		// conference's own.
		Location: g.zone,
	}
	if reload != nil {
		opts.Reload, opts.ReloadStatus = reload.reload, reload.status
	}
	if o.indexDir != "" {
		opts.Index = func() string { return lv.serving().index }
	}
	if follow != nil {
		opts.ReloadStatus = follow.status
	}
	if h, err = web.NewHandler(lv, log, opts); err != nil {
		return fmt.Errorf("web handler: %w", err)
	}
	// Before the first request: /healthz answers once the first query
	// costs what the following ones do. A signal meanwhile stops the
	// server once the start completes, as it does the build.
	warmed := time.Now()
	if err := h.Warm(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("warm the index: %w", err)
	}
	log.Info().Dur("took", time.Since(warmed)).Msg("warm")
	// The talks as read (the corpus, texts and all) are garbage once the
	// engine holds its own: returned now, they are not resident while the
	// server runs.
	index.ReleaseMemory(len(lv.Listing()))
	if follow != nil {
		follow.h = h
		hlist = append(hlist, follow.watch(ctx, o.poll, hup))
	} else {
		hlist = append(hlist, reload.watchSIGHUP(ctx, hup), reload.watchRefresh(ctx, o.refresh))
	}

	srv := &http.Server{
		Handler:           h,
		ReadTimeout:       o.readTimeout,
		ReadHeaderTimeout: o.readHeaderTimeout,
		WriteTimeout:      o.writeTimeout,
		IdleTimeout:       o.idleTimeout,
		MaxHeaderBytes:    o.maxHeaderBytes,
		ErrorLog:          stdlog.New(log.With().Str("source", "net/http").Logger(), "", 0),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	url := "http://" + ln.Addr().String() + "/"
	log.Info().Str("url", url).Msg("listening")
	fmt.Fprintf(g.stdout, "talksearch: serving on %s\n", url)

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()

	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	log.Info().Msg("shutting down: finishing requests in flight")
	sctx, cancel := context.WithTimeout(context.Background(), o.shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	log.Info().Msg("stopped")
	return nil
}

// startWriter is the start of a server that reads the seeds: with
// --index, it holds the directory (index.Lock) until the process exits and
// reuses or rebuilds the index there. It returns the first site and the
// corpus it serves; the caller unlocks the directory (if not nil) when it
// stops serving. A signal (ctx) ends its load and build: the process exits
// as index does on a signal; from its return on, a signal stops the server,
// not its loads (g.ctx): a reload in flight is a request that shutdown lets
// finish within --shutdown-timeout.
func startWriter(ctx context.Context, g *globals, o serveOptions, log zerolog.Logger) (*site, *ingest.Corpus, *index.DirLock, error) {
	var lock *index.DirLock
	if o.indexDir != "" {
		// Held until the server stops: a second server would remove
		// this one's live index on its next rebuild (index.Lock).
		var err error
		if lock, err = index.Lock(o.indexDir); err != nil {
			return nil, nil, nil, fmt.Errorf("--index %s: %w", o.indexDir, err)
		}
	}
	fail := func(err error) (*site, *ingest.Corpus, *index.DirLock, error) {
		if lock != nil {
			lock.Unlock()
		}
		return nil, nil, nil, err
	}
	start := time.Now()
	corpus, src, keepCorpus, err := g.loadServeCorpus(o.indexDir, log) // keep.go
	if err != nil {
		return fail(startInterrupted(ctx, err, log))
	}
	if len(corpus.Talks) == 0 {
		// An empty site answering 200 would hide that the seeds were
		// refused; a file without talks beside others that have some is
		// a warning (logged with the others) and the site starts.
		why := noTalksError(corpus.Report)
		if why == nil {
			why = errors.New("the seeds hold none (see the warnings)")
		}
		return fail(fmt.Errorf("no talks to serve: %w", why))
	}
	if n := corpus.Report.NoTalks; len(n) > 0 {
		log.Warn().Strs("files", n).Msg("seed files gave no talk: serving the others")
	}
	if o.indexDir != "" {
		if err := checkPersistedDrop(o.indexDir, corpus, o.allowDrop, log); err != nil {
			return fail(err)
		}
	}
	engine, err := search.NewWithOptions(corpus.Talks, search.Options{Index: indexFunc(g, o.indexDir, log)})
	if err != nil {
		return fail(startInterrupted(ctx, fmt.Errorf("build search engine: %w", err), log))
	}
	if err := context.Cause(ctx); err != nil {
		engine.Close()
		return fail(startInterrupted(ctx, fmt.Errorf("start stopped: %w", err), log))
	}
	g.ctx = context.WithoutCancel(ctx)
	keepCorpus(nil) // logged: the next start ingests again
	gcTuned := gcgoal.Tune()
	kept := engine.Kept()
	log.Info().Int("talks", len(corpus.Talks)).Bool("gc_tuned", gcTuned).Bool("corpus_kept", src.Kept).Strs("derivations_kept", kept.Loaded).
		Strs("derived", kept.Derived).Dur("took", time.Since(start)).Msg("index ready")
	if src.Reason != "" {
		log.Info().Str("reason", src.Reason).Msg("seeds parsed: the kept corpus is not theirs")
	}
	for _, p := range kept.Problems {
		log.Warn().Str("problem", p).Msg("a kept derivation was not used or not saved")
	}
	return newSite(engine, o.decisions, servedIndex(o.indexDir)), corpus, lock, nil
}

// startInterrupted is err, the failure of the start, logged as the end of
// the start when a signal (ctx) caused it: the process exits as index does
// on a signal, with status 1 and the cause in its last line.
func startInterrupted(ctx context.Context, err error, log zerolog.Logger) error {
	if cause := context.Cause(ctx); cause != nil {
		log.Warn().Str("cause", cause.Error()).Msg("start interrupted: exiting without serving")
	}
	return err
}

// servedIndex names the generation a writer has just opened or built in
// dir (it holds dir, so current is its own), "" without --index.
func servedIndex(dir string) string {
	if dir == "" {
		return ""
	}
	name, _ := index.CurrentGeneration(dir)
	return name
}

// startReadOnly is the start of serve --read-only: the generation the
// --index directory publishes, without a lock and without writing there.
func startReadOnly(o serveOptions, log zerolog.Logger) (*site, error) {
	start := time.Now()
	name, err := index.CurrentGeneration(o.indexDir)
	if err != nil {
		return nil, fmt.Errorf("--index %s: %w (build one with talksearch index --index)", o.indexDir, err)
	}
	s, talks, err := openGeneration(o.indexDir, name, o.decisions, log)
	if err != nil {
		return nil, fmt.Errorf("--index %s: %w", o.indexDir, err)
	}
	gcTuned := gcgoal.Tune()
	log.Info().Int("talks", talks).Bool("gc_tuned", gcTuned).Str("index", name).Dur("took", time.Since(start)).Msg("index ready")
	return s, nil
}

// indexFunc says where the engine's index lives: in memory or, with
// --index DIR, on disk, reused across runs while the talks and the mapping
// version are unchanged and rebuilt beside the old one otherwise. A build
// ends early when g.ctx does, as it is when the build starts (a signal
// during the start; reloads outlive it, see startWriter).
func indexFunc(g *globals, dir string, log zerolog.Logger) func([]index.Talk) (bleve.Index, error) {
	if dir == "" {
		return func(talks []index.Talk) (bleve.Index, error) {
			return index.BuildContext(g.ctx, talks, buildProgress(g.stderr, log))
		}
	}
	return func(talks []index.Talk) (bleve.Index, error) {
		idx, rep, err := index.OpenContext(g.ctx, dir, talks, buildProgress(g.stderr, log))
		if err != nil {
			return nil, fmt.Errorf("--index %s: %w", dir, err)
		}
		if rep.Reused {
			log.Info().Str("path", rep.Path).Uint64("docs", rep.Docs).Dur("took", rep.Took).Msg("on-disk index reused")
		} else {
			log.Warn().Str("reason", rep.Reason).Str("path", rep.Path).Uint64("docs", rep.Docs).Dur("took", rep.Took).Msg("on-disk index rebuilt")
		}
		if rep.Cleanup != nil {
			log.Warn().Err(rep.Cleanup).Msg("could not remove an old index directory")
		}
		return idx, nil
	}
}

// checkPersistedDrop refuses, at start, seeds that would drop talks of the
// index persisted in dir that no other seed file has: the server was
// stopped, a seed deleted, and the rebuild would lose them silently.
func checkPersistedDrop(dir string, c *ingest.Corpus, allow bool, log zerolog.Logger) error {
	before, ok := index.PersistedSources(dir)
	if !ok {
		return nil
	}
	d := dropped(before, c.Talks)
	switch {
	case d.talks == 0:
		return nil
	case allow:
		log.Warn().Int("talks", d.talks).Interface("files", d.files).Msg("dropping talks found in no other seed file, as told (--allow-drop)")
		return nil
	}
	return fmt.Errorf("--index %s: the seeds differ from the indexed ones: %w", dir, d.err("start with --allow-drop"))
}

// responseCacheBytes is web.Options.CacheBytes for --cache-mib, where 0
// keeps nothing (web: a negative value; its 0 is the default).
func responseCacheBytes(mib int) (int, error) {
	const most = 16 << 10 // 16 GiB
	switch {
	case mib < 0 || mib > most:
		return 0, fmt.Errorf("--cache-mib %d: need 0 (keep none) to %d", mib, most)
	case mib == 0:
		return -1, nil
	}
	return mib << 20, nil
}

// catalog is what the server answers from: the search engine and the
// overlap reports of the corpus it serves.
type catalog struct {
	*search.Engine
	*overlap.Reports
}

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
with an error naming it and removes nothing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// A signal during the start ends its load, fetches and
			// build (g.ctx, as for index); once serving, it stops the
			// server, not its loads (serve).
			return serve(cmd.Context(), g, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free port)")
	f.StringVar(&o.indexDir, "index", "", "directory of an on-disk index to reuse or build (default: in memory)")
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

	if o.indexDir != "" {
		// Held until the process exits: a second server would remove
		// this one's live index on its next rebuild (index.Lock).
		lock, err := index.Lock(o.indexDir)
		if err != nil {
			return fmt.Errorf("--index %s: %w", o.indexDir, err)
		}
		defer lock.Unlock()
	}

	start := time.Now()
	corpus, src, keepCorpus, err := g.loadServeCorpus(o.indexDir, log) // keep.go
	if err != nil {
		return startInterrupted(ctx, err, log)
	}
	if len(corpus.Talks) == 0 {
		// An empty site answering 200 would hide that the seeds were
		// refused; a file without talks beside others that have some is
		// a warning (logged with the others) and the site starts.
		why := noTalksError(corpus.Report)
		if why == nil {
			why = errors.New("the seeds hold none (see the warnings)")
		}
		return fmt.Errorf("no talks to serve: %w", why)
	}
	if n := corpus.Report.NoTalks; len(n) > 0 {
		log.Warn().Strs("files", n).Msg("seed files gave no talk: serving the others")
	}
	if o.indexDir != "" {
		if err := checkPersistedDrop(o.indexDir, corpus, o.allowDrop, log); err != nil {
			return err
		}
	}
	engine, err := search.NewWithOptions(corpus.Talks, search.Options{Index: indexFunc(g, o.indexDir, log)})
	if err != nil {
		return startInterrupted(ctx, fmt.Errorf("build search engine: %w", err), log)
	}
	// Closed after the server has shut down: the index (and, with --index,
	// its files) is released once no request can use it.
	defer engine.Close()
	if err := context.Cause(ctx); err != nil {
		engine.Close()
		return startInterrupted(ctx, fmt.Errorf("start stopped: %w", err), log)
	}
	// From here a signal stops the server, not its loads: a reload in
	// flight is a request that shutdown lets finish within
	// --shutdown-timeout. Every load is bounded in bytes and work.
	g.ctx = context.WithoutCancel(ctx)
	keepCorpus()
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

	gin.SetMode(gin.ReleaseMode)
	// Live re-index (reload.go): SIGHUP, or POST /admin/reload with the token.
	reload := newReloader(g, corpus, func(c *ingest.Corpus) error { return engine.Replace(c.Talks) }, o.allowDrop, log)
	stopHUP := reload.watchSIGHUP(ctx, hup)
	defer stopHUP()
	defer reload.watchRefresh(ctx, o.refresh)()

	reports := overlap.NewReports(engine)
	reports.DecisionsFile = o.decisions
	h, err := web.NewHandler(catalog{engine, reports}, log, web.Options{
		RequestTimeout: o.requestTimeout, MaxCalendarTalks: o.maxCalendarTalks, CacheBytes: cacheBytes, ReloadToken: o.reloadToken, Reload: reload.reload,
		ReloadStatus: reload.status, ClientBudget: budget, SourcesStatus: g.sourcesStatus(), MaxParseTime: g.maxParse,
		// Times that name no zone read in --time-zone; every other in its
		// conference's own.
		Location: g.zone,
	})
	if err != nil {
		return fmt.Errorf("web handler: %w", err)
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

// startInterrupted is err, the failure of the start, logged as the end of
// the start when a signal (ctx) caused it: the process exits as index does
// on a signal, with status 1 and the cause in its last line.
func startInterrupted(ctx context.Context, err error, log zerolog.Logger) error {
	if cause := context.Cause(ctx); cause != nil {
		log.Warn().Str("cause", cause.Error()).Msg("start interrupted: exiting without serving")
	}
	return err
}

// indexFunc says where the engine's index lives: in memory or, with
// --index DIR, on disk, reused across runs while the talks and the mapping
// version are unchanged and rebuilt beside the old one otherwise. A build
// ends early when g.ctx does, as it is when the build starts (a signal
// during the start; reloads outlive it, see serve).
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

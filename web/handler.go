package web

import (
	"context"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/rs/zerolog"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/search/overlap"
)

// Searcher is what the web layer needs from the search engine;
// *search.Engine implements it, and tests use a fake.
type Searcher interface {
	Search(ctx context.Context, r search.Request) (*search.Result, error)
	Talk(ctx context.Context, id string) (*search.TalkDetail, error)
	Overlaps(ctx context.Context, min float64) (*overlap.Report, error)
	// Talks lists every talk in schedule order, whole: an upload's
	// overlap report reads it as its background (organizers.go).
	Talks() []index.Talk
	// Listing lists every talk in schedule order without its abstract
	// and description, shared and read-only: the schedule, now and next,
	// agendas, calendars and speaker pages read it (catalog.go).
	Listing() []index.Talk
	// Texts are the abstracts and descriptions of the talks with ids, in
	// their order (none for an unknown id): the pages of the catalog's
	// talks that show them read them here (withTexts).
	Texts(ids []string) []search.Texts
	// RelatedToAll suggests talks like a whole agenda, leaving its talks
	// out; unknown ids are skipped.
	RelatedToAll(ctx context.Context, ids []string) ([]search.Related, error)
	// Generation numbers the corpus served: it strictly increases with
	// every re-index and never returns to an earlier value. Answers made
	// under one generation are reused only while it is served (cache.go).
	Generation() uint64
}

// Options bound and tune the handler. The zero value is usable: every zero
// field takes the default named beside it.
type Options struct {
	// MaxQueryLen is the longest query accepted, in characters
	// (search.MaxQueryLen).
	MaxQueryLen int
	// MaxLimit is the largest `limit` of /api/search (search.MaxLimit).
	MaxLimit int
	// MaxOffset is the largest `offset`, or page × page size (search.MaxOffset).
	MaxOffset int
	// PageSize is the number of results per page of the search page (20).
	PageSize int
	// MaxFilterValues is how many values one facet filter may have
	// (search.MaxFacetValues).
	MaxFilterValues int
	// MaxBodyBytes bounds request bodies; larger ones get 413 (64 KiB).
	// Every route but the upload is a GET, so a body is never needed.
	MaxBodyBytes int64
	// MaxUploadBytes bounds the body of POST /overlaps, an upload of
	// submissions (8 MiB).
	MaxUploadBytes int64
	// MaxParseTime bounds the reading of each uploaded file, as
	// --max-parse-time bounds a --from file's (0:
	// ingest.DefaultMaxParseTime).
	MaxParseTime time.Duration
	// MaxCalendarTalks is the most talks /search.ics writes; a search that
	// finds more on the schedule is refused, never cut (500).
	MaxCalendarTalks int
	// RequestTimeout bounds the work of one request (10 s).
	RequestTimeout time.Duration
	// CacheBytes bounds the answers kept for reuse, in bytes (8 MiB; see
	// cache.go); a negative value keeps none.
	CacheBytes int
	// Location is the zone of times that name none (a source read as UTC):
	// --time-zone. Every other time is shown in its conference's own zone;
	// nil leaves UTC times in UTC.
	Location *time.Location
	// Now is the clock of "now and next" and the schedule's mark of the
	// current time when a request gives no `at` (time.Now).
	Now func() time.Time
	// ReloadToken and Reload enable POST /admin/reload (admin.go): without
	// both, the endpoint answers 403.
	ReloadToken string
	Reload      ReloadFunc
	// ReloadStatus, when set, adds the reloads' progress to /healthz.
	ReloadStatus func() ReloadStatus
	// SourcesStatus, when set, adds the seeds fetched from URLs to
	// /healthz ("sources").
	SourcesStatus func() []SourceStatus
	// Index, when set, names the on-disk index generation served, for
	// /healthz ("index").
	Index func() string

	// ClientBudget is the server time each client address earns per
	// second for expensive searches (web.ClientBudgetRate; see limit.go);
	// a negative value gives none a budget (behind a proxy every client
	// has its address), leaving the server-wide places.
	ClientBudget time.Duration

	// work replaces the limiter of expensive searches (tests).
	work *workLimiter
}

func (o Options) withDefaults() Options {
	if o.MaxQueryLen <= 0 {
		o.MaxQueryLen = search.MaxQueryLen
	}
	if o.MaxLimit <= 0 {
		o.MaxLimit = search.MaxLimit
	}
	if o.MaxOffset <= 0 {
		o.MaxOffset = search.MaxOffset
	}
	if o.PageSize <= 0 {
		o.PageSize = 20
	}
	if o.MaxFilterValues <= 0 {
		o.MaxFilterValues = search.MaxFacetValues
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = 64 << 10
	}
	if o.MaxUploadBytes <= 0 {
		o.MaxUploadBytes = defaultMaxUploadBytes
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = 10 * time.Second
	}
	if o.MaxCalendarTalks <= 0 {
		o.MaxCalendarTalks = defaultMaxCalendarTalks
	}
	if o.CacheBytes == 0 {
		o.CacheBytes = 8 << 20
	}
	if o.ClientBudget == 0 {
		o.ClientBudget = ClientBudgetRate
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

//go:embed templates static
var assets embed.FS

// server holds what the handlers share; it is read-only after NewHandler
// but for responses, a cache safe for concurrent use.
type server struct {
	s         Searcher
	log       zerolog.Logger
	opts      Options
	pages     map[string]*template.Template
	static    map[string]*staticFile
	responses *responseCache
	work      *workLimiter // expensive searches (limit.go)
	auth      *authLimiter // failed admin authentications (limit.go)
	// uploads holds the one upload being analysed (organizers.go).
	uploads chan struct{}
	// catalog is the talks of the generation served, indexed for the
	// attendee views; catalogMu orders its rebuilds.
	catalog   atomic.Pointer[catalog]
	catalogMu sync.Mutex
	// next is the catalog WarmNext made for a generation not served yet.
	next atomic.Pointer[catalog]
}

// Handler is the whole site and API (NewHandler).
type Handler struct {
	routes http.Handler
	srv    *server
}

// ServeHTTP answers a request of the site or API.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.routes.ServeHTTP(w, r) }

// NewHandler returns the whole site and API as one http.Handler. Templates
// are parsed and static files loaded here, so a missing or broken template
// is an error at start, not at request time.
func NewHandler(s Searcher, log zerolog.Logger, opts Options) (*Handler, error) {
	tmpl, err := fs.Sub(assets, "templates")
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	static, err := fs.Sub(assets, "static")
	if err != nil {
		return nil, fmt.Errorf("static: %w", err)
	}
	return newHandler(s, log, opts, tmpl, static)
}

// newHandler is NewHandler with the file systems passed in, so tests can
// check what a missing template does.
func newHandler(s Searcher, log zerolog.Logger, opts Options, tmpl, static fs.FS) (*Handler, error) {
	if s == nil {
		return nil, fmt.Errorf("web: nil Searcher")
	}
	srv := &server{s: s, log: log, opts: opts.withDefaults()}
	srv.responses = newResponseCache(srv.opts.CacheBytes)
	srv.work, srv.auth = newWorkLimiter(max(srv.opts.ClientBudget, 0)), newAuthLimiter()
	srv.uploads = make(chan struct{}, 1)
	if opts.work != nil {
		srv.work = opts.work
	}
	var err error
	if srv.static, err = loadStatic(static); err != nil {
		return nil, err
	}
	if srv.pages, err = srv.parsePages(tmpl); err != nil {
		return nil, err
	}
	r := gin.New()
	// Gin's redirects would answer unknown paths with 301s that bypass our
	// 404 pages; every path we serve is exact.
	r.RedirectTrailingSlash = false
	r.RedirectFixedPath = false
	r.HandleMethodNotAllowed = true // 405 with Allow, not 404 (routes.go)
	r.ContextWithFallback = true
	// The limits per client (limit.go) key on the client's address: no
	// proxy is trusted, or any client could pick its own by sending
	// X-Forwarded-For.
	if err := r.SetTrustedProxies(nil); err != nil {
		return nil, fmt.Errorf("trusted proxies: %w", err)
	}
	srv.routes(r)
	return &Handler{routes: r, srv: srv}, nil
}

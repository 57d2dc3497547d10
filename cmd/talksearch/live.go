package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/search/overlap"
	"github.com/talksearch/talksearch/web"
)

// site is one generation a server answers from: an engine and the overlap
// reports of its corpus, numbered by the server (live). A site replaced by
// a newer one closes its engine once the calls it was answering are done.
type site struct {
	*search.Engine
	*overlap.Reports
	gen uint64
	// index names the on-disk generation the engine reads (serve
	// --read-only), "" otherwise.
	index string

	mu      sync.Mutex
	users   int
	retired bool
}

func newSite(e *search.Engine, decisions string, indexName string) *site {
	reports := overlap.NewReports(e)
	reports.DecisionsFile = decisions
	return &site{Engine: e, Reports: reports, index: indexName}
}

// Generation is the server's number of the site, not its engine's: each
// site has an engine of its own, whose first generation is 1.
func (s *site) Generation() uint64 { return s.gen }

// hold counts a call on s, unless s is retired.
func (s *site) hold() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.retired {
		return false
	}
	s.users++
	return true
}

func (s *site) release() {
	s.mu.Lock()
	s.users--
	done := s.retired && s.users == 0
	s.mu.Unlock()
	if done {
		s.Engine.Close()
	}
}

// retire closes the engine once no call holds it.
func (s *site) retire() {
	s.mu.Lock()
	s.retired = true
	done := s.users == 0
	s.mu.Unlock()
	if done {
		s.Engine.Close()
	}
}

// live is the web.Searcher of a server: every call goes to the site
// serving when it starts, and swap replaces that site whole. A new site is
// warmed (web.Handler.WarmNext) before it is swapped in, so no request
// after the swap waits for what a first request would make.
type live struct {
	cur    atomic.Pointer[site]
	swapMu sync.Mutex // one swap at a time, so numbers follow one another
}

// newLive serves first, as generation 1.
func newLive(first *site) *live {
	l := &live{}
	first.gen = 1
	l.cur.Store(first)
	return l
}

// acquire returns the site serving, held until its release.
func (l *live) acquire() *site {
	for {
		s := l.cur.Load()
		if s.hold() {
			return s
		}
		// s was retired between Load and hold: the new one is stored.
	}
}

// swap warms next through h and makes it the site serving; on error the
// site serving stays and next is closed.
func (l *live) swap(ctx context.Context, h *web.Handler, next *site) error {
	l.swapMu.Lock()
	defer l.swapMu.Unlock()
	next.gen = l.cur.Load().gen + 1
	if err := h.WarmNext(ctx, next); err != nil {
		next.Engine.Close()
		return fmt.Errorf("warm the new index: %w", err)
	}
	l.cur.Swap(next).retire()
	return nil
}

// close closes the engine serving: the server has stopped. Its calls
// fail from then on (the engine is closed), rather than wait for a site.
func (l *live) close() { l.cur.Load().Engine.Close() }

// serving is the site serving now, for what reads it without a call.
func (l *live) serving() *site { return l.cur.Load() }

func (l *live) Search(ctx context.Context, r search.Request) (*search.Result, error) {
	s := l.acquire()
	defer s.release()
	return s.Search(ctx, r)
}

func (l *live) Talk(ctx context.Context, id string) (*search.TalkDetail, error) {
	s := l.acquire()
	defer s.release()
	return s.Talk(ctx, id)
}

func (l *live) Overlaps(ctx context.Context, min float64) (*overlap.Report, error) {
	s := l.acquire()
	defer s.release()
	return s.Overlaps(ctx, min)
}

func (l *live) Talks() []index.Talk {
	s := l.acquire()
	defer s.release()
	return s.Talks()
}

func (l *live) Listing() []index.Talk {
	s := l.acquire()
	defer s.release()
	return s.Listing()
}

func (l *live) Texts(ids []string) []search.Texts {
	s := l.acquire()
	defer s.release()
	return s.Texts(ids)
}

func (l *live) RelatedToAll(ctx context.Context, ids []string) ([]search.Related, error) {
	s := l.acquire()
	defer s.release()
	return s.RelatedToAll(ctx, ids)
}

func (l *live) Generation() uint64 { return l.cur.Load().gen }

package web

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/talksearch/talksearch/search"
)

// Warm makes, for the generation the handler's Searcher serves, what the
// first requests would otherwise make while a visitor waits: the catalog of
// the attendee pages (talks by id, day, speaker and conference, and each
// conference's own), and one search and one talk read, which load what
// the engine's index reads lazily. A server calls it before it answers,
// so that /healthz says ready only once a first query costs what the
// following ones do. It is not done in NewHandler: a handler may be made
// before its Searcher can answer.
func (h *Handler) Warm(ctx context.Context) error {
	c := h.srv.catalogNow()
	warmScopes(c)
	return warmSearch(ctx, h.srv.s, c)
}

// WarmNext is Warm for next, the Searcher of a generation the handler's
// Searcher is about to serve (next.Generation() is the generation it will
// report): the catalog made from next is used once that generation
// serves, and next answers one search and one talk read. A server calls
// it before it swaps a new index in, so that no request after the swap
// makes them. An error leaves the handler as it was (the caller keeps the
// old generation serving).
func (h *Handler) WarmNext(ctx context.Context, next Searcher) error {
	gen := next.Generation()
	if gen == 0 {
		return errors.New("web: warm: the next generation is closed")
	}
	c := newCatalog(gen, pointers(next.Listing()), h.srv.local)
	warmScopes(c)
	if err := warmSearch(ctx, next, c); err != nil {
		return err
	}
	h.srv.next.Store(c)
	return nil
}

// warmScopes makes the catalog of each conference of c (scope), which the
// /c/ID/ pages read.
func warmScopes(c *catalog) {
	for _, conf := range c.conferences {
		c.scope(conf)
	}
}

// warmSearch runs one search, the title of the catalog's first talk, and
// reads that talk: the words of a real title reach the terms and stored
// fields a visitor's query would.
func warmSearch(ctx context.Context, s Searcher, c *catalog) error {
	if len(c.talks) == 0 {
		return nil
	}
	t := c.talks[0]
	q := strings.Join(strings.Fields(t.Title), " ")
	if r := []rune(q); len(r) > 100 {
		q = string(r[:100])
	}
	if _, err := s.Search(ctx, search.Request{Query: q}); err != nil {
		return fmt.Errorf("web: warm: search %q: %w", q, err)
	}
	if _, err := s.Talk(ctx, t.ID); err != nil {
		return fmt.Errorf("web: warm: talk %s: %w", t.ID, err)
	}
	return nil
}

package web

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rs/zerolog"

	"github.com/talksearch/talksearch/index"
)

// talksCounted counts the calls of Listing, which a catalog is made from.
type talksCounted struct {
	*fakeSearcher
	talks atomic.Int64
}

func (c *talksCounted) Listing() []index.Talk {
	c.talks.Add(1)
	return c.fakeSearcher.Listing()
}

// TestWarmMakesTheFirstRequestsWork: after Warm, the attendee pages of the
// generation served read the catalog Warm made (no request makes one), the
// conference's own catalog is made, and the engine has answered a search
// and a talk read.
func TestWarmMakesTheFirstRequestsWork(t *testing.T) {
	f := &talksCounted{fakeSearcher: &fakeSearcher{}}
	h, err := NewHandler(f, zerolog.Nop(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := h.srv.catalog.Load(); c != nil {
		t.Fatalf("NewHandler made a catalog of generation %d", c.gen)
	}
	if err := h.Warm(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := h.srv.catalog.Load()
	if c == nil || c.gen != 1 || len(c.talks) != len(f.fakeSearcher.Talks()) {
		t.Fatalf("after Warm the catalog is %+v, want generation 1 with every talk", c)
	}
	if len(c.scopes) != len(c.conferences) || len(c.conferences) != 1 || c.scopes["pytorch-conference-europe-2026"] == nil {
		t.Errorf("scopes %v of conferences %d, want the one conference's", c.scopes, len(c.conferences))
	}
	if n := f.calls.Load(); n != 2 {
		t.Errorf("Warm made %d engine calls, want a search and a talk read", n)
	}
	if got := f.fakeSearcher.lastRequest().Query; got != c.talks[0].Title {
		t.Errorf("Warm searched %q, want the first talk's title %q", got, c.talks[0].Title)
	}
	made := f.talks.Load()
	getOK(t, h, "/schedule")
	getOK(t, h, "/c/pytorch-conference-europe-2026/schedule")
	if n := f.talks.Load(); n != made {
		t.Errorf("the first requests after Warm listed the talks %d more times, want none", n-made)
	}
}

// TestWarmNextIsUsedOnceItServes: the catalog WarmNext made for the next
// generation is not served before it, and serves its first requests after.
func TestWarmNextIsUsedOnceItServes(t *testing.T) {
	cur := &talksCounted{fakeSearcher: &fakeSearcher{}}
	h, err := NewHandler(cur, zerolog.Nop(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Warm(context.Background()); err != nil {
		t.Fatal(err)
	}
	next := &talksCounted{fakeSearcher: &fakeSearcher{}}
	next.reindex() // generation 2
	if err := h.WarmNext(context.Background(), next); err != nil {
		t.Fatal(err)
	}
	if c := h.srv.next.Load(); c == nil || c.gen != 2 || len(c.scopes) != 1 {
		t.Fatalf("WarmNext's catalog %+v, want generation 2 with its conference's", c)
	}
	if n := next.calls.Load(); n != 2 {
		t.Errorf("WarmNext made %d calls of the next engine, want a search and a talk read", n)
	}
	getOK(t, h, "/schedule") // generation 1 still serves
	if c := h.srv.catalog.Load(); c.gen != 1 {
		t.Errorf("the catalog of generation %d served before its swap", c.gen)
	}
	cur.reindex() // the swap: the handler's Searcher now says 2
	before := cur.talks.Load()
	getOK(t, h, "/schedule")
	if n := cur.talks.Load(); n != before {
		t.Errorf("the first request of generation 2 listed the talks %d times, want none", n-before)
	}
	if c := h.srv.catalog.Load(); c == nil || c.gen != 2 || h.srv.next.Load() != nil {
		t.Errorf("after the swap: catalog %+v, next %+v; want the warmed one serving", c, h.srv.next.Load())
	}
}

// TestHealthNamesTheIndex: /healthz names the on-disk generation served
// when the server has one, and leaves the key out otherwise.
func TestHealthNamesTheIndex(t *testing.T) {
	for _, tt := range []struct {
		index func() string
		want  string
	}{
		{func() string { return "index-1764892800000000000" }, `{"status":"ok","generation":1,"index":"index-1764892800000000000"}`},
		{nil, `{"status":"ok","generation":1}`},
	} {
		h, err := NewHandler(&fakeSearcher{}, zerolog.Nop(), Options{Index: tt.index})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(getOK(t, h, "/healthz").Body.String()); got != tt.want {
			t.Errorf("/healthz = %s, want %s", got, tt.want)
		}
	}
}

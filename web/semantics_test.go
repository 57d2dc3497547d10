package web

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rs/zerolog"
	"golang.org/x/net/html"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/search/overlap"
)

// getRoutes are the GET routes, with a target each answers 200 on.
var getRoutes = []string{
	"/", "/?q=monarch", "/talks/monarch-on-rocm-1a2b", "/overlaps",
	"/api/search?q=monarch", "/api/talks/monarch-on-rocm-1a2b", "/api/overlaps", "/healthz", "/static/app.css",
}

// TestHeadOnEveryGetRoute: HEAD answers what GET does on every page, not
// only /healthz, without a body, as HTTP asks of a server.
func TestHeadOnEveryGetRoute(t *testing.T) {
	h, _ := newTestHandler(t, zerolog.Nop())
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, target := range getRoutes {
		get, err := http.Get(srv.URL + target)
		if err != nil {
			t.Fatal(err)
		}
		get.Body.Close()
		head, err := http.Head(srv.URL + target)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(head.Body)
		head.Body.Close()
		if head.StatusCode != http.StatusOK || get.StatusCode != http.StatusOK {
			t.Errorf("%s: HEAD %d, GET %d, want 200 both", target, head.StatusCode, get.StatusCode)
		}
		if ct := head.Header.Get("Content-Type"); ct != get.Header.Get("Content-Type") {
			t.Errorf("%s: HEAD Content-Type %q, GET %q", target, ct, get.Header.Get("Content-Type"))
		}
		if len(body) != 0 {
			t.Errorf("%s: HEAD has a %d-byte body", target, len(body))
		}
	}
}

// TestWrongMethodIs405: a wrong method on a route that exists is 405, not
// 404, so a client learns the route is there.
func TestWrongMethodIs405(t *testing.T) {
	h, _ := newTestHandler(t, zerolog.Nop())
	tests := []struct {
		method, target string
		status         int
		allow          string
		contentType    string
	}{
		{http.MethodPost, "/api/search?q=x", 405, "GET, HEAD", typeJSON},
		{http.MethodDelete, "/talks/monarch-on-rocm-1a2b", 405, "GET, HEAD", typeHTML},
		{http.MethodPut, "/", 405, "GET, HEAD", typeHTML},
		{http.MethodGet, "/admin/reload", 405, "POST", typeJSON},
		{http.MethodPost, "/nope", 404, "", typeHTML},
	}
	for _, tt := range tests {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(tt.method, tt.target, nil))
		if rec.Code != tt.status || rec.Header().Get("Allow") != tt.allow || rec.Header().Get("Content-Type") != tt.contentType {
			t.Errorf("%s %s: %d, Allow %q, %s; want %d, Allow %q, %s", tt.method, tt.target, rec.Code,
				rec.Header().Get("Allow"), rec.Header().Get("Content-Type"), tt.status, tt.allow, tt.contentType)
		}
	}
}

// TestAcceptEncodingWeights: a zero weight refuses gzip however it is
// spelled ("gzip;q=0.0" as well as "q=0").
func TestAcceptEncodingWeights(t *testing.T) {
	tests := []struct {
		header []string
		want   bool
	}{
		{nil, false},
		{[]string{"gzip"}, true},
		{[]string{"GZIP"}, true},
		{[]string{"gzip, deflate, br"}, true},
		{[]string{"gzip;q=0"}, false},
		{[]string{"gzip;q=0.0"}, false},
		{[]string{"gzip;q=0.000"}, false},
		{[]string{"gzip; q=0.0"}, false},
		{[]string{"gzip ;q=0"}, false},
		{[]string{"gzip;Q=0"}, false},
		{[]string{"br, gzip;q=0.00, deflate"}, false},
		{[]string{"gzip;q=0.001"}, true},
		{[]string{"gzip;q=1.0"}, true},
		{[]string{"x-gzip"}, true},
		{[]string{"*"}, true},
		{[]string{"*;q=0"}, false},
		{[]string{"gzip;q=0, *"}, false}, // gzip named: its own weight counts
		{[]string{"identity"}, false},
		{[]string{"gzip;q=abc"}, false},
		{[]string{"gzip;q=2"}, false},
		{[]string{"br", "gzip"}, true}, // two header lines
	}
	for _, tt := range tests {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		for _, v := range tt.header {
			r.Header.Add("Accept-Encoding", v)
		}
		if got := acceptsGzip(r); got != tt.want {
			t.Errorf("Accept-Encoding %q: gzip %v, want %v", tt.header, got, tt.want)
		}
	}
	h, _ := newTestHandler(t, zerolog.Nop())
	if rec := get(t, h, "/?q=monarch", "Accept-Encoding", "gzip;q=0.0"); rec.Header().Get("Content-Encoding") != "" || !strings.Contains(rec.Body.String(), "<!doctype html>") {
		t.Errorf("gzip;q=0.0: Content-Encoding %q", rec.Header().Get("Content-Encoding"))
	}
}

// rloSearcher is the fake with a right-to-left override (U+202E) before
// every data-set string: titles, speakers, abstracts, tracks, rooms.
type rloSearcher struct{ fakeSearcher }

const rlo = "\u202e"

func (f *rloSearcher) Search(ctx context.Context, r search.Request) (*search.Result, error) {
	res, err := f.fakeSearcher.Search(ctx, r)
	if err != nil {
		return nil, err
	}
	out := *res
	out.Hits = nil
	for _, h := range res.Hits {
		h.Title, h.Track, h.Room, h.Level = rlo+h.Title, rlo+h.Track, rlo+h.Room, rlo+h.Level
		h.Speakers = nil
		for _, s := range res.Hits[0].Speakers {
			s.Name, s.Affiliation = rlo+s.Name, rlo+s.Affiliation
			h.Speakers = append(h.Speakers, s)
		}
		h.Highlights = search.Highlights{Title: []string{rlo + "<mark>x</mark>"}, Abstract: []string{rlo + "y"}}
		out.Hits = append(out.Hits, h)
	}
	out.Facets.Track = []search.FacetValue{{Value: rlo + "Track", Count: 1, Selected: true}}
	out.Facets.Room = []search.FacetValue{{Value: rlo + "Room", Count: 1}}
	return &out, nil
}

func (f *rloSearcher) Talk(ctx context.Context, id string) (*search.TalkDetail, error) {
	d, err := f.fakeSearcher.Talk(ctx, id)
	if err != nil {
		return nil, err
	}
	out := *d
	out.Title, out.Track, out.Room, out.Level, out.Abstract = rlo+d.Title, rlo+d.Track, rlo+d.Room, rlo+d.Level, rlo+"one\n\n"+rlo+"two"
	out.Speakers = nil
	for _, s := range d.Speakers {
		s.Name, s.Affiliation = rlo+s.Name, rlo+s.Affiliation
		out.Speakers = append(out.Speakers, s)
	}
	out.Related = nil
	for _, r := range d.Related {
		r.Title, r.Room = rlo+r.Title, rlo+r.Room
		r.SharedTerms = []string{rlo + "term"}
		out.Related = append(out.Related, r)
	}
	out.Sources = []string{rlo + "000.txt"}
	return &out, nil
}

// Talks are the attendee pages' talks (now, schedule, agenda, speakers),
// every data-set string behind a right-to-left override.
func (f *rloSearcher) Talks() []index.Talk { return f.rlo(f.fakeSearcher.Talks()) }

// Listing is Talks without their texts.
func (f *rloSearcher) Listing() []index.Talk { return f.rlo(f.fakeSearcher.Listing()) }

func (f *rloSearcher) rlo(talks []index.Talk) []index.Talk {
	var out []index.Talk
	for _, t := range talks {
		t.Title, t.Track, t.Room, t.Level = rlo+t.Title, rlo+t.Track, rlo+t.Room, rlo+t.Level
		var sp []index.Speaker
		for _, s := range t.Speakers {
			s.Name, s.Affiliation = rlo+s.Name, rlo+s.Affiliation
			sp = append(sp, s)
		}
		t.Speakers = sp
		out = append(out, t)
	}
	return out
}

func (f *rloSearcher) Overlaps(ctx context.Context, min float64) (*overlap.Report, error) {
	rep, err := f.fakeSearcher.Overlaps(ctx, min)
	if err != nil {
		return nil, err
	}
	p := rep.Pairs[0]
	p.TitleA, p.TitleB, p.SharedTerms = rlo+p.TitleA, rlo+p.TitleB, []string{rlo + "term"}
	p.Passages = overlap.Passages{A: []string{rlo + "a"}, B: []string{rlo + "b"}}
	cl := rep.Clusters[0]
	cl.Label, cl.Titles = rlo+cl.Label, []string{rlo + "t1", rlo + "t2"}
	cx := rep.Clashes[0]
	cx.TitleA, cx.TitleB, cx.RoomA, cx.RoomB = rlo+cx.TitleA, rlo+cx.TitleB, rlo+cx.RoomA, rlo+cx.RoomB
	m := rep.Merged[0]
	m.Title, m.Sources = rlo+m.Title, []string{rlo + "001.txt"}
	return &overlap.Report{Pairs: []overlap.Pair{p}, Clusters: []overlap.Cluster{cl}, Clashes: []overlap.Clash{cx}, Merged: []overlap.Merged{m}}, nil
}

// TestBidiTextIsIsolated: a right-to-left override in a title must not
// reverse what follows it on the page. Every text
// holding data-set text must be the whole content of an element that
// isolates it (dir="auto" or <bdi>); the page title, which holds no
// markup, brackets it with U+2068 FIRST STRONG ISOLATE … U+2069.
func TestBidiTextIsIsolated(t *testing.T) {
	h, err := NewHandler(&rloSearcher{}, zerolog.Nop(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"/?q=monarch&track=%E2%80%AETrack", "/talks/monarch-on-rocm-1a2b", "/overlaps",
		"/schedule?day=2026-04-08", "/now?at=2026-04-08T10:40:00%2B02:00", "/agenda?ids=monarch-on-rocm-1a2b,torchstore-3c4d,nope",
		"/speakers/ada-lovelace"} {
		rec := get(t, h, target)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d", target, rec.Code)
		}
		doc, err := html.Parse(strings.NewReader(rec.Body.String()))
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		var walk func(n *html.Node)
		walk = func(n *html.Node) {
			if n.Type == html.TextNode && strings.Contains(n.Data, rlo) {
				found++
				p := n.Parent
				switch {
				case p.Data == "title":
					if !strings.HasPrefix(n.Data, "\u2068") || !strings.Contains(n.Data, "\u2069") {
						t.Errorf("%s: <title> %q not isolated", target, n.Data)
					}
				case p.Data == "bdi", hasAttr(p, "dir"):
				case p.Data == "mark" && hasAttr(p.Parent, "dir"):
				default:
					t.Errorf("%s: %q in <%s class=%q> without dir or <bdi>", target, n.Data, p.Data, attr(p, "class"))
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(doc)
		if found < 5 {
			t.Errorf("%s: only %d texts with the override: the fake's data did not reach the page", target, found)
		}
	}
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// origin is a schedule server on 127.0.0.1 whose answer the test sets.
type origin struct {
	mu      sync.Mutex
	body    string
	etag    string
	mode    string // "" (the body, 304 on its ETag), "500", "cut", "slow"
	asked   []http.Header
	release chan struct{}
}

func (o *origin) set(mode, body, etag string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.mode, o.body, o.etag = mode, body, etag
}

func (o *origin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	mode, body, etag := o.mode, o.body, o.etag
	o.asked = append(o.asked, r.Header.Clone())
	o.mu.Unlock()
	switch mode {
	case "500":
		http.Error(w, "broken", http.StatusInternalServerError)
		return
	case "cut":
		w.Header().Set("Content-Length", "500")
		w.Write([]byte(body))
		return
	case "slow":
		select {
		case <-o.release:
		case <-r.Context().Done():
		}
		return
	}
	if etag != "" {
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	w.Write([]byte(body))
}

func newOrigin(t *testing.T) (*origin, *httptest.Server) {
	o := &origin{release: make(chan struct{})}
	srv := httptest.NewServer(o)
	t.Cleanup(func() { close(o.release); srv.Close() })
	return o, srv
}

func TestSourceFetches(t *testing.T) {
	o, srv := newOrigin(t)
	c := NewClient(Options{MaxBytes: 1000, ConnectTimeout: time.Second, Timeout: 300 * time.Millisecond})
	s, err := c.Source(srv.URL + "/schedule.xml#Europe/Brussels")
	if err != nil {
		t.Fatal(err)
	}
	if s.Name() != srv.URL+"/schedule.xml" {
		t.Errorf("name %q", s.Name())
	}
	ctx := context.Background()
	fetch := func(wantChanged bool, wantErr string) Result {
		t.Helper()
		r, err := s.Fetch(ctx)
		switch {
		case wantErr == "" && err != nil:
			t.Fatalf("fetch: %v", err)
		case wantErr != "" && (err == nil || !strings.Contains(err.Error(), wantErr)):
			t.Fatalf("fetch: error %v, want %q", err, wantErr)
		case r.Changed != wantChanged:
			t.Fatalf("changed %v, want %v", r.Changed, wantChanged)
		}
		return r
	}

	o.set("", "first", `"v1"`)
	s.Accept(fetch(true, ""))
	if got, ok := s.Copy(); !ok || string(got) != "first" {
		t.Fatalf("copy %q %v", got, ok)
	}
	fetch(false, "") // 304
	o.mu.Lock()
	if h := o.asked[len(o.asked)-1]; h.Get("If-None-Match") != `"v1"` {
		t.Errorf("If-None-Match %q", h.Get("If-None-Match"))
	}
	o.mu.Unlock()
	if st := s.Status(); st.NotModified != 1 || st.ETag != `"v1"` || st.Changes != 1 {
		t.Errorf("status %+v", st)
	}

	for _, tc := range []struct{ mode, body, err string }{
		{"500", "", "HTTP 500"},
		{"cut", "<schedule>", "body cut after 10 bytes"},
		{"slow", "", "timed out"},
		{"", strings.Repeat("x", 1001), "over the 1000-byte limit"},
	} {
		o.set(tc.mode, tc.body, "")
		began := time.Now()
		fetch(false, tc.err)
		if d := time.Since(began); d > 2*time.Second {
			t.Errorf("%s took %s", tc.err, d)
		}
		if got, _ := s.Copy(); string(got) != "first" {
			t.Errorf("after %q the copy is %q", tc.err, got)
		}
		if st := s.Status(); !strings.Contains(st.LastError, tc.err) || st.LastErrorAt.IsZero() {
			t.Errorf("status after %q: %+v", tc.err, st)
		}
	}

	// A new copy refused stays refused without being re-read; the next
	// different one is offered.
	o.set("", "second", "")
	r := fetch(true, "")
	s.Refuse(r, errStr("no talks"))
	fetch(false, "")
	if st := s.Status(); !strings.Contains(st.LastError, "refused") || st.Bytes != len("first") {
		t.Errorf("status after a refusal %+v", st)
	}
	o.set("", "third", "")
	s.Accept(fetch(true, ""))
	if got, _ := s.Copy(); string(got) != "third" {
		t.Errorf("copy %q", got)
	}
	fetch(false, "") // same bytes, no validators
}

type errStr string

func (e errStr) Error() string { return string(e) }

func TestSchemes(t *testing.T) {
	c := NewClient(Options{Timeout: time.Second})
	for _, u := range []string{"file:///etc/passwd", "ftp://127.0.0.1/x", "http:///nohost"} {
		if _, err := c.Source(u); err == nil {
			t.Errorf("%s accepted", u)
		}
	}
	srv := httptest.NewServer(http.RedirectHandler("file:///etc/hostname", http.StatusFound))
	defer srv.Close()
	s, err := c.Source(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Fetch(context.Background()); err == nil || !strings.Contains(err.Error(), "only http and https") {
		t.Errorf("redirect to file://: %v", err)
	}
	for _, u := range []string{"https://x/s.xml", "HTTP://x", "ftp://x"} {
		if !IsURL(u) {
			t.Errorf("IsURL(%q) false", u)
		}
	}
	for _, u := range []string{"schedule.xml", "dir/a:b", "c:\\x", "://x"} {
		if IsURL(u) {
			t.Errorf("IsURL(%q) true", u)
		}
	}
}

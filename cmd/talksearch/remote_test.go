package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// harbourXML is an invented frab schedule naming no zone: one event per
// title, half an hour apart from 10:00.
func harbourXML(titles ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<schedule>
  <conference><acronym>harbour-2031</acronym><title>Harbour Days 2031</title><start>2031-03-01</start><end>2031-03-01</end><days>1</days></conference>
  <day index="1" date="2031-03-01">
    <room name="Dock 1">
`)
	for i, title := range titles {
		fmt.Fprintf(&b, `      <event id="%d">
        <start>%02d:%02d</start>
        <duration>00:30</duration>
        <room>Dock 1</room>
        <title>%s</title>
        <type>talk</type>
        <abstract>An afternoon on the quay about %s.</abstract>
        <persons><person id="%d">Speaker %d</person></persons>
      </event>
`, i+1, 10+i/2, 30*(i%2), title, strings.ToLower(title), i+1, i+1)
	}
	b.WriteString("    </room>\n  </day>\n</schedule>\n")
	return b.String()
}

// scheduleOrigin publishes a schedule on 127.0.0.1 and misbehaves as told.
type scheduleOrigin struct {
	mu      sync.Mutex
	mode    string // "ok" (304 on its ETag), "500", "cut" (Content-Length beyond the body), "slow"
	body    string
	etag    string
	gets    int
	ifNone  []string
	release chan struct{}
}

func (o *scheduleOrigin) set(mode, body, etag string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.mode, o.body, o.etag = mode, body, etag
}

func (o *scheduleOrigin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	mode, body, etag := o.mode, o.body, o.etag
	o.gets++
	o.ifNone = append(o.ifNone, r.Header.Get("If-None-Match"))
	o.mu.Unlock()
	switch mode {
	case "500":
		http.Error(w, "upstream broken", http.StatusInternalServerError)
	case "cut":
		w.Header().Set("Content-Length", fmt.Sprint(len(body)+5000))
		w.Write([]byte(body))
	case "slow":
		select {
		case <-o.release:
		case <-r.Context().Done():
		}
	default:
		w.Header().Set("ETag", etag)
		w.Header().Set("Content-Type", "application/xml")
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Write([]byte(body))
	}
}

// sourcesHealth is /healthz with its "sources".
type sourcesHealth struct {
	Generation uint64
	Reloads    int
	Sources    []struct {
		URL         string     `json:"url"`
		LastSuccess *time.Time `json:"last_success"`
		LastError   string     `json:"last_error"`
		ETag        string     `json:"etag"`
		Bytes       int        `json:"bytes"`
		HasCopy     bool       `json:"has_copy"`
		Fetches     int        `json:"fetches"`
		NotModified int        `json:"not_modified"`
		Changes     int        `json:"changes"`
		Failures    int        `json:"failures"`
	}
}

func (s *served) sources(t *testing.T) sourcesHealth {
	t.Helper()
	var h sourcesHealth
	if code := s.getJSON(t, "/healthz", &h); code != http.StatusOK || len(h.Sources) != 1 {
		t.Fatalf("/healthz: %d %+v", code, h)
	}
	return h
}

// waitSources asks /healthz until ready holds, for at most 10 s.
func (s *served) waitSources(t *testing.T, what string, ready func(sourcesHealth) bool) sourcesHealth {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		h := s.sources(t)
		if ready(h) {
			return h
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: /healthz says %+v", what, h)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// titles are the titles of the talks served, sorted by time.
func (s *served) titles(t *testing.T) []string {
	t.Helper()
	var r struct {
		Hits []struct {
			Title string
			Start string
		}
	}
	s.getJSON(t, "/api/search?q=quay&sort=time&limit=100", &r)
	var out []string
	for _, h := range r.Hits {
		out = append(out, h.Title+" "+h.Start)
	}
	return out
}

// TestServeFetchesSeedURL: a schedule published at a URL is fetched at
// start and every --refresh; a 304 costs no re-index, a new copy is
// swapped in, and a failed, cut, broken or slow fetch leaves the last good
// copy serving, /healthz saying what happened.
func TestServeFetchesSeedURL(t *testing.T) {
	o := &scheduleOrigin{release: make(chan struct{})}
	origin := httptest.NewServer(o)
	defer origin.Close()
	defer close(o.release)
	v1 := harbourXML("Knots", "Tides")
	o.set("ok", v1, `"v1"`)

	s := serveSeeds(t, nil, "--seeds", origin.URL+"/schedule.xml#Asia/Tokyo", "--refresh", "40ms",
		"--fetch-timeout", "300ms", "--fetch-connect-timeout", "300ms", "--log-level", "warn")
	defer s.stop()
	good := []string{"Knots 2031-03-01T10:00:00+09:00", "Tides 2031-03-01T10:30:00+09:00"}
	if got := s.titles(t); !reflect.DeepEqual(got, good) {
		t.Fatalf("serving %v, want %v", got, good)
	}

	h := s.waitSources(t, "two 304s", func(h sourcesHealth) bool { return h.Sources[0].NotModified >= 2 })
	src := h.Sources[0]
	if h.Generation != 1 || h.Reloads != 0 || src.ETag != `"v1"` || src.Changes != 1 || !src.HasCopy ||
		src.Bytes != len(v1) || src.LastSuccess == nil || src.URL != origin.URL+"/schedule.xml" {
		t.Errorf("after 304s: %+v", h)
	}
	o.mu.Lock()
	if last := o.ifNone[len(o.ifNone)-1]; last != `"v1"` {
		t.Errorf("If-None-Match %q, want the ETag of the copy serving", last)
	}
	o.mu.Unlock()

	for _, tc := range []struct{ name, mode, body, wantErr string }{
		{"500", "500", "", "HTTP 500"},
		{"Content-Length beyond the body", "cut", v1, "body cut after"},
		{"a cut XML", "ok", v1[:len(v1)/2], "refused"},
		{"a schedule without talks", "ok", harbourXML(), "refused"},
		{"a timeout", "slow", "", "timed out"},
	} {
		before := s.sources(t).Sources[0].Failures
		o.set(tc.mode, tc.body, `"broken"`)
		h := s.waitSources(t, tc.name, func(h sourcesHealth) bool {
			return h.Sources[0].Failures > before && strings.Contains(h.Sources[0].LastError, tc.wantErr)
		})
		if h.Generation != 1 || h.Sources[0].ETag != `"v1"` || h.Sources[0].Bytes != len(v1) {
			t.Errorf("%s: %+v", tc.name, h)
		}
		if got := s.titles(t); !reflect.DeepEqual(got, good) {
			t.Errorf("%s: serving %v, want the last good %v", tc.name, got, good)
		}
	}

	v2 := harbourXML("Knots", "Tides", "Gulls")
	o.set("ok", v2, `"v2"`)
	h = s.waitSources(t, "the new copy", func(h sourcesHealth) bool { return h.Generation == 2 })
	if src := h.Sources[0]; src.ETag != `"v2"` || src.Changes != 2 || src.Bytes != len(v2) || h.Reloads != 1 {
		t.Errorf("after the change: %+v", h)
	}
	want := append(good, "Gulls 2031-03-01T11:00:00+09:00")
	if got := s.titles(t); !reflect.DeepEqual(got, want) {
		t.Errorf("serving %v, want %v", got, want)
	}
	// And the 304s that follow re-index nothing.
	n := h.Sources[0].NotModified
	h = s.waitSources(t, "304s after the change", func(h sourcesHealth) bool { return h.Sources[0].NotModified >= n+2 })
	if h.Generation != 2 {
		t.Errorf("a 304 re-indexed: generation %d", h.Generation)
	}
}

// TestSeedURLOnce: the commands that read the seeds once fetch a URL once;
// one that fails is a whole-file warning, not a crash, and the other seeds
// load.
func TestSeedURLOnce(t *testing.T) {
	o := &scheduleOrigin{release: make(chan struct{})}
	origin := httptest.NewServer(o)
	defer origin.Close()
	defer close(o.release)
	o.set("ok", harbourXML("Knots"), `"a"`)

	out, stderr, err := runCmd(t, map[string]string{"TALKSEARCH_SEEDS": origin.URL + "/s.xml#Europe/Berlin"}, "export")
	if err != nil || !strings.Contains(out, `"start":"2031-03-01T10:00:00+01:00"`) || !strings.Contains(out, `"sources":["`+origin.URL+`/s.xml"]`) {
		t.Fatalf("export: %v\n%s\n%s", err, out, stderr)
	}

	dir := t.TempDir()
	local := filepath.Join(dir, "local.xml")
	if err := os.WriteFile(local, []byte(strings.ReplaceAll(harbourXML("Tides"), "harbour-2031", "quay-2031")), 0o644); err != nil {
		t.Fatal(err)
	}
	o.set("500", "", "")
	out, stderr, _ = runCmd(t, nil, "export", "--seeds", origin.URL+"/s.xml", "--seeds", local, "--time-zone", "UTC")
	if !strings.Contains(out, `"title":"Tides"`) || !strings.Contains(stderr, "warning: "+origin.URL+"/s.xml:0: not fetched, and no earlier copy:") ||
		!strings.Contains(stderr, "HTTP 500") {
		t.Errorf("a failing URL beside a file: stdout %s\nstderr %s", out, stderr)
	}
}

// TestSeedsUsage: a bad zone, scheme or fetch flag is a usage error (exit
// 2) naming the value.
func TestSeedsUsage(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "s.xml")
	if err := os.WriteFile(f, []byte(harbourXML("Knots")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--seeds", f + "#Mars/Base"}, `--seeds "` + f + `#Mars/Base": time zone "Mars/Base"`},
		{[]string{"--seeds", f + "#"}, "no time zone after '#'"},
		{[]string{"--seeds", "https://127.0.0.1/s.xml#Nowhere"}, `--seeds "https://127.0.0.1/s.xml#Nowhere": time zone "Nowhere"`},
		{[]string{"--seeds", "ftp://127.0.0.1/s.xml"}, "only http and https"},
		{[]string{"--seeds", f, "--time-zone", "Mars/Olympus"}, `--time-zone: time zone "Mars/Olympus"`},
		{[]string{"--seeds", f, "--fetch-timeout", "0s"}, "--fetch-timeout 0s"},
		{[]string{"--seeds", f, "--fetch-max-bytes", "0"}, "--fetch-max-bytes 0"},
	} {
		_, _, err := runCmd(t, nil, append([]string{"export"}, tc.args...)...)
		if err == nil || exitCode(err) != exitUsage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v (exit %d), want a usage error with %q", tc.args, err, exitCode(err), tc.want)
		}
	}
	// A file whose name holds a '#' is read as named.
	hash := filepath.Join(dir, "s#1.xml")
	if err := os.WriteFile(hash, []byte(harbourXML("Knots")), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _, err := runCmd(t, nil, "export", "--seeds", hash, "--time-zone", "UTC"); err != nil || !strings.Contains(out, "Knots") {
		t.Errorf("a file named with '#': %v %s", err, out)
	}
	if _, _, err := runCmd(t, nil, "serve", "--seeds", f, "--refresh", "-1s"); exitCode(err) != exitUsage {
		t.Errorf("--refresh -1s: %v", err)
	}
}

func TestSplitList(t *testing.T) {
	for in, want := range map[string][]string{
		"a.xml:b.xml": {"a.xml", "b.xml"},
		"https://h.example:8443/s.xml#Europe/Brussels:b.xml:http://h/x.ics": {"https://h.example:8443/s.xml#Europe/Brussels", "b.xml", "http://h/x.ics"},
		"a.json#Europe/Berlin:HTTPS://h?q=1":                                {"a.json#Europe/Berlin", "HTTPS://h?q=1"},
		"http://127.0.0.1:8080":                                             {"http://127.0.0.1:8080"},
		"a::b:":                                                             {"a", "b"},
	} {
		if got := splitList(in); !reflect.DeepEqual(got, want) {
			t.Errorf("splitList(%q) = %q, want %q", in, got, want)
		}
	}
}

package web

import (
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func fuzzGet(t *testing.T, h http.Handler, target string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+target, nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// FuzzAPISearch sends arbitrary query strings to /api/search: the answer
// is a JSON result (200) or a JSON error that says why (400), never a 500.
func FuzzAPISearch(f *testing.F) {
	for _, raw := range []string{
		"q=KV+cache", "q=Monrach&track=Inference+%26+Production", "q=%22unbalanced", "q=C%2B%2B&sort=time",
		"limit=101", "limit=-1", "offset=99999999999999999999", "limit=abc", "sort=sideways", "q=%ff%fe",
		"q=" + strings.Repeat("x", 600), "track=" + strings.Repeat("&track=a", 60), "q=%00", "q=<script>",
		"q=a&q=b", "level=&room=", ";;;", "%zz",
		"day=2026-04-08&kind=keynote&conference=x&language=fr&scheduled=true&after=14:00&before=18:00",
		"day=2026-02-30", "kind=Seminar", "after=24:00", "before=9:5", "scheduled=yes",
	} {
		f.Add(raw)
	}
	h, _ := newRealHandler(f)
	f.Fuzz(func(t *testing.T, raw string) {
		u := url.URL{Path: "/api/search", RawQuery: raw}
		if _, err := url.ParseRequestURI(u.String()); err != nil || strings.ContainsAny(raw, "# \t\r\n") {
			t.Skip() // not something a client can send
		}
		rec := fuzzGet(t, h, u.String())
		var body struct {
			Error string          `json:"error"`
			Hits  json.RawMessage `json:"hits"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatalf("GET %s: %d, not JSON: %v: %.200s", u.String(), rec.Code, err, rec.Body)
		}
		switch {
		case rec.Code == http.StatusOK && body.Error == "" && len(body.Hits) > 0 && body.Hits[0] == '[':
		case rec.Code == http.StatusBadRequest && body.Error != "":
		default:
			t.Fatalf("GET %s: %d %.300s", u.String(), rec.Code, rec.Body)
		}
	})
}

// FuzzSearchPage types arbitrary text into the search page with a tag at
// its end: the page answers, and the tag never comes back as markup.
func FuzzSearchPage(f *testing.F) {
	for _, q := range []string{"KV cache", "Monarch", `"><script>`, "</textarea>", "{{.}}", "&lt;", "\x00", "<1ms"} {
		f.Add(q)
	}
	h, _ := newRealHandler(f)
	f.Fuzz(func(t *testing.T, q string) {
		if len(q) > 200 {
			q = q[:200]
		}
		target := "/?" + url.Values{"q": {q + "<zz-fuzz>"}}.Encode()
		rec := fuzzGet(t, h, target)
		if rec.Code != http.StatusOK && rec.Code != http.StatusBadRequest {
			t.Fatalf("GET %s: %d", target, rec.Code)
		}
		if strings.Contains(rec.Body.String(), "<zz-fuzz>") {
			t.Fatalf("GET %s: the query came back unescaped", target)
		}
	})
}

// FuzzStaticPath asks the static route for arbitrary paths: it serves the
// embedded static files and nothing else (no templates, no listing, no
// path traversal).
func FuzzStaticPath(f *testing.F) {
	files := map[string]bool{}
	err := fs.WalkDir(assets, "static", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, err := fs.ReadFile(assets, p)
			if err != nil {
				return err
			}
			files[string(b)] = true
		}
		return err
	})
	if err != nil || len(files) == 0 {
		f.Fatalf("static files: %v (%d)", err, len(files))
	}
	for _, p := range []string{"", "/", "..", "../templates/search.html", "%2e%2e/templates", "..%2fhandler.go", "./", "//etc/passwd", "app.css", "/static/"} {
		f.Add(p)
	}
	h, _ := newRealHandler(f)
	f.Fuzz(func(t *testing.T, p string) {
		target := "/static/" + p
		if _, err := url.ParseRequestURI(target); err != nil || strings.ContainsAny(p, "?# \t\r\n") {
			t.Skip()
		}
		rec := fuzzGet(t, h, target)
		switch rec.Code {
		case http.StatusOK:
			if !files[rec.Body.String()] {
				t.Fatalf("GET %s: 200 with something that is not a static file: %.200q", target, rec.Body)
			}
		case http.StatusNotFound, http.StatusBadRequest, http.StatusNotModified:
		default:
			t.Fatalf("GET %s: %d", target, rec.Code)
		}
	})
}

// FuzzSafeHighlight checks the fast path of safeHighlight against the slow
// one: a fragment taken as canonical is one rebuilding leaves unchanged,
// and what rebuilding returns is canonical.
func FuzzSafeHighlight(f *testing.F) {
	for _, s := range []string{
		"plain", "a <mark>KV</mark> cache", "&lt;1ms &amp; &#34;q&#39;", "<script>x</script>", "<mark>open",
		"</mark>", "<mark><mark>x</mark></mark>", "&quot;", "&amp", "a > b", "\x00", "\xff<mark>\xfe</mark>", "&#x3c;",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rebuilt := string(rebuildHighlight(s))
		if canonicalHighlight(s) && rebuilt != s {
			t.Fatalf("%q taken as canonical, but rebuilding gives %q", s, rebuilt)
		}
		if !canonicalHighlight(rebuilt) {
			t.Fatalf("rebuilding %q gives %q, which is not canonical", s, rebuilt)
		}
		if string(safeHighlight(s)) != rebuilt {
			t.Fatalf("safeHighlight(%q) = %q, rebuilding gives %q", s, safeHighlight(s), rebuilt)
		}
	})
}

// FuzzAttendeeAPI sends arbitrary query strings to /api/now and
// /api/agenda: a JSON answer (200) or a JSON error that says why (400).
func FuzzAttendeeAPI(f *testing.F) {
	for _, raw := range []string{
		"at=2026-04-08T10:40:00%2B02:00", "at=2026-04-08T10:40:00+02:00", "at=2026-04-08T10:40", "at=tomorrow",
		"ids=a,b,,c", "ids=" + strings.Repeat("x,", 250), "ids=%ff", "ids=" + strings.Repeat("a", 300), "at=&ids=",
	} {
		f.Add(raw)
	}
	h, _ := newRealHandler(f)
	f.Fuzz(func(t *testing.T, raw string) {
		for _, path := range []string{"/api/now", "/api/agenda"} {
			u := url.URL{Path: path, RawQuery: raw}
			if _, err := url.ParseRequestURI(u.String()); err != nil || strings.ContainsAny(raw, "# \t\r\n") {
				t.Skip() // not something a client can send
			}
			rec := fuzzGet(t, h, u.String())
			var body map[string]json.RawMessage
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Fatalf("GET %s: %d, not JSON: %v: %.200s", u.String(), rec.Code, err, rec.Body)
			}
			_, hasErr := body["error"]
			switch {
			case rec.Code == http.StatusOK && !hasErr:
			case rec.Code == http.StatusBadRequest && hasErr:
			default:
				t.Fatalf("GET %s: %d %.300s", u.String(), rec.Code, rec.Body)
			}
		}
	})
}

// FuzzEveryRouteParameters sends arbitrary query strings to every GET
// route: whatever the parameters, the answer is never a 5xx (a time out of
// the encodable range, a malformed date, a huge page number: each is a
// 400 naming the parameter, or ignored).
func FuzzEveryRouteParameters(f *testing.F) {
	for _, raw := range []string{
		"at=9999-12-31T23:59:59Z", "at=0000-01-01T00:00:00%2B23:59", "at=9998-12-31T23:59:59-23:59",
		"day=9999-12-31", "day=0000-00-00", "page=99999999999999999999", "q=%ff&track=%00", "limit=-1&offset=1e9",
		"min=NaN", "min=1e400", "ids=" + strings.Repeat("x,", 300), "after=25:61&before=-1:00", "sort=time&kind=%FF",
	} {
		f.Add(raw)
	}
	h, e := newRealHandler(f)
	talk := e.Talks()[0]
	paths := []string{"/", "/talks/" + talk.ID, "/talks/" + talk.ID + ".ics", "/overlaps", "/overlaps/talks/" + talk.ID,
		"/now", "/schedule", "/agenda", "/agenda.ics", "/search.ics", "/api/search", "/api/talks/" + talk.ID,
		"/api/overlaps", "/api/overlaps.csv", "/api/overlaps/talks/" + talk.ID, "/api/now", "/api/agenda", "/healthz"}
	if len(talk.Speakers) > 0 {
		paths = append(paths, "/speakers/"+url.PathEscape(talk.Speakers[0].Name))
	}
	f.Fuzz(func(t *testing.T, raw string) {
		for _, path := range paths {
			u := url.URL{Path: path, RawQuery: raw}
			if _, err := url.ParseRequestURI(u.String()); err != nil || strings.ContainsAny(raw, "# \t\r\n") {
				t.Skip() // not something a client can send
			}
			if rec := fuzzGet(t, h, u.String()); rec.Code >= 500 {
				t.Fatalf("GET %s: %d %.300s", u.String(), rec.Code, rec.Body)
			}
		}
	})
}

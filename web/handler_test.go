package web

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gin-gonic/gin"
	"github.com/google/go-cmp/cmp"
	"github.com/rs/zerolog"

	"github.com/talksearch/talksearch/search"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestMain(m *testing.M) {
	gin.SetMode(gin.TestMode)
	os.Exit(m.Run())
}

func newTestHandler(t *testing.T, log zerolog.Logger) (http.Handler, *fakeSearcher) {
	t.Helper()
	f := &fakeSearcher{}
	// The fake's times are in UTC, naming no zone: --time-zone gives one.
	h, err := NewHandler(f, log, Options{Location: paris})
	if err != nil {
		t.Fatalf("NewHandler: %v", err)
	}
	return h, f
}

// get sends one request through the real router.
func get(t *testing.T, h http.Handler, target string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestStatuses(t *testing.T) {
	h, _ := newTestHandler(t, zerolog.Nop())
	long := strings.Repeat("é", 401)
	tests := []struct {
		name, target string
		status       int
		contentType  string
		bodyHas      string
	}{
		{"search page", "/", 200, "text/html; charset=utf-8", `<input id="q" name="q" type="search" value="" maxlength="400" autofocus`},
		{"header search box bounded", "/talks/abstract-only-5e6f", 200, "text/html; charset=utf-8", `<input id="q" name="q" type="search" value="" maxlength="400"`},
		{"search page with state", "/?q=monarch&track=Distributed+%26+Parallel&sort=time&page=2", 200, "text/html; charset=utf-8", `value="Distributed &amp; Parallel" checked`},
		{"no results", "/?q=nothing&track=X", 200, "text/html; charset=utf-8", `Did you mean <a href="/?q=nothing&#43;else&amp;track=X" dir="auto">nothing else</a>?`},
		{"page past the end", "/?q=monarch&page=9", 200, "text/html; charset=utf-8", `45 talks for “monarch”, none on this page</h1>`},
		{"page past the end links back", "/?q=monarch&page=9", 200, "text/html; charset=utf-8", `<a href="/?q=monarch">Go to the first page</a>`},
		{"room named", "/?q=Master+Stage", 200, "text/html; charset=utf-8", `<p class="named">Room <span dir="auto">Master Stage</span>: 45 talks — <a href="/?room=Master&#43;Stage">see them all, by schedule</a></p>`},
		{"no room named", "/?q=monarch", 200, "text/html; charset=utf-8", `<ol class="hits"`},
		{"talk page", "/talks/monarch-on-rocm-1a2b", 200, "text/html; charset=utf-8", "Ada Lovelace"},
		{"unscheduled talk", "/talks/abstract-only-5e6f", 200, "text/html; charset=utf-8", "Not on the schedule"},
		{"unknown talk page", "/talks/no-such-talk", 404, "text/html; charset=utf-8", "no talk has the id &#34;no-such-talk&#34;"},
		{"overlaps page", "/overlaps", 200, "text/html; charset=utf-8", `<td class="when">Wed 8 Apr, 10:40–10:45</td>`},
		{"overlaps page bad min", "/overlaps?min=abc", 400, "text/html; charset=utf-8", "min must be a number from 0.10 to 1"},
		{"unknown page", "/nope", 404, "text/html; charset=utf-8", "no such page"},
		{"trailing slash is another page", "/overlaps/", 404, "text/html; charset=utf-8", "no such page"},
		{"bad sort page", "/?sort=bogus", 400, "text/html; charset=utf-8", "sort must be &#34;relevance&#34;, &#34;time&#34; or &#34;newest&#34;"},
		{"bad page number", "/?page=0", 400, "text/html; charset=utf-8", "page must be a whole number from 1 to 501"},
		{"page beyond the bound", "/?page=502", 400, "text/html; charset=utf-8", "page must be a whole number from 1 to 501"},
		{"query too long page", "/?q=" + long, 400, "text/html; charset=utf-8", "the query is 401 characters long; the limit is 400"},

		{"api search", "/api/search?q=monarch", 200, "application/json; charset=utf-8", `"total":45`},
		{"api search limit 0", "/api/search?limit=0", 400, "application/json; charset=utf-8", `{"error":"invalid request: limit must be a whole number from 1 to 100"}`},
		{"api search limit big", "/api/search?limit=101", 400, "application/json; charset=utf-8", `{"error":"invalid request: limit must be a whole number from 1 to 100"}`},
		{"api search limit text", "/api/search?limit=ten", 400, "application/json; charset=utf-8", `limit must be`},
		{"api search offset negative", "/api/search?offset=-1", 400, "application/json; charset=utf-8", `{"error":"invalid request: offset must be a whole number from 0 to 10000"}`},
		{"api search offset big", "/api/search?offset=10001", 400, "application/json; charset=utf-8", `offset must be`},
		{"api search bad sort", "/api/search?sort=date", 400, "application/json; charset=utf-8", `{"error":"invalid request: sort must be \"relevance\", \"time\" or \"newest\""}`},
		{"api search query too long", "/api/search?q=" + long, 400, "application/json; charset=utf-8", `{"error":"invalid request: the query is 401 characters long; the limit is 400"}`},
		{"api search query invalid utf-8", "/api/search?q=%ff", 400, "application/json; charset=utf-8", `{"error":"invalid request: the query is not valid UTF-8"}`},
		{"api search engine failure", "/api/search?q=boom", 500, "application/json; charset=utf-8", `{"error":"internal error"}`},
		{"api search panic", "/api/search?q=panic", 500, "application/json; charset=utf-8", `{"error":"internal error"}`},
		{"page engine failure", "/?q=boom", 500, "text/html; charset=utf-8", "internal error"},
		{"api talk", "/api/talks/monarch-on-rocm-1a2b", 200, "application/json; charset=utf-8", `"related":[`},
		{"api unknown talk", "/api/talks/no-such-talk", 404, "application/json; charset=utf-8", `{"error":"talk \"no-such-talk\": not found"}`},
		{"api talk failure", "/api/talks/boom", 500, "application/json; charset=utf-8", `{"error":"internal error"}`},
		{"api talk id too long", "/api/talks/" + strings.Repeat("a", 201), 400, "application/json; charset=utf-8", `talk id must be 1 to 200 bytes`},
		{"api overlaps", "/api/overlaps?min=0.5", 200, "application/json; charset=utf-8", `"pairs":[`},
		{"api overlaps bad min", "/api/overlaps?min=2", 400, "application/json; charset=utf-8", `{"error":"invalid request: min must be a number from 0.10 to 1 (0 or empty: 0.13)"}`},
		{"api overlaps min below the floor", "/api/overlaps?min=0.05", 400, "application/json; charset=utf-8", `min must be a number from 0.10 to 1`},
		{"api overlaps NaN", "/api/overlaps?min=NaN", 400, "application/json; charset=utf-8", `min must be`},
		{"api unknown route", "/api/nope", 404, "application/json; charset=utf-8", `{"error":"not found: no such page"}`},
		{"admin route by GET", "/admin/reload", 405, "application/json; charset=utf-8", `{"error":"method not allowed on this path"}`},
		{"healthz", "/healthz", 200, "application/json; charset=utf-8", `{"status":"ok","generation":1}`},
		{"static css", "/static/app.css", 200, "text/css; charset=utf-8", ":root"},
		{"static js", "/static/app.js", 200, "text/javascript; charset=utf-8", "use strict"},
		{"static no listing", "/static/", 404, "text/html; charset=utf-8", "no such page"},
		{"static traversal", "/static/../templates/layout.html", 404, "text/html; charset=utf-8", "no such page"},
		{"static encoded traversal", "/static/..%2ftemplates%2flayout.html", 404, "text/html; charset=utf-8", "no such page"},
		{"templates are not public", "/templates/layout.html", 404, "text/html; charset=utf-8", "no such page"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := get(t, h, tt.target)
			if rec.Code != tt.status {
				t.Errorf("status = %d, want %d; body:\n%.500s", rec.Code, tt.status, rec.Body.String())
			}
			if got := rec.Header().Get("Content-Type"); got != tt.contentType {
				t.Errorf("Content-Type = %q, want %q", got, tt.contentType)
			}
			if !strings.Contains(rec.Body.String(), tt.bodyHas) {
				t.Errorf("body lacks %q:\n%.2000s", tt.bodyHas, rec.Body.String())
			}
		})
	}
}

func TestSearchParamsReachTheEngine(t *testing.T) {
	h, f := newTestHandler(t, zerolog.Nop())
	tests := []struct {
		name, target string
		want         search.Request
	}{
		{"empty browses all", "/api/search", search.Request{}},
		{"everything", "/api/search?q=+kv+cache+&track=A&track=B&track=A&track=&level=Any&room=R1&sort=time&limit=5&offset=10",
			search.Request{Query: "kv cache", Tracks: []string{"A", "B"}, Levels: []string{"Any"}, Rooms: []string{"R1"}, Sort: "time", Limit: 5, Offset: 10}},
		{"page 1", "/?q=monarch", search.Request{Query: "monarch", Limit: 20}},
		{"page 3", "/?q=monarch&track=Inference+%26+Production&page=3", search.Request{Query: "monarch", Tracks: []string{"Inference & Production"}, Limit: 20, Offset: 40}},
		{"page ignores limit", "/?limit=5&offset=7", search.Request{Limit: 20}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if rec := get(t, h, tt.target); rec.Code != 200 {
				t.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
			if diff := cmp.Diff(tt.want, f.lastRequest()); diff != "" {
				t.Errorf("request (-want +got):\n%s", diff)
			}
		})
	}
}

var tookMS = regexp.MustCompile(`"took_ms":[0-9.e-]+,`)

// TestAPIGolden pins the exact JSON of each endpoint.
func TestAPIGolden(t *testing.T) {
	h, _ := newTestHandler(t, zerolog.Nop())
	for _, tt := range []struct{ name, target string }{
		{"api_search", "/api/search?q=monarch"},
		{"api_search_empty", "/api/search?q=nothing"},
		{"api_talk", "/api/talks/monarch-on-rocm-1a2b"},
		{"api_overlaps", "/api/overlaps"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := get(t, h, tt.target)
			if rec.Code != 200 {
				t.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
			// took_ms is the time this answer took: it varies.
			body := tookMS.ReplaceAll(rec.Body.Bytes(), []byte(`"took_ms":0,`))
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, body, "", "  "); err != nil {
				t.Fatalf("not JSON: %v", err)
			}
			pretty.WriteByte('\n')
			golden(t, filepath.Join("testdata", tt.name+".golden"), pretty.Bytes())
		})
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

// TestEscaping: data-set text and queries are text, never markup; the only
// tags that reach a page are our own and the highlights' <mark>.
func TestEscaping(t *testing.T) {
	h, _ := newTestHandler(t, zerolog.Nop())
	tests := []struct {
		name, target string
		has, hasNot  []string
	}{
		{"script query on the search page", "/?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E",
			[]string{`value="&lt;script&gt;alert(1)&lt;/script&gt;"`, "for “&lt;script&gt;alert(1)&lt;/script&gt;”"},
			[]string{"<script>alert"}},
		{"highlights keep mark only", "/?q=monarch",
			[]string{
				`<a class="hit-link" href="/talks/monarch-on-rocm-1a2b" dir="auto"><mark>Monarch</mark> on ROCm: &lt;1ms &amp; beyond</a>`,
				`<p class="frag" dir="auto">PyTorch <mark>Monarch</mark> runs &lt;img src=x onerror=alert(1)&gt; on AMD</p>`,
			},
			[]string{"<img", "nothing marked here"}},
		{"talk page escapes data", "/talks/monarch-on-rocm-1a2b",
			[]string{"Monarch on ROCm: &lt;1ms &amp; beyond", "- RDMA &lt;script&gt;alert(1)&lt;/script&gt;", "Distributed &amp; Parallel"},
			[]string{"<script>alert", "<1ms"}},
		{"overlap passages keep mark only", "/overlaps",
			[]string{`built on <mark>Monarch</mark> <mark>actors</mark>&lt;script&gt;x&lt;/script&gt;`, "runs on AMD &lt;1ms"},
			[]string{"<script>x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkBody(t, get(t, h, tt.target).Body.String(), tt.has, tt.hasNot)
		})
	}
	// JSON encodes what the page escapes.
	body := get(t, h, "/api/talks/monarch-on-rocm-1a2b").Body.String()
	if !strings.Contains(body, `\u003c1ms \u0026 beyond`) || strings.Contains(body, "<script>") {
		t.Errorf("JSON does not encode data text: %.300s", body)
	}
}

func TestSecurityHeaders(t *testing.T) {
	h, _ := newTestHandler(t, zerolog.Nop())
	want := map[string]string{
		"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; worker-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "same-origin",
		"X-Frame-Options":         "DENY",
	}
	for _, target := range []string{"/", "/talks/monarch-on-rocm-1a2b", "/api/search", "/nope", "/api/search?q=panic", "/static/app.js", "/healthz"} {
		rec := get(t, h, target)
		for k, v := range want {
			if got := rec.Header().Get(k); got != v {
				t.Errorf("%s: %s = %q, want %q", target, k, got, v)
			}
		}
		if rec.Header().Get(HeaderRequestID) == "" {
			t.Errorf("%s: no %s", target, HeaderRequestID)
		}
	}
}

// TestPagesHaveNoInlineScript holds the pages to the CSP: scripts come from
// /static only, and nothing loads from another origin.
func TestPagesHaveNoInlineScript(t *testing.T) {
	h, _ := newTestHandler(t, zerolog.Nop())
	for _, target := range []string{"/", "/talks/monarch-on-rocm-1a2b", "/overlaps", "/nope"} {
		body := get(t, h, target).Body.String()
		if n := strings.Count(body, "<script"); n != 1 || !strings.Contains(body, `<script src="/static/app.js?v=`) {
			t.Errorf("%s: want exactly one external script, found %d <script", target, n)
		}
		for _, bad := range []string{"http://", "https://", " onclick=", " onload=", "style="} {
			if strings.Contains(body, bad) {
				t.Errorf("%s: page contains %q", target, bad)
			}
		}
	}
}

func TestFragment(t *testing.T) {
	h, _ := newTestHandler(t, zerolog.Nop())
	rec := get(t, h, "/?q=monarch&track=Distributed+%26+Parallel", HeaderFragment, "1")
	body := rec.Body.String()
	if rec.Code != 200 || strings.Contains(body, "<html") || strings.Contains(body, `id="q"`) {
		t.Fatalf("fragment is not just the live part (status %d):\n%.300s", rec.Code, body)
	}
	for _, s := range []string{`<h1 id="summary" data-total="45">45 talks for “monarch”, 1–2</h1>`, `aria-label="Remove filter Track: Distributed &amp; Parallel"`, `href="/?q=monarch"`} {
		if !strings.Contains(body, s) {
			t.Errorf("fragment lacks %q", s)
		}
	}
	if got := rec.Header().Values("Vary"); !strings.Contains(strings.Join(got, ","), HeaderFragment) {
		t.Errorf("Vary = %q, want it to name %s", got, HeaderFragment)
	}
}

func TestStaticCaching(t *testing.T) {
	h, _ := newTestHandler(t, zerolog.Nop())
	body := get(t, h, "/").Body.String()
	i := strings.Index(body, "/static/app.css?v=")
	if i < 0 {
		t.Fatal("page does not link a versioned stylesheet")
	}
	url := body[i : i+len("/static/app.css?v=")+12]
	rec := get(t, h, url, "Accept-Encoding", "gzip")
	if got := rec.Header().Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
		t.Errorf("Cache-Control = %q", got)
	}
	css := gunzip(t, rec)
	orig, _ := fs.ReadFile(assets, "static/app.css")
	if !bytes.Equal(css, orig) {
		t.Error("gzipped stylesheet differs from the file")
	}
	etag := rec.Header().Get("ETag")
	if rec := get(t, h, url, "Accept-Encoding", "gzip", "If-None-Match", etag); rec.Code != http.StatusNotModified {
		t.Errorf("If-None-Match: status %d, want 304", rec.Code)
	}
	if rec := get(t, h, "/static/app.css?v=old"); rec.Header().Get("Cache-Control") != "public, max-age=300" {
		t.Errorf("a stale version is cached for good")
	}
}

func TestPagesAreGzipped(t *testing.T) {
	h, _ := newTestHandler(t, zerolog.Nop())
	plain := get(t, h, "/?q=monarch").Body.Bytes()
	got := gunzip(t, get(t, h, "/?q=monarch", "Accept-Encoding", "gzip, deflate, br"))
	if !bytes.Equal(got, plain) {
		t.Error("gzipped page differs from the plain one")
	}
}

func gunzip(t *testing.T, rec *httptest.ResponseRecorder) []byte {
	t.Helper()
	if rec.Header().Get("Content-Encoding") != "gzip" {
		t.Fatal("response not gzipped")
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// checkBody asserts what a body must and must not contain.
func checkBody(t *testing.T, body string, has, hasNot []string) {
	t.Helper()
	for _, s := range has {
		if !strings.Contains(body, s) {
			t.Errorf("body lacks %q", s)
		}
	}
	for _, s := range hasNot {
		if strings.Contains(body, s) {
			t.Errorf("body has %q", s)
		}
	}
}

func TestHealthzHead(t *testing.T) {
	h, _ := newTestHandler(t, zerolog.Nop())
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodHead, "/healthz", nil))
	if rec.Code != http.StatusOK {
		t.Errorf("HEAD /healthz: %d", rec.Code)
	}
}

func TestBodyTooLarge(t *testing.T) {
	h, _ := newTestHandler(t, zerolog.Nop())
	req := httptest.NewRequest(http.MethodGet, "/api/search", strings.NewReader(strings.Repeat("x", 65<<10)))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge || rec.Body.String() != `{"error":"request body too large"}` {
		t.Errorf("got %d %s", rec.Code, rec.Body)
	}
}

func TestRequestTimeout(t *testing.T) {
	f := &fakeSearcher{}
	h, err := NewHandler(f, zerolog.Nop(), Options{RequestTimeout: 20_000_000}) // 20 ms
	if err != nil {
		t.Fatal(err)
	}
	rec := get(t, h, "/api/search?q=slow")
	if rec.Code != http.StatusServiceUnavailable || rec.Body.String() != `{"error":"the request took too long or was cancelled"}` {
		t.Errorf("got %d %s", rec.Code, rec.Body)
	}
}

func TestAccessLog(t *testing.T) {
	var buf bytes.Buffer
	h, _ := newTestHandler(t, zerolog.New(&buf))
	var sizes []int
	for _, target := range []string{"/api/search?q=monarch", "/nope", "/api/search?q=panic"} {
		sizes = append(sizes, get(t, h, target, HeaderRequestID, "req-1").Body.Len())
	}
	type line struct {
		Level     string  `json:"level"`
		Message   string  `json:"message"`
		Method    string  `json:"method"`
		Path      string  `json:"path"`
		Query     string  `json:"query"`
		Status    int     `json:"status"`
		Bytes     int     `json:"bytes"`
		RequestID string  `json:"request_id"`
		Hits      *int    `json:"hits"`
		Latency   float64 `json:"latency"`
		Panic     string  `json:"panic"`
	}
	var lines []line
	dec := json.NewDecoder(&buf)
	for dec.More() {
		var l line
		if err := dec.Decode(&l); err != nil {
			t.Fatal(err)
		}
		if l.Message == "request" && l.Latency <= 0 {
			t.Errorf("%s: latency %v", l.Path, l.Latency)
		}
		l.Latency = 0
		lines = append(lines, l)
	}
	hits := 45
	want := []line{
		{Level: "info", Message: "request", Method: "GET", Path: "/api/search", Query: "q=monarch", Status: 200, Bytes: sizes[0], RequestID: "req-1", Hits: &hits},
		{Level: "warn", Message: "request", Method: "GET", Path: "/nope", Status: 404, Bytes: 0, RequestID: "req-1"},
		{Level: "error", Message: "panic serving request", Path: "/api/search", RequestID: "req-1", Panic: "the engine panicked"},
		{Level: "error", Message: "request", Method: "GET", Path: "/api/search", Query: "q=panic", Status: 500, Bytes: 26, RequestID: "req-1"},
	}
	// The 404 page's size depends on the templates; pin that it is counted.
	if len(lines) == len(want) && lines[1].Bytes > 0 {
		lines[1].Bytes = 0
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("log lines (-want +got):\n%s", diff)
	}
}

func TestMissingTemplateFailsAtStart(t *testing.T) {
	tmpl, _ := fs.Sub(assets, "templates")
	static, _ := fs.Sub(assets, "static")
	partial := fstest.MapFS{}
	for _, name := range []string{"layout.html", "parts.html", "pair.html", "search.html", "overlaps.html", "overlap_talk.html", "error.html", "now.html", "schedule.html", "agenda.html", "speaker.html"} {
		data, err := fs.ReadFile(tmpl, name)
		if err != nil {
			t.Fatal(err)
		}
		partial[name] = &fstest.MapFile{Data: data}
	}
	_, err := newHandler(&fakeSearcher{}, zerolog.Nop(), Options{}, partial, static)
	if err == nil || !strings.Contains(err.Error(), "template talk") {
		t.Errorf("err = %v, want a template talk error", err)
	}
	partial["talk.html"] = &fstest.MapFile{Data: []byte(`{{define "content"}}{{asset "missing.css"}}{{end}}`)}
	h, err := newHandler(&fakeSearcher{}, zerolog.Nop(), Options{}, partial, static)
	if err != nil {
		t.Fatal(err)
	}
	// A broken template is a clean 500 (the error page), not half a page.
	rec := get(t, h, "/talks/monarch-on-rocm-1a2b")
	if body := rec.Body.String(); rec.Code != 500 || !strings.Contains(body, "<h1>500 · Internal Server Error</h1>") || strings.Contains(body, "Monarch") {
		t.Errorf("got %d %q", rec.Code, body)
	}
}

package web

import (
	"encoding/json"
	"html/template"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/search/overlap"
	"github.com/talksearch/talksearch/seeds"
)

var realEngine = sync.OnceValues(func() (*search.Engine, error) {
	c, err := ingest.Load(seeds.FS)
	if err != nil {
		return nil, err
	}
	return search.New(c.Talks)
})

// served is what a server answers from: e and the overlap reports of its
// corpus, as talksearch serve wires them.
func served(e *search.Engine) Searcher {
	return struct {
		*search.Engine
		*overlap.Reports
	}{e, overlap.NewReports(e)}
}

// talksHandler serves talks made for a test through the real engine.
func talksHandler(t *testing.T, talks []index.Talk) http.Handler {
	t.Helper()
	return talksHandlerWith(t, talks, Options{ClientBudget: -1})
}

// talksHandlerWith is talksHandler with opts.
func talksHandlerWith(t *testing.T, talks []index.Talk, opts Options) http.Handler {
	t.Helper()
	e, err := search.New(talks)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	h, err := NewHandler(served(e), zerolog.Nop(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// testdataTalks reads the fixtures written in testdata/dir, which hold
// want talks.
func testdataTalks(t *testing.T, dir string, want int) []index.Talk {
	t.Helper()
	c, err := ingest.LoadFS(os.DirFS(filepath.Join("testdata", dir)), ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Talks) != want {
		t.Fatalf("%d talks in testdata/%s, want %d", len(c.Talks), dir, want)
	}
	return c.Talks
}

// newRealHandler serves the real seeds through the real engine.
func newRealHandler(t testing.TB) (http.Handler, *search.Engine) {
	t.Helper()
	e, err := realEngine()
	if err != nil {
		t.Fatalf("engine over the seeds: %v", err)
	}
	// Every request of httptest comes from one address, and the fuzzers
	// send long queries back to back: no client budgets here (limit_test.go
	// tests them).
	h, err := NewHandler(served(e), zerolog.Nop(), Options{ClientBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	return h, e
}

// talkByTitle finds a seed talk's id by a piece of its title, so tests do
// not hard-code ids that ingestion derives.
func talkByTitle(t testing.TB, e *search.Engine, part string) index.Talk {
	t.Helper()
	var found []index.Talk
	for _, tk := range e.Talks() {
		if strings.Contains(tk.Title, part) {
			found = append(found, tk)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d talks have %q in their title, want 1", len(found), part)
	}
	return found[0]
}

// htmlText is text as html/template escapes it: it also escapes '+'.
func htmlText(s string) string {
	return strings.ReplaceAll(template.HTMLEscapeString(s), "+", "&#43;")
}

const (
	monarchAPI = "Monarch: An API To Your Supercomputer"
	monarchAMD = "Bringing PyTorch Monarch to AMD GPUs"
)

func TestEndToEndPages(t *testing.T) {
	h, e := newRealHandler(t)
	api := talkByTitle(t, e, monarchAPI)
	amd := talkByTitle(t, e, monarchAMD)
	tests := []struct {
		name, target string
		status       int
		has, hasNot  []string
	}{
		{"Monarch search", "/?q=Monarch", 200,
			[]string{"<mark>Monarch</mark>", `href="/talks/` + api.ID + `"`, `href="/talks/` + amd.ID + `"`, `talks for “Monarch”</h1>`},
			nil},
		{"browse all with facets", "/", 200,
			[]string{`<input type="checkbox" name="track" value="Keynote Sessions">`, `<ol class="hits" start="1">`, `rel="next"`},
			[]string{"<mark>"}},
		{"escaped data query", "/?q=%3C1ms", 200,
			[]string{"Rapid achieves &lt;<mark>1ms</mark> random read/write latency", "for “&lt;1ms”"},
			[]string{"<1ms"}},
		{"script query", "/?q=%3Cscript%3Ealert(1)%3C/script%3E", 200,
			[]string{"&lt;script&gt;alert(1)&lt;/script&gt;"},
			[]string{"<script>alert"}},
		{"synonyms say why", "/?q=MoE", 200,
			[]string{`<p class="synonyms">Also matching <span class="syn" dir="auto">MoE → mixture of experts</span></p>`},
			nil},
		{"misspelling", "/?q=Monrach", 200,
			[]string{"<mark>Monarch</mark>"},
			nil},
		{"nothing found", "/?q=zzzxqv+qqqzzz", 200,
			[]string{"No talks match “<bdi>zzzxqv qqqzzz</bdi>”", `<a href="/">Browse all talks</a>`},
			nil},
		{"talk page", "/talks/" + api.ID, 200,
			[]string{htmlText(api.Title), "Wed 8 Apr, 10:35–10:45", `<ol class="related-list">`, `<a href="/talks/` + amd.ID + `" dir="auto">`},
			nil},
		{"unknown talk", "/talks/not-a-talk-000000", 404, []string{"no talk has the id"}, nil},
		{"organizers", "/overlaps", 200, []string{`<article class="pair">`, "<mark>"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := get(t, h, tt.target)
			body := rec.Body.String()
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d", rec.Code, tt.status)
			}
			checkBody(t, body, tt.has, tt.hasNot)
		})
	}
}

// TestEndToEndRelatedFirst: the two Monarch talks are each other's first
// related talk, and the talk page lists it first.
func TestEndToEndRelatedFirst(t *testing.T) {
	h, e := newRealHandler(t)
	api := talkByTitle(t, e, monarchAPI)
	amd := talkByTitle(t, e, monarchAMD)
	for _, pair := range [][2]index.Talk{{api, amd}, {amd, api}} {
		body := get(t, h, "/talks/"+pair[0].ID).Body.String()
		i := strings.Index(body, `<ol class="related-list">`)
		if i < 0 {
			t.Fatalf("%s: no related list", pair[0].ID)
		}
		first := body[i:]
		first = first[:strings.Index(first, "</li>")]
		if !strings.Contains(first, `href="/talks/`+pair[1].ID+`"`) {
			t.Errorf("%s: first related talk is not %s:\n%s", pair[0].ID, pair[1].ID, first)
		}
	}
}

// TestEndToEndEveryTalkPage renders every talk of the seeds: the title and
// every line of the abstract appear escaped, and each related talk the
// engine says clashes is marked.
func TestEndToEndEveryTalkPage(t *testing.T) {
	h, e := newRealHandler(t)
	clashes := 0
	for _, tk := range e.Talks() {
		rec := get(t, h, "/talks/"+tk.ID)
		body := rec.Body.String()
		if rec.Code != 200 {
			t.Errorf("%s: status %d", tk.ID, rec.Code)
			continue
		}
		if !strings.Contains(body, "<h1 id=\"talk-title\" dir=\"auto\">"+htmlText(tk.Title)+"</h1>") {
			t.Errorf("%s: title missing or not escaped", tk.ID)
		}
		for _, para := range paragraphs(tk.Abstract) {
			for _, line := range para {
				if !strings.Contains(body, htmlText(line)) {
					t.Errorf("%s: abstract line missing or not escaped: %.60q", tk.ID, line)
				}
			}
		}
		d, err := e.Talk(t.Context(), tk.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range d.Related {
			marked := strings.Contains(body, `<a href="/talks/`+r.ID+`" dir="auto">`+htmlText(r.Title)+`</a> <strong class="clash">at the same time</strong>`)
			if marked != r.Clash {
				t.Errorf("%s: related %s clash %v, page marks it: %v", tk.ID, r.ID, r.Clash, marked)
			}
			if r.Clash {
				clashes++
			}
		}
	}
	if clashes == 0 {
		t.Error("no related talk clashes anywhere in the seeds: the mark is untested")
	}
}

// TestEndToEndJSONShapes pins the key sets of the API documents on the real
// engine, the contract clients read.
func TestEndToEndJSONShapes(t *testing.T) {
	h, e := newRealHandler(t)
	api := talkByTitle(t, e, monarchAPI)
	keys := func(v any) []string {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("not an object: %T", v)
		}
		var out []string
		for k := range m {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	decode := func(target string) map[string]any {
		rec := get(t, h, target)
		if rec.Code != 200 {
			t.Fatalf("%s: status %d: %s", target, rec.Code, rec.Body)
		}
		var m map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	// Every key the issues' contracts name must be there; a key the engine
	// adds is allowed, and logged so a reviewer sees it.
	check := func(what string, got, want []string, optional ...string) {
		t.Helper()
		for _, k := range want {
			if !slices.Contains(got, k) {
				t.Errorf("%s: no key %q in %q", what, k, got)
			}
		}
		for _, k := range got {
			if !slices.Contains(want, k) && !slices.Contains(optional, k) {
				t.Logf("%s: extra key %q", what, k)
			}
		}
	}

	res := decode("/api/search?q=KV+cache&limit=3")
	check("result", keys(res), []string{"did_you_mean", "facets", "hits", "query", "took_ms", "total"}, "synonyms", "scope")
	hits := res["hits"].([]any)
	if len(hits) != 3 {
		t.Fatalf("%d hits, want 3", len(hits))
	}
	// Every key of the contract, null where the talk has no value.
	for _, hit := range hits {
		check("hit", keys(hit), []string{"end", "highlights", "id", "kind", "level", "room", "scheduled", "score", "speakers", "start", "title", "track"})
	}
	if res["did_you_mean"] != nil {
		t.Errorf("did_you_mean = %v, want null for a query with no correction", res["did_you_mean"])
	}
	check("highlights", keys(hits[0].(map[string]any)["highlights"]), []string{"abstract", "title"})
	check("facets", keys(res["facets"]), []string{"level", "missing", "room", "track"})
	check("facet value", keys(res["facets"].(map[string]any)["track"].([]any)[0]), []string{"count", "value"})

	empty := decode("/api/search?q=zzzxqv")
	if h := empty["hits"].([]any); len(h) != 0 {
		t.Errorf("hits = %v, want []", h)
	}

	talk := decode("/api/talks/" + api.ID)
	check("talk", keys(talk), []string{"abstract", "end", "id", "kind", "level", "related", "room", "scheduled", "sources", "speakers", "start", "title", "track"})
	check("related", keys(talk["related"].([]any)[0]), []string{"clash", "end", "id", "room", "score", "shared_terms", "start", "title"})

	ov := decode("/api/overlaps")
	check("overlaps", keys(ov), []string{"clashes", "clusters", "pairs"})
	check("pair", keys(ov["pairs"].([]any)[0]), []string{"a", "b", "kind", "passages", "score", "shared_terms"})
	check("passages", keys(ov["pairs"].([]any)[0].(map[string]any)["passages"]), []string{"a", "b"})
	check("cluster", keys(ov["clusters"].([]any)[0]), []string{"ids", "label"})
	if cl := ov["clashes"].([]any); len(cl) > 0 {
		check("clash", keys(cl[0]), []string{"a", "b", "score"})
	}
}

// TestEndToEndExplain: /api/search with explain=1 explains every hit, the
// explanation's value being the hit's score and its details the BM25
// score and the factor; without it no hit carries one, and a value other
// than 1 or 0 is refused.
func TestEndToEndExplain(t *testing.T) {
	h, _ := newRealHandler(t)
	var doc SearchDoc
	rec := get(t, h, "/api/search?q=kv+cache+offloading&explain=1&limit=5")
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Hits) != 5 {
		t.Fatalf("%d hits, want 5", len(doc.Hits))
	}
	for _, hit := range doc.Hits {
		x := hit.Explanation
		if x == nil || x.Value != hit.Score || len(x.Details) != 2 || !strings.Contains(rec.Body.String(), "fieldWeight(") {
			t.Fatalf("hit %s (score %v): explanation %+v", hit.ID, hit.Score, x)
		}
	}
	plain := get(t, h, "/api/search?q=kv+cache+offloading&limit=5")
	if strings.Contains(plain.Body.String(), `"explanation"`) {
		t.Error("an explanation nobody asked for")
	}
	if rec := get(t, h, "/api/search?q=kv&explain=yes"); rec.Code != http.StatusBadRequest {
		t.Errorf("explain=yes: status %d, want 400", rec.Code)
	}
}

package web

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search"
)

// cachedTargets are the answers the server keeps for reuse.
// Answers are kept gzipped and plain (two variants), but a search's API
// JSON, written with its own took_ms, which is never gzipped (one).
var cachedTargets = []struct {
	name, target string
	header       []string
	variants     int64
}{
	{"api search", "/api/search?q=monarch&track=Distributed+%26+Parallel&limit=5", nil, 1},
	{"search page", "/?q=monarch&page=2", nil, 2},
	{"results fragment", "/?q=monarch", []string{HeaderFragment, "1"}, 2},
	{"talk page", "/talks/monarch-on-rocm-1a2b", nil, 2},
	{"api talk", "/api/talks/monarch-on-rocm-1a2b", nil, 2},
	{"organizer page", "/overlaps?min=0.2", nil, 2},
	{"api overlaps", "/api/overlaps", nil, 2},
}

// body is a response's body as the client reads it: unzipped, and with
// took_ms, the time of this very answer, set to 0.
func body(t *testing.T, resp *http.Response, raw []byte) string {
	t.Helper()
	if resp.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("gzip: %v", err)
		}
		if raw, err = io.ReadAll(zr); err != nil {
			t.Fatalf("gzip: %v", err)
		}
	}
	return string(tookMS.ReplaceAll(raw, []byte(`"took_ms":0,`)))
}

// TestAnswersAreKeptPerGeneration: an answer asked for again comes from the
// cache, byte for byte the same (but for its own took_ms), for a client
// with gzip and one without; a re-index makes the engine answer again.
func TestAnswersAreKeptPerGeneration(t *testing.T) {
	for _, tt := range cachedTargets {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeSearcher{}
			h, err := NewHandler(f, zerolog.Nop(), Options{})
			if err != nil {
				t.Fatal(err)
			}
			fetch := func(gz bool) (string, *http.Response) {
				header := tt.header
				if gz {
					header = append([]string{"Accept-Encoding", "gzip"}, header...)
				}
				rec := get(t, h, tt.target, header...)
				if rec.Code != http.StatusOK {
					t.Fatalf("GET %s: %d %s", tt.target, rec.Code, rec.Body)
				}
				resp := rec.Result()
				if got := resp.Header.Values("Vary"); len(got) == 0 || got[len(got)-1] != "Accept-Encoding" {
					t.Errorf("Vary %q", got)
				}
				return body(t, resp, rec.Body.Bytes()), resp
			}
			first, _ := fetch(false)
			if f.calls.Load() != 1 {
				t.Fatalf("first answer: %d engine calls, want 1", f.calls.Load())
			}
			for _, gz := range []bool{false, true, false, true} {
				got, resp := fetch(gz)
				if got != first {
					t.Errorf("gzip %v: kept answer differs:\n%s\nwant\n%s", gz, got, first)
				}
				if ct := resp.Header.Get("Content-Type"); !strings.HasSuffix(ct, "; charset=utf-8") {
					t.Errorf("Content-Type %q", ct)
				}
			}
			// Each variant is made once.
			if f.calls.Load() != tt.variants {
				t.Errorf("5 answers in one generation: %d engine calls, want %d", f.calls.Load(), tt.variants)
			}
			f.reindex()
			fetch(false)
			if f.calls.Load() != tt.variants+1 {
				t.Errorf("after a re-index: %d engine calls, want %d", f.calls.Load(), tt.variants+1)
			}
		})
	}
}

func TestFailuresAreNotKept(t *testing.T) {
	f := &fakeSearcher{}
	h, err := NewHandler(f, zerolog.Nop(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"/api/search?q=boom", "/?q=boom", "/talks/boom", "/talks/no-such-talk", "/api/talks/no-such-talk"} {
		for range 2 {
			if rec := get(t, h, target); rec.Code < 400 {
				t.Errorf("GET %s: %d", target, rec.Code)
			}
		}
	}
	if f.calls.Load() != 10 {
		t.Errorf("10 failing requests: %d engine calls, want 10", f.calls.Load())
	}
}

func TestCacheOff(t *testing.T) {
	f := &fakeSearcher{}
	h, err := NewHandler(f, zerolog.Nop(), Options{CacheBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		get(t, h, "/api/search?q=monarch")
	}
	if f.calls.Load() != 3 {
		t.Errorf("cache off: %d engine calls for 3 requests, want 3", f.calls.Load())
	}
}

// TestTookIsPerAnswer: a kept API answer still says how long this answer
// took, as valid JSON with the rest unchanged.
func TestTookIsPerAnswer(t *testing.T) {
	h, _ := newTestHandler(t, zerolog.Nop())
	for range 3 {
		rec := get(t, h, "/api/search?q=monarch")
		var got struct {
			Query  string   `json:"query"`
			Total  int      `json:"total"`
			TookMS *float64 `json:"took_ms"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
			t.Fatalf("not JSON: %v: %s", err, rec.Body)
		}
		if got.Query != "monarch" || got.Total != 45 || got.TookMS == nil || *got.TookMS < 0 || *got.TookMS > 10_000 {
			t.Errorf("got query %q, total %d, took_ms %v", got.Query, got.Total, got.TookMS)
		}
		if !strings.Contains(rec.Body.String(), `"total":45,"took_ms":`) {
			t.Errorf("took_ms not in the contract's place: %.80s", rec.Body)
		}
	}
}

func TestResponseCacheBounds(t *testing.T) {
	// Keys of one byte: an answer of n body bytes weighs n+1.
	sized := func(gen uint64, n int) *response { return &response{gen: gen, body: make([]byte, n)} }
	c := newResponseCache(800) // answers of up to 100 bytes are kept
	c.put("a", sized(1, 99))
	c.put("b", sized(1, 100))
	if _, ok := c.get("a", 1); !ok {
		t.Error("an answer of an eighth of the cache was not kept")
	}
	if _, ok := c.get("b", 1); ok {
		t.Error("an answer over an eighth of the cache was kept")
	}
	if _, ok := c.get("a", 2); ok {
		t.Error("answer of generation 1 served for generation 2")
	}
	c.put("a", sized(3, 10))
	c.put("a", sized(2, 20)) // a slow build of an older generation
	if r, ok := c.get("a", 3); !ok || len(r.body) != 10 {
		t.Errorf("the answer of generation 3 was replaced by one of generation 2: %v", ok)
	}
	for i := range 1000 { // 8 answers fit: 5 popular ones and one-off ones
		c.put(strconv.Itoa(i%5)+"x", sized(1, 90))
		c.put(strconv.Itoa(i), sized(1, 90))
	}
	c.c.CleanUp()
	if w := c.c.WeightedSize(); w > 800 {
		t.Errorf("%d bytes kept, bound 800", w)
	}
	// The answers asked for again and again stay; one-off ones do not push
	// them out (TinyLFU).
	for i := range 5 {
		if _, ok := c.get(strconv.Itoa(i)+"x", 1); !ok {
			t.Errorf("popular answer %dx pushed out by one-off answers", i)
		}
	}
	if c := newResponseCache(-1); c.c != nil {
		t.Error("a negative size keeps answers")
	}
}

// TestReindexChangesKeptAnswers runs the real engine: after Replace, the
// same URLs answer from the new corpus, never a kept page of the old one.
func TestReindexChangesKeptAnswers(t *testing.T) {
	talk := func(id, title string) index.Talk {
		return index.Talk{ID: id, Title: title, Abstract: title + " for everyone.", Kind: index.KindTalk, Track: "Inference"}
	}
	e, err := search.New([]index.Talk{talk("a-1", "Monarch actors"), talk("b-2", "Helion kernels")})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	h, err := NewHandler(served(e), zerolog.Nop(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	check := func(target, want, notWant string) {
		t.Helper()
		for range 2 {
			rec := get(t, h, target, "Accept-Encoding", "gzip")
			got := body(t, rec.Result(), rec.Body.Bytes())
			if rec.Code != http.StatusOK || !strings.Contains(got, want) || notWant != "" && strings.Contains(got, notWant) {
				t.Errorf("GET %s: %d, want %q and not %q in\n%.2000s", target, rec.Code, want, notWant, got)
			}
		}
	}
	check("/?q=monarch", `<mark>Monarch</mark> actors`, "c-3")
	check("/api/search?q=monarch", `"total":1,`, "")
	check("/talks/a-1", "Monarch actors", "")
	gen := e.Generation()
	if err := e.Replace([]index.Talk{talk("a-1", "Monarch on ROCm"), talk("c-3", "Monarch meshes")}); err != nil {
		t.Fatal(err)
	}
	if e.Generation() != gen+1 {
		t.Fatalf("generation %d after Replace, want %d", e.Generation(), gen+1)
	}
	check("/?q=monarch", `href="/talks/c-3"`, "actors")
	check("/api/search?q=monarch", `"total":2,`, "")
	check("/talks/a-1", "Monarch on ROCm", "Monarch actors")
	if rec := get(t, h, "/talks/b-2"); rec.Code != http.StatusNotFound {
		t.Errorf("talk of the old corpus: %d, want 404", rec.Code)
	}
}

// TestKeysTellAnswersApart sends, to one handler, requests whose answers
// must differ (page and fragment, limit, offset, sort, filters, page
// number, encoding, threshold), twice over, and expects each answer to be
// what a handler that keeps nothing gives.
func TestKeysTellAnswersApart(t *testing.T) {
	var talks []index.Talk
	for i, room := range []string{"Room A", "Room B", "Room A", "Room C", "Room B", "Room A"} {
		talks = append(talks, index.Talk{
			ID:       fmt.Sprintf("t-%d", i),
			Title:    fmt.Sprintf("Monarch part %d", i),
			Abstract: "Monarch actors and meshes, part " + strconv.Itoa(i) + ".",
			Kind:     index.KindTalk,
			Room:     room,
			Track:    []string{"Inference", "Training"}[i%2],
			Start:    at(fmt.Sprintf("%02d:00", 9+i)),
		})
	}
	e, err := search.New(talks)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	kept, err := NewHandler(served(e), zerolog.Nop(), Options{PageSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	made, err := NewHandler(served(e), zerolog.Nop(), Options{PageSize: 2, CacheBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	type variant struct {
		target string
		header []string
	}
	var variants []variant
	for _, target := range []string{
		"/api/search?q=monarch", "/api/search?q=monarch&limit=2", "/api/search?q=monarch&limit=2&offset=2",
		"/api/search?q=monarch&sort=time", "/api/search?q=monarch&room=Room+A", "/api/search?q=monarch&room=Room+A&room=Room+B",
		"/api/search?q=monarch&track=Inference", "/api/search?q=monarch+part", "/api/search",
		"/?q=monarch", "/?q=monarch&page=2", "/?q=monarch&page=3", "/?q=monarch&sort=time", "/?q=monarch&room=Room+C",
		"/talks/t-1", "/talks/t-2", "/api/talks/t-1", "/overlaps", "/overlaps?min=0.9", "/api/overlaps?min=0.9",
	} {
		for _, header := range [][]string{nil, {"Accept-Encoding", "gzip"}, {HeaderFragment, "1"}, {HeaderFragment, "1", "Accept-Encoding", "gzip"}} {
			variants = append(variants, variant{target, header})
		}
	}
	for round := range 2 {
		for _, v := range variants {
			want := get(t, made, v.target, v.header...)
			got := get(t, kept, v.target, v.header...)
			if got.Code != want.Code || got.Header().Get("Content-Encoding") != want.Header().Get("Content-Encoding") ||
				body(t, got.Result(), got.Body.Bytes()) != body(t, want.Result(), want.Body.Bytes()) {
				t.Errorf("round %d, GET %s %q: kept answer %d differs from a fresh one %d", round, v.target, v.header, got.Code, want.Code)
			}
		}
	}
}

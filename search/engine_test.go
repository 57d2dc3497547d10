package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/talksearch/talksearch/index"
)

// fixtureTalks reads testdata/talks.json: eight hand-made talks with two
// Monarch talks, a talk built on Monarch, a break, HTML-like text, talks
// without track, level or room, and two talks that clash.
func fixtureTalks(t testing.TB) []index.Talk {
	t.Helper()
	b, err := os.ReadFile("testdata/talks.json")
	if err != nil {
		t.Fatal(err)
	}
	var talks []index.Talk
	if err := json.Unmarshal(b, &talks); err != nil {
		t.Fatalf("testdata/talks.json: %v", err)
	}
	return talks
}

func fixtureEngine(t testing.TB) *Engine {
	t.Helper()
	e, err := New(fixtureTalks(t))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func hitIDs(r *Result) []string {
	ids := []string{}
	for _, h := range r.Hits {
		ids = append(ids, h.ID)
	}
	return ids
}

func TestSearchRanking(t *testing.T) {
	e := fixtureEngine(t)
	tests := []struct {
		query      string
		want       []string
		didYouMean string
	}{
		{"Monarch", []string{"monarch-amd", "monarch-api", "async-rl"}, ""},
		{"monrach", []string{"monarch-amd", "monarch-api", "async-rl"}, "monarch"},
		{"Monrach", []string{"monarch-amd", "monarch-api", "async-rl"}, "Monarch"},
		{"title:monrach", []string{}, "title:monarch"},
		{`"speculativ decodin"`, []string{}, `"speculative decoding"`},
		{"speaker:Hoper", []string{}, "speaker:Hopper"},
		{"flexatention", []string{"flex"}, "flexattention"},
		{"speculativ decoding", []string{"compile"}, "speculative decoding"},
		{"KV cache", []string{"kv-cache", "moe-inference"}, ""},
		{"torch.compile", []string{"compile", "flex"}, ""},
		{"<1ms", []string{"kv-cache"}, ""},
		{`"actors and meshes"`, []string{"async-rl", "monarch-api"}, ""},
		{`"actors and meshes`, []string{"async-rl", "monarch-api"}, ""},
		{"monarch -amd", []string{"monarch-api", "async-rl"}, ""},
		{"actors -\"fault tolerance\"", []string{"async-rl", "monarch-amd"}, ""},
		{"speaker:hopper", []string{"monarch-amd"}, ""},
		{"title:monarch", []string{"monarch-api", "monarch-amd"}, ""},
		{"track:infer cache", []string{"kv-cache", "moe-inference"}, ""},
		{"track:nosuchtrack", []string{}, ""},
		{"red hat", []string{"kv-cache"}, ""},
		{"coffee", []string{"coffee-1"}, ""},
		{"the", []string{}, ""},
		{"qwxyzzy", []string{}, ""},
		{"monarhc actros", []string{"monarch-amd", "monarch-api", "async-rl"}, "monarch actors"},
		{"speculatve -- x", []string{"compile"}, "speculative -- x"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			r, err := e.Search(context.Background(), Request{Query: tt.query})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, hitIDs(r)); diff != "" {
				t.Errorf("hits (-want +got):\n%s", diff)
			}
			if r.DidYouMean != tt.didYouMean {
				t.Errorf("did_you_mean = %q, want %q", r.DidYouMean, tt.didYouMean)
			}
			if r.Total != uint64(len(r.Hits)) {
				t.Errorf("total %d, %d hits", r.Total, len(r.Hits))
			}
		})
	}
}

func TestSearchEmptyQueryListsEverythingInScheduleOrder(t *testing.T) {
	e := fixtureEngine(t)
	r, err := e.Search(context.Background(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"compile", "monarch-api", "monarch-amd", "coffee-1", "moe-inference", "kv-cache", "async-rl", "flex"}
	if diff := cmp.Diff(want, hitIDs(r)); diff != "" {
		t.Errorf("hits (-want +got):\n%s", diff)
	}
}

func TestSearchBreaksRankLow(t *testing.T) {
	e := fixtureEngine(t)
	// "fruits" is only in the break; "granola"/"monarch" ranks the talk first.
	r, err := e.Search(context.Background(), Request{Query: "granola monarch"})
	if err != nil {
		t.Fatal(err)
	}
	// Below the talks about Monarch, but not below async-rl: coordination
	// weighs words by rarity, and async-rl names Monarch once in passing
	// while the break has the rare "granola".
	ids := hitIDs(r)
	if len(ids) != 4 || ids[0] == "coffee-1" || ids[1] == "coffee-1" {
		t.Errorf("break not below the Monarch talks: %v", ids)
	}
}

func TestSearchFacets(t *testing.T) {
	e := fixtureEngine(t)
	tests := []struct {
		name string
		req  Request
		hits []string
		want Facets
	}{
		{
			name: "no selection",
			req:  Request{Query: "gpus actors cache torch"},
			hits: []string{"monarch-amd", "monarch-api", "compile", "flex", "async-rl", "kv-cache", "moe-inference"},
			want: Facets{
				Track:   []FacetValue{{Value: "Compilers", Count: 2}, {Value: "Distributed", Count: 2}, {Value: "Inference", Count: 2}},
				Level:   []FacetValue{{Value: "Advanced", Count: 2}, {Value: "Intermediate", Count: 2}, {Value: "Beginner", Count: 1}},
				Room:    []FacetValue{{Value: "Room A", Count: 2}, {Value: "Room B", Count: 2}, {Value: "Room C", Count: 1}},
				Day:     []FacetValue{{Value: "2026-04-07", Count: 5}},
				Kind:    []FacetValue{{Value: "talk", Count: 6}, {Value: "lightning", Count: 1}},
				Missing: map[string]int{"track": 1, "level": 2, "room": 2, "day": 2, "kind": 0, "conference": 7, "language": 7},
			},
		},
		{
			// Track counts ignore the track selection; level and room
			// counts follow it. Two tracks combine with OR.
			name: "two tracks, one level",
			req:  Request{Tracks: []string{"distributed", "Inference"}, Levels: []string{"Advanced"}},
			hits: []string{"monarch-amd"},
			want: Facets{
				Track:   []FacetValue{{Value: "Compilers", Count: 1}, {Value: "Distributed", Count: 1, Selected: true}, {Value: "Inference", Count: 0, Selected: true}},
				Level:   []FacetValue{{Value: "Advanced", Count: 1, Selected: true}, {Value: "Beginner", Count: 1}, {Value: "Intermediate", Count: 1}},
				Room:    []FacetValue{{Value: "Room B", Count: 1}},
				Day:     []FacetValue{{Value: "2026-04-07", Count: 1}},
				Kind:    []FacetValue{{Value: "talk", Count: 1}},
				Missing: map[string]int{"track": 0, "level": 1, "room": 0, "day": 0, "kind": 0, "conference": 1, "language": 1},
			},
		},
		{
			name: "unknown value selects nothing but is shown selected",
			req:  Request{Rooms: []string{"Attic"}},
			hits: []string{},
			want: Facets{
				Track:   []FacetValue{},
				Level:   []FacetValue{},
				Room:    []FacetValue{{Value: "Room A", Count: 2}, {Value: "Room B", Count: 2}, {Value: "Foyer", Count: 1}, {Value: "Room C", Count: 1}, {Value: "Attic", Count: 0, Selected: true}},
				Missing: map[string]int{"track": 0, "level": 0, "room": 2, "day": 0, "kind": 0, "conference": 0, "language": 0},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := e.Search(context.Background(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.hits, hitIDs(r), cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
				t.Errorf("hits (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, r.Facets, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("facets (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSearchHighlights(t *testing.T) {
	e := fixtureEngine(t)
	tests := []struct {
		query string
		id    string
		want  Highlights
	}{
		{"<1ms", "kv-cache", Highlights{Title: []string{}, Speakers: []string{}, Description: []string{}, Abstract: []string{
			"Caching the key-value state of agents cuts latency to &lt;<mark>1ms</mark>. We compare &lt;script&gt;alert(1)&lt;/script&gt; free serving stacks.",
		}}},
		{"script alert", "kv-cache", Highlights{Title: []string{}, Speakers: []string{}, Description: []string{}, Abstract: []string{
			"Caching the key-value state of agents cuts latency to &lt;1ms. We compare &lt;<mark>script</mark>&gt;<mark>alert</mark>(1)&lt;/<mark>script</mark>&gt; free serving stacks.",
		}}},
		{"kv cache", "kv-cache", Highlights{
			Title: []string{"Semantic <mark>KV</mark>-<mark>Cache</mark> for Agentic LLM Serving"},
			// key-value is a synonym of KV
			Abstract:    []string{"<mark>Caching</mark> the <mark>key</mark>-<mark>value</mark> state of agents cuts latency to &lt;1ms. We compare &lt;script&gt;alert(1)&lt;/script&gt; free serving stacks."},
			Speakers:    []string{},
			Description: []string{},
		}},
		// Speaker names and affiliations are highlighted too.
		{"hopper", "monarch-amd", Highlights{Title: []string{}, Abstract: []string{}, Description: []string{}, Speakers: []string{"Grace <mark>Hopper</mark>, AMD"}}},
		{"red hat", "kv-cache", Highlights{Title: []string{}, Abstract: []string{}, Description: []string{}, Speakers: []string{"Alan Turing, <mark>Red</mark> <mark>Hat</mark>"}}},
		{"monrach", "monarch-api", Highlights{
			Title:       []string{"Lightning Talk: <mark>Monarch</mark>: An API To Your Supercomputer"},
			Abstract:    []string{"<mark>Monarch</mark> gives a single controller over a cluster of GPUs. Actors and meshes make fault tolerance simple."},
			Speakers:    []string{},
			Description: []string{},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			r, err := e.Search(context.Background(), Request{Query: tt.query})
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range r.Hits {
				if h.ID != tt.id {
					continue
				}
				if diff := cmp.Diff(tt.want, h.Highlights); diff != "" {
					t.Errorf("highlights (-want +got):\n%s", diff)
				}
				return
			}
			t.Fatalf("%s not in %v", tt.id, hitIDs(r))
		})
	}
}

func TestSearchPagingAndSort(t *testing.T) {
	e := fixtureEngine(t)
	ctx := context.Background()
	all, err := e.Search(ctx, Request{Query: "gpus actors cache torch", Sort: SortTime})
	if err != nil {
		t.Fatal(err)
	}
	// start ascending (ties by title), unscheduled last (by title)
	want := []string{"compile", "monarch-api", "monarch-amd", "moe-inference", "kv-cache", "async-rl", "flex"}
	if diff := cmp.Diff(want, hitIDs(all)); diff != "" {
		t.Errorf("time order (-want +got):\n%s", diff)
	}
	newest, err := e.Search(ctx, Request{Query: "gpus actors cache torch", Sort: SortNewest})
	if err != nil {
		t.Fatal(err)
	}
	// start descending (ties by title), unscheduled still last
	wantNewest := []string{"moe-inference", "kv-cache", "monarch-amd", "monarch-api", "compile", "async-rl", "flex"}
	if diff := cmp.Diff(wantNewest, hitIDs(newest)); diff != "" {
		t.Errorf("newest first (-want +got):\n%s", diff)
	}
	page, err := e.Search(ctx, Request{Query: "gpus actors cache torch", Sort: "TIME", Limit: 2, Offset: 5})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want[5:7], hitIDs(page)); diff != "" || page.Total != 7 {
		t.Errorf("page 5..7: total %d (-want +got):\n%s", page.Total, diff)
	}
	past, err := e.Search(ctx, Request{Query: "monarch", Offset: 50})
	if err != nil || len(past.Hits) != 0 || past.Total != 3 {
		t.Errorf("offset past the end: %v, %+v", err, past)
	}
}

func TestSearchInvalid(t *testing.T) {
	e := fixtureEngine(t)
	tests := []struct {
		name string
		req  Request
		msg  string
	}{
		{"negative limit", Request{Limit: -1}, "limit -1 is negative"},
		{"limit too large", Request{Limit: MaxLimit + 1}, "limit 101 is above 100"},
		{"negative offset", Request{Offset: -5}, "offset -5 not in [0,10000]"},
		{"offset too large", Request{Offset: MaxOffset + 1}, "offset 10001 not in [0,10000]"},
		{"unknown sort", Request{Sort: "date"}, `sort "date" is not "relevance", "time" or "newest"`},
		{"query too long", Request{Query: strings.Repeat("a", MaxQueryLen+1)}, "the query is 401 characters long; the limit is 400"},
		{"too many values", Request{Tracks: make([]string, MaxFacetValues+1)}, "33 track values, more than 32"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.Search(context.Background(), tt.req)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("err = %v, want ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("err = %q, want it to say %q", err, tt.msg)
			}
		})
	}
}

func TestSearchOddInputNeverFails(t *testing.T) {
	e := fixtureEngine(t)
	for _, q := range []string{`"`, `""`, "-", "--", `title:`, `:`, "C++", "a:b:c", `-"`, "\x00", "((", "*?~^", "\\", strings.Repeat("x", MaxQueryLen), "😀 monarch", "-monarch -gpus -cache"} {
		if _, err := e.Search(context.Background(), Request{Query: q}); err != nil {
			t.Errorf("%q: %v", q, err)
		}
	}
}

func TestTalkRelated(t *testing.T) {
	e := fixtureEngine(t)
	d, err := e.Talk(context.Background(), "monarch-api")
	if err != nil {
		t.Fatal(err)
	}
	if d.Title != "Lightning Talk: Monarch: An API To Your Supercomputer" {
		t.Errorf("title %q", d.Title)
	}
	var ids []string
	for _, r := range d.Related {
		ids = append(ids, r.ID)
		if r.ID == "coffee-1" || r.ID == d.ID {
			t.Errorf("related lists %s", r.ID)
		}
	}
	if len(ids) < 2 || ids[0] != "monarch-amd" || ids[1] != "async-rl" {
		t.Fatalf("related = %v, want monarch-amd, async-rl first", ids)
	}
	// monarch-amd (Room B, 10:05–10:35) overlaps monarch-api (Room A, 10:00–10:15).
	if !d.Related[0].Clash || d.Related[1].Clash {
		t.Errorf("clash = %v, %v; want true, false", d.Related[0].Clash, d.Related[1].Clash)
	}
	if !strings.Contains(strings.Join(d.Related[0].SharedTerms, " "), "monarch") {
		t.Errorf("shared terms %v lack monarch", d.Related[0].SharedTerms)
	}
	if _, err := e.Talk(context.Background(), "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown id: %v, want ErrNotFound", err)
	}
}

func TestReplaceSwapsCorpus(t *testing.T) {
	e := fixtureEngine(t)
	ctx := context.Background()
	talks := fixtureTalks(t)
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				if _, err := e.Search(ctx, Request{Query: "monarch"}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	if err := e.Replace(talks[:2]); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	r, err := e.Search(ctx, Request{Query: "monarch"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"monarch-amd", "monarch-api"}, hitIDs(r)); diff != "" {
		t.Errorf("after Replace (-want +got):\n%s", diff)
	}
	if err := e.Replace(append(talks[:1:1], talks[0])); err == nil {
		t.Error("Replace with a duplicate id succeeded")
	}
	if r, _ := e.Search(ctx, Request{}); r.Total != 2 {
		t.Errorf("failed Replace changed the corpus: %d talks", r.Total)
	}
	// New served generation 1, the Replace 2; the failed one changed nothing.
	if g := e.Generation(); g != 2 {
		t.Errorf("generation %d, want 2", g)
	}
	e.Close()
	if g := e.Generation(); g != 0 {
		t.Errorf("generation of a closed engine %d, want 0", g)
	}
}

func TestSearchCache(t *testing.T) {
	talks := fixtureTalks(t)
	for _, size := range []int{-1, 2} {
		e, err := NewWithOptions(talks, Options{CacheSize: size})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		for _, q := range []string{"monarch", "cache", "monarch", "torch", "Monarch  "} {
			r, err := e.Search(context.Background(), Request{Query: q})
			if err != nil {
				t.Fatal(err)
			}
			if q == "Monarch  " && r.Query != "Monarch" {
				t.Errorf("query not normalised: %q", r.Query)
			}
		}
		if n := e.snap.Load().cache.len(); size > 0 && n != size || size < 0 && n != 0 {
			t.Errorf("cache size %d holds %d", size, n)
		}
	}
}

// TestKeptMatchesAgree runs the filtered, sorted and paged variants of
// the same queries at once, answered from the matches kept per query, and
// expects exactly what an engine without caches answers (and, under -race,
// no search changing the shared matches).
func TestKeptMatchesAgree(t *testing.T) {
	_, c := seedEngine(t)
	kept, err := New(c.Talks)
	if err != nil {
		t.Fatal(err)
	}
	defer kept.Close()
	fresh, err := NewWithOptions(c.Talks, Options{CacheSize: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	var reqs []Request
	for _, q := range []string{"kv cache", "monarch", "inference", "Monrach", "title:monrach", "track:inference cache", ""} {
		for _, v := range []Request{
			{},
			{Sort: SortTime},
			{Limit: 3, Offset: 2},
			{Tracks: []string{"Inference & Production"}},
			{Levels: []string{"Intermediate"}, Sort: SortTime},
			{Rooms: []string{"Master Stage", "Junior Stage"}, Limit: 2},
		} {
			v.Query = q
			reqs = append(reqs, v)
		}
	}
	ctx := context.Background()
	want := make([]*Result, len(reqs))
	for i, r := range reqs {
		if want[i], err = fresh.Search(ctx, r); err != nil {
			t.Fatal(err)
		}
		want[i].TookMS = 0
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 3 {
				for j := range reqs {
					i := (j + g*7 + round) % len(reqs)
					got, err := kept.Search(ctx, reqs[i])
					if err != nil {
						t.Error(err)
						return
					}
					got.TookMS = 0
					if diff := cmp.Diff(want[i], got); diff != "" {
						t.Errorf("%+v (-fresh +kept):\n%s", reqs[i], diff)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	// A query that finds nothing proposes another in each variant (the
	// proposal is kept with its matches).
	if r, _ := kept.Search(ctx, Request{Query: "title:monrach", Sort: SortTime}); r.Total != 0 || r.DidYouMean != "title:monarch" {
		t.Errorf("title:monrach: %d talks, did you mean %q", r.Total, r.DidYouMean)
	}
	matches := kept.snap.Load().matches
	if n := matches.len(); n != 7 {
		t.Errorf("%d queries' matches kept, want 7", n)
	}
	// Highlighting must not write into the shared matches (bleve's
	// highlighter stores fragments in the match it is given).
	for q, qm := range matches.c.All() {
		for _, m := range qm.cands {
			if m.Hit != nil && m.Hit.Fragments != nil {
				t.Errorf("query %q: kept match %d was written to: %v", q, m.Num, m.Hit.Fragments)
			}
		}
	}
}

// TestFacetStrategiesAgree runs requests through both ways of finding the
// matches (one Bleve pass for conference-sized corpora, a scan for large
// ones) and expects the same talks, totals and facets.
func TestFacetStrategiesAgree(t *testing.T) {
	reqs := []Request{
		{},
		{Query: "gpus actors cache torch"},
		{Query: "gpus actors cache torch", Tracks: []string{"Distributed", "inference"}, Levels: []string{"Advanced"}},
		{Query: "monarch", Rooms: []string{"Room A", "Attic"}},
		{Query: "track:infer cache"},
		{Query: "track:nosuch"},
		{Query: "the"},
		{Query: "torch", Sort: SortTime, Limit: 2, Offset: 1},
		{Levels: []string{"Intermediate"}, Sort: SortTime},
	}
	run := func(onePassMax int) []*Result {
		var out []*Result
		for _, r := range reqs {
			// A fresh snapshot each time: the result cache would answer
			// the second run from the first.
			s, err := newSnapshot(fixtureTalks(t), Options{CacheSize: -1, OnePassMax: onePassMax}.withDefaults())
			if err != nil {
				t.Fatal(err)
			}
			nr, err := r.Normalize()
			if err != nil {
				t.Fatal(err)
			}
			res, err := s.search(context.Background(), nr)
			if err != nil {
				t.Fatal(err)
			}
			s.release()
			out = append(out, res)
		}
		return out
	}
	inGo, inBleve := run(1<<30), run(-1)
	sortIDs := cmpopts.SortSlices(func(a, b string) bool { return a < b })
	for i, r := range reqs {
		if diff := cmp.Diff(hitIDs(inGo[i]), hitIDs(inBleve[i]), sortIDs); diff != "" {
			t.Errorf("%+v: hits differ (-go +bleve):\n%s", r, diff)
		}
		if inGo[i].Total != inBleve[i].Total {
			t.Errorf("%+v: total %d in Go, %d by Bleve", r, inGo[i].Total, inBleve[i].Total)
		}
		if diff := cmp.Diff(inGo[i].Facets, inBleve[i].Facets, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%+v: facets differ (-go +bleve):\n%s", r, diff)
		}
	}
}

// TestIndexOption: the engine searches the index Options.Index returns,
// here one persisted by index.Open and reused by a second engine.
func TestIndexOption(t *testing.T) {
	dir := t.TempDir()
	var reused []bool
	opts := Options{Index: func(ts []index.Talk) (bleve.Index, error) {
		idx, rep, err := index.Open(dir, ts)
		reused = append(reused, rep.Reused)
		return idx, err
	}}
	for i := 0; i < 2; i++ {
		e, err := NewWithOptions(fixtureTalks(t), opts)
		if err != nil {
			t.Fatal(err)
		}
		r, err := e.Search(context.Background(), Request{Query: "monarch"})
		if err != nil || r.Total != 3 || len(r.Hits[0].Highlights.Title) != 1 {
			t.Errorf("run %d: %v, %+v", i, err, r)
		}
		e.Close()
	}
	if diff := cmp.Diff([]bool{false, true}, reused); diff != "" {
		t.Errorf("reused (-want +got):\n%s", diff)
	}
}

func TestTalksInScheduleOrder(t *testing.T) {
	e := fixtureEngine(t)
	var ids []string
	for _, tk := range e.Talks() {
		ids = append(ids, tk.ID)
	}
	want := []string{"compile", "monarch-api", "monarch-amd", "coffee-1", "moe-inference", "kv-cache", "async-rl", "flex"}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("Talks (-want +got):\n%s", diff)
	}
}

// TestSnapshotOfAnIndexWithoutATalk: an index that lacks a talk of the
// corpus is refused by name (a browse lists the talks by document number).
func TestSnapshotOfAnIndexWithoutATalk(t *testing.T) {
	_, c := seedEngine(t)
	_, err := newSnapshot(c.Talks, Options{CacheSize: -1, Index: func(ts []index.Talk) (bleve.Index, error) {
		return index.Build(ts[1:])
	}}.withDefaults())
	if err == nil || !strings.Contains(err.Error(), "1 of 73 talks are not in the index ("+c.Talks[0].ID+" is one)") {
		t.Fatalf("err = %v", err)
	}
}

// TestDuplicateIDs: two talks with one id, wherever they are in the
// corpus, are refused with the id named; a corpus of distinct ids finds
// every talk by its id.
func TestDuplicateIDs(t *testing.T) {
	talks := fixtureTalks(t)
	e, err := New(talks)
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range talks {
		if d, err := e.Talk(context.Background(), tk.ID); err != nil || d.Talk.ID != tk.ID {
			t.Fatalf("Talk(%s) = %v, %v", tk.ID, d, err)
		}
	}
	twice := slices.Clone(talks)
	twice[len(twice)-1].ID = talks[1].ID
	if _, err := New(twice); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("duplicate talk id %q", talks[1].ID)) {
		t.Fatalf("err = %v, want the duplicate id %s", err, talks[1].ID)
	}
}

package web

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/search/overlap"
	"github.com/talksearch/talksearch/seeds"
)

// backend is one Searcher under the contract, with what the table needs to
// ask it: a query matching something, one matching nothing, a talk id,
// and a way to serve a new corpus.
type backend struct {
	name           string
	s              Searcher
	some, none, id string
	reindex        func(t *testing.T)
}

func backends(t *testing.T) []backend {
	fake := &fakeSearcher{}
	c, err := ingest.Load(seeds.FS)
	if err != nil {
		t.Fatal(err)
	}
	e, err := search.New(c.Talks)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	res, err := e.Search(context.Background(), search.Request{Query: "monarch"})
	if err != nil || len(res.Hits) == 0 {
		t.Fatalf("monarch: %v, %+v", err, res)
	}
	return []backend{
		{"fake", fake, "monarch", "nothing", "monarch-on-rocm-1a2b", func(*testing.T) { fake.reindex() }},
		{"engine", served(e), "monarch", "zzqxv", res.Hits[0].ID, func(t *testing.T) {
			if err := e.Replace(c.Talks); err != nil {
				t.Fatal(err)
			}
		}},
	}
}

// TestSearcherContract is the table every Searcher passes, as gitea's
// indexer backends share one: web's handlers and tests rely on these
// properties, so the fake they run on cannot promise what the engine does
// not keep, nor the other way round.
func TestSearcherContract(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name string
		run  func(t *testing.T, b backend)
	}{
		{"a search finding nothing has empty lists, not nil", func(t *testing.T, b backend) {
			r, err := b.s.Search(ctx, search.Request{Query: b.none})
			if err != nil {
				t.Fatal(err)
			}
			f := r.Facets
			if r.Total != 0 || r.Hits == nil || len(r.Hits) != 0 || f.Track == nil || f.Level == nil || f.Room == nil || f.Missing == nil {
				t.Errorf("total %d, hits %#v, facets %#v", r.Total, r.Hits, f)
			}
		}},
		{"hits have speakers and highlights, not nil", func(t *testing.T, b backend) {
			r, err := b.s.Search(ctx, search.Request{Query: b.some})
			if err != nil || len(r.Hits) == 0 {
				t.Fatalf("%v, %d hits", err, len(r.Hits))
			}
			for _, h := range r.Hits {
				if h.Speakers == nil || h.Highlights.Title == nil || h.Highlights.Abstract == nil {
					t.Errorf("hit %s: speakers %#v, highlights %#v", h.ID, h.Speakers, h.Highlights)
				}
			}
		}},
		{"a talk has related talks and shared terms, not nil", func(t *testing.T, b backend) {
			d, err := b.s.Talk(ctx, b.id)
			if err != nil {
				t.Fatal(err)
			}
			if d.ID != b.id || d.Related == nil {
				t.Fatalf("talk %s, related %#v", d.ID, d.Related)
			}
			for _, r := range d.Related {
				if r.SharedTerms == nil {
					t.Errorf("related %s: nil shared terms", r.ID)
				}
			}
		}},
		{"an unknown talk is ErrNotFound", func(t *testing.T, b backend) {
			if _, err := b.s.Talk(ctx, "no-such-talk"); !errors.Is(err, search.ErrNotFound) {
				t.Errorf("err %v, want ErrNotFound", err)
			}
		}},
		{"invalid requests are ErrInvalid", func(t *testing.T, b backend) {
			for _, r := range []search.Request{
				{Query: b.some, Limit: -1}, {Query: b.some, Limit: search.MaxLimit + 1},
				{Query: b.some, Offset: -1}, {Query: b.some, Offset: search.MaxOffset + 1},
				{Query: b.some, Sort: "bogus"}, {Query: strings.Repeat("x", search.MaxQueryLen+1)},
			} {
				if _, err := b.s.Search(ctx, r); !errors.Is(err, search.ErrInvalid) {
					t.Errorf("%+v: err %v, want ErrInvalid", r, err)
				}
			}
			for _, min := range []float64{-0.1, 1.5, math.NaN()} {
				if _, err := b.s.Overlaps(ctx, min); !errors.Is(err, overlap.ErrInvalidMin) {
					t.Errorf("overlaps %v: err %v, want ErrInvalidMin", min, err)
				}
			}
		}},
		{"overlap reports have lists, not nil", func(t *testing.T, b backend) {
			r, err := b.s.Overlaps(ctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			if r.Pairs == nil || r.Clusters == nil || r.Clashes == nil || r.Merged == nil {
				t.Errorf("report %+v", r)
			}
		}},
		{"equal requests in one generation get equal answers", func(t *testing.T, b backend) {
			g := b.s.Generation()
			r1, err1 := b.s.Search(ctx, search.Request{Query: b.some})
			r2, err2 := b.s.Search(ctx, search.Request{Query: b.some})
			if err1 != nil || err2 != nil || b.s.Generation() != g {
				t.Fatalf("%v, %v, generation %d then %d", err1, err2, g, b.s.Generation())
			}
			if diff := cmp.Diff(r1, r2, cmpopts.IgnoreFields(search.Result{}, "TookMS")); diff != "" {
				t.Errorf("answers differ (-first +second):\n%s", diff)
			}
		}},
		{"generations start above 0 and grow with every re-index", func(t *testing.T, b backend) {
			g1 := b.s.Generation()
			if g1 == 0 || b.s.Generation() != g1 {
				t.Fatalf("generation %d, then %d", g1, b.s.Generation())
			}
			b.reindex(t)
			if g2 := b.s.Generation(); g2 <= g1 {
				t.Errorf("generation %d after re-index, was %d", g2, g1)
			}
		}},
	}
	for _, b := range backends(t) {
		for _, tc := range cases {
			t.Run(b.name+"/"+tc.name, func(t *testing.T) { tc.run(t, b) })
		}
	}
}

package web

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/search/overlap"
)

// fakeSearcher answers from fixed data and records the last request, so
// handler tests can check both what reaches the engine and what comes back.
// Queries "boom" and "panic" make it fail.
type fakeSearcher struct {
	mu   sync.Mutex
	last search.Request
	// calls counts the calls of Search, Talk and Overlaps; reindex starts
	// a new generation, as a re-index does.
	calls atomic.Int64
	gen   atomic.Uint64
	// morePairs and moreClashes are what the report's lists leave out.
	morePairs, moreClashes int
}

func (f *fakeSearcher) Generation() uint64 { return f.gen.Load() + 1 }

func (f *fakeSearcher) reindex() { f.gen.Add(1) }

func (f *fakeSearcher) lastRequest() search.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.last
}

func at(hhmm string) *time.Time {
	t, err := time.Parse("2006-01-02 15:04 -0700", "2026-04-08 "+hhmm+" +0200")
	if err != nil {
		panic(err)
	}
	t = t.UTC()
	return &t
}

var fakeTalks = map[string]*search.TalkDetail{
	"monarch-on-rocm-1a2b": {
		Talk: index.Talk{
			ID:         "monarch-on-rocm-1a2b",
			Conference: index.Conference{ID: "pytorch-conference-europe-2026", Name: "PyTorch Conference Europe 2026"},
			Title:      "Monarch on ROCm: <1ms & beyond",
			Speakers: []index.Speaker{
				{Name: "Ada Lovelace", Affiliation: "AMD"},
				{Name: "Alan Turing"},
			},
			Abstract:  "PyTorch Monarch runs on AMD.\n\nWe ported it:\n- HIPify\n- RDMA <script>alert(1)</script>",
			Track:     "Distributed & Parallel",
			Level:     "Intermediate",
			Room:      "Master Stage",
			Start:     at("10:35"),
			End:       at("10:45"),
			Kind:      index.KindTalk,
			Scheduled: true,
			Sources:   []string{"000_a.txt", "003_b.txt"},
		},
		Related: []search.Related{
			{ID: "torchstore-3c4d", Title: "Torchstore on Monarch actors", Score: 0.71, SharedTerms: []string{"monarch", "actor"}, Room: "Room 2", Start: at("10:40"), End: at("11:05"), Clash: true},
			{ID: "abstract-only-5e6f", Title: "Float8 training", Score: 0.2, SharedTerms: []string{"gpu"}},
		},
	},
	"torchstore-3c4d": {
		Talk: index.Talk{
			ID:         "torchstore-3c4d",
			Conference: index.Conference{ID: "pytorch-conference-europe-2026", Name: "PyTorch Conference Europe 2026"},
			Title:      "Torchstore on Monarch actors",
			Speakers:   []index.Speaker{{Name: "Ada Lovelace", Affiliation: "Meta"}},
			Abstract:   "A store of tensors on Monarch actors.",
			Room:       "Room 2",
			Start:      at("10:40"),
			End:        at("11:05"),
			Kind:       index.KindWorkshop,
			Scheduled:  true,
			URL:        "https://example.org/torchstore",
			Sources:    []string{"002_d.txt"},
		},
	},
	"abstract-only-5e6f": {
		Talk: index.Talk{
			ID:       "abstract-only-5e6f",
			Title:    "Float8 training",
			Abstract: "Hopper enabled float8.",
			Kind:     index.KindTalk,
			Sources:  []string{"001_c.txt"},
		},
		Related: []search.Related{},
	},
}

func (f *fakeSearcher) Search(ctx context.Context, r search.Request) (*search.Result, error) {
	f.calls.Add(1)
	f.mu.Lock()
	f.last = r
	f.mu.Unlock()
	if _, err := r.Normalize(); err != nil {
		return nil, err
	}
	switch r.Query {
	case "boom":
		return nil, errors.New("index on fire")
	case "panic":
		panic("the engine panicked")
	case "slow":
		<-ctx.Done()
		return nil, fmt.Errorf("search: %w", ctx.Err())
	case "nothing":
		return &search.Result{Query: r.Query, DidYouMean: "nothing else", Hits: []search.Hit{}, Facets: noFacets()}, nil
	}
	t := fakeTalks["monarch-on-rocm-1a2b"]
	if r.Offset >= 45 {
		return &search.Result{Query: r.Query, Total: 45, Hits: []search.Hit{}, Facets: noFacets()}, nil
	}
	var scope *search.Scope
	if r.Query == "Master Stage" {
		// The name of the fixture's room, as the engine reports it.
		scope = &search.Scope{Facet: "room", Value: "Master Stage", Talks: 45}
	}
	return &search.Result{
		Query:  r.Query,
		Scope:  scope,
		Total:  45,
		TookMS: 0.25,
		Hits: []search.Hit{{
			ID:        t.ID,
			Title:     t.Title,
			Speakers:  t.Speakers,
			Track:     t.Track,
			Level:     t.Level,
			Room:      t.Room,
			Start:     t.Start,
			End:       t.End,
			Kind:      t.Kind,
			Scheduled: true,
			Score:     1.5,
			Highlights: search.Highlights{
				Title:    []string{"<mark>Monarch</mark> on ROCm: &lt;1ms &amp; beyond"},
				Abstract: []string{"PyTorch <mark>Monarch</mark> runs <img src=x onerror=alert(1)> on AMD", "nothing marked here"},
			},
		}, {
			ID:         "abstract-only-5e6f",
			Title:      "Float8 training",
			Speakers:   []index.Speaker{},
			Kind:       index.KindLightning,
			Highlights: search.Highlights{Title: []string{}, Abstract: []string{}},
		}},
		Facets: search.Facets{
			Track: []search.FacetValue{{Value: "Distributed & Parallel", Count: 30}, {Value: "Inference & Production", Count: 15}},
			Level: []search.FacetValue{{Value: "Intermediate", Count: 45}},
			Room:  []search.FacetValue{{Value: "Master Stage", Count: 45}},
			Missing: map[string]int{
				"track": 0, "level": 3, "room": 5,
			},
		},
	}, nil
}

// noFacets are the facets of a result without talks: empty, not nil, as
// the engine's.
func noFacets() search.Facets {
	return search.Facets{Track: []search.FacetValue{}, Level: []search.FacetValue{}, Room: []search.FacetValue{}, Missing: map[string]int{}}
}

func (f *fakeSearcher) Talk(ctx context.Context, id string) (*search.TalkDetail, error) {
	f.calls.Add(1)
	if id == "boom" {
		return nil, errors.New("index on fire")
	}
	t, ok := fakeTalks[id]
	if !ok {
		return nil, fmt.Errorf("talk %q: %w", id, search.ErrNotFound)
	}
	return t, nil
}

func (f *fakeSearcher) Overlaps(ctx context.Context, min float64) (*overlap.Report, error) {
	f.calls.Add(1)
	if _, err := overlap.RoundMin(min); err != nil {
		return nil, err
	}
	return &overlap.Report{
		Pairs: []overlap.Pair{{
			A: "monarch-on-rocm-1a2b", B: "torchstore-3c4d", Score: 0.61, Kind: overlap.KindTopical,
			SharedTerms: []string{"monarch", "actor"},
			Passages: overlap.Passages{
				A: []string{"PyTorch <mark>Monarch</mark> runs on AMD &lt;1ms"},
				B: []string{"built on <mark>Monarch</mark> <mark>actors</mark><script>x</script>"},
			},
			TitleA: "Monarch on ROCm: <1ms & beyond", TitleB: "Torchstore on Monarch actors",
			Resemblance: 0.05,
		}},
		Clusters: []overlap.Cluster{{
			IDs:    []string{"monarch-on-rocm-1a2b", "torchstore-3c4d"},
			Label:  "monarch, actor",
			Titles: []string{"Monarch on ROCm: <1ms & beyond", "Torchstore on Monarch actors"},
		}},
		Clashes: []overlap.Clash{{
			A: "monarch-on-rocm-1a2b", B: "torchstore-3c4d", Score: 0.4,
			TitleA: "Monarch on ROCm: <1ms & beyond", TitleB: "Torchstore on Monarch actors",
			RoomA: "Master Stage", RoomB: "Room 2",
			Start: *at("10:40"), End: *at("10:45"),
		}},
		Merged:      []overlap.Merged{{ID: "abstract-only-5e6f", Title: "Float8 training", Sources: []string{"001_c.txt", "002_d.txt"}}},
		More:        f.morePairs,
		MoreClashes: f.moreClashes,
	}, nil
}

// Talks lists the fixed talks in schedule order, as the engine does.
func (f *fakeSearcher) Talks() []index.Talk {
	var out []index.Talk
	for _, id := range []string{"monarch-on-rocm-1a2b", "torchstore-3c4d", "abstract-only-5e6f"} {
		out = append(out, fakeTalks[id].Talk)
	}
	return out
}

// Listing is Talks without the abstracts and descriptions, as the
// engine's.
func (f *fakeSearcher) Listing() []index.Talk {
	out := f.Talks()
	for i := range out {
		out[i].Abstract, out[i].Description = "", ""
	}
	return out
}

// Texts are the fixed talks' abstracts and descriptions.
func (f *fakeSearcher) Texts(ids []string) []search.Texts {
	out := make([]search.Texts, len(ids))
	for i, id := range ids {
		if t, ok := fakeTalks[id]; ok {
			out[i] = search.Texts{Abstract: t.Abstract, Description: t.Description}
		}
	}
	return out
}

// RelatedToAll suggests the related talks of the agenda's talks that are
// not in it, as the engine does, without merging scores.
func (f *fakeSearcher) RelatedToAll(ctx context.Context, ids []string) ([]search.Related, error) {
	f.calls.Add(1)
	in := map[string]bool{}
	for _, id := range ids {
		in[id] = true
	}
	var out []search.Related
	for _, id := range ids {
		t, ok := fakeTalks[id]
		if !ok {
			continue
		}
		for _, r := range t.Related {
			if !in[r.ID] {
				in[r.ID] = true
				out = append(out, r)
			}
		}
	}
	return out, nil
}

package search

import (
	"context"
	"slices"
	"testing"
)

// TestRoomsAndTracksAreSearched: on the seeds, a room's name finds that
// room's talks first, and a track's words its talks.
func TestRoomsAndTracksAreSearched(t *testing.T) {
	e, c := seedEngine(t)
	for _, tc := range []struct{ query, room, track string }{
		{"Master Stage", "Master Stage", ""},
		{"Founders Cafe", "Founders Cafe", ""},
		{"keynote", "", "Keynote Sessions"},
	} {
		want := 0
		for _, tk := range c.Talks {
			if (tc.room != "" && tk.Room == tc.room) || (tc.track != "" && tk.Track == tc.track) {
				want++
			}
		}
		r, err := e.Search(context.Background(), Request{Query: tc.query, Limit: want})
		if err != nil {
			t.Fatal(err)
		}
		if want == 0 || len(r.Hits) != want {
			t.Fatalf("%q: %d hits, want the %d talks", tc.query, len(r.Hits), want)
		}
		for i, h := range r.Hits {
			if (tc.room != "" && h.Room != tc.room) || (tc.track != "" && h.Track != tc.track) {
				t.Errorf("%q: hit %d %q is in %q / %q", tc.query, i+1, h.Title, h.Room, h.Track)
			}
		}
		if r.DidYouMean != "" || r.Corrected {
			t.Errorf("%q corrected to %q", tc.query, r.DidYouMean)
		}
	}
}

// TestNoCorrectionOfRealWords: English words and corpus words are never
// corrected; typos are, and say that the results use the correction.
func TestNoCorrectionOfRealWords(t *testing.T) {
	e, _ := seedEngine(t)
	for _, tc := range []struct {
		query, dym string
		corrected  bool
	}{
		{"beginner", "", false},
		{"Founders Cafe", "", false},
		{"virtualisation", "", false},
		{"Monrach", "Monarch", true},
		{"torchtittan", "torchtitan", true},
	} {
		r, err := e.Search(context.Background(), Request{Query: tc.query})
		if err != nil {
			t.Fatal(err)
		}
		if r.DidYouMean != tc.dym || r.Corrected != tc.corrected {
			t.Errorf("%q: did you mean %q corrected %v, want %q %v", tc.query, r.DidYouMean, r.Corrected, tc.dym, tc.corrected)
		}
	}
	// A search that found nothing proposes, and says it did not use it.
	r, err := e.Search(context.Background(), Request{Query: "raay qqqq"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Total != 0 || r.DidYouMean == "" || r.Corrected {
		t.Errorf("raay: total %d, did you mean %q, corrected %v", r.Total, r.DidYouMean, r.Corrected)
	}
}

// TestLastWordCompletes: the word being typed matches as a prefix.
func TestLastWordCompletes(t *testing.T) {
	e, c := seedEngine(t)
	api := resolveTalk(c.Talks, "Lightning Talk: Monarch: An API To Your Supercomputer", "")
	amd := resolveTalk(c.Talks, "Bringing PyTorch Monarch to AMD GPUs: Single-Controller Distributed Training on ROCm", "")
	for _, q := range []string{"monr", "pytorch monar"} {
		r, err := e.Search(context.Background(), Request{Query: q, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		got := hitIDs(r)
		if !slices.Contains(got, api) || !slices.Contains(got, amd) {
			t.Errorf("%q: top 3 %v lacks the Monarch talks", q, got)
		}
	}
	// Not when the word is not the last one.
	r, err := e.Search(context.Background(), Request{Query: "monr pytorch"})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range r.Hits[:min(3, len(r.Hits))] {
		if h.ID == api {
			t.Errorf("monr completed though not the last word")
		}
	}
}

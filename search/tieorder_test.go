package search

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/talksearch/talksearch/index"
)

// TestEqualScoresNewestFirst: talks a query scores alike (the same speaker,
// the same words) come newest edition first, then in schedule order, an
// edition without dates last, in one pass and scanned alike; sorted by time
// they stay oldest first.
func TestEqualScoresNewestFirst(t *testing.T) {
	at := func(y, h int) *time.Time { v := time.Date(y, 2, 3, h, 0, 0, 0, time.UTC); return &v }
	var talks []index.Talk
	for _, c := range []struct {
		id   string
		year int
		hour int
	}{{"y2011", 2011, 10}, {"y2019", 2019, 10}, {"none", 0, 0}, {"y2024b", 2024, 15}, {"y2015", 2015, 10}, {"y2024a", 2024, 9}} {
		tk := index.Talk{ID: c.id, Title: "Init systems, again", Abstract: "Services and units.",
			Speakers: []index.Speaker{{Name: "Wilma Quarrender"}}, Track: "Distributions", Kind: index.KindTalk,
			Conference: index.Conference{ID: fmt.Sprintf("fest-%d", c.year)}}
		if c.year != 0 {
			tk.Start, tk.Scheduled = at(c.year, c.hour), true
		}
		talks = append(talks, tk)
	}
	want := []string{"y2024a", "y2024b", "y2019", "y2015", "y2011", "none"}
	for _, onePassMax := range []int{0, -1} {
		e, err := NewWithOptions(talks, Options{OnePassMax: onePassMax, CacheSize: -1})
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"speaker:Quarrender", "init systems", "units"} {
			r, err := e.Search(context.Background(), Request{Query: q})
			if err != nil {
				t.Fatal(err)
			}
			if got := hitIDs(r); !slices.Equal(got, want) {
				t.Errorf("OnePassMax %d, %q: %v, want %v", onePassMax, q, got, want)
			}
		}
		r, err := e.Search(context.Background(), Request{Query: "units", Sort: SortTime})
		if err != nil {
			t.Fatal(err)
		}
		if got, wantTime := hitIDs(r), []string{"y2011", "y2015", "y2019", "y2024a", "y2024b", "none"}; !slices.Equal(got, wantTime) {
			t.Errorf("OnePassMax %d, by time: %v, want %v", onePassMax, got, wantTime)
		}
		e.Close()
	}
}

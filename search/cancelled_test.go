package search

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search/ranking"
)

// cancelledTalks are two talks alike in every word, the earlier one
// cancelled (it would win a tie), and a third about something else.
func cancelledTalks() []index.Talk {
	at := func(h int) *time.Time {
		t := time.Date(2026, 4, 8, h, 0, 0, 0, time.UTC)
		return &t
	}
	talk := func(id string, h int, title string, cancelled bool) index.Talk {
		return index.Talk{ID: id, Conference: index.Conference{ID: "c", Name: "C"}, Title: title,
			Abstract: "How " + strings.ToLower(title) + " work, measured.", Kind: index.KindTalk,
			Start: at(h), End: at(h + 1), Scheduled: true, Room: "A", Cancelled: cancelled, Sources: []string{"hand.json"}}
	}
	return []index.Talk{
		talk("gone", 9, "Rotary encoders", true),
		talk("held", 10, "Rotary encoders", false),
		talk("other", 11, "Mesh networks", false),
	}
}

// TestCancelledRankedBelow: a cancelled talk ranks below a talk held that
// matches alike, its score damped by ranking.Cancelled, and says why.
func TestCancelledRankedBelow(t *testing.T) {
	e := newEngineT(t, cancelledTalks(), Options{})
	r, err := e.Search(context.Background(), Request{Query: "rotary encoders", Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"held", "gone"}, hitIDs(r)); d != "" {
		t.Fatalf("hits (-want +got):\n%s", d)
	}
	held, gone := r.Hits[0], r.Hits[1]
	// Scores are rounded to three decimals: the damped one within one.
	if math.Abs(gone.Score-held.Score*ranking.Cancelled) > 0.001 || !gone.Cancelled || held.Cancelled {
		t.Errorf("scores %v (cancelled %v) and %v (cancelled %v), want the second %v of the first",
			held.Score, held.Cancelled, gone.Score, gone.Cancelled, ranking.Cancelled)
	}
	if !strings.Contains(explanationText(*gone.Explanation), "cancelled talk damping") ||
		strings.Contains(explanationText(*held.Explanation), "cancelled talk damping") {
		t.Errorf("explanations do not say which talk was damped as cancelled")
	}
}

func explanationText(x Explanation) string {
	s := x.Description
	for _, d := range x.Details {
		s += "\n" + explanationText(d)
	}
	return s
}

func TestCancelledFilter(t *testing.T) {
	e := newEngineT(t, cancelledTalks(), Options{})
	for _, tt := range []struct {
		name string
		req  Request
		want []string
	}{
		{"kept by default", Request{}, []string{"gone", "held", "other"}},
		{"left out", Request{Cancelled: CancelledExclude}, []string{"held", "other"}},
		{"only them", Request{Cancelled: CancelledOnly}, []string{"gone"}},
		{"only them, with a query, in another case", Request{Query: "encoders", Cancelled: "Only"}, []string{"gone"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := e.Search(context.Background(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, hitIDs(r)); d != "" || r.Total != uint64(len(tt.want)) {
				t.Errorf("total %d, hits (-want +got):\n%s", r.Total, d)
			}
		})
	}
	_, err := e.Search(context.Background(), Request{Cancelled: "maybe"})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), `cancelled "maybe" is not "exclude" or "only"`) {
		t.Errorf("error %v, want ErrInvalid naming the value", err)
	}
}

package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/rs/zerolog"

	"github.com/talksearch/talksearch/search/overlap"
)

// overlapsSearcher answers Overlaps with whatever report it holds now, as
// the engine does across a reload.
type overlapsSearcher struct {
	Searcher
	rep   atomic.Pointer[overlap.Report]
	calls atomic.Int32
}

func (o *overlapsSearcher) Overlaps(context.Context, float64) (*overlap.Report, error) {
	o.calls.Add(1)
	return o.rep.Load(), nil
}

// TestOverlapsJSONFollowsTheReport: the API keeps the JSON of the last
// report it encoded, and must answer a new report (after a reload) with
// the new report's JSON, the same as encoding it afresh.
func TestOverlapsJSONFollowsTheReport(t *testing.T) {
	s := &overlapsSearcher{}
	h, err := NewHandler(s, zerolog.Nop(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	before := &overlap.Report{Pairs: []overlap.Pair{{A: "a", B: "b", Score: 0.5, Passages: overlap.Passages{A: []string{"x <mark>kv</mark> & y"}}}}}
	after := &overlap.Report{Pairs: []overlap.Pair{{A: "c", B: "d", Score: 0.75}}}
	for _, step := range []struct {
		rep   *overlap.Report
		times int
	}{{before, 3}, {after, 2}, {before, 1}} {
		s.rep.Store(step.rep)
		want, err := json.Marshal(normalizeReport(step.rep))
		if err != nil {
			t.Fatal(err)
		}
		for range step.times {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/overlaps", nil))
			if rec.Code != http.StatusOK || rec.Body.String() != string(want) {
				t.Fatalf("GET /api/overlaps: %d %s, want %s", rec.Code, rec.Body, want)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
		}
	}
	if s.calls.Load() != 6 {
		t.Errorf("engine asked %d times for 6 requests: the report must come from the engine every time", s.calls.Load())
	}
}

package search

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/talksearch/talksearch/search/syntax"
)

// TestRescoreLaterSameResults: on the FOSDEM archive (a scan), adding the
// optional part of each judged query only to the talks that can reach the
// page gives the page, scores, total and facets of the whole query
// scored at every match, for the first page, a later page of another
// size, and time order.
func TestRescoreLaterSameResults(t *testing.T) {
	e := archiveEngine(t)
	ctx := context.Background()
	reqs := func(q string) []Request {
		return []Request{
			{Query: q},
			{Query: q, Offset: 30, Limit: 50},
			{Query: q, Sort: SortTime, Limit: 20},
		}
	}
	defer func() { rescoreLater = true }()
	pending := 0
	for _, q := range fosdemQueries(t) {
		for _, r := range reqs(q) {
			rescoreLater = false
			whole, err := e.Search(ctx, r)
			if err != nil {
				t.Fatal(err)
			}
			rescoreLater = true
			later, err := e.Search(ctx, r)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(whole, later, cmpopts.IgnoreFields(Result{}, "TookMS")); diff != "" {
				t.Errorf("%+v (-whole +later):\n%s", r, diff)
			}
		}
		snap := e.snap.Load()
		pl := snap.compile(syntax.Parse(q))
		if _, later, err := snap.candidatesOf(ctx, pl, true); err != nil {
			t.Fatal(err)
		} else if later != nil {
			pending++
		}
	}
	// Most judged queries have common words or several words (proximity):
	// the comparison would prove nothing if none were scored later.
	if pending < 40 {
		t.Errorf("%d of the judged queries scored their optional part later, want at least 40", pending)
	}
}

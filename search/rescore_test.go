package search

import (
	"context"
	"math"
	"testing"

	"github.com/talksearch/talksearch/search/syntax"
)

// TestRescoreKeepsTheJudgedPages: a scan that scores the optional part of
// a window of talks only (rescore.go) gives the first page the whole
// query's scan gives, the same talks in the same order with the same
// scores, for every judged FOSDEM query (the archive is scanned), and for
// the bench requests on the seeds scanned: filtered, sorted by time, a
// later page.
func TestRescoreKeepsTheJudgedPages(t *testing.T) {
	type request struct {
		s *snapshot
		r Request
	}
	var reqs []request
	seeds := scannedSeeds(t)
	for _, r := range benchRequests {
		reqs = append(reqs, request{seeds, r})
		reqs = append(reqs, request{seeds, Request{Query: r.Query, Sort: SortTime}})
		reqs = append(reqs, request{seeds, Request{Query: r.Query, Offset: 10, Limit: 10}})
	}
	if fosdem := archiveIfPresent(t); fosdem != nil {
		for _, q := range fosdemQueries(t) {
			reqs = append(reqs, request{fosdem, Request{Query: q}})
		}
	}

	ctx := context.Background()
	rescored := 0
	for _, rq := range reqs {
		s := rq.s
		r, err := rq.r.Normalize()
		if err != nil {
			t.Fatal(err)
		}
		pl := s.compile(syntax.Parse(r.Query))
		if !s.rescores(pl) {
			continue
		}
		rescored++
		qm, err := s.matchesOf(ctx, r.Query)
		if err != nil {
			t.Fatal(err)
		}
		page, total, _, err := s.selectPage(ctx, r, qm)
		if err != nil {
			t.Fatal(err)
		}
		// The whole query scanned, as before rescoring.
		all, _, err := s.scan.Matches(s.withBM25(ctx), pl.q, pl.coord, s.inTracks(pl))
		if err != nil {
			t.Fatal(err)
		}
		fc := s.newFacetCounter(s.newSelection(r), newTimeFilter(r))
		var results []match
		for _, m := range all {
			if fc.add(&m) {
				results = append(results, m)
			}
		}
		want := s.pageOf(results, r.Sort, r.Offset, r.Limit)
		if total != uint64(len(results)) || len(page) != len(want) {
			t.Fatalf("%+v: %d of %d talks, the whole query's scan %d of %d", r, len(page), total, len(want), len(results))
		}
		for i := range want {
			if page[i].Num != want[i].Num || math.Abs(page[i].Score-want[i].Score) > 1e-9*want[i].Score {
				t.Errorf("%+v, hit %d: %d %.6f, the whole query's scan %d %.6f", r, i, page[i].Num, page[i].Score, want[i].Num, want[i].Score)
			}
		}
	}
	if want := atLeast(t, 10, 50); rescored < want {
		t.Errorf("%d requests rescored: too few to prove anything (want %d)", rescored, want)
	}
}

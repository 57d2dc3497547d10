package search

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/search/highlight"
	"github.com/talksearch/talksearch/search/syntax"
)

// TestPageOf: the page selected with a heap is the page of the fully
// sorted results, ties in score included, for both orders and pages at the
// start, middle and end.
func TestPageOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	docs := make([]*doc, 500)
	for i := range docs {
		docs[i] = &doc{ord: i}
	}
	ms := make([]match, len(docs))
	for i, j := range rng.Perm(len(docs)) {
		// Scores from a few values, so ties are many.
		ms[i] = match{d: docs[j], score: float64(rng.IntN(7))}
	}
	ords := func(ms []match) []int {
		out := make([]int, len(ms))
		for i, m := range ms {
			out[i] = m.d.ord
		}
		return out
	}
	for _, tc := range []struct {
		name          string
		by            string
		offset, limit int
	}{
		{"first page", SortRelevance, 0, 20},
		{"second page", SortRelevance, 20, 20},
		{"one", SortRelevance, 0, 1},
		{"deep page, sorted whole", SortRelevance, 400, 100},
		{"past the end", SortRelevance, 600, 20},
		{"time, first page", SortTime, 0, 20},
		{"time, middle", SortTime, 37, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			all := append([]match(nil), ms...)
			sortMatches(all, tc.by)
			want := all[min(tc.offset, len(all)):min(tc.offset+tc.limit, len(all))]
			got := pageOf(append([]match(nil), ms...), tc.by, tc.offset, tc.limit)
			if diff := cmp.Diff(ords(want), ords(got)); diff != "" {
				t.Errorf("page (-sorted +selected):\n%s", diff)
			}
		})
	}
}

// TestScannerNumbersEveryTalk: the scanner of a snapshot knows the talk
// behind every document of its index; a scan, whole or split in parts,
// finds what the one pass of a small corpus finds, with the same scores,
// soft coordination included; and the one pass (located) finds what a
// Bleve search finds, with the same scores and positions.
func TestScannerNumbersEveryTalk(t *testing.T) {
	s, err := newSnapshot(fixtureTalks(t), Options{CacheSize: -1, OnePassMax: -1}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	defer s.release()
	known := 0
	for _, d := range s.scan.docs {
		if d != nil {
			known++
		}
	}
	if known != len(s.byID) {
		t.Fatalf("scanner knows %d talks of %d", known, len(s.byID))
	}
	ctx := s.withBM25(context.Background())
	pl := s.compile(syntax.Parse("gpus actors cache torch"))
	if len(pl.coord) < 2 {
		t.Fatalf("%d coordinated clauses: the comparison would not check the coordination", len(pl.coord))
	}
	scanned, _, err := s.scan.matches(ctx, pl.q, pl.coord, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The same scan split in parts (one per core, up to maxScanParts).
	s.scan.minPart = 1
	split, _, err := s.scan.matches(ctx, pl.q, pl.coord, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The one pass of a small corpus, for comparison: its soft
	// coordination reads the matched clauses from the match locations,
	// the scan's from the term dictionaries (scancoord.go).
	s.small = true
	onePass, _, err := s.candidates(context.Background(), pl)
	s.small = false
	if err != nil {
		t.Fatal(err)
	}
	// A Bleve search of as many hits as talks, with the positions of the
	// matched words: what the one pass was before it ran the searcher
	// itself.
	req := bleve.NewSearchRequestOptions(pl.q, len(s.byID), 0, false)
	req.IncludeLocations = true
	res, err := s.idx.SearchInContext(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	var searched []match
	for _, h := range res.Hits {
		searched = append(searched, match{d: s.byID[h.ID], score: h.Score, hit: h})
	}
	located, err := s.scan.located(ctx, pl.q, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(searched) == 0 {
		t.Fatal("query matches nothing: the comparison would prove nothing")
	}
	locations := func(ms []match) map[string]highlight.Fragments {
		out := map[string]highlight.Fragments{}
		for _, m := range ms {
			out[m.d.talk.ID] = highlight.Talk(m.hit, m.d.talk)
		}
		return out
	}
	if diff := cmp.Diff(locations(searched), locations(located)); diff != "" {
		t.Errorf("locations (-search +located):\n%s", diff)
	}
	scores := func(ms []match) map[string]float64 {
		out := map[string]float64{}
		for _, m := range ms {
			out[m.d.talk.ID] = m.score
		}
		return out
	}
	if diff := cmp.Diff(scores(searched), scores(located)); diff != "" {
		t.Errorf("scores (-search +located):\n%s", diff)
	}
	if diff := cmp.Diff(scores(onePass), scores(scanned)); diff != "" {
		t.Errorf("scores (-one pass +scan):\n%s", diff)
	}
	plain, _, err := s.scan.matches(ctx, pl.q, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Equal(scores(plain), scores(scanned)) {
		t.Error("the scan's scores are the same without coordination: it was not applied")
	}
	if len(split) != len(scanned) {
		t.Errorf("split scan has %d matches, one scan %d", len(split), len(scanned))
	}
	if diff := cmp.Diff(scores(scanned), scores(split)); diff != "" {
		t.Errorf("scores (-one scan +split):\n%s", diff)
	}
}

// TestLocateAsBleveSearch: the positions the scanner's locate finds for a
// page make the highlights a Bleve search of the page's ids AND the query
// (the locate of before) made, on the seeds scanned, for the bench mix:
// locate advances the query's locator, without its proximity phrases and
// exclusions, in the highlighted fields only, and that changes no
// highlight.
func TestLocateAsBleveSearch(t *testing.T) {
	s := scannedSeeds(t)
	ctx := context.Background()
	marked, unlocated := 0, 0
	for _, r := range benchRequests {
		r, err := r.Normalize()
		if err != nil {
			t.Fatal(err)
		}
		qm, err := s.matchesOf(ctx, r.Query)
		if err != nil {
			t.Fatal(err)
		}
		if qm.pl.q == nil {
			continue
		}
		page, _, _, err := s.selectPage(ctx, r, qm)
		if err != nil {
			t.Fatal(err)
		}
		ids := make([]string, len(page))
		for i, m := range page {
			ids[i] = m.d.talk.ID
		}
		req := bleve.NewSearchRequestOptions(query.NewConjunctionQuery([]query.Query{query.NewDocIDQuery(ids), withBlevePhrases(qm.pl.q)}), len(ids), 0, false)
		req.IncludeLocations = true
		res, err := s.idx.SearchInContext(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) != len(page) {
			t.Fatalf("%q: Bleve finds %d of the page's %d talks", r.Query, len(res.Hits), len(page))
		}
		for _, h := range res.Hits {
			var got *match
			for i := range page {
				if page[i].d.talk.ID == h.ID {
					got = &page[i]
				}
			}
			want := highlight.Talk(h, got.d.talk)
			if got.hit == nil {
				// Matched in no highlighted field (a track's name):
				// the page shows no highlights for it.
				if len(want.Title)+len(want.Abstract)+len(want.Speakers) > 0 {
					t.Fatalf("%q: talk %s located nowhere, Bleve highlights %+v", r.Query, h.ID, want)
				}
				unlocated++
				continue
			}
			if diff := cmp.Diff(want, highlight.Talk(got.hit, got.d.talk)); diff != "" {
				t.Errorf("%q, talk %s: highlights (-Bleve search +locate):\n%s", r.Query, h.ID, diff)
			}
			marked += len(want.Title) + len(want.Abstract) + len(want.Speakers)
		}
	}
	if marked < 50 || unlocated == 0 {
		t.Fatalf("%d highlighted fragments compared, %d talks matched in track names only: too few to prove anything", marked, unlocated)
	}
}

// snapQuery is a query of a test to run on a snapshot.
type snapQuery struct {
	s    *snapshot
	text string
}

// scannedQueries are the bench requests and more on the seeds scanned,
// then every judged FOSDEM query on the archive (scanned, one segment).
func scannedQueries(t *testing.T, more []string) []snapQuery {
	seeds := scannedSeeds(t)
	fosdem := archiveEngine(t).snap.Load()
	var qs []snapQuery
	for _, r := range benchRequests {
		qs = append(qs, snapQuery{seeds, r.Query})
	}
	for _, text := range more {
		qs = append(qs, snapQuery{seeds, text})
	}
	for _, text := range fosdemQueries(t) {
		qs = append(qs, snapQuery{fosdem, text})
	}
	return qs
}

// TestClauseMasksFromBitmaps: the clause masks read from the postings
// bitmaps of a one-segment index are those of walking the term field
// readers, for every judged FOSDEM query on the archive (scanned, one
// segment) and the bench requests on the seeds scanned.
func TestClauseMasksFromBitmaps(t *testing.T) {
	ctx := context.Background()
	qs := scannedQueries(t, nil)
	compared := 0
	for _, q := range qs {
		pl := q.s.compile(syntax.Parse(q.text))
		dicts, err := q.s.scan.coordDicts()
		if err != nil || dicts == nil {
			t.Fatalf("%q: no dictionaries of one segment (%v)", q.text, err)
		}
		fast, err := q.s.scan.masksFrom(ctx, pl.coord, dicts)
		if err != nil {
			t.Fatal(err)
		}
		walked, err := q.s.scan.masksFrom(ctx, pl.coord, nil)
		if err != nil {
			t.Fatal(err)
		}
		if fast == nil || walked == nil {
			continue // nothing to coordinate
		}
		compared++
		if !slices.Equal(*fast, *walked) {
			t.Errorf("%q: masks from bitmaps differ from the walked ones", q.text)
		}
		q.s.scan.putMasks(fast)
		q.s.scan.putMasks(walked)
	}
	if compared < 90 {
		t.Errorf("%d queries compared", compared)
	}
}

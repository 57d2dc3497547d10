package search

import (
	"context"
	"math/rand/v2"
	"os"
	"sync"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/index/synthetic"
	"github.com/talksearch/talksearch/search/highlight"
	"github.com/talksearch/talksearch/search/ranking"
	"github.com/talksearch/talksearch/search/scan"
	"github.com/talksearch/talksearch/search/syntax"
	"github.com/talksearch/talksearch/seeds"
)

// TestPageOf: the page selected with a heap is the page of the fully
// sorted results, ties in score included, for both orders and pages at the
// start, middle and end.
func TestPageOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := &snapshot{docs: make([]*doc, 500)}
	newest := rng.Perm(len(s.docs))
	for n, ord := range rng.Perm(len(s.docs)) {
		s.docs[n] = &doc{ord: int32(ord), newest: int32(newest[n])}
	}
	ms := make([]match, len(s.docs))
	for i, n := range rng.Perm(len(s.docs)) {
		// Scores from a few values, so ties are many.
		ms[i] = match{Num: uint64(n), Score: float64(rng.IntN(7))}
	}
	ords := func(ms []match) []int {
		out := make([]int, len(ms))
		for i, m := range ms {
			out[i] = int(s.docs[m.Num].ord)
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
			s.sortMatches(all, tc.by)
			want := all[min(tc.offset, len(all)):min(tc.offset+tc.limit, len(all))]
			got := s.pageOf(append([]match(nil), ms...), tc.by, tc.offset, tc.limit)
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
	parts, err := newSnapshot(fixtureTalks(t), Options{CacheSize: -1, OnePassMax: -1, Scan: scan.Options{MinPart: 1}}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	defer parts.release()
	known := 0
	for _, d := range s.docs {
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
	scanned, _, err := s.scan.Matches(ctx, pl.q, pl.coord, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The same scan split in parts (one per core, up to four).
	split, _, err := parts.scan.Matches(ctx, pl.q, pl.coord, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The one pass of a small corpus, for comparison: its soft
	// coordination reads the matched clauses from the match locations,
	// the scan's from the term dictionaries.
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
	// Without clauses to coordinate, the one pass's factor only damps
	// breaks.
	var searched []match
	for _, h := range res.Hits {
		d, ok := s.lookUp(h.ID)
		if !ok {
			t.Fatalf("hit %s is no talk of the corpus", h.ID)
		}
		score := h.Score
		if d.damping&ranking.DampBreak != 0 {
			score *= ranking.Break
		}
		searched = append(searched, match{Num: d.num, Score: score, Hit: h})
	}
	located, err := s.scan.Located(ctx, pl.q, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(searched) == 0 {
		t.Fatal("query matches nothing: the comparison would prove nothing")
	}
	locations := func(ms []match) map[string]highlight.Fragments {
		out := map[string]highlight.Fragments{}
		for _, m := range ms {
			t := s.full(s.docs[m.Num])
			out[t.ID] = highlight.Talk(m.Hit, t)
		}
		return out
	}
	if diff := cmp.Diff(locations(searched), locations(located)); diff != "" {
		t.Errorf("locations (-search +located):\n%s", diff)
	}
	scoresOf := func(s *snapshot, ms []match) map[string]float64 {
		out := map[string]float64{}
		for _, m := range ms {
			out[s.docs[m.Num].talk.ID] = m.Score
		}
		return out
	}
	scores := func(ms []match) map[string]float64 { return scoresOf(s, ms) }
	if diff := cmp.Diff(scores(searched), scores(located)); diff != "" {
		t.Errorf("scores (-search +located):\n%s", diff)
	}
	if diff := cmp.Diff(scores(onePass), scores(scanned)); diff != "" {
		t.Errorf("scores (-one pass +scan):\n%s", diff)
	}
	plain, _, err := s.scan.Matches(ctx, pl.q, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Equal(scores(plain), scores(scanned)) {
		t.Error("the scan's scores are the same without coordination: it was not applied")
	}
	if len(split) != len(scanned) {
		t.Errorf("split scan has %d matches, one scan %d", len(split), len(scanned))
	}
	if diff := cmp.Diff(scores(scanned), scoresOf(parts, split)); diff != "" {
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
			ids[i] = s.docs[m.Num].talk.ID
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
				if s.docs[page[i].Num].talk.ID == h.ID {
					got = &page[i]
				}
			}
			talk := s.docs[got.Num].talk
			want := highlight.Talk(h, talk)
			if got.Hit == nil {
				// Matched in no highlighted field (a track's name):
				// the page shows no highlights for it.
				if len(want.Title)+len(want.Abstract)+len(want.Speakers) > 0 {
					t.Fatalf("%q: talk %s located nowhere, Bleve highlights %+v", r.Query, h.ID, want)
				}
				unlocated++
				continue
			}
			if diff := cmp.Diff(want, highlight.Talk(got.Hit, talk)); diff != "" {
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
// the bench requests on a synthetic corpus made from the seeds, and every
// judged FOSDEM query on the archive where it is at hand (each scanned,
// one segment).
func scannedQueries(t *testing.T, more []string) []snapQuery {
	seeds := scannedSeeds(t)
	var qs []snapQuery
	for _, r := range benchRequests {
		qs = append(qs, snapQuery{seeds, r.Query}, snapQuery{syntheticScanned(t), r.Query})
	}
	for _, text := range more {
		qs = append(qs, snapQuery{seeds, text}, snapQuery{syntheticScanned(t), text})
	}
	if fosdem := archiveIfPresent(t); fosdem != nil {
		for _, text := range fosdemQueries(t) {
			qs = append(qs, snapQuery{fosdem, text})
		}
	}
	return qs
}

// scannedSnapshots are the scanned corpora of scannedQueries.
func scannedSnapshots(t *testing.T) []*snapshot {
	out := []*snapshot{scannedSeeds(t), syntheticScanned(t)}
	if fosdem := archiveIfPresent(t); fosdem != nil {
		out = append(out, fosdem)
	}
	return out
}

// syntheticTalks is the size of the synthetic corpus of the scan tests:
// above DefaultOnePassMax, so it scans as a large corpus does, with terms
// in more than one chunk of postings.
const syntheticTalks = 3000

var syntheticOnce = sync.OnceValues(func() (*Engine, error) {
	c, err := ingest.Load(seeds.FS)
	if err != nil {
		return nil, err
	}
	return NewWithOptions(synthetic.Talks(c.Talks, syntheticTalks, 7), Options{CacheSize: -1})
})

// syntheticScanned is the snapshot of an engine over a synthetic corpus
// made from the seeds, shared by the tests.
func syntheticScanned(t testing.TB) *snapshot {
	t.Helper()
	e, err := syntheticOnce()
	if err != nil {
		t.Fatalf("synthetic corpus: %v", err)
	}
	return e.snap.Load()
}

// atLeast is the floor of a count of compared things: without the FOSDEM
// archive, what the seeds and the synthetic corpus give; with it, more.
func atLeast(t testing.TB, without, with int) int {
	if archiveIfPresent(t) != nil {
		return with
	}
	return without
}

// archiveIfPresent is the FOSDEM archive's snapshot, or nil (said in the
// log) where ../shared is absent.
func archiveIfPresent(t testing.TB) *snapshot {
	t.Helper()
	if _, err := os.Stat(fosdemArchiveDir); err != nil {
		t.Logf("FOSDEM archive %s absent: compared on the seeds and the synthetic corpus only", fosdemArchiveDir)
		return nil
	}
	return archiveEngine(t).snap.Load()
}

// TestClauseMasksFromBitmaps: the clause masks read from the postings
// bitmaps of a one-segment index are those of walking the term field
// readers (scan.Index.VerifyMasks), for the queries of scannedQueries.
func TestClauseMasksFromBitmaps(t *testing.T) {
	ctx := context.Background()
	compared := 0
	for _, q := range scannedQueries(t, hostileAndTitleWords(t, 3)) {
		pl := q.s.compile(syntax.Parse(q.text))
		ok, err := q.s.scan.VerifyMasks(ctx, pl.coord)
		if err != nil {
			t.Fatalf("%q: %v", q.text, err)
		}
		if ok {
			compared++
		}
	}
	if want := atLeast(t, 45, 90); compared < want {
		t.Errorf("%d queries compared, want %d", compared, want)
	}
}

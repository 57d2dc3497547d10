package search

import (
	"context"
	"testing"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/search/scan"
	"github.com/talksearch/talksearch/search/syntax"
)

// TestTopMatchesAreTheScans: a scan that scores only the talks that could
// be among the best k (scan.Index.MatchesTop) finds every talk of the full
// scan, and scores each of the full scan's best k (ties included) as it
// does, to the bit (scan.Index.VerifyTop): for the plans of the bench
// requests, the seed titles' words and hostile queries on the seeds
// scanned and on a synthetic corpus made from them, and of every judged
// FOSDEM query on the archive where it is at hand, for a page of one, of
// ten and the rescore window, the index in one part and in three.
func TestTopMatchesAreTheScans(t *testing.T) {
	more := append(hostileAndTitleWords(t, 11), `"distributed training" -monarch`, `llm -"large language"`, `torch.compile -inference`, "mixture of experts", "running LLMs on CPUs")
	var queries, matches, scored, pruned int
	for _, sq := range scannedQueries(t, more) {
		pl := sq.s.compile(syntax.Parse(sq.text))
		for _, q := range []query.Query{pl.q, pl.required} {
			if q == nil {
				continue
			}
			for _, k := range []int{1, 10, 200} {
				m, sc, err := sq.s.scan.VerifyTop(sq.s.withBM25(context.Background()), q, pl.coord, k)
				if err != nil {
					t.Fatalf("%q, best %d: %v", sq.text, k, err)
				}
				queries++
				matches += m
				scored += sc
				if sc < m {
					pruned++
				}
			}
		}
	}
	t.Logf("%d scans compared, %d of them left matches unscored; %d matches, %d scored", queries, pruned, matches, scored)
	// Pruning that never happens would prove nothing: most scans of many
	// matches leave most of them unscored.
	if queries < atLeast(t, 1500, 2000) || pruned < queries/4 || scored*2 > matches {
		t.Errorf("%d scans compared, %d pruned, %d of %d matches scored: want at least %d scans, a quarter pruned, at most half the matches scored", queries, pruned, scored, matches, atLeast(t, 1500, 2000))
	}
}

// TestTopPagesAreTheScans: every bench request on the scanned corpora,
// with the scan scoring only the talks that could be on its page (or in
// the rescore window), has the page, scores, total and facets of the scan
// that scores every match, for its first page and a later one.
func TestTopPagesAreTheScans(t *testing.T) {
	ctx := context.Background()
	pages, pruned := 0, 0
	for _, s := range scannedSnapshots(t) {
		for _, r := range benchRequests {
			for _, offset := range []int{0, 30} {
				r.Offset = offset
				r, err := r.Normalize()
				if err != nil {
					t.Fatal(err)
				}
				best := s.bestOf(r)
				if best == 0 {
					continue
				}
				var got, want pageResult
				for _, p := range []struct {
					best int
					to   *pageResult
				}{{best, &got}, {0, &want}} {
					qm, err := s.matchesOf(ctx, r.Query, p.best)
					if err != nil {
						t.Fatal(err)
					}
					page, total, facs, err := s.selectPage(ctx, r, qm)
					if err != nil {
						t.Fatal(err)
					}
					*p.to = pageResult{total: total, facets: facs}
					for _, m := range page {
						p.to.ids = append(p.to.ids, s.docs[m.Num].talk.ID)
						p.to.scores = append(p.to.scores, m.Score)
					}
					for _, m := range qm.cands {
						if m.Score == scan.Unscored {
							p.to.unscored++
						}
					}
					s.scan.Recycle(qm.cands)
				}
				if want.unscored != 0 {
					t.Fatalf("%q: %d matches unscored by the full scan", r.Query, want.unscored)
				}
				unscored := got.unscored
				got.unscored = 0
				if diff := cmp.Diff(want, got, cmp.AllowUnexported(pageResult{})); diff != "" {
					t.Errorf("%q, offset %d (-every match scored +the best only):\n%s", r.Query, offset, diff)
				}
				pages++
				if unscored > 0 {
					pruned++
				}
			}
		}
	}
	t.Logf("%d pages compared, %d with matches left unscored", pages, pruned)
	if pages < 40 || pruned < pages/8 {
		t.Errorf("%d pages compared, %d pruned: want at least 40, an eighth pruned", pages, pruned)
	}
}

// pageResult is what a request shows of its matches.
type pageResult struct {
	ids      []string
	scores   []float64
	total    uint64
	facets   Facets
	unscored int
}

package search

import (
	"context"
	"testing"

	"github.com/blevesearch/bleve/v2/search/query"

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

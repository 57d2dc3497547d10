package search

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/search/syntax"
)

// TestFlatScoresAreBlevesScores: for the bench requests, hostile queries,
// every word of the seeds' titles and every judged FOSDEM query, the
// flattened query's searcher finds the talks the plan's finds, with the
// same scores to the bit, the same weight, and the same matched words when
// asked for them; the plan's parts searched alone (a scan's required and
// optional parts) too.
func TestFlatScoresAreBlevesScores(t *testing.T) {
	ctx := context.Background()
	qs := scannedQueries(t, hostileAndTitleWords(t, 5))
	flattened, matches := 0, 0
	for _, q := range qs {
		pl := q.s.compile(syntax.Parse(q.text))
		for _, bq := range []query.Query{pl.q, pl.required, pl.optional} {
			if bq == nil {
				continue
			}
			f, n, err := q.s.scan.VerifyFlat(q.s.withBM25(ctx), bq)
			if err != nil {
				t.Fatalf("%q: %v", q.text, err)
			}
			if f {
				flattened++
			}
			matches += n
		}
	}
	if flattened < len(qs)/2 || matches < 100_000 {
		t.Errorf("%d of %d queries flattened, %d matches compared: want most, and 100,000", flattened, len(qs), matches)
	}
}

// TestMemoScoresAreBlevesScores: a one pass reads its terms' postings from
// the memo (scan's memo.go) rather than the segment; for the plans of the
// bench requests, distinct queries, hostile queries and every word of the
// seeds' titles, on the seeds (one pass) and on a synthetic corpus with
// postings of several chunks, its searcher finds what the segment's
// finds, with the same scores to the bit and matched words.
func TestMemoScoresAreBlevesScores(t *testing.T) {
	ctx := context.Background()
	e, _ := seedEngine(t)
	var texts []string
	for _, r := range benchRequests {
		texts = append(texts, r.Query)
	}
	for _, r := range distinctRequests(200) {
		texts = append(texts, r.Query)
	}
	texts = append(texts, hostileAndTitleWords(t, 5)...)
	for _, s := range []*snapshot{e.snap.Load(), syntheticScanned(t)} {
		queries, matches := 0, 0
		for _, text := range texts {
			pl := s.compile(syntax.Parse(text))
			if pl.q == nil {
				continue
			}
			n, err := s.scan.VerifyMemo(s.withBM25(ctx), pl.q)
			if err != nil {
				t.Fatalf("%d talks, %q: %v", len(s.docs), text, err)
			}
			queries++
			matches += n
		}
		if queries < len(texts)*3/4 || matches < 20*queries {
			t.Errorf("%d talks: %d of %d queries compared, %d matches: want most, 20 a query", len(s.docs), queries, len(texts), matches)
		}
	}
}

// hostileAndTitleWords are three hostile queries of each shape (generated
// from seed) and every word of the seeds' titles.
func hostileAndTitleWords(t *testing.T, seed uint64) []string {
	var more []string
	g := newHostileGen(seed, seedTitles(t))
	for _, shape := range hostileShapes {
		for range 3 {
			more = append(more, g.query(shape.next))
		}
	}
	seen := map[string]bool{}
	for _, title := range seedTitles(t) {
		for _, w := range regexp.MustCompile(`[\pL\pN]+`).FindAllString(title, -1) {
			if w = strings.ToLower(w); !seen[w] {
				seen[w] = true
				more = append(more, w)
			}
		}
	}
	return more
}

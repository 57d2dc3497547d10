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

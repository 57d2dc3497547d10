package search

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	bsearch "github.com/blevesearch/bleve/v2/search"
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
			fq := flat(bq)
			if searcherCount(t, q.s, fq) < searcherCount(t, q.s, bq) {
				flattened++
			}
			for _, vectors := range []bool{false, true} {
				want := searchAll(t, ctx, q.s, bq, vectors)
				got := searchAll(t, ctx, q.s, fq, vectors)
				if got != want {
					t.Fatalf("%q (term vectors %v): flattened\n%s\nplan's\n%s", q.text, vectors, got, want)
				}
				matches += strings.Count(want, "\n")
			}
		}
	}
	if flattened < len(qs)/2 || matches < 100_000 {
		t.Errorf("%d of %d queries flattened, %d matches compared: want most, and 100,000", flattened, len(qs), matches)
	}
}

// searchAll is every match of q's searcher, one a line: document, score
// (its bits) and matched words, then the searcher's weight.
func searchAll(t *testing.T, ctx context.Context, s *snapshot, q query.Query, vectors bool) string {
	t.Helper()
	sc := s.scan
	ctx = sc.scoringContext(s.withBM25(ctx))
	searcher, err := q.Searcher(ctx, sc.reader, sc.mapping, bsearch.SearcherOptions{IncludeTermVectors: vectors})
	if err != nil {
		t.Fatal(err)
	}
	defer searcher.Close()
	sctx := &bsearch.SearchContext{DocumentMatchPool: bsearch.NewDocumentMatchPool(searcher.DocumentMatchPoolSize(), 0), IndexReader: sc.reader}
	var b strings.Builder
	for {
		dm, err := searcher.Next(sctx)
		if err != nil {
			t.Fatal(err)
		}
		if dm == nil {
			break
		}
		n, _ := docNumber(dm.IndexInternalID)
		fmt.Fprintf(&b, "%d %x", n, math.Float64bits(dm.Score))
		for _, l := range dm.FieldTermLocations {
			fmt.Fprintf(&b, " %s:%s@%d", l.Field, l.Term, l.Location.Pos)
		}
		b.WriteByte('\n')
		sctx.DocumentMatchPool.Put(dm)
	}
	fmt.Fprintf(&b, "weight %x\n", math.Float64bits(searcher.Weight()))
	return b.String()
}

// searcherCount is the number of conjunctions and disjunctions in q.
func searcherCount(t *testing.T, s *snapshot, q query.Query) int {
	n := 0
	var walk func(q query.Query)
	walk = func(q query.Query) {
		switch r := q.(type) {
		case *query.BooleanQuery:
			walk(r.Must)
			walk(r.Should)
			walk(r.MustNot)
		case *query.ConjunctionQuery:
			n++
			for _, c := range r.Conjuncts {
				walk(c)
			}
		case *query.DisjunctionQuery:
			n++
			for _, c := range r.Disjuncts {
				walk(c)
			}
		}
	}
	walk(q)
	return n
}

// TestFlatKeepsTheRoot: the root searcher computes the query norm of the
// terms below it; a term searched alone has none, and its scores can differ
// in the last bits (boost × idf × 1/√(boost × idf)² is not always 1). So a
// root conjunction of one term stays, and scores as before.
func TestFlatKeepsTheRoot(t *testing.T) {
	ctx := context.Background()
	s := scannedSeeds(t)
	differ := 0
	for _, term := range []string{"pytorch", "kernel", "cach", "monarch", "infer", "train", "distribut", "model"} {
		for _, boost := range []float64{0.2, 0.6000000000000001, 1, 1.5, 2, 3, 4.5, 6, 7} {
			tq := query.NewTermQuery(term)
			tq.SetField("abstract")
			tq.SetBoost(boost)
			root := query.NewConjunctionQuery([]query.Query{query.NewDisjunctionQuery([]query.Query{tq})})
			want := searchAll(t, ctx, s, root, false)
			if searchAll(t, ctx, s, tq, false) != want {
				differ++
			}
			if got := searchAll(t, ctx, s, flat(root), false); got != want {
				t.Errorf("%s^%v flattened:\n%s\nwant\n%s", term, boost, got, want)
			}
			if _, ok := flat(root).(*query.ConjunctionQuery); !ok {
				t.Fatalf("flat(root) is %T, want the root conjunction", flat(root))
			}
		}
	}
	if differ == 0 {
		t.Error("no term scores alone otherwise than under a root: the test shows nothing")
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

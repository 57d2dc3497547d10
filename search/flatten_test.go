package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"sync"
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

// TestMemoFilledConcurrently: searches that fill an engine's memo at once
// (four goroutines over the same distinct queries, in different orders,
// on a new engine) answer what one search after another does on another
// new engine: the same talks, scores and highlights. Under the race
// detector it also checks the memo's locking.
func TestMemoFilledConcurrently(t *testing.T) {
	_, c := seedEngine(t)
	reqs := distinctRequests(150)
	answers := func(e *Engine, order []int) []string {
		out := make([]string, len(reqs))
		for _, i := range order {
			res, err := e.Search(context.Background(), reqs[i])
			if err != nil {
				t.Error(err)
				return out
			}
			out[i] = fmt.Sprintf("%d %+v", res.Total, res.Hits)
		}
		return out
	}
	order := make([]int, len(reqs))
	for i := range order {
		order[i] = i
	}
	seq, err := NewWithOptions(c.Talks, Options{CacheSize: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer seq.Close()
	want := answers(seq, order)
	e, err := NewWithOptions(c.Talks, Options{CacheSize: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	got := make([][]string, 4)
	var wg sync.WaitGroup
	for g := range got {
		o := slices.Clone(order)
		rand.New(rand.NewPCG(uint64(g), 9)).Shuffle(len(o), func(i, j int) { o[i], o[j] = o[j], o[i] })
		wg.Go(func() { got[g] = answers(e, o) })
	}
	wg.Wait()
	for g := range got {
		for i := range reqs {
			if got[g][i] != want[i] {
				t.Fatalf("goroutine %d, %q: concurrently\n%s\none after another\n%s", g, reqs[i].Query, got[g][i], want[i])
			}
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

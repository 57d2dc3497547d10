package search

import (
	"context"
	"strings"
	"testing"
)

// TestExplainTotalsAreScores: every hit of every held-out, dev and bench
// query on the seeds, in one pass and scanned, and of every judged FOSDEM
// query on the archive where it is at hand, is explained when asked: the
// explanation's total is the hit's score, and it is the product of
// Bleve's BM25 score (whose details name each clause's field, term and
// BM25 parts) and the factor (soft coordination, break damping).
func TestExplainTotalsAreScores(t *testing.T) {
	e, c := seedEngine(t)
	scanned, err := NewWithOptions(c.Talks, Options{OnePassMax: -1, CacheSize: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer scanned.Close()
	var seedQueries []string
	for _, r := range benchRequests {
		seedQueries = append(seedQueries, r.Query)
	}
	seedQueries = append(seedQueries, heldOutCollection(t, c.Talks).queries...)
	type run struct {
		name    string
		e       *Engine
		queries []string
	}
	runs := []run{{"seeds, one pass", e, seedQueries}, {"seeds, scanned", scanned, seedQueries}}
	if archiveIfPresent(t) != nil {
		// Every other judged query: an explanation walks the matches up
		// to the page's last talk with Bleve's explanations on, which on
		// the archive is the cost of this test.
		var qs []string
		for i, q := range fosdemQueries(t) {
			if i%2 == 0 {
				qs = append(qs, q)
			}
		}
		runs = append(runs, run{"FOSDEM archive", archiveEngine(t), qs})
	}
	ctx := context.Background()
	for _, rn := range runs {
		hits, coordinated, breaks := 0, 0, 0
		for _, q := range rn.queries {
			plain, err := rn.e.Search(ctx, Request{Query: q})
			if err != nil {
				t.Fatal(err)
			}
			res, err := rn.e.Search(ctx, Request{Query: q, Explain: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) != len(plain.Hits) {
				t.Fatalf("%s, %q: %d hits explained, %d not", rn.name, q, len(res.Hits), len(plain.Hits))
			}
			for i, h := range res.Hits {
				if plain.Hits[i].Explanation != nil {
					t.Fatalf("%s, %q: an explanation nobody asked for", rn.name, q)
				}
				if h.ID != plain.Hits[i].ID || h.Score != plain.Hits[i].Score {
					t.Fatalf("%s, %q, hit %d: %s %v explained, %s %v not", rn.name, q, i, h.ID, h.Score, plain.Hits[i].ID, plain.Hits[i].Score)
				}
				x := h.Explanation
				if x == nil && h.Score == 0 {
					continue // a browse, or a filter only: nothing scored
				}
				if x == nil || len(x.Details) != 2 {
					t.Fatalf("%s, %q, %s: explanation %+v", rn.name, q, h.ID, x)
				}
				bm25, factor := x.Details[0], x.Details[1]
				if x.Value != h.Score || round3(bm25.Value*factor.Value) != h.Score {
					t.Fatalf("%s, %q, %s: score %v, explained %v = %v × %v", rn.name, q, h.ID, h.Score, x.Value, bm25.Value, factor.Value)
				}
				if !strings.Contains(describe(bm25), "fieldWeight(") {
					t.Fatalf("%s, %q, %s: no BM25 part explained: %s", rn.name, q, h.ID, describe(bm25))
				}
				hits++
				if factor.Value < 1 {
					coordinated++
				}
				if strings.Contains(describe(factor), "break damping") {
					breaks++
				}
			}
		}
		t.Logf("%s: %d hits explained, %d with a factor below 1, %d breaks", rn.name, hits, coordinated, breaks)
		if hits < 300 || coordinated < hits/5 {
			t.Errorf("%s: %d hits explained, %d coordinated: too few to prove anything", rn.name, hits, coordinated)
		}
	}
}

// describe is every description of an explanation, one a line.
func describe(x Explanation) string {
	var b strings.Builder
	var walk func(x Explanation)
	walk = func(x Explanation) {
		b.WriteString(x.Description)
		b.WriteByte('\n')
		for _, d := range x.Details {
			walk(d)
		}
	}
	walk(x)
	return b.String()
}

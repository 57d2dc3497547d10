package search

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/search/syntax"
)

// TestTreeScanIsBlevesScan: a tree scan finds the talks of Bleve's
// searchers with their scores to the bit, and the same weight, for every
// judged FOSDEM query on the archive and the bench requests and the seed
// titles' words and hostile queries on the seeds scanned, in one part and
// in three.
func TestTreeScanIsBlevesScan(t *testing.T) {
	ctx := context.Background()
	more := append(hostileAndTitleWords(t, 7), `"distributed training" -monarch`, `llm -"large language"`, `torch.compile -inference`)
	trees, phrases, matches := 0, 0, 0
	for _, q := range scannedQueries(t, more) {
		pl := q.s.compile(syntax.Parse(q.text))
		sc := q.s.scan
		for _, bq := range []query.Query{pl.q, pl.required, pl.optional} {
			if bq == nil {
				continue
			}
			bctx := sc.scoringContext(q.s.withBM25(ctx))
			tq, err := sc.treeScan(bctx, flat(bq))
			if err != nil {
				t.Fatalf("%q: %v", q.text, err)
			}
			if tq == nil {
				continue
			}
			trees++
			phrases += countOp(tq.root, opPhrase)
			n := uint64(len(sc.docs))
			want, wantW, err := sc.scanPart(bctx, bq, nil, nil, nil, 0, n, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, cuts := range [][]uint64{{0, n}, {0, n / 3, n / 2, n}} {
				var got []match
				var gotW float64
				for i := 0; i+1 < len(cuts); i++ {
					part, w, err := sc.treePart(bctx, tq, nil, nil, nil, cuts[i], cuts[i+1], nil)
					if err != nil {
						t.Fatal(err)
					}
					got, gotW = append(got, part...), w
				}
				if a, b := matchLines(got), matchLines(want); a != b || gotW != wantW {
					t.Fatalf("%q (%d parts): tree scan, weight %v\n%s\nBleve's, weight %v\n%s", q.text, len(cuts)-1, gotW, a, wantW, b)
				}
			}
			matches += len(want)
		}
	}
	t.Logf("%d queries tree-scanned, %d phrases, %d matches compared", trees, phrases, matches)
	if trees < 500 || phrases < 180 || matches < 70_000 {
		t.Errorf("%d queries tree-scanned, %d phrases, %d matches compared: want 500, 180 and 70,000", trees, phrases, matches)
	}
}

// matchLines is ms in document order, one a line: document and score bits.
func matchLines(ms []match) string {
	ms = slices.Clone(ms)
	slices.SortFunc(ms, func(a, b match) int { return cmp.Compare(a.num, b.num) })
	var b strings.Builder
	for _, m := range ms {
		fmt.Fprintf(&b, "%d %x\n", m.num, math.Float64bits(m.score))
	}
	return b.String()
}

// countOp is the number of nodes of op in the tree below n.
func countOp(n *treeNode, op treeOp) int {
	c := 0
	if n.op == op {
		c++
	}
	for _, ch := range n.children {
		c += countOp(ch, op)
	}
	return c
}

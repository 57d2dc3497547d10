package search

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/search/syntax"
)

// TestTreeScanIsBlevesScan: a tree scan finds the talks of Bleve's
// searchers with their scores to the bit, and the same weight, for every
// judged FOSDEM query on the archive and the bench requests and the seed
// titles' words and hostile queries on the seeds scanned, in one part and
// in three; the thesaurus's phrases through their known talks
// (knownPhrases).
func TestTreeScanIsBlevesScan(t *testing.T) {
	more := append(hostileAndTitleWords(t, 7), `"distributed training" -monarch`, `llm -"large language"`, `torch.compile -inference`)
	var all treeCounts
	for _, q := range scannedQueries(t, more) {
		c := compareTreeScans(t, q.s, q.text)
		all.trees += c.trees
		all.phrases += c.phrases
		all.known += c.known
		all.matches += c.matches
	}
	t.Logf("%d queries tree-scanned, %d phrases (%d known), %d matches compared", all.trees, all.phrases, all.known, all.matches)
	if all.trees < 500 || all.phrases < 180 || all.known < 20 || all.matches < 70_000 {
		t.Errorf("%d queries tree-scanned, %d phrases (%d known), %d matches compared: want 500, 180 (20) and 70,000", all.trees, all.phrases, all.known, all.matches)
	}
}

// treeCounts are what compareTreeScans compared: queries, their phrases
// (those of the thesaurus, known) and their matches.
type treeCounts struct{ trees, phrases, known, matches int }

// compareTreeScans compares the tree scan of each Bleve query of text's
// plan that it takes with the Bleve scan of the same query over s, in one
// part and in three.
func compareTreeScans(t *testing.T, s *snapshot, text string) treeCounts {
	t.Helper()
	var c treeCounts
	pl := s.compile(syntax.Parse(text))
	sc := s.scan
	for _, bq := range []query.Query{pl.q, pl.required, pl.optional} {
		if bq == nil {
			continue
		}
		ctx := sc.scoringContext(s.withBM25(context.Background()))
		tq, err := sc.treeScan(ctx, flat(bq))
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if tq == nil {
			continue
		}
		c.trees++
		c.phrases += countOp(tq.root, opPhrase)
		c.known += countKnown(tq.root)
		n := uint64(len(sc.docs))
		want, wantW, err := sc.scanPart(ctx, bq, nil, nil, nil, 0, n, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, cuts := range [][]uint64{{0, n}, {0, n / 3, n / 2, n}} {
			var got []match
			var gotW float64
			for i := 0; i+1 < len(cuts); i++ {
				part, w, err := sc.treePart(ctx, tq, nil, nil, nil, cuts[i], cuts[i+1], nil)
				if err != nil {
					t.Fatal(err)
				}
				got, gotW = append(got, part...), w
			}
			if a, b := matchLines(got), matchLines(want); a != b || gotW != wantW {
				t.Fatalf("%q (%d parts): tree scan, weight %v\n%s\nBleve's, weight %v\n%s", text, len(cuts)-1, gotW, a, wantW, b)
			}
		}
		c.matches += len(want)
	}
	return c
}

// FuzzTreeScan: for any query, the tree scan of the seeds scanned finds
// the talks and scores of Bleve's searchers.
func FuzzTreeScan(f *testing.F) {
	for _, q := range []string{
		"KV cache", "running LLMs on CPUs", `"distributed training" -monarch`, "torch.compile", "mixture of experts",
		`"the the"`, `title:"kv cache" -"cache"`, "speaker:White fault", "C++ <1ms", "a b c d e f g h i j k l m",
	} {
		f.Add(q)
	}
	s := scannedSeeds(f)
	f.Fuzz(func(t *testing.T, q string) {
		if utf8.RuneCountInString(q) > MaxQueryLen {
			return
		}
		compareTreeScans(t, s, q)
	})
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

// countKnown is the number of phrases below n whose talks are known.
func countKnown(n *treeNode) int {
	c := 0
	if n.known != nil {
		c++
	}
	for _, ch := range n.children {
		c += countKnown(ch)
	}
	return c
}

// cancelledAfter is a context whose Err is nil for its first n calls and
// Canceled after: a scan stopped at the n+1st node it enters.
type cancelledAfter struct {
	context.Context
	n int
}

func (c *cancelledAfter) Err() error {
	if c.n--; c.n < 0 {
		return context.Canceled
	}
	return nil
}

// TestTreeScanAfterAStoppedOne: a tree scan stopped midway (a request's
// deadline) fails with the context's error, and the next scan, which may
// reuse its evaluator, still finds Bleve's matches and scores.
func TestTreeScanAfterAStoppedOne(t *testing.T) {
	s := scannedSeeds(t)
	sc := s.scan
	pl := s.compile(syntax.Parse("distributed training monarch kernels cuda graphs inference compile"))
	q := pl.q
	if s.rescores(pl) {
		q = pl.required
	}
	ctx := sc.scoringContext(s.withBM25(context.Background()))
	tq, err := sc.treeScan(ctx, flat(q))
	if err != nil || tq == nil {
		t.Fatalf("no tree scan (%v)", err)
	}
	n := uint64(len(sc.docs))
	want, _, err := sc.scanPart(ctx, q, nil, nil, nil, 0, n, nil)
	if err != nil {
		t.Fatal(err)
	}
	stopped := 0
	for after := range 12 {
		if _, _, err := sc.treePart(&cancelledAfter{ctx, after}, tq, nil, nil, nil, 0, n, nil); err != nil {
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("stopped after %d nodes: %v", after, err)
			}
			stopped++
		}
		got, _, err := sc.treePart(ctx, tq, nil, nil, nil, 0, n, nil)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := matchLines(got), matchLines(want); a != b {
			t.Fatalf("after a scan stopped at node %d: tree scan\n%s\nBleve's\n%s", after+1, a, b)
		}
	}
	if stopped < 5 {
		t.Errorf("%d of 12 scans stopped: the query has too few nodes to stop midway", stopped)
	}
}

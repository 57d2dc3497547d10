package search

import (
	"context"
	"testing"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/search/scan"
	"github.com/talksearch/talksearch/search/syntax"
)

// TestTreeScanIsBlevesScan: a tree scan finds the talks of Bleve's
// searchers with their scores to the bit, and the same weight
// (scan.Index.VerifyTree), for the plans of the bench requests, the seed
// titles' words and hostile queries on the seeds scanned and on a
// synthetic corpus made from them, and of every judged FOSDEM query on the
// archive where it is at hand; in one part and in three, the thesaurus's
// phrases through their known talks.
func TestTreeScanIsBlevesScan(t *testing.T) {
	more := append(hostileAndTitleWords(t, 7), `"distributed training" -monarch`, `llm -"large language"`, `torch.compile -inference`)
	var all scan.Verified
	for _, q := range scannedQueries(t, more) {
		v := compareTreeScans(t, q.s, q.text)
		all.Trees += v.Trees
		all.Phrases += v.Phrases
		all.Known += v.Known
		all.Matches += v.Matches
	}
	t.Logf("%d queries tree-scanned, %d phrases (%d known), %d matches compared", all.Trees, all.Phrases, all.Known, all.Matches)
	trees, phrases, known, matches := atLeast(t, 700, 900), atLeast(t, 100, 180), atLeast(t, 30, 40), atLeast(t, 150_000, 200_000)
	if all.Trees < trees || all.Phrases < phrases || all.Known < known || all.Matches < matches {
		t.Errorf("%d queries tree-scanned, %d phrases (%d known), %d matches compared: want %d, %d (%d) and %d", all.Trees, all.Phrases, all.Known, all.Matches, trees, phrases, known, matches)
	}
}

// compareTreeScans verifies the tree scan of each Bleve query of text's
// plan over s.
func compareTreeScans(t *testing.T, s *snapshot, text string) scan.Verified {
	t.Helper()
	var all scan.Verified
	pl := s.compile(syntax.Parse(text))
	for _, bq := range []query.Query{pl.q, pl.required, pl.optional} {
		if bq == nil {
			continue
		}
		v, err := s.scan.VerifyTree(s.withBM25(context.Background()), bq)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		all.Trees += v.Trees
		all.Phrases += v.Phrases
		all.Known += v.Known
		all.Matches += v.Matches
	}
	return all
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

// TestTreeScanAfterAStoppedOne: a tree scan stopped midway (a request's
// deadline) fails with the context's error, and the next scan, which may
// reuse its evaluator, still finds Bleve's matches and scores.
func TestTreeScanAfterAStoppedOne(t *testing.T) {
	s := scannedSeeds(t)
	pl := s.compile(syntax.Parse("distributed training monarch kernels cuda graphs inference compile"))
	q := pl.q
	if s.rescores(pl) {
		q = pl.required
	}
	stopped, err := s.scan.VerifyStopped(s.withBM25(context.Background()), q, 12)
	if err != nil {
		t.Fatal(err)
	}
	if stopped < 5 {
		t.Errorf("%d of 12 scans stopped: the query has too few nodes to stop midway", stopped)
	}
}

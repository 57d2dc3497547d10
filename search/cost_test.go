package search

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/search/scan"
	"github.com/talksearch/talksearch/search/syntax"
)

// TestJudgedQueriesFitTheSearcherBudget: no query of the relevance
// collections (the seeds' dev and held-out sets, FOSDEM's on FOSDEM) is
// simplified by the budget of term searchers, or builds more than it.
func TestJudgedQueriesFitTheSearcherBudget(t *testing.T) {
	e, c := seedEngine(t)
	var held []string
	readTSV(t, "testdata/relevance/seeds-heldout.tsv", 1, func(_ int, cols []string) { held = append(held, cols[0]) })
	check := func(s *snapshot, qs []string) {
		for _, q := range qs {
			pl := s.compile(syntax.Parse(q))
			if n := searchersOf(pl.q); n > maxSearchers {
				t.Errorf("%q: %d searchers, budget %d", q, n, maxSearchers)
			}
			if strings.Contains(pl.note, "term lookups") {
				t.Errorf("%q: %s", q, pl.note)
			}
		}
	}
	check(e.snap.Load(), held)
	if _, err := os.Stat(devJudgmentsPath); err == nil {
		dev, _ := loadJudgments(t, c.Talks)
		check(e.snap.Load(), dev)
	}
	fe, _ := fosdemEngine(t)
	var fq []string
	readTSV(t, "testdata/relevance/fosdem/queries.tsv", 1, func(_ int, cols []string) { fq = append(fq, cols[0]) })
	check(fe.snap.Load(), fq)
}

// TestSearcherBudgetLeavesOutWordsAndSaysSo: a 400-character query of
// corpus words (BenchmarkHostile/words) would build several times
// maxSearchers term searchers; it builds at most maxSearchers. The note
// names the words left out, which the query then does not search, and
// every other word is searched. The budget is
// lowered to 32 so that the words of one field each (as most of the
// seeds' words are) overrun it too.
func TestSearcherBudgetLeavesOutWordsAndSaysSo(t *testing.T) {
	e, _ := seedEngine(t)
	s := e.snap.Load()
	defer func(n int) { maxSearchers = n }(maxSearchers)
	maxSearchers = 32
	// Corpus words of one term each, no two with the same term, so a
	// word's term is searched only for that word.
	var words []string
	seen := map[string]bool{}
	for i, w := range s.vocab.sorted {
		ts := s.analyze(w)
		if i%7 != 0 || len(w) < 5 || !isLetters(w) || isQueryFiller(w) || len(ts) != 1 || seen[ts[0]] {
			continue
		}
		seen[ts[0]] = true
		words = append(words, w)
	}
	n := 0
	for n < len(words) && len(strings.Join(words[:n+1], " ")) <= MaxQueryLen {
		n++
	}
	q := strings.Join(words[:n], " ")
	pl := s.compile(syntax.Parse(q))
	if got := searchersOf(pl.q); got > maxSearchers {
		t.Errorf("%d words: %d searchers, budget %d", n, got, maxSearchers)
	}
	prefix := fmt.Sprintf("left out (at most %d term lookups a query): ", maxSearchers)
	i := strings.Index(pl.note, prefix)
	if i < 0 {
		t.Fatalf("%d words: note %q leaves nothing out", n, pl.note)
	}
	listed := pl.note[i+len(prefix):]
	if j := strings.IndexAny(listed, ";."); j >= 0 {
		listed = listed[:j]
	}
	left := map[string]bool{}
	for _, w := range strings.Split(listed, ", ") {
		left[w] = true
	}
	terms := termsOf(pl.q)
	for _, w := range words[:n] {
		if searched := terms[s.analyze(w)[0]]; searched == left[w] {
			t.Errorf("%q: left out %v, searched %v", w, left[w], searched)
		}
	}
	if !strings.Contains(pl.note, "words side by side not ranked higher") {
		t.Errorf("note %q: proximity, spent last, not said to be left out", pl.note)
	}
	if len(left) < n/4 {
		t.Errorf("%d of %d words left out: the query does not test the budget", len(left), n)
	}
}

// termsOf returns the terms q looks up.
func termsOf(q query.Query) map[string]bool {
	out := map[string]bool{}
	var walk func(query.Query)
	walk = func(q query.Query) {
		switch x := q.(type) {
		case *query.TermQuery:
			out[x.Term] = true
		case *query.MultiPhraseQuery, scan.Phrase:
			for _, alts := range scan.MultiPhrase(x).Terms {
				for _, a := range alts {
					out[a] = true
				}
			}
		case *query.DisjunctionQuery:
			for _, c := range x.Disjuncts {
				walk(c)
			}
		case *query.ConjunctionQuery:
			for _, c := range x.Conjuncts {
				walk(c)
			}
		case *query.BooleanQuery:
			for _, c := range []query.Query{x.Must, x.Should, x.MustNot} {
				if c != nil {
					walk(c)
				}
			}
		}
	}
	walk(q)
	return out
}

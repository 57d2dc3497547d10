package search

import (
	"cmp"
	"fmt"
	"os"
	"slices"
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
		case scan.Fields:
			walk(x.DisjunctionQuery)
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

// TestJudgedQueriesFitTheWordWork: no query of the relevance collections
// is changed by the budgets of work (maxWordWork, maxAssocPostings,
// maxAssocWords), on
// the seeds, on FOSDEM 2024+2025, and on the whole FOSDEM archive where
// ../shared has it: their plans are what they are without the budgets.
func TestJudgedQueriesFitTheWordWork(t *testing.T) {
	e, c := seedEngine(t)
	var held, fq []string
	readTSV(t, "testdata/relevance/seeds-heldout.tsv", 1, func(_ int, cols []string) { held = append(held, cols[0]) })
	readTSV(t, "testdata/relevance/fosdem/queries.tsv", 1, func(_ int, cols []string) { fq = append(fq, cols[0]) })
	check := func(name string, s *snapshot, qs []string) {
		for _, q := range qs {
			pl := s.compile(syntax.Parse(q))
			work, assoc, assocWords := maxWordWork, maxAssocPostings, maxAssocWords
			maxWordWork, maxAssocPostings, maxAssocWords = 1<<62, 1<<62, 1<<30
			free := s.compile(syntax.Parse(q))
			maxWordWork, maxAssocPostings, maxAssocWords = work, assoc, assocWords
			if pl.note != free.note || len(pl.coord) != len(free.coord) || !slices.Equal(pl.synonyms, free.synonyms) ||
				(pl.q != nil) != (free.q != nil) || (pl.q != nil && searchersOf(pl.q) != searchersOf(free.q)) {
				t.Errorf("%s: %q: within the budgets %d clauses, synonyms %q, note %q; without %d, %q, %q",
					name, q, len(pl.coord), pl.synonyms, pl.note, len(free.coord), free.synonyms, free.note)
			}
		}
	}
	check("seeds", e.snap.Load(), held)
	if _, err := os.Stat(devJudgmentsPath); err == nil {
		dev, _ := loadJudgments(t, c.Talks)
		check("seeds", e.snap.Load(), dev)
	}
	fe, _ := fosdemEngine(t)
	check("FOSDEM 2024+2025", fe.snap.Load(), fq)
	if _, err := os.Stat(fosdemArchiveDir); err != nil {
		t.Logf("FOSDEM archive %s absent: its judged queries are not checked", fosdemArchiveDir)
		return
	}
	check("FOSDEM archive", archiveEngine(t).snap.Load(), fq)
}

// TestWordWorkLeavesOutTheLeastSelective: with the budget of work lowered
// to what the seeds' words reach, a query of words used by many talks
// keeps its rarest words, in the query's order, and its note names the
// others, which are not searched.
func TestWordWorkLeavesOutTheLeastSelective(t *testing.T) {
	e, _ := seedEngine(t)
	s := e.snap.Load()
	// Words none of which is common, each of whose clauses reads a
	// different number of postings (its terms in every field they are in).
	const q = "compiler robotics cache checkpointing quantization"
	dfs := map[string]uint64{}
	for _, w := range strings.Fields(q) {
		pl := s.compile(syntax.Parse(w))
		dfs[w] = s.postingsOf(cmp.Or(pl.required, pl.q))
	}
	full := s.compile(syntax.Parse(q))
	if len(full.coord) != 5 || strings.Contains(full.note, "too many talks") {
		t.Fatalf("without a low budget: %d clauses, note %q", len(full.coord), full.note)
	}
	// The two rarest words fit; a third would not.
	byDF := strings.Fields(q)
	slices.SortStableFunc(byDF, func(a, b string) int { return cmp.Compare(dfs[a], dfs[b]) })
	two := 2 * (dfs[byDF[0]] + dfs[byDF[1]])
	three := 3 * (dfs[byDF[0]] + dfs[byDF[1]] + dfs[byDF[2]])
	if two >= three || dfs[byDF[1]] == dfs[byDF[2]] {
		t.Fatalf("document frequencies %v do not order the words", dfs)
	}
	defer func(n uint64) { maxWordWork = n }(maxWordWork)
	maxWordWork = two
	pl := s.compile(syntax.Parse(q))
	if len(pl.coord) != 2 {
		t.Fatalf("%d clauses, want the 2 rarest words' (%v)", len(pl.coord), dfs)
	}
	var left []string
	for _, w := range strings.Fields(q) {
		if w != byDF[0] && w != byDF[1] {
			left = append(left, w)
		}
	}
	want := "left out as used by too many talks to search each (the rarer words are searched): " + strings.Join(left, ", ")
	if !pl.simplified || !strings.Contains(pl.note, want) {
		t.Errorf("note %q, want it to say %q", pl.note, want)
	}
	for _, w := range left {
		for _, term := range s.analyze(w) {
			for _, c := range pl.coord {
				if slices.Contains(c.Terms, term) {
					t.Errorf("%q left out, but its term %q is searched", w, term)
				}
			}
		}
	}
}

// TestLongQueriesCorrectWithinOneEdit: a word two edits from a corpus word
// is corrected in a short query, and not in a query of more words than
// maxWordClauses, whose corrections look one edit away; a one-edit slip is
// corrected in both.
func TestLongQueriesCorrectWithinOneEdit(t *testing.T) {
	e, _ := seedEngine(t)
	s := e.snap.Load()
	// The typo first: only the first maxWordClauses words are looked up.
	const long = " compiler robotics cache checkpointing quantization kernel memory network storage security testing python rust"
	for _, c := range []struct {
		q    string
		want [][2]string
	}{
		{"dstributde training", [][2]string{{"dstributde", "distributed"}}},
		{"dstributde" + long, nil},
		{"distrbiuted training", [][2]string{{"distrbiuted", "distributed"}}},
		{"distrbiuted" + long, [][2]string{{"distrbiuted", "distributed"}}},
	} {
		if got := s.compile(syntax.Parse(c.q)).fixes; !slices.Equal(got, c.want) {
			t.Errorf("%q: corrections %v, want %v", c.q, got, c.want)
		}
	}
}

// TestLongQueriesHaveHalfTheWordWork: the budget of work of a query of
// more words than maxWordClauses is half a shorter one's.
func TestLongQueriesHaveHalfTheWordWork(t *testing.T) {
	for n, want := range map[int]uint64{1: maxWordWork, maxWordClauses: maxWordWork, maxWordClauses + 1: maxWordWork / 2, 60: maxWordWork / 2} {
		if got := wordWork(n); got != want {
			t.Errorf("wordWork(%d) = %d, want %d", n, got, want)
		}
	}
}

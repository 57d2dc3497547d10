package search

import (
	"testing"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search/scan"
	"github.com/talksearch/talksearch/search/syntax"
)

// TestMisspeltLastWordCountsOnce: a misspelt word being typed is both
// corrected and completed to the same word ("Monrach" → "monarch"); the
// word's clause has it once per field. Twice, it counted four times over
// (two matches, and the clause's boost and coordination by the number of
// alternatives), so a misspelt last word outweighed the rest of a query.
func TestMisspeltLastWordCountsOnce(t *testing.T) {
	e, _ := seedEngine(t)
	s := e.snap.Load()
	for _, q := range []string{"Monrach", "pytorch monrach"} {
		pl := s.compile(syntax.Parse(q))
		if len(pl.fixes) == 0 || pl.fixes[len(pl.fixes)-1][1] != "monarch" {
			t.Fatalf("%q: corrections %v, want monrach → monarch", q, pl.fixes)
		}
		if s.completions("monrach") == nil {
			t.Fatalf("%q: monrach has no completion: the case this test is for does not arise", q)
		}
		// The words' clauses: the optional part repeats a word in the
		// agreement of the query's concepts (agreement.go).
		words := pl.q
		if pl.required != nil {
			words = pl.required
		}
		for _, field := range []string{index.FieldTitle, index.FieldAbstract} {
			if n := termClauses(words, field, "monarch"); n != 1 {
				t.Errorf("%q: %d clauses of monarch in %s, want 1", q, n, field)
			}
		}
	}
}

// termClauses counts the term queries of term in field within q.
func termClauses(q query.Query, field, term string) int {
	switch q := q.(type) {
	case *query.BooleanQuery:
		n := 0
		for _, c := range []query.Query{q.Must, q.Should, q.MustNot} {
			if c != nil {
				n += termClauses(c, field, term)
			}
		}
		return n
	case *query.ConjunctionQuery:
		n := 0
		for _, c := range q.Conjuncts {
			n += termClauses(c, field, term)
		}
		return n
	case *query.DisjunctionQuery:
		n := 0
		for _, c := range q.Disjuncts {
			n += termClauses(c, field, term)
		}
		return n
	case scan.Fields:
		return termClauses(q.DisjunctionQuery, field, term)
	case *query.TermQuery:
		if q.FieldVal == field && q.Term == term {
			return 1
		}
	}
	return 0
}

package search

import (
	"testing"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/search/scan"
	"github.com/talksearch/talksearch/search/syntax"
)

// TestTwoConceptsByTheCorpus: on the FOSDEM archive 2007–2023, a query of
// two words is two concepts when the talks holding both rarely say them
// side by side ("container security": 2 of 143), one compound when most
// do ("garbage collection": 38 of 41, "static analysis": 33 of 56). Two
// concepts about as rare are one clause of concepts (scan.Concepts),
// which the tree scan scores as Bleve does; of a rare word and a common
// one ("wasm runtime") the words' disjunction stays Bleve's; a compound
// has no clause of concepts; nor has a query of more words.
func TestTwoConceptsByTheCorpus(t *testing.T) {
	e, _ := earlyArchive(t)
	s, done, err := e.acquire()
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	for _, c := range []struct {
		text          string
		two, concepts bool
	}{
		{"container security", true, true},
		{"firefox privacy", true, true},
		{"wasm runtime", true, false},
		{"garbage collection", false, false},
		{"static analysis", false, false},
		{"home automation", false, false},
		{"arm gpu drivers", false, false},
	} {
		p := syntax.Parse(c.text)
		words := s.contentWords(p.Words)
		if got := s.twoConcepts(p.Words, words, s.joinedNeighbours(words)); got != c.two {
			t.Errorf("%q: two concepts %v, want %v", c.text, got, c.two)
		}
		pl := s.compile(p)
		if got := hasConcepts(pl.q); got != c.concepts {
			t.Errorf("%q: a clause of concepts %v, want %v", c.text, got, c.concepts)
		}
		if c.concepts {
			if v := compareTreeScans(t, s, c.text); v.Trees == 0 || v.Matches == 0 {
				t.Errorf("%q: %d trees, %d matches compared", c.text, v.Trees, v.Matches)
			}
		}
	}
}

// hasConcepts says whether q holds a clause of concepts.
func hasConcepts(q query.Query) bool {
	switch q := q.(type) {
	case scan.Concepts:
		return true
	case *query.BooleanQuery:
		return hasConcepts(q.Must) || hasConcepts(q.Should)
	case *query.ConjunctionQuery:
		for _, c := range q.Conjuncts {
			if hasConcepts(c) {
				return true
			}
		}
	case *query.DisjunctionQuery:
		for _, c := range q.Disjuncts {
			if hasConcepts(c) {
				return true
			}
		}
	}
	return false
}

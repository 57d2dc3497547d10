package search

import (
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search/ranking"
)

// A query of several concepts ("RISC-V boot firmware", "container
// security") is about what they say together. Each word's clause scores on
// its own, summed over the fields it matches, so a talk saying one concept
// in its title, abstract, track and room outscores one saying both in its
// title; the coordination counts a concept matched once in a long
// description as fully matched. Agreement clauses score again the talks
// whose title, or whose abstract, holds every concept, in any order and at
// any distance: what the proximity phrases (neighbouring words in the
// order typed) miss. The query's common words are one concept together,
// any of them standing for it, as the coordination counts them: "open
// hardware" is hardware said with open, "how do I document my open
// source project" documentation said with any of open, source and
// project.

// agreementClauses are the should clauses of a query's concepts (each
// word's alternatives, as its clause matches them): every concept in the
// title, every concept in the abstract. None for a query of one concept;
// match-none for a field whose dictionary lacks one of the concepts, so
// that the optional part has as many clauses, and its coordination the
// same factor, whether or not the snapshot prunes (prune.go).
func (s *snapshot) agreementClauses(concepts [][]alternative) []query.Query {
	if len(concepts) < 2 {
		return nil
	}
	var qs []query.Query
	for _, fb := range []struct {
		field string
		boost float64
	}{{index.FieldTitle, ranking.AllInTitle}, {index.FieldAbstract, ranking.AllInAbstract}} {
		if fb.boost == 0 {
			continue
		}
		conj := make([]query.Query, 0, len(concepts))
		for _, alts := range concepts {
			per := make([]query.Query, 0, len(alts))
			for _, a := range alts {
				// Boosted by the number of alternatives, as in wordClause:
				// Bleve's disjunction divides by it for one match.
				per = append(per, s.fieldQuery(fb.field, a.text, a.phrase, fb.boost*a.weight*float64(len(alts))))
			}
			q := anyOf(per)
			if isNone(q) {
				conj = nil
				break
			}
			conj = append(conj, q)
		}
		if conj == nil {
			qs = append(qs, matchNone())
			continue
		}
		qs = append(qs, query.NewConjunctionQuery(conj))
	}
	return qs
}

package search

import (
	"strings"

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
	// Each alternative's analysis, concept after concept, read for both
	// fields.
	var room [16]analysed
	analyses := room[:0]
	for _, alts := range concepts {
		analyses = s.appendAnalyses(analyses, alts)
	}
	for _, fb := range []struct {
		field string
		boost float64
	}{{index.FieldTitle, ranking.AllInTitle}, {index.FieldAbstract, ranking.AllInAbstract}} {
		if fb.boost == 0 {
			continue
		}
		conj := make([]query.Query, 0, len(concepts))
		at := 0
		for _, alts := range concepts {
			per := make([]query.Query, 0, len(alts))
			for i, a := range alts {
				// Boosted by the number of alternatives, as in wordClause:
				// Bleve's disjunction divides by it for one match.
				per = append(per, s.fieldQueryOf(fb.field, analyses[at+i], a.phrase, fb.boost*a.weight*float64(len(alts))))
			}
			at += len(alts)
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

// A question ("how can I speed up my python code", "how do I package
// software for debian") names what it asks about in the words of the
// asking: one of its concepts is often incidental ("speed", "package"),
// and a title rarely holds every concept of a question. For a question of
// three concepts or more, the talks whose title, or whose abstract, holds
// every concept but the one of least weight score again, as those holding
// all of them do, and so do the talks whose title holds its concept of
// most weight. Only for questions: in a list of subjects ("linux audio
// latency", "arm gpu drivers") each word is part of the topic, and a talk
// missing one misses part of it.

// questionAgreement are agreementClauses of a question's concepts but the
// one of least weight (its weight in the coordination, weights[i] for
// concepts[i]); none unless typed, the words as typed, ask a question of
// three concepts or more.
func (s *snapshot) questionAgreement(typed []string, concepts [][]alternative, weights []float64) []query.Query {
	if len(concepts) < 3 || len(weights) != len(concepts) || !questionShaped(typed) {
		return nil
	}
	least := 0
	for i, w := range weights {
		if w < weights[least] {
			least = i
		}
	}
	rest := make([][]alternative, 0, len(concepts)-1)
	rest = append(append(rest, concepts[:least]...), concepts[least+1:]...)
	return append(s.agreementClauses(rest), s.askedTitle(concepts, weights))
}

// askedTitle is the should clause of a question's concept of most weight
// in the coordination in the title (ranking.AskedTitle): a talk named
// after the rarest thing a question asks about ("docker", "phone") is
// about it, where the coordination ranks first the talks that say the
// question's words anywhere, its vague ones too.
func (s *snapshot) askedTitle(concepts [][]alternative, weights []float64) query.Query {
	most := 0
	for i, w := range weights {
		if w > weights[most] {
			most = i
		}
	}
	alts := concepts[most]
	per := make([]query.Query, 0, len(alts))
	for _, a := range alts {
		// Boosted by the number of alternatives, as in agreementClauses.
		per = append(per, s.fieldQuery(index.FieldTitle, a.text, a.phrase, ranking.AskedTitle*a.weight*float64(len(alts))))
	}
	return anyOf(per)
}

// questionShaped says whether the words as typed ask a question: more
// than two words, the first an interrogative or an auxiliary ("how",
// "what", "can", "is").
func questionShaped(typed []string) bool {
	return len(typed) > 2 && interrogatives[strings.ToLower(typed[0])]
}

// interrogatives are the words a question in English starts with.
var interrogatives = map[string]bool{
	"how": true, "what": true, "why": true, "where": true, "which": true, "who": true, "when": true,
	"can": true, "could": true, "should": true, "is": true, "are": true, "does": true, "do": true,
}

package search

import (
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/search/ranking"
	"github.com/talksearch/talksearch/search/scan"
)

// Clauses that cannot match are known before Bleve is asked. A query is
// compiled into term and phrase clauses on the text fields; Bleve builds a
// searcher for each (a dictionary lookup per term and field, and for a
// phrase a conjunction of them), whether or not the field has the term. A
// hostile query's non-words, and the phrases they are part of (dotted words
// like `pytorch.xqzv`, the query's words side by side), are absent from the
// index, so building their searchers was most of such a query's cost. The
// snapshot knows each field's terms (snapshot.inField): a clause whose term
// a field lacks becomes a match-none clause, and a disjunction of only
// those, one. The talks found and their order do not change: Bleve's
// disjunction counts a match-none clause among its clauses (the
// coordination factor) exactly as it counted the clause that found
// nothing. Only the query norm (1/√ of the summed squared weights of every
// searcher built, applied to every term's score) no longer counts the
// clauses not built, so all the scores of such a query are scaled by one
// factor (TestPruningKeepsResults).

// textFields are the analysed fields a query searches, in the order of
// snapshot.inField's bits.
var textFields = ranking.FieldNames()

// hasTerm says whether field has term in the index; without the
// dictionary (inField nil), that it may.
func (s *snapshot) hasTerm(field, term string) bool {
	if s.inField == nil {
		return true
	}
	for i, f := range textFields {
		if f == field {
			return s.inField[term]&(1<<i) != 0
		}
	}
	// A field the dictionary was not read for: assume it may match.
	return true
}

// matchNone is the clause known to match nothing. It is one shared value:
// a long query prunes dozens of clauses, and the clause is never changed
// (nothing sets a boost on a clause that matches nothing).
func matchNone() query.Query { return theNone }

var theNone = query.NewMatchNoneQuery()

func isNone(q query.Query) bool {
	_, ok := q.(*query.MatchNoneQuery)
	return ok
}

// anyOf is the disjunction of qs: the one clause when there is one,
// match-none when none of them can match.
func anyOf(qs []query.Query) query.Query {
	none := true
	for _, q := range qs {
		none = none && isNone(q)
	}
	switch {
	case none:
		return matchNone()
	case len(qs) == 1:
		return qs[0]
	}
	return query.NewDisjunctionQuery(qs)
}

// phraseQuery matches text as a phrase in one field: what Bleve's match
// phrase query does (terms at the same position are alternatives, removed
// stop words leave gaps), from the snapshot's cached analysis of text and
// without building searchers for a phrase the field cannot have: one of
// whose positions has none of its terms in the field. It is a scan.Phrase,
// whose searcher is Bleve's without its cost per candidate (phrase.go).
func (s *snapshot) phraseQuery(field, text string, boost float64) query.Query {
	return s.phraseQueryOf(field, s.tokens(text), boost)
}

// phraseQueryOf is phraseQuery of the text whose tokens are ts.
func (s *snapshot) phraseQueryOf(field string, ts []token, boost float64) query.Query {
	if len(ts) == 0 {
		return matchNone()
	}
	first, last := ts[0].pos, ts[0].pos
	for _, t := range ts {
		first, last = min(first, t.pos), max(last, t.pos)
	}
	// The slots share one array of the terms, in position order: two
	// allocations for a phrase rather than one per position. A position
	// without a term (the gap of a word the analyzer removed) stays nil.
	var countRoom [16]int
	counts := countRoom[:0]
	if n := last - first + 1; n <= len(countRoom) {
		counts = countRoom[:n]
	} else {
		counts = make([]int, n)
	}
	for _, t := range ts {
		counts[t.pos-first]++
	}
	slots := make([][]string, len(counts))
	all := make([]string, len(ts))
	at := 0
	for i, n := range counts {
		if n > 0 {
			slots[i], at = all[at:at:at+n], at+n
		}
	}
	for _, t := range ts {
		slots[t.pos-first] = append(slots[t.pos-first], t.term)
	}
	for _, alts := range slots {
		if len(alts) == 0 {
			continue
		}
		found := false
		for _, a := range alts {
			found = found || s.hasTerm(field, a)
		}
		if !found {
			return matchNone()
		}
	}
	q := query.NewMultiPhraseQuery(slots, field)
	q.SetBoost(boost)
	return scan.Phrase{MultiPhraseQuery: q}
}

// disjunctsOf is match-none when q is a disjunction none of whose clauses
// can match, else q.
func disjunctsOf(q query.Query) query.Query {
	if d, ok := q.(*query.DisjunctionQuery); ok {
		return anyOf(d.Disjuncts)
	}
	return q
}

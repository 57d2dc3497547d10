package scan

import "github.com/blevesearch/bleve/v2/search/query"

// A compiled query nests a conjunction of one clause (the query's one
// word), a disjunction of one clause (a word's one alternative) and so on,
// and Bleve builds a searcher for each: every match of the term below
// passes through each of them, a pooled match and a sum apiece. On 100k
// talks, a one-word query's ~60,000 matches passed through three searchers
// above its terms' disjunction. flat removes those of one clause. The
// talks found and their scores do not change, to the bit:
//   - a conjunction of one clause scores it as 0 + its score, a disjunction
//     as its score × 1/1 (the coordination factor of one clause matched);
//   - their weight and count are the clause's, so the query norm and the
//     order in which their parents sort and sum their clauses are the same;
//   - the root searcher, which computes the query norm for every term
//     below it, is kept (a Boolean query's must, should and must-not
//     clauses included: Bleve returns a must alone as the root).
//
// TestFlatScoresAreBlevesScores holds them to the same scores.

// flat returns q with every conjunction and disjunction of one clause below
// its root replaced by that clause. q is not changed (plans are shared
// between searches): what changes is copied.
func flat(q query.Query) query.Query {
	b, ok := q.(*query.BooleanQuery)
	if !ok {
		f, _ := flatRoot(q)
		return f
	}
	must, c1 := flatRoot(b.Must)
	should, c2 := flatRoot(b.Should)
	mustNot, c3 := flatRoot(b.MustNot)
	if !c1 && !c2 && !c3 {
		return q
	}
	f := *b
	f.Must, f.Should, f.MustNot = must, should, mustNot
	return &f
}

// flatRoot is q, kept, with its clauses flattened, and whether that changed
// it. (Changes are tracked rather than found by comparing queries: a query
// type need not be comparable.)
func flatRoot(q query.Query) (query.Query, bool) {
	switch r := q.(type) {
	case *query.ConjunctionQuery:
		if cs, changed := flatClauses(r.Conjuncts); changed {
			c := *r
			c.Conjuncts = cs
			return &c, true
		}
	case *query.DisjunctionQuery:
		if ds, changed := flatClauses(r.Disjuncts); changed {
			d := *r
			d.Disjuncts = ds
			return &d, true
		}
	case Fields:
		// Kept whatever its number of clauses: one field's score is
		// the clause's, divided by the number of fields.
		if ds, changed := flatClauses(r.Disjuncts); changed {
			d := *r.DisjunctionQuery
			d.Disjuncts = ds
			return Fields{&d}, true
		}
	case Concepts:
		if ds, changed := flatClauses(r.Disjuncts); changed {
			d := *r.DisjunctionQuery
			d.Disjuncts = ds
			return Concepts{&d}, true
		}
	}
	return q, false
}

// flatClauses is qs flattened, and whether that changed any: qs itself if
// not.
func flatClauses(qs []query.Query) ([]query.Query, bool) {
	var out []query.Query
	for i, q := range qs {
		f, changed := q, false
		for {
			if c, ok := f.(*query.ConjunctionQuery); ok && len(c.Conjuncts) == 1 {
				f, changed = c.Conjuncts[0], true
				continue
			}
			// A minimum above one clause matches nothing: kept as is.
			if d, ok := f.(*query.DisjunctionQuery); ok && len(d.Disjuncts) == 1 && d.Min <= 1 {
				f, changed = d.Disjuncts[0], true
				continue
			}
			break
		}
		f, below := flatRoot(f)
		if (changed || below) && out == nil {
			out = make([]query.Query, len(qs))
			copy(out, qs[:i])
		}
		if out != nil {
			out[i] = f
		}
	}
	if out == nil {
		return qs, false
	}
	return out, true
}

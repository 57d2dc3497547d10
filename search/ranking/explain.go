package ranking

import (
	"fmt"
	"strings"

	bsearch "github.com/blevesearch/bleve/v2/search"
)

// Explanation says how a value was made from its details, as
// Elasticsearch's explain API does: a talk's score is the product of
// Bleve's BM25 score of the query (each clause's field, term, BM25 part and
// weight below it) and the factor of Factors.Of (soft coordination, break
// damping).
type Explanation struct {
	Value       float64
	Description string
	Details     []Explanation
}

// FromBleve is Bleve's explanation of a score in our terms.
func FromBleve(e *bsearch.Explanation) Explanation {
	if e == nil {
		return Explanation{}
	}
	out := Explanation{Value: e.Value, Description: withoutDocID(e.Message)}
	for _, c := range e.Children {
		if c != nil {
			out.Details = append(out.Details, FromBleve(c))
		}
	}
	return out
}

// Explain says how Of(mask, d) is made: the coordination over the
// clauses of mask, each with its weight, and the damping of a break and
// of a cancelled talk.
func (f *Factors) Explain(mask uint32, d Damping) Explanation {
	isBreak := d&DampBreak != 0
	weighted := !isBreak
	c := f.coord(mask, weighted)
	var matched, all []string
	for i, cl := range f.clauses {
		w := cl.Weight
		if !weighted {
			w = 1
		}
		term := strings.Join(cl.Terms, "|")
		all = append(all, fmt.Sprintf("%s (%.3f)", term, w))
		if mask&(1<<i) != 0 {
			matched = append(matched, term)
		}
	}
	coord := Explanation{Value: c}
	switch {
	case len(f.clauses) < 2:
		coord.Description = "coordination: one clause, nothing to coordinate"
	case len(matched) == 0:
		coord.Description = "coordination: no clause's terms matched (the talk matched through a phrase, a field or an associated term)"
	default:
		how := "weighted by rarity"
		if !weighted {
			how = "unweighted (a break)"
		}
		coord.Description = fmt.Sprintf("coordination %s: matched clauses %s of %s, (matched weight / all weight)^%g / (%d/%d)",
			how, strings.Join(matched, ", "), strings.Join(all, ", "), CoordPower(f.clauses), len(matched), len(f.clauses))
	}
	factor := Explanation{Value: c, Description: "factor, product of:", Details: []Explanation{coord}}
	if isBreak {
		factor.Value *= Break
		factor.Details = append(factor.Details, Explanation{Value: Break, Description: "break damping"})
	}
	if d&DampCancelled != 0 {
		factor.Value *= Cancelled
		factor.Details = append(factor.Details, Explanation{Value: Cancelled, Description: "cancelled talk damping"})
	}
	return factor
}

// Score explains a talk's score: Bleve's score of the query times the
// factor.
func Score(bleve, factor Explanation) Explanation {
	return Explanation{
		Value:       bleve.Value * factor.Value,
		Description: "score, product of:",
		Details:     []Explanation{bleve, factor},
	}
}

// withoutDocID drops from a message of Bleve's the internal id of the
// document it names ("weight(title:monarch^3 in \x00…\x09)"): eight
// raw bytes of a document number, which mean nothing to a reader and
// would be control characters in any file written.
func withoutDocID(m string) string {
	const in = " in "
	i := strings.Index(m, in)
	if i < 0 || len(m) < i+len(in)+8 {
		return m
	}
	id := m[i+len(in) : i+len(in)+8]
	for _, c := range []byte(id) {
		if c < 0x20 || c >= 0x7f {
			return m[:i] + withoutDocID(m[i+len(in)+8:])
		}
	}
	return m[:i+len(in)] + withoutDocID(m[i+len(in):])
}

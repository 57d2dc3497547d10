package ranking

import (
	"math"
	"slices"

	bsearch "github.com/blevesearch/bleve/v2/search"
)

// Clause is one clause of a query's words as soft coordination counts it:
// the index terms that match it, and its weight (the rarity of its word).
// Absent marks the clause of a described word no talk has (weight 0): a
// query with one is coordinated at AbsentPower.
type Clause struct {
	Terms  []string
	Weight float64
	Absent bool
}

// MaxClauses is the most clauses a query may coordinate: a clause mask is
// a uint32. A query has at most a dozen word clauses, the clause of the
// words beyond them and that of its common words.
const MaxClauses = 32

// Power raises the coordination factor (the share of the query's clauses a
// talk matches, weighted by rarity) to a power. Weighted by idf, missing a
// common word costs little and missing a rare one much: the soft
// coordination questions need. A higher power can outweigh the tenth a
// break's score is cut to (Break), ranking a coffee break with a menu's
// rare word above the talks. No gate: a talk with one word of the query is
// found, only ranked lower.
const Power = 5.0

// AbsentPower is Power for a query describing its subject with a word no
// talk has ("football video analysis" where the talks say soccer): no
// talk says every word, and the talks saying the others, each in passing
// ("analyzing video on-device"), are no more about the subject than one
// naming the rarest of them in its title. Questions keep Power: their
// words are weighed beyond a common word's (AskedWeight) instead.
const AbsentPower = 2.0

// AskedFloor is the share of its rarity a question's word keeps in the
// coordination (AskedWeight) when it is as common as a common word.
const AskedFloor = 0.2

// AskedWeight is the weight in the coordination of a word of a question
// whose rarity is idf, where common is the rarity of a word in
// CommonShare of the talks. A question names its topic in the words of
// the asking: besides the topic's words it has verbs and nouns of middle
// frequency ("get", "accepted", "speed", "make", "images", "started"),
// just rare enough not to be common words, which weighed by their rarity
// alone count for half a topic's word, and the talks saying them with
// the topic's word somewhere in a long text outrank the talks about the
// topic. Only the rarity beyond a common word's tells the topic; each
// word keeps AskedFloor of its own so that the order of the words'
// weights stays as it was.
func AskedWeight(idf, common float64) float64 {
	return max(idf-common, 0) + AskedFloor*idf
}

// AskedCommon scales the score of a question's common words: a word in
// more than CommonShare of the talks weighs AskedFloor of its rarity in
// the coordination (AskedWeight), and its score counts as much. A
// question's common words are the words of the asking or the setting
// ("open source", "linux" at a conference of free software), and scored
// whole the talks saying them in the title ("open source" in a dozen
// titles) outrank those about what is asked, the coordination having no
// say when a talk matches every clause.
const AskedCommon = AskedFloor

// IDF is the inverse document frequency of a term in df of n talks, as
// BM25 has it: what a clause's weight is.
func IDF(n, df uint64) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// SoftCoord returns the factor that turns the score Bleve gives a talk
// matching the clauses matched says it matches, with Bleve's coordination
// factor over those clauses (matched / all), into its score with this
// engine's: the share of the query's clauses it matches, each clause
// weighted by the rarity of its word, to the power CoordPower. Weighting by
// rarity is what lets a talk with a question's rare words ("rust",
// "kernel") beat one with its vague ones ("state"). Unweighted, every
// clause counts 1.
func SoftCoord(clauses []Clause, matched func(clause int) bool, weighted bool) float64 {
	n := len(clauses)
	if n < 2 {
		return 1
	}
	m := 0
	var got, all float64
	for i, c := range clauses {
		w := 1.0
		if weighted {
			w = c.Weight
		}
		all += w
		if matched(i) {
			m++
			got += w
		}
	}
	if m == 0 || all == 0 {
		return 1
	}
	bleveCoord := float64(m) / float64(n)
	return math.Pow(got/all, CoordPower(clauses)) / bleveCoord
}

// CoordPower is the power SoftCoord raises a query's coordination to:
// AbsentPower when a clause is Absent, else Power.
func CoordPower(clauses []Clause) float64 {
	for _, c := range clauses {
		if c.Absent {
			return AbsentPower
		}
	}
	return Power
}

// Factors gives the factor every execution path multiplies Bleve's score
// of a talk by (Of), from the clauses the talk matches as a mask (bit i:
// clause i). A factor is computed once per mask and weighting rather than
// once per matching talk: a query's matches share a handful of masks, and
// a 400-character query of real words has dozens of clauses to add up for
// each of them. One per search (not safe for concurrent use).
type Factors struct {
	clauses []Clause
	// ofTerm are the clauses each index term matches, as bits.
	ofTerm map[string]uint32
	// dense are the factors by key (mask and weighting) of a query of at
	// most maxDenseClauses clauses, NaN until computed: a scan looks one
	// up per match, where a map lookup costs more than the rest of the
	// match. memo holds them for longer queries, made on first use.
	dense []float64
	memo  map[uint64]float64
}

// maxDenseClauses bounds the queries whose factors are kept in a slice:
// 2^11 keys of 8 bytes.
const maxDenseClauses = 10

// NewFactors returns the factors of a query's clauses; clauses past
// MaxClauses are not coordinated.
func NewFactors(clauses []Clause) *Factors {
	clauses = clauses[:min(len(clauses), MaxClauses)]
	f := &Factors{clauses: clauses, ofTerm: map[string]uint32{}}
	if len(clauses) <= maxDenseClauses {
		f.dense = make([]float64, 2<<len(clauses))
		for i := range f.dense {
			f.dense[i] = math.NaN()
		}
	}
	for i, c := range clauses {
		for _, t := range c.Terms {
			f.ofTerm[t] |= 1 << i
		}
	}
	return f
}

// Clauses are the clauses coordinated.
func (f *Factors) Clauses() []Clause { return f.clauses }

// Of is the factor of a talk matching the clauses of mask: soft
// coordination, weighted by rarity except for a break (a menu's rare
// words, granola, would lift it above the sessions), a break damped by
// Break and a cancelled talk by Cancelled.
func (f *Factors) Of(mask uint32, d Damping) float64 {
	c := f.coord(mask, d&DampBreak == 0)
	if d&DampBreak != 0 {
		c *= Break
	}
	if d&DampCancelled != 0 {
		c *= Cancelled
	}
	return c
}

// coord is SoftCoord of the clauses mask says a talk matches.
func (f *Factors) coord(mask uint32, weighted bool) float64 {
	key := uint64(mask) << 1
	if weighted {
		key |= 1
	}
	if key < uint64(len(f.dense)) {
		if c := f.dense[key]; !math.IsNaN(c) {
			return c
		}
	} else if c, ok := f.memo[key]; ok {
		return c
	}
	c := SoftCoord(f.clauses, func(i int) bool { return mask&(1<<i) != 0 }, weighted)
	switch {
	case key < uint64(len(f.dense)):
		f.dense[key] = c
	case f.memo == nil:
		f.memo = map[uint64]float64{key: c}
	default:
		f.memo[key] = c
	}
	return c
}

// Mask is the clauses a talk whose matched terms are locs matches: Bleve's
// list of them, read as it is rather than made into the map of
// DocumentMatch.Complete for every match, which only highlighted hits need.
func (f *Factors) Mask(locs []bsearch.FieldTermLocation) uint32 {
	var mask uint32
	for _, l := range locs {
		mask |= f.ofTerm[l.Term]
	}
	return mask
}

// TermMask is the clauses an index term matches.
func (f *Factors) TermMask(term string) uint32 { return f.ofTerm[term] }

// Matched lists the clauses of mask, for an explanation.
func (f *Factors) Matched(mask uint32) []int {
	var out []int
	for i := range f.clauses {
		if mask&(1<<i) != 0 {
			out = append(out, i)
		}
	}
	return slices.Clip(out)
}

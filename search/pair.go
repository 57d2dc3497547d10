package search

import (
	"context"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search/ranking"
)

// A query of two words is one concept ("garbage collection", "static
// analysis") or two ("container security", "firefox privacy"), and the
// words alone do not tell: each is a word of the corpus, neither common,
// and the corpus joins them into no word. What the corpus says of the
// pair does: a compound noun is written as one, the two words side by
// side in most talks that hold both, while two concepts meet in a talk
// in any order and at any distance, and are rarely neighbours. Two
// concepts are ranked as a query of several: each word's fields capped
// (ranking.CombineFields), and, when their words are about as rare, the
// talks saying both evenly first (ranking.Balance).

// pairFields are the fields whose text says whether a pair of words is
// written side by side: the talks' own words, not their track's or
// room's names or their speakers'.
var pairFields = []string{index.FieldTitle, index.FieldAbstract, index.FieldDescription}

// pairTalks is the most talks with both words of a pair whose text is
// read for the pair (scan.Index.Adjacent): enough for the share of them
// saying the words side by side, a bounded cost in any corpus.
const pairTalks = 200

// pairCacheSize bounds the pairs whose verdict a snapshot keeps: a
// search of two words reads its pair's postings once.
const pairCacheSize = 4096

// twoConcepts says whether the query typed, of two content words (words),
// names two concepts: neither word common or a typo, each one index term,
// no word of the corpus the two make joined (joins), and of the talks
// holding both, fewer than ranking.PairAdjacentShare saying them side by
// side. A pair no talk holds says nothing of itself: one concept.
func (s *snapshot) twoConcepts(typed, words, joins []string) bool {
	if len(typed) != 2 || len(words) != 2 || joins[0] != "" {
		return false
	}
	var terms [2]string
	for i, w := range words {
		ts := s.analyze(s.knownForm(w))
		if len(ts) != 1 || s.dict[ts[0]] == 0 || s.common(w) || s.mayCorrect(w) {
			return false
		}
		terms[i] = ts[0]
	}
	key := terms[0] + "\x00" + terms[1]
	if two, ok := s.pairs.get(key); ok {
		return two
	}
	both, adjacent, err := s.scan.Adjacent(context.Background(), pairFields, terms[0], terms[1], pairTalks)
	if err != nil {
		return false // not kept: the next search reads the pair again
	}
	two := both > 0 && float64(adjacent) < ranking.PairAdjacentShare*float64(both)
	s.pairs.put(key, two)
	return two
}

// balanced says whether two concepts whose weights in the coordination
// are weights are balanced (ranking.Balance): about as rare
// (ranking.BalancedRarity). Of a rare word and a common one ("wasm
// runtime", "js engine") the rare one names the subject and the other
// narrows it: a talk about the subject that names the other word once is
// no worse for it.
func balanced(weights []ranking.Clause) bool {
	if len(weights) != 2 {
		return false
	}
	a, b := weights[0].Weight, weights[1].Weight
	return min(a, b) >= ranking.BalancedRarity*max(a, b)
}

package search

import (
	"context"
	"strings"

	"github.com/talksearch/talksearch/search/ranking"
)

// askedCompounds caps, in a question's clauses (parts, in the order
// typed), the weight in the coordination of the first word of a compound
// (ranking.CompoundModifier of the second's): two words typed one after
// the other, each one index term, the second weighing at least
// ranking.CompoundRarity of the first, that the corpus writes side by
// side in ranking.CompoundAdjacentShare of the talks holding both (read
// as pair.go reads a pair, up to pairTalks of them). The verdict of a pair
// is kept (snapshot.compounds): a question asked again, or another with
// the same two words, reads no postings.
func (s *snapshot) askedCompounds(typed []string, parts []wordPart) {
	for i := 0; i+1 < len(parts); i++ {
		a, b := parts[i].coord.Weight, parts[i+1].coord.Weight
		if a <= ranking.CompoundModifier*b || b < ranking.CompoundRarity*a ||
			!followsTyped(typed, parts[i].word, parts[i+1].word) {
			continue
		}
		ta, tb := s.analyze(s.knownForm(parts[i].word)), s.analyze(s.knownForm(parts[i+1].word))
		if len(ta) != 1 || len(tb) != 1 {
			continue
		}
		if s.isCompound(ta[0], tb[0]) {
			parts[i].coord.Weight = ranking.CompoundModifier * b
		}
	}
}

// isCompound says whether the corpus writes the term a right before the
// term b in ranking.CompoundAdjacentShare of the talks holding both.
func (s *snapshot) isCompound(a, b string) bool {
	key := a + "\x00" + b
	if c, ok := s.compounds.get(key); ok {
		return c
	}
	both, adjacent, err := s.scan.Adjacent(context.Background(), pairFields, a, b, pairTalks)
	if err != nil {
		return false // not kept: the next search reads the pair again
	}
	c := both > 0 && float64(adjacent) >= ranking.CompoundAdjacentShare*float64(both)
	s.compounds.put(key, c)
	return c
}

// followsTyped says whether the word b is typed right after a.
func followsTyped(typed []string, a, b string) bool {
	for i := 0; i+1 < len(typed); i++ {
		if strings.EqualFold(typed[i], a) && strings.EqualFold(typed[i+1], b) {
			return true
		}
	}
	return false
}

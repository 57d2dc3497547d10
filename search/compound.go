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
// as pair.go reads a pair, up to pairTalks of them).
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
		both, adjacent, err := s.scan.Adjacent(context.Background(), pairFields, ta[0], tb[0], pairTalks)
		if err != nil || both == 0 || float64(adjacent) < ranking.CompoundAdjacentShare*float64(both) {
			continue
		}
		parts[i].coord.Weight = ranking.CompoundModifier * b
	}
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

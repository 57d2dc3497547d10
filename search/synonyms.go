package search

import (
	"slices"

	"github.com/talksearch/talksearch/search/ranking"
)

// synonymAlternatives returns, for each of the typed words, the synonyms
// that apply to it, and what applied (for the response). A synonym of
// several words ("mixture of experts" → "MoE") is an alternative of each of
// its content words, so a talk that only says "MoE" matches every one of
// them, as a talk saying "mixture of experts" does.
func (s *snapshot) synonymAlternatives(typed []string, isContent map[string]bool) (map[string][]alternative, []string) {
	if s.thesaurus == nil || len(typed) == 0 {
		return nil, nil
	}
	// A word is looked up in the form the index knows it by: "postgress"
	// is the plural of POSTGRES to the analyzer (knownForm), so it finds
	// what "postgres" finds and gets what "postgres" gets.
	known := typed
	for i, w := range typed {
		if k := s.knownForm(w); k != w {
			if &known[0] == &typed[0] {
				known = slices.Clone(typed)
			}
			known[i] = k
		}
	}
	exps := s.thesaurus.Expand(known)
	if len(exps) == 0 {
		return nil, nil
	}
	alts := map[string][]alternative{}
	var applied []string
	for _, x := range exps {
		applied = append(applied, x.String())
		for _, w := range typed[x.Start:x.End] {
			if !isContent[w] {
				continue
			}
			for _, a := range x.Alternatives {
				alts[w] = append(alts[w], alternative{text: a, weight: ranking.Synonym, phrase: s.compound(a)})
			}
		}
	}
	return alts, applied
}

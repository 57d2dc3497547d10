package search

import (
	"github.com/talksearch/talksearch/search/ranking"
	"github.com/talksearch/talksearch/search/scan"
)

// A query word with a synonym of several words (`LLMs`: "large language
// models") searches that synonym as a phrase in every field, and in a
// large corpus a phrase of common words is most of such a search: its
// terms' positions read at every talk with all of them. The thesaurus's
// phrases are known when an index is opened, so a scanned corpus reads
// each of them once (scan.Index.KnowPhrases).

// thesaurusPhrases are the phrases of several terms of the thesaurus, as
// a query searches them in each field, for a snapshot that scans: nil for
// one searched in one pass.
func (s *snapshot) thesaurusPhrases() []scan.Phrase {
	if s.thesaurus == nil || s.onePass() {
		return nil
	}
	var out []scan.Phrase
	for _, g := range s.thesaurus.Groups() {
		for _, p := range g.Phrases {
			if !s.compound(p) {
				continue
			}
			for _, fw := range ranking.Fields {
				if q, ok := s.phraseQuery(fw.Field, p, 1).(scan.Phrase); ok {
					out = append(out, q) // else a term the field does not have
				}
			}
		}
	}
	return out
}

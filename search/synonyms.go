package search

// phraseSynonym is an expansion of several neighbouring query words
// ("mixture of experts" → "MoE").
type phraseSynonym struct {
	from  string
	with  string
	words int
}

// synonyms returns the expansions of one query word.
// TODO(search): use the index's Thesaurus once it lands.
func (s *snapshot) synonyms(w string) []string { return nil }

// phraseSynonyms returns the expansions of runs of neighbouring words.
func (s *snapshot) phraseSynonyms(words []string) []phraseSynonym { return nil }

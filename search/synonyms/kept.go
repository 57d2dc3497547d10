package synonyms

import "github.com/talksearch/talksearch/index/analysis"

// ThesaurusOf returns the thesaurus of groups, the Groups of one that
// NewThesaurusUsing built (kept between runs, so a restart mines nothing),
// analysing query words with terms. It equals that thesaurus.
func ThesaurusOf(groups []SynonymGroup, terms *analysis.Terms) *Thesaurus {
	return (&thesaurusBuilder{groups: groups}).build(terms)
}

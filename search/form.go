package search

import (
	"strings"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/search/ranking"
)

// formWords are the filler words (questionWords) that name the form of a
// session rather than its subject.
var formWords = map[string]bool{"talk": true, "talks": true, "session": true, "sessions": true}

// formClause is the optional clause of the form words typed beside a
// query's one content word, matched in every field at ranking.FormWords;
// nil unless the query types both. Of a query of one word the talks it
// finds differ only by where and how often they say it; with more words
// the coordination, the proximity phrases and the agreement rank them, and
// the form word, which many talks say ("Lightning Talk"), would only move
// the talks that say it in passing.
func (s *snapshot) formClause(typed, content []string) query.Query {
	if len(content) != 1 || formWords[strings.ToLower(content[0])] {
		return nil
	}
	var form []string
	for _, w := range typed {
		if formWords[strings.ToLower(w)] {
			form = append(form, w)
		}
	}
	if len(form) == 0 {
		return nil
	}
	q := s.fieldsQuery(strings.Join(form, " "), false, ranking.FormWords)
	if isNone(q) {
		return nil
	}
	return q
}

package search

import (
	"strings"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search/ranking"
)

// speakersName says whether a query shaped as a person's name
// (speakerShaped) is made of words of speakers' names only: a query
// asking for a speaker's talks.
func (s *snapshot) speakersName(typed []string) bool {
	if !speakerShaped(typed) {
		return false
	}
	for _, w := range typed {
		if !s.vocab.speakers[strings.ToLower(w)] {
			return false
		}
	}
	return true
}

// namedClauses are the proximity clauses of a query that names a speaker
// (speakersName): the name whole in a talk's speakers
// (ranking.NamedSpeaker). The talks given by the person come before those
// that name them in a title or an abstract ("Can we make Lennart
// Poettering run …"), which the whole input as a phrase there, its pairs
// and the concepts' agreement would rank first: a name in a title is
// what a talk is about, seldom who gives it. A speakers field is short,
// its phrase cheap to check in a large corpus too.
func (s *snapshot) namedClauses(typed, _ []string, _ bool) []query.Query {
	return []query.Query{s.fieldQuery(index.FieldSpeakers, strings.Join(typed, " "), true, ranking.NamedSpeaker)}
}

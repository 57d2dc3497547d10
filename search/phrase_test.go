package search

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search/scan"
	"github.com/talksearch/talksearch/search/syntax"
)

// TestTextPhraseIsBlevesPhrase: the scan's phrase searcher (phrase.go)
// finds the talks Bleve's phrase searcher finds, with the same scores and,
// asked for them, the same locations, by Next and by Advance, for every
// run of two and three words of the seeds' titles and abstracts' first
// sentences (stop words, compounds and alternatives included) in each text
// field.
func TestTextPhraseIsBlevesPhrase(t *testing.T) {
	e, _ := seedEngine(t)
	s := e.snap.Load()
	ctx := s.withBM25(context.Background())
	seen := map[string]bool{}
	phrases, matched := 0, 0
	for _, d := range s.byTime {
		words := strings.Fields(d.talk.Title + " " + s.full(d).Abstract)
		words = words[:min(len(words), 40)]
		for i := range words {
			for n := 2; n <= 3 && i+n <= len(words); n++ {
				text := strings.Join(words[i:i+n], " ")
				for _, field := range textFields {
					p, ok := s.phraseQuery(field, text, 1.5).(scan.Phrase)
					if !ok || seen[field+text] {
						continue // no phrase the field can have
					}
					seen[field+text] = true
					phrases++
					m, err := s.scan.VerifyPhrase(ctx, p)
					if err != nil {
						t.Fatalf("%s %q: %v", field, text, err)
					}
					if m {
						matched++
					}
				}
			}
		}
	}
	if phrases < 7_000 || matched < 5_900 {
		t.Errorf("%d phrases, %d with matches: not the seeds expected", phrases, matched)
	}
}

// TestLocatorKeepsTextPhrases: a page is located with the query's own
// phrases.
func TestLocatorKeepsTextPhrases(t *testing.T) {
	e, _ := seedEngine(t)
	s := e.snap.Load()
	title := strings.Fields(s.byTime[0].talk.Title)
	phrase := s.phraseQuery(index.FieldTitle, title[0]+" "+title[1], 1)
	if _, ok := phrase.(scan.Phrase); !ok {
		t.Fatalf("phrase %q is a %T", title[:2], phrase)
	}
	if loc := locator([]query.Query{phrase}, nil, nil); loc != phrase {
		t.Errorf("locator of a phrase is %v", loc)
	}
}

// withBlevePhrases is q with Bleve's phrases for the scan's: a search of it
// has the phrases' locations.
func withBlevePhrases(q query.Query) query.Query {
	each := func(qs []query.Query) []query.Query {
		out := make([]query.Query, len(qs))
		for i, c := range qs {
			out[i] = withBlevePhrases(c)
		}
		return out
	}
	switch x := q.(type) {
	case scan.Phrase:
		return x.MultiPhraseQuery
	case *query.DisjunctionQuery:
		c := *x
		c.Disjuncts = each(x.Disjuncts)
		return &c
	case scan.Fields:
		c := *x.DisjunctionQuery
		c.Disjuncts = each(x.Disjuncts)
		return scan.Fields{DisjunctionQuery: &c}
	case *query.ConjunctionQuery:
		c := *x
		c.Conjuncts = each(x.Conjuncts)
		return &c
	case *query.BooleanQuery:
		c := *x
		for _, part := range []*query.Query{&c.Must, &c.Should, &c.MustNot} {
			if *part != nil {
				*part = withBlevePhrases(*part)
			}
		}
		return &c
	}
	return q
}

// TestPhraseTalksLocateAlike: a page's matched words located with the
// phrase searchers restricted to the page's talks (withPhraseTalks), and
// on the archive's one segment through term readers that seek
// (seekReader), are those of the unrestricted searchers on scorch's
// reader, for every
// judged FOSDEM query on the archive and the bench requests and the title
// words and hostile queries on the seeds scanned: their best 20 talks and
// 20 more from across their matches. (A window rescored so is held to
// the whole query's scores by TestRescoreKeepsTheJudgedPages.)
func TestPhraseTalksLocateAlike(t *testing.T) {
	ctx := context.Background()
	pages, phrases, seeking := 0, 0, 0
	for _, q := range scannedQueries(t, hostileAndTitleWords(t, 9)) {
		pl := q.s.compile(syntax.Parse(q.text))
		if pl.q == nil || pl.none {
			continue
		}
		cands, _, err := q.s.candidates(ctx, pl)
		if err != nil {
			t.Fatal(err)
		}
		ms := slices.Clone(cands)
		page := slices.Clone(q.s.pageOf(ms, SortRelevance, 0, 20))
		for i := 0; i < len(ms) && i < 20*97; i += 97 {
			if !slices.ContainsFunc(page, func(m match) bool { return m.Num == ms[i].Num }) {
				page = append(page, ms[i])
			}
		}
		seeks, err := q.s.scan.VerifyLocate(q.s.withBM25(ctx), pl.locator, page)
		if err != nil {
			t.Fatalf("%q: %v", q.text, err)
		}
		pages++
		if hasPhrase(pl.locator) {
			phrases++
		}
		if seeks {
			seeking++
		}
	}
	if pages < 400 || phrases < 30 || seeking < 70 {
		t.Errorf("%d pages located, %d with a phrase, %d through a seeking reader: want 400, 30 and 70", pages, phrases, seeking)
	}
}

// hasPhrase says whether q has a text phrase.
func hasPhrase(q query.Query) bool {
	var qs []query.Query
	switch q := q.(type) {
	case scan.Phrase:
		return true
	case *query.DisjunctionQuery:
		qs = q.Disjuncts
	case scan.Fields:
		qs = q.Disjuncts
	case *query.ConjunctionQuery:
		qs = q.Conjuncts
	case *query.BooleanQuery:
		qs = []query.Query{q.Must, q.Should, q.MustNot}
	}
	return slices.ContainsFunc(qs, func(q query.Query) bool { return q != nil && hasPhrase(q) })
}

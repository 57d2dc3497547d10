package search

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search/ranking"
	"github.com/talksearch/talksearch/search/scan"
	"github.com/talksearch/talksearch/search/syntax"
)

// agreementTalks: "strong" says container in its title and abstract and
// security once in its description; "title" says both in its title,
// "abstract" both in its abstract; the others neither.
func agreementTalks() []index.Talk {
	talks := []index.Talk{
		{ID: "strong", Title: "Container registry internals", Track: "Registries", Kind: index.KindTalk,
			Abstract:    "A registry stores the images of a container.",
			Description: "Image signing and security scanning come later."},
		{ID: "title", Title: "Security of container hosts", Track: "Distributions", Kind: index.KindTalk,
			Abstract: "Hardening the hosts that run them."},
		{ID: "abstract", Title: "Hardening hosts", Track: "Distributions", Kind: index.KindTalk,
			Abstract: "What a container needs from the kernel for its security."},
	}
	for i, w := range strings.Fields("gardening astronomy cooking sailing chess pottery knitting cycling baking fishing") {
		talks = append(talks, index.Talk{ID: fmt.Sprintf("other-%d", i), Title: "All about " + w, Kind: index.KindTalk,
			Abstract: "An introduction to " + w + " for beginners."})
	}
	return talks
}

// TestAgreementRanksConceptsTogether: a talk whose title holds both
// concepts of "container security" ranks above one that says container
// in its title and abstract and security once in its description (which
// without the agreement ranks first), in one pass and
// scanned; the title's agreement shows in the explanation as a sum of the
// two title terms beside their own clauses.
func TestAgreementRanksConceptsTogether(t *testing.T) {
	for _, o := range []Options{{}, {OnePassMax: -1}} {
		e := newEngineT(t, agreementTalks(), o)
		r, err := e.Search(context.Background(), Request{Query: "container security", Explain: true})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"title", "strong", "abstract"}, hitIDs(r)); diff != "" {
			t.Errorf("OnePassMax %d: hits (-want +got):\n%s", o.OnePassMax, diff)
		}
		x := describe(*r.Hits[0].Explanation)
		if n := strings.Count(x, "\nweight(title:secur^"); n != 2 {
			t.Errorf("OnePassMax %d: weight(title:secur^...) explained %d times, want 2 (its clause, the agreement):\n%s", o.OnePassMax, n, x)
		}
	}
}

// TestAgreementClauses: a query of two concepts gets an agreement clause
// in the title and one in the abstract; a query of one concept none; a
// field whose dictionary lacks a concept a match-none clause.
func TestAgreementClauses(t *testing.T) {
	e := newEngineT(t, agreementTalks(), Options{})
	s, done, err := e.acquire()
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	for _, tt := range []struct {
		query      string
		want, none int
	}{
		{"container security", 2, 0},
		{"container", 0, 0},
		// "internals" is in a title only: no abstract can hold both.
		{"container internals", 2, 1},
	} {
		var concepts [][]alternative
		for _, w := range s.contentWords(syntax.Parse(tt.query).Words) {
			concepts = append(concepts, s.literal(w, &budget{}))
		}
		qs := s.agreementClauses(concepts)
		none := 0
		for _, q := range qs {
			if isNone(q) {
				none++
			}
		}
		if len(qs) != tt.want || none != tt.none {
			t.Errorf("%q: %d agreement clauses, %d match-none; want %d, %d", tt.query, len(qs), none, tt.want, tt.none)
		}
	}
}

// TestCommonWordsClauseWhole: the terms of each common word carry the
// number of common words, which the disjunction of the common words
// divides a talk matching one of them by (Bleve applies no boost of a
// disjunction), so that one common word matched scores its clause whole;
// in a question, ranking.AskedCommon of it.
func TestCommonWordsClauseWhole(t *testing.T) {
	var talks []index.Talk
	for i := range 10 {
		talks = append(talks, index.Talk{ID: fmt.Sprintf("t%d", i), Kind: index.KindTalk,
			Title: "Open tools for everyone", Abstract: "Every project here is open source."})
	}
	talks = append(talks, index.Talk{ID: "rare", Kind: index.KindTalk, Title: "Hardware design", Abstract: "Boards."})
	e := newEngineT(t, talks, Options{})
	s, done, err := e.acquire()
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	if !s.common("open") || !s.common("source") || s.common("hardware") {
		t.Fatal("want open and source common, hardware not")
	}
	// A word's clause is a disjunction over ranking.Fields, the title's
	// first: its term query.
	titleTerm := func(clause query.Query) *query.TermQuery {
		if f, ok := clause.(scan.Fields); ok {
			clause = f.DisjunctionQuery
		}
		return clause.(*query.DisjunctionQuery).Disjuncts[0].(*query.TermQuery)
	}
	alone := titleTerm(s.wordClause([]alternative{{text: "open", weight: 1}}))
	// A question's common words score ranking.AskedCommon of that.
	for _, tt := range []struct {
		query string
		scale float64
	}{
		{"open source hardware", 2},
		{"what is open source hardware", 2 * ranking.AskedCommon},
	} {
		pl := s.compile(syntax.Parse(tt.query))
		// The common words' clause is the second of the words'
		// disjunction, open's clause the first of it.
		words := pl.q.(*query.BooleanQuery).Must.(*query.ConjunctionQuery).Conjuncts[0].(*query.DisjunctionQuery)
		got := titleTerm(words.Disjuncts[1].(*query.DisjunctionQuery).Disjuncts[0])
		if got.Term != "open" || math.Abs(got.BoostVal.Value()-tt.scale*alone.BoostVal.Value()) > 1e-9 {
			t.Errorf("%q: %s in the common words' clause boosted %v, want %v × %v", tt.query, got.Term, got.BoostVal.Value(), tt.scale, alone.BoostVal.Value())
		}
	}
}

// TestQuestionAgreement: a question of three concepts gets the agreement
// of every concept but the one of least weight (two clauses: title and
// abstract); the same words not asked as a question, or a question of two
// concepts, get none.
func TestQuestionAgreement(t *testing.T) {
	e := newEngineT(t, agreementTalks(), Options{})
	s, done, err := e.acquire()
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	conceptsOf := func(p syntax.Query) ([][]alternative, []float64) {
		var concepts [][]alternative
		var weights []float64
		for _, w := range s.contentWords(p.Words) {
			alts := s.literal(w, &budget{})
			concepts = append(concepts, alts)
			weights = append(weights, s.clauseWeight(alts, len(alts)))
		}
		return concepts, weights
	}
	for _, tt := range []struct {
		query string
		want  int
	}{
		{"how do I harden container hosts", 3},
		{"Is container security hardening hard", 3},
		{"harden container hosts", 0},
		{"how do I harden containers", 0},
	} {
		p := syntax.Parse(tt.query)
		concepts, weights := conceptsOf(p)
		if got := len(s.questionAgreement(p.Words, concepts, weights)); got != tt.want {
			t.Errorf("%q: %d clauses, want %d", tt.query, got, tt.want)
		}
	}
	// The concept of least weight is left out: the title's clause is a
	// conjunction of the two others, each its title term.
	p := syntax.Parse("how do I harden container hosts")
	concepts, _ := conceptsOf(p)
	qs := s.questionAgreement(p.Words, concepts, []float64{2, 1, 3})
	var got []string
	for _, c := range qs[0].(*query.ConjunctionQuery).Conjuncts {
		got = append(got, c.(*query.TermQuery).Term)
	}
	if want := []string{"harden", "host"}; !slices.Equal(got, want) {
		t.Errorf("question agreement in the title: %v, want %v", got, want)
	}
	// The concept of most weight alone in the title, at AskedTitle.
	tq, ok := qs[2].(*query.TermQuery)
	if !ok {
		t.Fatalf("asked title clause: %T, want a term query", qs[2])
	}
	if tq.Term != "host" || tq.FieldVal != index.FieldTitle || tq.Boost() != ranking.AskedTitle {
		t.Errorf("asked title clause: %s:%s^%g, want title:host^%g", tq.FieldVal, tq.Term, tq.Boost(), float64(ranking.AskedTitle))
	}
}

// TestWithoutNamesWhatIsAbsent: in a query of more than two words,
// "without" and the word it governs are no content words, so neither a
// word's clause nor the coordination asks the talks to name what they do
// without; a query of two words keeps them.
func TestWithoutNamesWhatIsAbsent(t *testing.T) {
	e := newEngineT(t, agreementTalks(), Options{})
	s, done, err := e.acquire()
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	for _, tt := range []struct{ query, want string }{
		{"phone without google", "phone"},
		{"serve models without a GPU", "serve models"},
		{"without google", "without google"},
		{"container security without root", "container security"},
		{"without root containers", "containers"},
	} {
		got := strings.Join(s.contentWords(syntax.Parse(tt.query).Words), " ")
		if got != tt.want {
			t.Errorf("%q: content words %q, want %q", tt.query, got, tt.want)
		}
	}
}

// TestDescribedTitle: in a query of ranking.DescribedWords rarer words or
// more, not a question, a word's title weighs ranking.DescribedTitle of
// what it weighs alone; in a shorter query, or asked, it weighs that.
func TestDescribedTitle(t *testing.T) {
	talks := []index.Talk{
		{ID: "b", Kind: index.KindTalk, Title: "Finding bugs", Abstract: "Random inputs."},
		{ID: "f", Kind: index.KindTalk, Title: "Fuzzing", Abstract: "Random inputs find bugs."},
	}
	for i := range 20 {
		talks = append(talks, index.Talk{ID: fmt.Sprintf("t%d", i), Kind: index.KindTalk, Title: fmt.Sprintf("Talk number %d", i)})
	}
	e := newEngineT(t, talks, Options{})
	s, done, err := e.acquire()
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	titleBoost := func(q string) float64 {
		pl := s.compile(syntax.Parse(q))
		words := pl.q.(*query.BooleanQuery).Must.(*query.ConjunctionQuery).Conjuncts[0].(*query.DisjunctionQuery)
		clause := words.Disjuncts[0]
		if f, ok := clause.(scan.Fields); ok {
			clause = f.DisjunctionQuery
		}
		tq := clause.(*query.DisjunctionQuery).Disjuncts[0].(*query.TermQuery)
		if tq.Term != "bug" || tq.FieldVal != index.FieldTitle {
			t.Fatalf("%q: first clause's first query %s:%s, want title:bug", q, tq.FieldVal, tq.Term)
		}
		return tq.BoostVal.Value()
	}
	alone := titleBoost("bugs")
	for q, want := range map[string]float64{
		"bugs random inputs":         alone,
		"bugs finding random inputs": alone * ranking.DescribedTitle,
	} {
		if got := titleBoost(q); math.Abs(got-want) > 1e-12 {
			t.Errorf("%q: title boost %v, want %v", q, got, want)
		}
	}
	if got := titleBoost("how do bugs show with random inputs when finding"); math.Abs(got-alone) > 1e-12 {
		t.Errorf("a question: title boost %v, want %v", got, alone)
	}
}

package search

import (
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	bleveidx "github.com/blevesearch/bleve_index_api"

	"github.com/talksearch/talksearch/index"
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
		words := strings.Fields(d.talk.Title + " " + d.talk.Abstract)
		words = words[:min(len(words), 40)]
		for i := range words {
			for n := 2; n <= 3 && i+n <= len(words); n++ {
				text := strings.Join(words[i:i+n], " ")
				for _, field := range textFields {
					p, ok := s.phraseQuery(field, text, 1.5).(textPhrase)
					if !ok || seen[field+text] {
						continue // no phrase the field can have
					}
					q := p.MultiPhraseQuery
					seen[field+text] = true
					phrases++
					if len(phraseScores(t, s, ctx, q, 0, false)) > 0 {
						matched++
					}
					for _, step := range []uint64{0, 3} {
						for _, vectors := range []bool{false, true} {
							got := phraseScores(t, s, ctx, p, step, vectors)
							want := phraseScores(t, s, ctx, q, step, vectors)
							if !maps.Equal(got, want) {
								t.Fatalf("%s %q (terms %v, advance step %d, locations %v):\nscan phrase %v\n    Bleve's %v", field, text, q.Terms, step, vectors, got, want)
							}
						}
					}
				}
			}
		}
	}
	if phrases < 7_000 || matched < 5_900 {
		t.Errorf("%d phrases, %d with matches: not the seeds expected", phrases, matched)
	}
	if testing.Verbose() {
		t.Logf("%d phrases, %d with matches", phrases, matched)
	}
}

// phraseScores runs q's searcher over the index: by Next, or (step > 0) by
// Advance to every step-th document number, from where the last stopped.
// It gives each match's score, and with vectors the locations it keeps.
func phraseScores(t *testing.T, s *snapshot, ctx context.Context, q query.Query, step uint64, vectors bool) map[uint64]string {
	t.Helper()
	sc := s.scan
	srch, err := q.Searcher(ctx, sc.reader, sc.mapping, bsearch.SearcherOptions{IncludeTermVectors: vectors})
	if err != nil {
		t.Fatal(err)
	}
	defer srch.Close()
	sctx := &bsearch.SearchContext{DocumentMatchPool: bsearch.NewDocumentMatchPool(srch.DocumentMatchPoolSize(), 0), IndexReader: sc.reader}
	out := map[uint64]string{}
	id := make(bleveidx.IndexInternalID, 8)
	for n := uint64(0); ; n += step {
		var dm *bsearch.DocumentMatch
		if step == 0 {
			dm, err = srch.Next(sctx)
		} else {
			binary.BigEndian.PutUint64(id, n)
			dm, err = srch.Advance(sctx, id)
		}
		if err != nil {
			t.Fatal(err)
		}
		if dm == nil {
			return out
		}
		num, _ := docNumber(dm.IndexInternalID)
		out[num] = fmt.Sprint(dm.Score)
		if vectors { // Bleve's leave them even unasked for; the scan reads none
			dm.Complete(nil)
			out[num] += locationsString(dm.Locations)
		}
		n = max(n, num)
		sctx.DocumentMatchPool.Put(dm)
	}
}

// TestLocatorKeepsTextPhrases: a page is located with the query's own
// phrases.
func TestLocatorKeepsTextPhrases(t *testing.T) {
	e, _ := seedEngine(t)
	s := e.snap.Load()
	title := strings.Fields(s.byTime[0].talk.Title)
	phrase := s.phraseQuery(index.FieldTitle, title[0]+" "+title[1], 1)
	if _, ok := phrase.(textPhrase); !ok {
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
	case textPhrase:
		return x.MultiPhraseQuery
	case *query.DisjunctionQuery:
		c := *x
		c.Disjuncts = each(x.Disjuncts)
		return &c
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

// locationsString prints locations in a fixed order.
func locationsString(fl bsearch.FieldTermLocationMap) string {
	var b strings.Builder
	for _, f := range slices.Sorted(maps.Keys(fl)) {
		for _, term := range slices.Sorted(maps.Keys(fl[f])) {
			fmt.Fprintf(&b, " %s:%s", f, term)
			for _, l := range fl[f][term] {
				fmt.Fprintf(&b, " %d[%d,%d)%v", l.Pos, l.Start, l.End, l.ArrayPositions)
			}
		}
	}
	return b.String()
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
		page := slices.Clone(pageOf(ms, SortRelevance, 0, 20))
		for i := 0; i < len(ms) && i < 20*97; i += 97 {
			if !slices.ContainsFunc(page, func(m match) bool { return m.num == ms[i].num }) {
				page = append(page, ms[i])
			}
		}
		sc := q.s.scan
		bctx := q.s.withBM25(ctx)
		if err := sc.locate(bctx, pl.locator, page); err != nil {
			t.Fatal(err)
		}
		// The same without the restriction: scanner.locate as it was.
		plain := slices.Clone(page)
		searcher, err := sc.searcher(sc.scoringContext(bctx), pl.locator, bsearch.SearcherOptions{IncludeTermVectors: true})
		if err != nil {
			t.Fatal(err)
		}
		sctx := &bsearch.SearchContext{DocumentMatchPool: bsearch.NewDocumentMatchPool(searcher.DocumentMatchPoolSize()+len(plain), 0), IndexReader: sc.reader}
		for i := range plain {
			plain[i].hit = nil
		}
		err = advanceTo(sctx, searcher, plain, true, func(i int, dm *bsearch.DocumentMatch) {
			dm.Complete(nil)
			plain[i].hit = dm
		})
		searcher.Close()
		if err != nil {
			t.Fatal(err)
		}
		for i := range page {
			if (page[i].hit == nil) != (plain[i].hit == nil) || page[i].hit != nil && !reflect.DeepEqual(page[i].hit.Locations, plain[i].hit.Locations) {
				t.Fatalf("%q: talk %d located with the page's talks only differs from Bleve's", q.text, page[i].num)
			}
		}
		pages++
		if hasPhrase(pl.locator) {
			phrases++
		}
		if _, ok := sc.seeking().(*seekReader); ok {
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
	case textPhrase:
		return true
	case *query.DisjunctionQuery:
		qs = q.Disjuncts
	case *query.ConjunctionQuery:
		qs = q.Conjuncts
	case *query.BooleanQuery:
		qs = []query.Query{q.Must, q.Should, q.MustNot}
	}
	return slices.ContainsFunc(qs, func(q query.Query) bool { return q != nil && hasPhrase(q) })
}

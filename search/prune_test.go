package search

import (
	"context"
	"math"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search/scan"
	"github.com/talksearch/talksearch/search/syntax"
)

// TestPruningKeepsResults: clauses pruned for terms a field lacks
// (prune.go) change no result and no order. Each query is compiled twice on
// one snapshot, with the fields' dictionaries and without: both plans must
// find the same talks, with scores in one ratio (Bleve's query norm counts
// the clauses built), so in the same order.
func TestPruningKeepsResults(t *testing.T) {
	e := freshSeedEngine(t)
	s := e.snap.Load()
	queries := []string{
		"torch.compile", "KV-cache", "kv cache", "Monrach", "all-to-all", "state of the art", "Master Stage",
		`"distributed training" -monarch`, `title:"fault tolerance" speaker:xu`, "pytorch.xqzvw compile", "xqzvw qzxvw",
		"how do I run PyTorch in the browser", "lightning talks about rust", "C++ <1ms", "-xqzvw", `"xqzvw training"`,
	}
	for _, r := range benchRequests {
		queries = append(queries, r.Query)
	}
	g := newHostileGen(3, seedTitles(t))
	for _, shape := range hostileShapes {
		queries = append(queries, g.query(shape.next), g.query(shape.next))
	}
	// Without the dictionaries every clause costs its searchers, so the
	// budget (cost.go) would leave out more: lifted for the comparison.
	defer func(n int) { maxSearchers = n }(maxSearchers)
	maxSearchers = 1 << 30
	ctx := context.Background()
	inField := s.inField
	nonEmpty := 0
	for _, q := range queries {
		p := syntax.Parse(q)
		pruned := s.compile(p)
		s.inField = nil
		full := s.compile(p)
		s.inField = inField
		got, _, err := s.candidates(ctx, pruned)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		want, _, err := s.candidates(ctx, full)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if len(got) != len(want) {
			t.Errorf("%q: %d talks pruned, %d not", q, len(got), len(want))
			continue
		}
		scores := map[string]float64{}
		for _, m := range want {
			scores[s.docs[m.Num].talk.ID] = m.Score
		}
		ratio := 0.0
		for _, m := range got {
			w, ok := scores[s.docs[m.Num].talk.ID]
			if !ok {
				t.Errorf("%q: %s found pruned only", q, s.docs[m.Num].talk.ID)
				continue
			}
			if ratio == 0 {
				ratio = m.Score / w
			}
			if r := m.Score / w; math.Abs(r-ratio) > 1e-9*ratio {
				t.Errorf("%q: %s scored %v pruned, %v not: ratio %v, the first talk's %v", q, s.docs[m.Num].talk.ID, m.Score, w, r, ratio)
			}
		}
		if len(got) > 0 {
			nonEmpty++
		}
	}
	if nonEmpty < len(queries)/2 {
		t.Errorf("only %d of %d queries found anything: the comparison says little", nonEmpty, len(queries))
	}
}

// TestPhraseQueryIsBlevesMatchPhrase: phraseQuery, made from the cached
// analysis, finds what Bleve's match phrase query finds, with its scores:
// stop-word gaps, compounds and terms at one position included.
func TestPhraseQueryIsBlevesMatchPhrase(t *testing.T) {
	e, _ := seedEngine(t)
	s := e.snap.Load()
	for _, text := range []string{"distributed training", "state of the art", "torch.compile", "KV-cache", "Master Stage", "the future of pytorch", "C++", "LLMs on CPUs", "xqzvw training"} {
		for _, field := range textFields {
			bq := query.NewMatchPhraseQuery(text)
			bq.SetField(field)
			bq.SetBoost(1.5)
			want := phraseHits(t, s.idx, bq)
			got := phraseHits(t, s.idx, s.phraseQuery(field, text, 1.5))
			if len(got) != len(want) {
				t.Errorf("%q in %s: %d hits, Bleve's phrase %d", text, field, len(got), len(want))
				continue
			}
			for id, sc := range want {
				if got[id] != sc {
					t.Errorf("%q in %s: %s scored %v, Bleve's phrase %v", text, field, id, got[id], sc)
				}
			}
		}
	}
	// A phrase with a term no field has is known to match nothing.
	if q := s.phraseQuery(index.FieldTitle, "pytorch xqzvw", 1); !isNone(q) {
		t.Errorf("phrase with an unknown term: %T, want match-none", q)
	}
}

func phraseHits(t *testing.T, idx bleve.Index, q query.Query) map[string]float64 {
	t.Helper()
	res, err := idx.Search(bleve.NewSearchRequestOptions(q, 1000, 0, false))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, h := range res.Hits {
		out[h.ID] = h.Score
	}
	return out
}

// TestPruningDropsUnknownParts: the parts of a hostile query the index
// has no terms for cost no Bleve searcher: a dotted word with a non-word is
// no phrase, and a query of non-words alone is known to match nothing.
func TestPruningDropsUnknownParts(t *testing.T) {
	e, _ := seedEngine(t)
	s := e.snap.Load()
	pl := s.compile(syntax.Parse("pytorch.xqzvw lightning.zzqv compile"))
	if n := countPhrases(pl.q); n != 0 {
		t.Errorf("dotted non-words: %d phrase clauses built, want 0", n)
	}
	if pl.none || pl.q == nil {
		t.Errorf("dotted non-words beside compile: none %v, want a query", pl.none)
	}
	if pl := s.compile(syntax.Parse("xqzvw qzxvw vvqzx")); !pl.none {
		t.Errorf("non-words alone: none %v, want true", pl.none)
	}
	// A known phrase is still built, in the fields that have its terms.
	pl = s.compile(syntax.Parse(`"distributed training"`))
	if n := countPhrases(pl.q); n == 0 || n > len(textFields) {
		t.Errorf(`"distributed training": %d phrase clauses, want 1 to %d`, n, len(textFields))
	}
}

func countPhrases(q query.Query) int {
	switch x := q.(type) {
	case *query.MultiPhraseQuery, *query.MatchPhraseQuery, scan.Phrase:
		return 1
	case *query.BooleanQuery:
		n := 0
		for _, c := range []query.Query{x.Must, x.Should, x.MustNot} {
			if c != nil {
				n += countPhrases(c)
			}
		}
		return n
	case *query.DisjunctionQuery:
		n := 0
		for _, c := range x.Disjuncts {
			n += countPhrases(c)
		}
		return n
	case scan.Fields:
		return countPhrases(x.DisjunctionQuery)
	case *query.ConjunctionQuery:
		n := 0
		for _, c := range x.Conjuncts {
			n += countPhrases(c)
		}
		return n
	}
	return 0
}

package search

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/index"
)

// Related talks are found as Elasticsearch's more_like_this finds them,
// which Bleve lacks: take the talk's own distinctive terms (frequent in the
// talk, rare in the corpus), search for them as a weighted disjunction, and
// keep the best other talks.
const (
	// relatedTerms is how many distinctive terms of a talk make up its
	// query: enough to describe it, few enough to stay on topic.
	relatedTerms = 25
	// titleTermCount is how many abstract occurrences a title word is
	// worth: a title says what the talk is about.
	titleTermCount = 3
	// sharedTermsShown is how many shared terms explain a related talk.
	sharedTermsShown = 6
)

// relatedFiller are words present in most talks of a machine-learning
// conference that say nothing about what a talk is about; idf discounts
// them too, but on ~100 talks not enough.
var relatedFiller = strings.Fields(`pytorch torch model models training train trained gpu gpus
	talk session sessions present presents presentation learn learned use used using uses user users
	new also will can how what show shows work works working way ways help helps make makes made
	build building built across approach approaches based provide provides key including include
	ai performance perform large scale scaling system systems framework frameworks open source
	production real world time well like need needs one two first today data`)

// termStats are corpus-wide document frequencies of index terms, as
// index.AnalyzeTerms makes them.
type termStats struct {
	n      int
	df     map[string]int
	filler map[string]bool
}

func newTermStats(talks []index.Talk) *termStats {
	ts := &termStats{n: len(talks), df: map[string]int{}, filler: map[string]bool{}}
	seen := map[string]bool{}
	for i := range talks {
		clear(seen)
		for _, t := range talkTerms(&talks[i]) {
			if !seen[t] {
				seen[t] = true
				ts.df[t]++
			}
		}
	}
	for _, t := range index.AnalyzeTerms(strings.Join(relatedFiller, " ")) {
		ts.filler[t] = true
	}
	return ts
}

// talkTerms are the index terms of a talk's title and abstract.
func talkTerms(t *index.Talk) []string {
	return append(index.AnalyzeTerms(t.Title), index.AnalyzeTerms(t.Abstract)...)
}

// weightedTerm is a term with its weight in one talk.
type weightedTerm struct {
	term   string
	weight float64
}

// distinctive returns the talk's most distinctive terms, best first:
// tf (title words counted titleTermCount times, damped by a log) × idf.
// Terms no other talk has cannot relate it to anything and are left out.
func (ts *termStats) distinctive(t *index.Talk) []weightedTerm {
	tf := map[string]int{}
	for _, term := range index.AnalyzeTerms(t.Title) {
		tf[term] += titleTermCount
	}
	for _, term := range index.AnalyzeTerms(t.Abstract) {
		tf[term]++
	}
	out := make([]weightedTerm, 0, len(tf))
	for term, n := range tf {
		df := ts.df[term]
		if df < 2 || ts.filler[term] || len(term) < 2 || isNumber(term) {
			continue
		}
		idf := math.Log(float64(ts.n) / float64(df))
		if idf <= 0 {
			continue
		}
		out = append(out, weightedTerm{term, (1 + math.Log(float64(n))) * idf})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].weight != out[j].weight {
			return out[i].weight > out[j].weight
		}
		return out[i].term < out[j].term
	})
	if len(out) > relatedTerms {
		out = out[:relatedTerms]
	}
	return out
}

func isNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// relatedOf returns the talks most similar to d, computed once per snapshot.
func (s *snapshot) relatedOf(ctx context.Context, d *doc) ([]Related, error) {
	if v, ok := s.related.Load(d.talk.ID); ok {
		return v.([]Related), nil
	}
	rel, err := s.computeRelated(ctx, d)
	if err != nil {
		return nil, err
	}
	v, _ := s.related.LoadOrStore(d.talk.ID, rel)
	return v.([]Related), nil
}

func (s *snapshot) computeRelated(ctx context.Context, d *doc) ([]Related, error) {
	out := []Related{}
	terms := s.stats.distinctive(d.talk)
	if len(terms) == 0 {
		return out, nil
	}
	clauses := make([]query.Query, 0, 2*len(terms))
	for _, wt := range terms {
		for _, f := range []struct {
			field string
			boost float64
		}{{index.FieldTitle, 1.5}, {index.FieldAbstract, 1}} {
			q := query.NewTermQuery(wt.term)
			q.SetField(f.field)
			q.SetBoost(wt.weight * f.boost)
			clauses = append(clauses, q)
		}
	}
	display := displayWords(d.talk)
	breaks := query.NewTermQuery(string(index.KindBreak))
	breaks.SetField(index.FieldKind)
	q := query.NewBooleanQuery(
		[]query.Query{query.NewDisjunctionQuery(clauses)},
		nil,
		[]query.Query{query.NewDocIDQuery([]string{d.talk.ID}), breaks},
	)
	// Ask for a few more than needed: a hit may be gone from byID only if
	// the index and the corpus disagree, which would be a bug, but a
	// short list is better than an error page.
	req := bleve.NewSearchRequestOptions(q, s.opts.RelatedCount+2, 0, false)
	res, err := s.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	for _, h := range res.Hits {
		o, ok := s.byID[h.ID]
		if !ok || o.talk.Kind == index.KindBreak {
			continue
		}
		out = append(out, Related{
			ID:          o.talk.ID,
			Title:       o.talk.Title,
			Score:       round3(h.Score),
			SharedTerms: sharedTerms(terms, o.talk, display),
			Room:        o.talk.Room,
			Start:       o.talk.Start,
			End:         o.talk.End,
			Clash:       clash(d.talk, o.talk),
		})
		if len(out) == s.opts.RelatedCount {
			break
		}
	}
	return out, nil
}

// displayWords maps the index terms of a talk to the words the talk writes
// them as ("specul" → "speculative"), so shared terms read as words.
func displayWords(t *index.Talk) map[string]string {
	out := map[string]string{}
	for _, text := range []string{t.Title, t.Abstract} {
		for _, w := range surfaceWords(text) {
			if terms := index.AnalyzeTerms(w); len(terms) == 1 {
				if _, ok := out[terms[0]]; !ok {
					out[terms[0]] = w
				}
			}
		}
	}
	return out
}

// sharedTerms are the terms of terms (best first) that talk o has too,
// written as the source talk writes them.
func sharedTerms(terms []weightedTerm, o *index.Talk, display map[string]string) []string {
	has := map[string]bool{}
	for _, t := range talkTerms(o) {
		has[t] = true
	}
	out := []string{}
	for _, wt := range terms {
		if has[wt.term] {
			w, ok := display[wt.term]
			if !ok {
				w = wt.term
			}
			out = append(out, w)
			if len(out) == sharedTermsShown {
				break
			}
		}
	}
	return out
}

// clash says whether an attendee cannot see both talks: both scheduled, at
// overlapping times, in different rooms.
func clash(a, b *index.Talk) bool {
	if !a.Scheduled || !b.Scheduled || a.Start == nil || a.End == nil || b.Start == nil || b.End == nil {
		return false
	}
	if a.Room == b.Room {
		return false
	}
	return a.Start.Before(*b.End) && b.Start.Before(*a.End)
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

package ranking

import (
	"context"
	"fmt"
	"math"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	bsearch "github.com/blevesearch/bleve/v2/search"
	bleveidx "github.com/blevesearch/bleve_index_api"

	"github.com/talksearch/talksearch/index"
)

// Bleve's BM25 normalises a field's length by an "average length" that is
// the number of distinct terms of the field's dictionary divided by the
// number of documents (searcher.bm25ScoreMetrics, from
// IndexSnapshot.FieldCardinality), not the tokens per document. On FOSDEM
// 2024+2025 that is 6 for abstracts whose real mean is far longer, so an
// abstract of average length is scored as if it were eleven times too
// long: abstract words count for almost nothing beside title words, and a
// talk whose abstract says what a question or description asks loses to
// one with a word of it in the title. Bleve takes the statistics of a
// search from the context (search.BM25StatsKey, what a distributed search
// passes its shards), so the snapshot hands it the real mean lengths.

// bm25Sample is the most talks whose fields are analysed to estimate the
// mean field lengths: a mean settles long before 2,000 talks, and a
// 100,000-talk corpus must not pay an analysis of every abstract again.
const bm25Sample = 2000

// BM25Stats returns the statistics Bleve's BM25 should score with: the
// index's document count and, per text field, a "cardinality" whose
// quotient by that count is the field's mean length in tokens over a
// sample of the talks. Fields it does not measure keep Bleve's own figure.
func BM25Stats(idx bleve.Index, talks []index.Talk, an analysis.Analyzer) (*bsearch.BM25Stats, error) {
	return BM25StatsOf(idx, index.Whole(talks), an)
}

// BM25StatsOf is BM25Stats of a corpus whose texts may be in a store
// (index.Slim): only the sampled talks are read whole.
func BM25StatsOf(idx bleve.Index, talks index.Slim, an analysis.Analyzer) (*bsearch.BM25Stats, error) {
	n, err := idx.DocCount()
	if err != nil {
		return nil, fmt.Errorf("document count: %w", err)
	}
	if n == 0 || talks.Len() == 0 {
		// Nothing to measure; statistics without a field's figure would
		// make Bleve refuse every query of that field.
		return nil, nil
	}
	st := &bsearch.BM25Stats{DocCount: float64(n), FieldCardinality: map[string]int{}}
	fields := []struct {
		name string
		text func(t *index.Talk) string
	}{
		{index.FieldTitle, func(t *index.Talk) string { return t.Title }},
		{index.FieldAbstract, func(t *index.Talk) string { return t.Abstract }},
		{index.FieldDescription, func(t *index.Talk) string { return t.DescriptionText() }},
		{index.FieldSpeakers, func(t *index.Talk) string { return index.SpeakersText(t) }},
		{index.FieldTrackText, func(t *index.Talk) string { return t.Track }},
		{index.FieldRoomText, func(t *index.Talk) string { return t.Room }},
	}
	step := max(1, talks.Len()/bm25Sample)
	sampled := 0
	tokens := make([]int, len(fields))
	talks.EachEvery(step, func(_ int, t *index.Talk) {
		sampled++
		for k, f := range fields {
			if s := f.text(t); s != "" {
				tokens[k] += len(an.Analyze([]byte(s)))
			}
		}
	})
	for k, f := range fields {
		mean := float64(tokens[k]) / float64(sampled)
		// Bleve rounds the quotient up; at least 1 keeps BM25 on (a mean
		// of 0 switches a term's scorer to tf-idf).
		st.FieldCardinality[f.name] = int(math.Max(1, math.Round(mean)) * float64(n))
	}
	adv, err := idx.Advanced()
	if err != nil {
		return nil, fmt.Errorf("index reader: %w", err)
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, fmt.Errorf("index reader: %w", err)
	}
	defer r.Close()
	fr, ok := r.(bleveidx.BM25Reader)
	if !ok {
		return nil, nil // not scorch: Bleve's own statistics, whatever they are
	}
	names, err := idx.Fields()
	if err != nil {
		return nil, fmt.Errorf("fields: %w", err)
	}
	// A field a query names but the statistics lack is an error in Bleve.
	for _, f := range names {
		if _, ok := st.FieldCardinality[f]; ok {
			continue
		}
		if st.FieldCardinality[f], err = fr.FieldCardinality(f); err != nil {
			return nil, fmt.Errorf("cardinality of %s: %w", f, err)
		}
	}
	return st, nil
}

// WithBM25 is ctx carrying BM25 statistics for Bleve's searchers, which
// read them from the context of a search (as a distributed search passes
// its shards'); nil leaves Bleve its own.
func WithBM25(ctx context.Context, st *bsearch.BM25Stats) context.Context {
	if st == nil {
		return ctx
	}
	return context.WithValue(ctx, bsearch.BM25StatsKey, st)
}

package search

import (
	"context"
	"fmt"
	"sort"

	"github.com/blevesearch/bleve/v2"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/index"
)

// match is a talk matching a query, with its score, and the Bleve hit with
// the positions of the matched words when the search asked for them.
type match struct {
	d     *doc
	score float64
	hit   *bsearch.DocumentMatch
}

// singlePassMax is the largest corpus searched in one Bleve pass: the
// positions of the matched words are collected for every matching talk,
// which costs less than building the query's searchers a second time for
// the page's talks while a query matches at most a few hundred talks.
const singlePassMax = 2000

// search runs a normalized request on the snapshot. It makes at most two
// Bleve searches: one for every matching talk with its score (facets,
// filters, sorting and paging are then done in Go), and one for the
// positions of the matched words in the page's talks (highlights).
func (s *snapshot) search(ctx context.Context, r Request) (*Result, error) {
	p := parseQuery(r.Query)
	pl := s.compile(p)
	cands, err := s.candidates(ctx, pl)
	if err != nil {
		return nil, err
	}
	fc := newFacetCounter(s.newSelection(r))
	results := cands[:0:0]
	for _, m := range cands {
		if fc.add(m.d) {
			results = append(results, m)
		}
	}
	sortMatches(results, r.Sort, pl.q == nil)

	res := &Result{
		Query:    r.Query,
		Total:    uint64(len(results)),
		Hits:     []Hit{},
		Facets:   fc.facets(),
		Synonyms: pl.synonyms,
	}
	res.DidYouMean = replaceWords(r.Query, pl.fixes)
	if len(results) == 0 && res.DidYouMean == "" {
		res.DidYouMean = s.suggestQuery(p)
	}
	page := results[min(r.Offset, len(results)):min(r.Offset+r.Limit, len(results))]
	var hl map[string]Highlights
	switch {
	case pl.q == nil || len(page) == 0:
	case page[0].hit != nil:
		hl = make(map[string]Highlights, len(page))
		for _, m := range page {
			hl[m.d.talk.ID] = highlight(m.hit, m.d.talk)
		}
	default:
		if hl, err = s.highlights(ctx, pl.q, page); err != nil {
			return nil, err
		}
	}
	for _, m := range page {
		t := m.d.talk
		h := Hit{
			ID: t.ID, Title: t.Title, Speakers: t.Speakers,
			Track: t.Track, Level: t.Level, Room: t.Room, Start: t.Start, End: t.End,
			Kind: t.Kind, Scheduled: t.Scheduled, Score: round3(m.score),
			Highlights: Highlights{Title: []string{}, Abstract: []string{}},
		}
		if x, ok := hl[t.ID]; ok {
			h.Highlights = x
		}
		if h.Speakers == nil {
			h.Speakers = []index.Speaker{}
		}
		res.Hits = append(res.Hits, h)
	}
	return res, nil
}

// candidates returns every talk matching the plan, before facet selection.
func (s *snapshot) candidates(ctx context.Context, pl plan) ([]match, error) {
	if pl.none {
		return nil, nil
	}
	keep := func(d *doc) bool { return pl.tracks == nil || pl.tracks[d.track] }
	if pl.q == nil {
		out := make([]match, 0, len(s.byTime))
		for _, d := range s.byTime {
			if keep(d) {
				out = append(out, match{d: d})
			}
		}
		return out, nil
	}
	req := bleve.NewSearchRequestOptions(pl.q, len(s.byID), 0, false)
	single := len(s.byID) <= singlePassMax
	req.IncludeLocations = single
	res, err := s.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	out := make([]match, 0, len(res.Hits))
	for _, h := range res.Hits {
		d, ok := s.byID[h.ID]
		if !ok || !keep(d) {
			continue
		}
		score := h.Score
		if d.talk.Kind == index.KindBreak {
			score *= breakFactor
		}
		m := match{d: d, score: score}
		if single {
			m.hit = h
		}
		out = append(out, m)
	}
	return out, nil
}

// sortMatches orders results: by time (start, unscheduled last), or by
// score with time breaking ties. Without a query every score is equal, so
// relevance is schedule order too.
func sortMatches(ms []match, by string, noQuery bool) {
	if by == SortTime || noQuery {
		sort.Slice(ms, func(i, j int) bool { return ms[i].d.ord < ms[j].d.ord })
		return
	}
	sort.Slice(ms, func(i, j int) bool {
		if ms[i].score != ms[j].score {
			return ms[i].score > ms[j].score
		}
		return ms[i].d.ord < ms[j].d.ord
	})
}

// highlights searches the page's talks again, this time for the positions
// of the matched words, and marks them.
func (s *snapshot) highlights(ctx context.Context, q query.Query, page []match) (map[string]Highlights, error) {
	ids := make([]string, len(page))
	for i, m := range page {
		ids[i] = m.d.talk.ID
	}
	hq := query.NewConjunctionQuery([]query.Query{query.NewDocIDQuery(ids), q})
	req := bleve.NewSearchRequestOptions(hq, len(ids), 0, false)
	req.IncludeLocations = true
	res, err := s.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("highlight: %w", err)
	}
	out := make(map[string]Highlights, len(res.Hits))
	for _, h := range res.Hits {
		d, ok := s.byID[h.ID]
		if !ok {
			continue
		}
		out[h.ID] = highlight(h, d.talk)
	}
	return out, nil
}

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

// goFacetsMax is the largest corpus whose facets, filters, order and pages
// are computed in Go (see facets.go). Its searches run in one Bleve pass
// that also collects the positions of the matched words for highlights:
// cheaper than building the query's searchers a second time while a query
// matches at most a few thousand talks.
var goFacetsMax = 2000

// search runs a normalized request on the snapshot.
func (s *snapshot) search(ctx context.Context, r Request) (*Result, error) {
	p := parseQuery(r.Query)
	pl := s.compile(p)
	var (
		page  []match
		total uint64
		facs  Facets
		err   error
	)
	// Without a query nothing needs scoring: Go walks the talks in
	// schedule order whatever the corpus size.
	if len(s.byID) <= goFacetsMax || pl.q == nil {
		page, total, facs, err = s.searchInGo(ctx, r, pl)
	} else {
		page, total, facs, err = s.searchWithBleveFacets(ctx, r, pl)
	}
	if err != nil {
		return nil, err
	}
	res := &Result{
		Query:    r.Query,
		Total:    total,
		Hits:     make([]Hit, 0, len(page)),
		Facets:   facs,
		Synonyms: pl.synonyms,
	}
	res.DidYouMean = replaceWords(r.Query, pl.fixes)
	if total == 0 && res.DidYouMean == "" {
		res.DidYouMean = s.suggestQuery(p)
	}
	for _, m := range page {
		t := m.d.talk
		h := Hit{
			ID: t.ID, Title: t.Title, Speakers: t.Speakers,
			Track: t.Track, Level: t.Level, Room: t.Room, Start: t.Start, End: t.End,
			Kind: t.Kind, Scheduled: t.Scheduled, Score: round3(m.score),
			Highlights: Highlights{Title: []string{}, Abstract: []string{}},
		}
		if pl.q != nil && m.hit != nil {
			h.Highlights = highlight(m.hit, t)
		}
		if h.Speakers == nil {
			h.Speakers = []index.Speaker{}
		}
		res.Hits = append(res.Hits, h)
	}
	return res, nil
}

// searchInGo finds every talk matching the plan in one Bleve search, with
// the positions of the matched words, then selects, counts facets, sorts
// and pages in Go.
func (s *snapshot) searchInGo(ctx context.Context, r Request, pl plan) ([]match, uint64, Facets, error) {
	cands, err := s.candidates(ctx, pl)
	if err != nil {
		return nil, 0, Facets{}, err
	}
	fc := s.newFacetCounter(s.newSelection(r))
	results := cands[:0:0]
	for _, m := range cands {
		if fc.add(m.d) {
			results = append(results, m)
		}
	}
	if pl.q != nil {
		// Without a query the talks come in schedule order already.
		sortMatches(results, r.Sort)
	}
	page := results[min(r.Offset, len(results)):min(r.Offset+r.Limit, len(results))]
	return page, uint64(len(results)), fc.facets(), nil
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
	req.IncludeLocations = true
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
		out = append(out, match{d: d, score: score, hit: h})
	}
	return out, nil
}

// searchWithBleveFacets lets Bleve select, count facets, sort and page:
// one search with every selection gives the page, the total and the counts
// of the facets nobody selected; each selected facet is counted by one more
// search without its own selection. Breaks are not ranked down here: that
// needs every hit's kind, which is what this path avoids reading.
func (s *snapshot) searchWithBleveFacets(ctx context.Context, r Request, pl plan) ([]match, uint64, Facets, error) {
	facs := Facets{Track: []FacetValue{}, Level: []FacetValue{}, Room: []FacetValue{}, Missing: map[string]int{"track": 0, "level": 0, "room": 0}}
	if pl.none || (pl.tracks != nil && len(pl.tracks) == 0) {
		return nil, 0, facs, nil
	}
	sel := s.newSelection(r)
	fields := [3]string{index.FieldTrack, index.FieldLevel, index.FieldRoom}
	base := []query.Query{query.NewMatchAllQuery()}
	if pl.q != nil {
		base[0] = pl.q
	}
	if pl.tracks != nil {
		base = append(base, valuesQuery(index.FieldTrack, pl.tracks))
	}
	// filtered is the base with the selections of every facet but skip.
	filtered := func(skip int) query.Query {
		qs := append([]query.Query{}, base...)
		for i, vs := range sel {
			if i != skip && len(vs) > 0 {
				qs = append(qs, valuesQuery(fields[i], vs))
			}
		}
		if len(qs) == 1 {
			return qs[0]
		}
		return query.NewConjunctionQuery(qs)
	}
	main := bleve.NewSearchRequestOptions(filtered(-1), r.Limit, r.Offset, false)
	if r.Sort == SortTime {
		main.SortByCustom(bsearch.SortOrder{
			&bsearch.SortField{Field: index.FieldStart, Type: bsearch.SortFieldAsDate, Missing: bsearch.SortFieldMissingLast},
			&bsearch.SortDocID{},
		})
	}
	reqs := []*bleve.SearchRequest{main}
	for i, vs := range sel {
		fr := bleve.NewFacetRequest(fields[i], facetTermsMax)
		if len(vs) == 0 {
			main.AddFacet(facetNames[i], fr)
			continue
		}
		own := bleve.NewSearchRequestOptions(filtered(i), 0, 0, false)
		own.AddFacet(facetNames[i], fr)
		reqs = append(reqs, own)
	}
	var page []match
	var total uint64
	counts := [3]map[string]int{}
	for k, req := range reqs {
		res, err := s.idx.SearchInContext(ctx, req)
		if err != nil {
			return nil, 0, facs, fmt.Errorf("search: %w", err)
		}
		if k == 0 {
			total = res.Total
			for _, h := range res.Hits {
				if d, ok := s.byID[h.ID]; ok {
					page = append(page, match{d: d, score: h.Score, hit: h})
				}
			}
		}
		for i, name := range facetNames {
			f, ok := res.Facets[name]
			if !ok {
				continue
			}
			counts[i] = map[string]int{}
			if f.Terms != nil {
				for _, t := range f.Terms.Terms() {
					counts[i][t.Term] = t.Count
				}
			}
			facs.Missing[name] = f.Missing
		}
	}
	facs.Track = orderFacet(counts[0], sel[0])
	facs.Level = orderFacet(counts[1], sel[1])
	facs.Room = orderFacet(counts[2], sel[2])
	if err := s.locate(ctx, pl.q, page); err != nil {
		return nil, 0, facs, err
	}
	return page, total, facs, nil
}

// locate searches the page's talks again, this time with the positions of
// the matched words for highlights: asking for them in the first search
// would compute them for every matching talk.
func (s *snapshot) locate(ctx context.Context, q query.Query, page []match) error {
	if len(page) == 0 {
		return nil
	}
	ids := make([]string, len(page))
	for i, m := range page {
		ids[i] = m.d.talk.ID
	}
	req := bleve.NewSearchRequestOptions(query.NewConjunctionQuery([]query.Query{query.NewDocIDQuery(ids), q}), len(ids), 0, false)
	req.IncludeLocations = true
	res, err := s.idx.SearchInContext(ctx, req)
	if err != nil {
		return fmt.Errorf("locate matched words: %w", err)
	}
	byID := make(map[string]*bsearch.DocumentMatch, len(res.Hits))
	for _, h := range res.Hits {
		byID[h.ID] = h
	}
	for i := range page {
		page[i].hit = byID[page[i].d.talk.ID]
	}
	return nil
}

// facetTermsMax bounds the values of a facet Bleve returns: tracks, levels
// and rooms of a conference are a few dozen at most.
const facetTermsMax = 200

// valuesQuery matches talks whose keyword field has any of the values.
func valuesQuery(field string, values map[string]bool) query.Query {
	qs := make([]query.Query, 0, len(values))
	for v := range values {
		q := query.NewTermQuery(v)
		q.SetField(field)
		qs = append(qs, q)
	}
	if len(qs) == 1 {
		return qs[0]
	}
	return query.NewDisjunctionQuery(qs)
}

// sortMatches orders results: by time (start, unscheduled last), or by
// score with time breaking ties.
func sortMatches(ms []match, by string) {
	if by == SortTime {
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

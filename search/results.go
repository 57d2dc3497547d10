package search

import (
	"context"
	"sort"
	"sync"

	"github.com/talksearch/talksearch/search/highlight"
	"github.com/talksearch/talksearch/search/ranking"
	"github.com/talksearch/talksearch/search/scan"
	"github.com/talksearch/talksearch/search/syntax"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/index"
)

// match is a talk matching a query (scan.Match): its document number
// (snapshot.docs), score and hit.
type match = scan.Match

// search runs a normalized request on the snapshot.
func (s *snapshot) search(ctx context.Context, r Request) (*Result, error) {
	qm, err := s.matchesOf(ctx, r.Query)
	if err != nil {
		return nil, err
	}
	if !qm.kept && !s.onePass() && qm.pl.q != nil {
		// Read only until the hits are made below (the page is a part of
		// them): a large corpus's scan reuses them. A query of no words
		// lists every talk in a slice of its own (candidates), which the
		// scan's buffers never give: recycled, each browsing request would
		// add a slice of the corpus's size to the scan's pool, held live
		// until the collection after next.
		defer s.scan.Recycle(qm.cands)
	}
	pl := qm.pl
	page, total, facs, err := s.selectPage(ctx, r, qm)
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
	res.Corrected = res.DidYouMean != ""
	res.Simplified, res.Note = pl.simplified, pl.note
	res.Scope = s.scopeOf(r.Query)
	if total == 0 && res.DidYouMean == "" {
		res.DidYouMean = qm.suggest()
	}
	for _, m := range page {
		t := s.docs[m.Num].talk
		h := Hit{
			ID: t.ID, Title: t.Title, Speakers: t.Speakers,
			Track: t.Track, Level: t.Level, Room: t.Room, Start: t.Start, End: t.End,
			Kind: t.Kind, Scheduled: t.Scheduled, Cancelled: t.Cancelled, Score: round3(m.Score),
			Highlights: Highlights{Title: []string{}, Abstract: []string{}, Speakers: []string{}},
		}
		if pl.q != nil && m.Hit != nil {
			h.Highlights = highlight.Talk(m.Hit, s.full(s.docs[m.Num]))
		}
		if h.Speakers == nil {
			h.Speakers = []index.Speaker{}
		}
		res.Hits = append(res.Hits, h)
	}
	if r.Explain && pl.q != nil {
		if err := s.explain(ctx, pl, page, res.Hits); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// explain gives each hit of page the explanation of its score: Bleve's
// of the whole query times the factor of the clauses its matched words
// are in (ranking.Factors), as every execution path scores it.
func (s *snapshot) explain(ctx context.Context, pl plan, page []match, hits []Hit) error {
	dms, err := s.scan.Explain(s.withBM25(ctx), pl.q, page)
	if err != nil {
		return err
	}
	// The clauses a talk matches: from its matched words in one pass,
	// from the term dictionaries in a scan, as each scored it.
	var masks []uint32
	if !s.onePass() {
		if masks, err = s.scan.MasksOf(ctx, pl.coord, page); err != nil {
			return err
		}
	}
	f := ranking.NewFactors(pl.coord)
	for i, dm := range dms {
		if dm == nil {
			continue
		}
		mask := f.Mask(dm.FieldTermLocations)
		if masks != nil {
			mask = masks[i]
		}
		factor := f.Explain(mask, s.docs[page[i].Num].damping)
		e := ranking.Score(ranking.FromBleve(dm.Expl), factor)
		e.Value = round3(e.Value)
		hits[i].Explanation = &e
	}
	return nil
}

// queryMatches is what the query text alone decides: its plan and every
// talk it matches, before filters, sort and paging.
type queryMatches struct {
	pl    plan
	cands []match
	// kept: cands are shared with other searches (snapshot.matches); read
	// them, do not change them.
	kept bool
	// weight is the squared weight of what scored cands, for rescore.
	weight float64

	// suggest gives the query to propose when a search finds nothing
	// (suggestQuery), computed on first use only: the filtered variants
	// of a query that find nothing would each compute the same edit
	// distances.
	suggest func() string
}

// matchesOf compiles a query and finds its matches, or takes them from
// the snapshot's matches cache: the filtered, sorted and paged variants of a
// query, which a crowd sends far more of than it sends queries, then skip
// the index altogether. Only the conference-sized corpora of one Bleve
// pass (Options.OnePassMax) keep them, and only short lists (maxKeptMatches),
// which bounds the memory they hold.
func (s *snapshot) matchesOf(ctx context.Context, q string) (*queryMatches, error) {
	if qm, ok := s.matches.get(q); ok {
		return qm, nil
	}
	pl := s.compile(syntax.Parse(q))
	cands, weight, err := s.candidates(ctx, pl)
	if err != nil {
		return nil, err
	}
	qm := &queryMatches{pl: pl, cands: cands, weight: weight, suggest: sync.OnceValue(func() string { return s.suggestQuery(syntax.Parse(q)) })}
	if s.onePass() && s.matches.keeps() && len(cands) <= maxKeptMatches && len(q) <= maxKeptQueryBytes {
		qm.kept = true
		s.matches.put(q, qm)
	}
	return qm, nil
}

// maxKeptMatches bounds the match lists the matches cache keeps.
const maxKeptMatches = 128

// maxKeptQueryBytes bounds the queries whose matches are kept: a person
// re-asks a query with filters and pages, and types no 400 characters;
// the plan of such a query (every word's typo expansions) is most of what
// an entry would hold.
const maxKeptQueryBytes = 100

// selectPage selects the request's talks among the query's matches, counts
// facets, sorts and pages.
func (s *snapshot) selectPage(ctx context.Context, r Request, qm *queryMatches) ([]match, uint64, Facets, error) {
	pl, cands := qm.pl, qm.cands
	fc := s.newFacetCounter(s.newSelection(r), newTimeFilter(r))
	locates := pl.q != nil && !s.onePass()
	// A request that selects nothing has every match as a result: the
	// facets of many are counted while the page's matched words are
	// located, as neither waits for the other.
	countLater := locates && !qm.kept && !fc.selects() && len(cands) >= minCountBeside
	results := cands
	if !countLater {
		// Filtered in place, unless shared: a large corpus has tens of
		// thousands of matches.
		results = cands[:0]
		if qm.kept {
			results = make([]match, 0, len(cands))
		}
		for _, m := range cands {
			if fc.add(&m) {
				results = append(results, m)
			}
		}
	}
	var page []match
	switch {
	case s.rescores(pl) && r.Sort == SortRelevance:
		// The window's talks rank above every other once rescored; the
		// page is in the window.
		window := s.pageOf(results, r.Sort, 0, max(ranking.RescoreWindow, r.Offset+r.Limit))
		if err := s.scan.Rescore(s.withBM25(ctx), pl.optional, qm.weight, results, window); err != nil {
			return nil, 0, Facets{}, err
		}
		s.sortMatches(window, r.Sort)
		page = window[min(r.Offset, len(window)):min(r.Offset+r.Limit, len(window))]
	case s.rescores(pl):
		// In an order of time the page is the page; only its scores change.
		page = s.pageOf(results, r.Sort, r.Offset, r.Limit)
		if err := s.scan.Rescore(s.withBM25(ctx), pl.optional, qm.weight, results, page); err != nil {
			return nil, 0, Facets{}, err
		}
	case pl.q != nil:
		page = s.pageOf(results, r.Sort, r.Offset, r.Limit)
	default:
		// Without a query the talks are in schedule order, or newest first.
		by := SortTime
		if r.Sort == SortNewest {
			by = SortNewest
		}
		page = s.pageOf(results, by, r.Offset, r.Limit)
	}
	switch {
	case countLater:
		// On two cores: locating writes the page's hits only, and the
		// count reads the matches' document numbers only (the page is
		// among them).
		var err error
		var wg sync.WaitGroup
		wg.Go(func() { err = s.locate(ctx, pl.locator, page) })
		fc.addAll(results)
		wg.Wait()
		if err != nil {
			return nil, 0, Facets{}, err
		}
	case locates:
		if err := s.locate(ctx, pl.locator, page); err != nil {
			return nil, 0, Facets{}, err
		}
	}
	facs := fc.facets()
	fc.release()
	return page, uint64(len(results)), facs, nil
}

// minCountBeside is the fewest matches whose facets are counted beside
// locating the page: under it the goroutine costs more than it saves.
const minCountBeside = 8192

// inTracks keeps the talks of the plan's tracks (a track: clause), by
// document number; nil when the plan selects no track.
func (s *snapshot) inTracks(pl plan) func(n uint64) bool {
	if pl.tracks == nil {
		return nil
	}
	tracks := s.values[facetNames[trackFacet]]
	return func(n uint64) bool { k := s.docs[n].track; return k > 0 && pl.tracks[tracks[k-1]] }
}

// candidates returns every talk matching the plan, before facet selection,
// and the squared weight of what scored them (scanner.matches). A scan
// that rescores (rescore.go) scores the plan's required part only.
func (s *snapshot) candidates(ctx context.Context, pl plan) ([]match, float64, error) {
	if pl.none {
		return nil, 0, nil
	}
	keep := s.inTracks(pl)
	if pl.q == nil {
		// Every talk, in document-number order: the order they lie in
		// memory (layOut), which a count of every talk's facets reads
		// without the cache miss per talk of the order of time. selectPage
		// picks the page by time.
		out := make([]match, 0, len(s.byTime))
		for n, d := range s.docs {
			if d != nil && (keep == nil || keep(uint64(n))) {
				out = append(out, match{Num: uint64(n)})
			}
		}
		return out, 0, nil
	}
	switch {
	case s.rescores(pl):
		return s.scan.Matches(s.withBM25(ctx), pl.required, pl.coord, keep)
	case !s.onePass():
		return s.scan.Matches(s.withBM25(ctx), pl.q, pl.coord, keep)
	}
	out, err := s.scan.Located(s.withBM25(ctx), pl.q, pl.coord, keep)
	return out, 0, err
}

// locate finds the positions of the matched words of the page's talks for
// highlights: asking for them in the scan would compute them for every
// matching talk.
func (s *snapshot) locate(ctx context.Context, q query.Query, page []match) error {
	return s.scan.Locate(s.withBM25(ctx), q, page)
}

// matchLess orders results: by time (start, unscheduled last), newest
// first (unscheduled last too), or by score with the newest edition's
// talks first among equal scores (on an archive of twenty years, this
// year's talk is the likelier one sought), then in schedule order. Every
// order is total (ord and newest are unique), so a page is the same
// whether the results were sorted or only the page selected.
func (s *snapshot) matchLess(by string) func(a, b *match) bool {
	docs := s.docs
	switch by {
	case SortTime:
		return func(a, b *match) bool { return docs[a.Num].ord < docs[b.Num].ord }
	case SortNewest:
		return func(a, b *match) bool {
			da, db := docs[a.Num], docs[b.Num]
			sa, sb := da.talk.Start, db.talk.Start
			switch {
			case sa == nil || sb == nil:
				if (sa == nil) != (sb == nil) {
					return sb == nil
				}
			case !sa.Equal(*sb):
				return sa.After(*sb)
			}
			return da.ord < db.ord
		}
	}
	return func(a, b *match) bool {
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		return docs[a.Num].newest < docs[b.Num].newest
	}
}

// sortMatches orders results by matchLess.
func (s *snapshot) sortMatches(ms []match, by string) {
	less := s.matchLess(by)
	sort.Slice(ms, func(i, j int) bool { return less(&ms[i], &ms[j]) })
}

// pageOf returns results[offset:offset+limit] of ms in matchLess order. A
// query of a large corpus matches tens of thousands of talks for a page of
// twenty: the first offset+limit are selected with a heap (n log k) and
// only they are sorted. ms is reordered.
func (s *snapshot) pageOf(ms []match, by string, offset, limit int) []match {
	k := min(offset+limit, len(ms))
	if offset >= k {
		return nil
	}
	if k*4 >= len(ms) {
		s.sortMatches(ms, by)
		return ms[offset:k]
	}
	less := s.matchLess(by)
	// ms[:k] is a heap whose root is the worst of the best k so far.
	worse := func(i, j int) bool { return less(&ms[j], &ms[i]) }
	down := func(i int) {
		for {
			c := 2*i + 1
			if c >= k {
				return
			}
			if c+1 < k && worse(c+1, c) {
				c++
			}
			if !worse(c, i) {
				return
			}
			ms[i], ms[c] = ms[c], ms[i]
			i = c
		}
	}
	for i := k/2 - 1; i >= 0; i-- {
		down(i)
	}
	for i := k; i < len(ms); i++ {
		if less(&ms[i], &ms[0]) {
			ms[0], ms[i] = ms[i], ms[0]
			down(0)
		}
	}
	s.sortMatches(ms[:k], by)
	return ms[offset:k]
}

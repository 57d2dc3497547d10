package search

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	bleveidx "github.com/blevesearch/bleve_index_api"
	"github.com/talksearch/talksearch/search/ranking"
)

// Searches run their query's Bleve searcher directly. Those of corpora
// larger than Options.OnePassMax read every match's score and internal
// document number, nothing else: no external id (a stored-field read per
// hit), no word positions, no facet doc values; smaller ones also read the
// positions of the matched words (located). Counting facets, filtering, ordering
// and paging then happen in Go over the talks those numbers stand for, as
// for small corpora. On 100k synthetic talks this costs a fraction of
// Bleve's facet requests, which visit every hit's doc values once per
// request (BenchmarkSearchSynthetic; numbers in the commit that made it).

// scanner is one fixed reader of a snapshot's index and the talk behind each
// of its internal document numbers. The reader is held for the snapshot's
// life: an on-disk index merges segments in the background, which numbers
// documents anew in later readers, never in this one.
type scanner struct {
	reader bleveidx.IndexReader
	// docs are the talks by internal document number; nil where no talk.
	docs []*doc
	// breaks says by document number which talks are breaks: a scan reads
	// it for every match, and loading each match's doc for it was a cache
	// miss per match, a tenth of a FOSDEM search.
	breaks  []bool
	mapping mapping.IndexMapping
	// partBufs recycles the matches of scans (buffer, recycle): the parts
	// of a split scan are garbage once merged, and a search's matches once
	// its page is made: tens of thousands of matches per search, which the
	// FOSDEM archive's searches spent a fifth of their allocations on.
	partBufs sync.Pool
	// scoring is the index mapping's scoring model, which Bleve's term
	// searchers read from the context of a search (as Bleve's own search
	// decides it).
	scoring string
	// minPart is the fewest documents of one part of a split scan
	// (minScanPart).
	minPart int
	// maskPool recycles the clause masks of scans (scancoord.go).
	maskPool sync.Pool
	// evalPool recycles the evaluators of tree scans (treescan.go).
	evalPool sync.Pool
	// phrases are what each of the thesaurus's phrases matches
	// (knownPhrases), set once as the snapshot is made.
	phrases map[string]*knownPhrase
}

func newScanner(idx bleve.Index, byID map[string]*doc) (*scanner, error) {
	adv, err := idx.Advanced()
	if err != nil {
		return nil, fmt.Errorf("index reader: %w", err)
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, fmt.Errorf("index reader: %w", err)
	}
	sc := &scanner{reader: r, mapping: idx.Mapping(), scoring: bleveidx.DefaultScoringModel, minPart: minScanPart}
	if m, ok := sc.mapping.(*mapping.IndexMappingImpl); ok && m.ScoringModel == bleveidx.BM25Scoring {
		sc.scoring = bleveidx.BM25Scoring
	}
	if err := sc.number(byID); err != nil {
		r.Close()
		return nil, err
	}
	return sc, nil
}

// number fills docs from every live document of the reader.
func (sc *scanner) number(byID map[string]*doc) error {
	all, err := sc.reader.DocIDReaderAll()
	if err != nil {
		return fmt.Errorf("document numbers: %w", err)
	}
	defer all.Close()
	for {
		iid, err := all.Next()
		if err != nil {
			return fmt.Errorf("document numbers: %w", err)
		}
		if iid == nil {
			return nil
		}
		n, ok := docNumber(iid)
		if !ok {
			return fmt.Errorf("internal document id %x is not a scorch document number", []byte(iid))
		}
		id, err := sc.reader.ExternalID(iid)
		if err != nil {
			return fmt.Errorf("id of document %d: %w", n, err)
		}
		d, ok := byID[id]
		if !ok {
			continue // a document that is not a talk of the corpus
		}
		for uint64(len(sc.docs)) <= n {
			sc.docs = append(sc.docs, nil)
			sc.breaks = append(sc.breaks, false)
		}
		sc.docs[n] = d
		sc.breaks[n] = d.isBreak
		d.num = n
	}
}

// docNumber decodes a scorch internal id: a big-endian document number.
func docNumber(iid bleveidx.IndexInternalID) (uint64, bool) {
	if len(iid) != 8 {
		return 0, false
	}
	return binary.BigEndian.Uint64(iid), true
}

func (sc *scanner) close() error { return sc.reader.Close() }

// Scans of a large index are split by document number into parts that run
// on their own goroutines, each with its own searcher over the shared
// reader: every part scores with the reader's statistics, so the matches
// and scores are those of one scan, in a fraction of the time on an idle
// machine. A part builds the query's searchers again, so parts are no
// smaller than minScanPart documents (scanner.minPart, which tests lower).
const (
	maxScanParts = 4
	minScanPart  = 25_000
)

// matches returns every talk matching q with its score, soft coordination
// over coord and breaks ranked down as candidates does, in no particular
// order.
//
// weight is the sum of the squared weights of q's searcher, what Bleve
// derives its query norm from (rescore.go).
func (sc *scanner) matches(ctx context.Context, q query.Query, coord []ranking.Clause, tracks map[string]bool) (ms []match, weight float64, err error) {
	ctx = sc.scoringContext(ctx)
	mp, err := sc.clauseMasks(ctx, coord)
	if err != nil {
		return nil, 0, fmt.Errorf("search: %w", err)
	}
	var masks []uint32
	if mp != nil {
		masks = *mp
		defer sc.putMasks(mp)
	}
	tq, err := sc.treeScan(ctx, flat(q))
	if err != nil {
		return nil, 0, fmt.Errorf("search: %w", err)
	}
	part := func(from, to uint64, out []match) ([]match, float64, error) {
		if tq != nil {
			return sc.treePart(ctx, tq, coord, masks, tracks, from, to, out)
		}
		return sc.scanPart(ctx, q, coord, masks, tracks, from, to, out)
	}
	parts := min(runtime.GOMAXPROCS(0), maxScanParts, max(1, len(sc.docs)/sc.minPart))
	if parts == 1 {
		return part(0, uint64(len(sc.docs)), sc.buffer())
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	outs := make([][]match, parts)
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for k := range parts {
		from := uint64(len(sc.docs) * k / parts)
		to := uint64(len(sc.docs) * (k + 1) / parts)
		buf := sc.buffer()
		wg.Go(func() {
			// Every part's searcher is of the same query over the same
			// reader: one weight.
			var w float64
			outs[k], w, errs[k] = part(from, to, buf)
			if k == 0 {
				weight = w
			}
			if errs[k] != nil {
				cancel()
			}
		})
	}
	wg.Wait()
	defer func() {
		for _, o := range outs {
			sc.recycle(o)
		}
	}()
	if err := errors.Join(errs...); err != nil {
		return nil, 0, err
	}
	out := sc.buffer()
	for _, o := range outs {
		out = append(out, o...)
	}
	return out, weight, nil
}

// buffer returns an empty slice of matches to append to, recycled from an
// earlier scan where there is one.
func (sc *scanner) buffer() []match {
	if p, ok := sc.partBufs.Get().(*[]match); ok {
		return (*p)[:0]
	}
	return nil
}

// recycle keeps ms, which its user no longer reads, for a later scan.
func (sc *scanner) recycle(ms []match) {
	if ms == nil {
		return
	}
	// No stale pointers to docs kept alive. A buffer's users only append
	// to it and reorder or filter in place, so nothing was written past
	// its length: a buffer grown by the longest query of a 100k corpus has
	// room for tens of thousands of matches, and clearing all of them after
	// every search was 6 % of its CPU.
	clear(ms)
	ms = ms[:0]
	sc.partBufs.Put(&ms)
}

// searcher is the searcher of q over the reader, flattened (flat): the
// same matches and scores through fewer searchers.
func (sc *scanner) searcher(ctx context.Context, q query.Query, o bsearch.SearcherOptions) (bsearch.Searcher, error) {
	return flat(q).Searcher(ctx, sc.reader, sc.mapping, o)
}

// seekingSearcher is searcher over sc.seeking(), for a searcher advanced
// to a few talks.
func (sc *scanner) seekingSearcher(ctx context.Context, q query.Query, o bsearch.SearcherOptions) (bsearch.Searcher, error) {
	return flat(q).Searcher(ctx, sc.seeking(), sc.mapping, o)
}

// scoringContext is ctx with the scoring model the reader's searchers read.
func (sc *scanner) scoringContext(ctx context.Context) context.Context {
	return context.WithValue(ctx, bsearch.GetScoringModelCallbackKey,
		bsearch.GetScoringModelCallbackFn(func() string { return sc.scoring }))
}

// locate sets the hit of each match of page: q's match of that talk with
// the positions of the matched words, for highlights. One searcher of q
// that records positions advances from talk to talk of the page in
// document order, scoring and collecting none of the talks between them:
// a Bleve search of the page's ids AND q cost a third of the scan itself,
// most of it collecting and the conjunction with the ids. (zap still walks
// each term's postings up to the page's talks, skipping the frequencies
// and positions in the target's chunk, which for a term of fewer than
// 1,024 talks is the whole list: locating costs about a read of its terms.)
func (sc *scanner) locate(ctx context.Context, q query.Query, page []match) error {
	if len(page) == 0 {
		return nil
	}
	ctx = withPhraseTalks(sc.scoringContext(ctx), docNumbers(page))
	searcher, err := sc.seekingSearcher(ctx, q, bsearch.SearcherOptions{IncludeTermVectors: true})
	if err != nil {
		return fmt.Errorf("locate matched words: %w", err)
	}
	defer searcher.Close()
	sctx := &bsearch.SearchContext{
		DocumentMatchPool: bsearch.NewDocumentMatchPool(searcher.DocumentMatchPoolSize()+len(page), 0),
		IndexReader:       sc.reader,
	}
	err = advanceTo(sctx, searcher, page, true, func(i int, dm *bsearch.DocumentMatch) {
		// Locations are what highlight reads; the searcher leaves them
		// as a list until completed (as Bleve's collector does).
		dm.Complete(nil)
		page[i].hit = dm
	})
	if err != nil {
		return fmt.Errorf("locate matched words: %w", err)
	}
	return nil
}

// advanceTo advances searcher to the talks of ms in document number order,
// scoring none of the talks between them, and calls at with each talk
// it matches and its match. The matches are the caller's when keep, else
// they go back to the pool once passed.
func advanceTo(sctx *bsearch.SearchContext, searcher bsearch.Searcher, ms []match, keep bool, at func(i int, dm *bsearch.DocumentMatch)) error {
	id := make(bleveidx.IndexInternalID, 8)
	var dm *bsearch.DocumentMatch
	for _, i := range docOrder(ms) {
		n := ms[i].d.num
		if dm != nil {
			cur, _ := docNumber(dm.IndexInternalID)
			if cur > n {
				continue
			}
			if cur == n {
				// Where the last advance stopped.
				at(i, dm)
				continue
			}
			if !keep {
				sctx.DocumentMatchPool.Put(dm)
			}
		}
		binary.BigEndian.PutUint64(id, n)
		var err error
		if dm, err = searcher.Advance(sctx, id); err != nil {
			return err
		}
		if dm == nil {
			return nil
		}
		if cur, _ := docNumber(dm.IndexInternalID); cur == n {
			at(i, dm)
		}
	}
	return nil
}

// docNumbers is the sorted document numbers of ms.
func docNumbers(ms []match) []uint64 {
	nums := make([]uint64, len(ms))
	for i, m := range ms {
		nums[i] = m.d.num
	}
	slices.Sort(nums)
	return nums
}

// docOrder is the indices of ms in document number order, the order a
// searcher advances in.
func docOrder(ms []match) []int {
	order := make([]int, len(ms))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(ms[a].d.num, ms[b].d.num) })
	return order
}

// maxPooledMatches bounds the matches a one-pass search makes up front.
const maxPooledMatches = 64

// located returns every talk matching q with its Bleve score (breaks not
// ranked down: softCoord needs the score as Bleve gives it) and its hit
// with the positions of the matched words, in document order. This is
// the one pass of a small corpus: a Bleve search of as many hits as talks
// did the same, and on the seeds a fifth of its cost was its collector
// (a heap of every hit, each hit's external id read from the index).
func (sc *scanner) located(ctx context.Context, q query.Query, tracks map[string]bool) ([]match, error) {
	ctx = sc.scoringContext(ctx)
	searcher, err := sc.searcher(ctx, q, bsearch.SearcherOptions{IncludeTermVectors: true})
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer searcher.Close()
	// Bleve sizes a pool for the most matches its searchers could hold at
	// once, and makes them all up front: 250 for a long query on the
	// seeds, of which about 100 are used (the hits kept included). The
	// pool makes any more one at a time.
	sctx := &bsearch.SearchContext{
		DocumentMatchPool: bsearch.NewDocumentMatchPool(min(searcher.DocumentMatchPoolSize(), maxPooledMatches), 0),
		IndexReader:       sc.reader,
	}
	var out []match
	for i := 1; ; i++ {
		dm, err := searcher.Next(sctx)
		if err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		if dm == nil {
			return out, nil
		}
		n, _ := docNumber(dm.IndexInternalID)
		if d := sc.docs[n]; d != nil && (tracks == nil || tracks[d.track]) {
			// The hit is kept (not returned to the pool) with its list
			// of matched terms, which softCoord and highlight read.
			out = append(out, match{d: d, num: n, score: dm.Score, hit: dm})
		} else {
			sctx.DocumentMatchPool.Put(dm)
		}
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("search: %w", err)
			}
		}
	}
}

// appendMatch appends to out the match of document n with Bleve's score,
// unless it is no talk or not of tracks: soft coordination over the
// clauses masks says it matches (none when masks is nil), breaks ranked
// down.
func (sc *scanner) appendMatch(out []match, n uint64, score float64, f *ranking.Factors, masks []uint32, tracks map[string]bool) []match {
	d := sc.docs[n]
	if d == nil || (tracks != nil && !tracks[d.track]) {
		return out
	}
	var mask uint32
	if masks != nil {
		mask = masks[n]
	}
	factor := f.Of(mask, sc.breaks[n])
	return append(out, match{d: d, num: n, score: score * factor, factor: factor})
}

// scanPart appends to out the matches of q among documents numbered from
// to to (exclusive), coordinated over coord by the clauses masks says each
// matches (none when masks is nil).
func (sc *scanner) scanPart(ctx context.Context, q query.Query, coord []ranking.Clause, masks []uint32, tracks map[string]bool, from, to uint64, out []match) ([]match, float64, error) {
	searcher, err := sc.searcher(ctx, q, bsearch.SearcherOptions{})
	if err != nil {
		return nil, 0, fmt.Errorf("search: %w", err)
	}
	defer searcher.Close()
	weight := searcher.Weight()
	sctx := &bsearch.SearchContext{
		DocumentMatchPool: bsearch.NewDocumentMatchPool(searcher.DocumentMatchPoolSize(), 0),
		IndexReader:       sc.reader,
	}
	f := ranking.NewFactors(coord)
	var dm *bsearch.DocumentMatch
	if from == 0 {
		dm, err = searcher.Next(sctx)
	} else {
		first := make(bleveidx.IndexInternalID, 8)
		binary.BigEndian.PutUint64(first, from)
		dm, err = searcher.Advance(sctx, first)
	}
	for i := 1; ; i++ {
		if err != nil {
			return nil, 0, fmt.Errorf("search: %w", err)
		}
		if dm == nil {
			return out, weight, nil
		}
		n, _ := docNumber(dm.IndexInternalID)
		if n >= to {
			return out, weight, nil
		}
		out = sc.appendMatch(out, n, dm.Score, f, masks, tracks)
		sctx.DocumentMatchPool.Put(dm)
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, 0, fmt.Errorf("search: %w", err)
			}
		}
		dm, err = searcher.Next(sctx)
	}
}

package scan

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

// Match is a talk matching a query: its document number in the Index, its
// score, the factor the score was multiplied by (ranking.Factors.Of), and
// the Bleve hit with the positions of the matched words where the search
// asked for them.
type Match struct {
	Num    uint64
	Score  float64
	Factor float64
	Hit    *bsearch.DocumentMatch
}

// Index is one fixed reader of an index, numbered: the talk behind each of
// its internal document numbers. The reader is held for the Index's life:
// an on-disk index merges segments in the background, which numbers
// documents anew in later readers, never in this one.
type Index struct {
	reader bleveidx.IndexReader
	// talks says by document number which documents are talks.
	talks []bool
	// damping says by document number which talks are breaks or
	// cancelled: a scan reads it for every match, where loading each
	// match's talk for it was a cache miss per match.
	damping []ranking.Damping
	mapping mapping.IndexMapping
	// partBufs recycles the matches of scans (buffer, Recycle): the parts
	// of a split scan are garbage once merged, and a search's matches once
	// its page is made: tens of thousands of matches per search.
	partBufs sync.Pool
	// scoring is the index mapping's scoring model, which Bleve's term
	// searchers read from the context of a search (as Bleve's own search
	// decides it).
	scoring string
	// opts are the Index's Options.
	opts Options
	// maskPool recycles the clause masks of scans (masks.go).
	maskPool sync.Pool
	// evalPool recycles the evaluators of tree scans (tree.go).
	evalPool sync.Pool
	// phrases are what each of the thesaurus's phrases matches
	// (KnowPhrases), set once as the Index is made.
	phrases map[string]*knownPhrase
	// knownQueries are the phrases KnowPhrases was given.
	knownQueries []Phrase
	// memo keeps the postings the one passes read (memo.go).
	memo memo
}

// Options tune an Index; the zero value is the default. They exist for
// the tests that hold the fast path to Bleve's own searchers.
type Options struct {
	// MinPart is the fewest documents of one part of a split scan; 0
	// means minScanPart.
	MinPart int
	// NoTree reads every query through its Bleve searcher.
	NoTree bool
	// NoDictionaries makes clause masks from term field readers instead
	// of the segment's postings bitmaps.
	NoDictionaries bool
}

// Talk says whether the document of external id id, numbered num, is a
// talk, and its damping (a break, a cancelled talk).
type Talk func(id string, num uint64) (isTalk bool, damping ranking.Damping)

// Open numbers the live documents of idx's reader, asking talk about each.
func Open(idx bleve.Index, talk Talk, o Options) (*Index, error) {
	adv, err := idx.Advanced()
	if err != nil {
		return nil, fmt.Errorf("index reader: %w", err)
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, fmt.Errorf("index reader: %w", err)
	}
	if o.MinPart <= 0 {
		o.MinPart = minScanPart
	}
	sc := &Index{reader: r, mapping: idx.Mapping(), scoring: bleveidx.DefaultScoringModel, opts: o}
	if m, ok := sc.mapping.(*mapping.IndexMappingImpl); ok && m.ScoringModel == bleveidx.BM25Scoring {
		sc.scoring = bleveidx.BM25Scoring
	}
	if err := sc.number(talk); err != nil {
		r.Close()
		return nil, err
	}
	return sc, nil
}

// Len is one more than the largest document number: the length of a table
// by document number.
func (sc *Index) Len() int { return len(sc.talks) }

// number fills talks and damping from every live document of the reader.
func (sc *Index) number(talk Talk) error {
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
		isTalk, damping := talk(id, n)
		if !isTalk {
			continue // a document that is not a talk of the corpus
		}
		for uint64(len(sc.talks)) <= n {
			sc.talks = append(sc.talks, false)
			sc.damping = append(sc.damping, 0)
		}
		sc.talks[n] = true
		sc.damping[n] = damping
	}
}

// docNumber decodes a scorch internal id: a big-endian document number.
func docNumber(iid bleveidx.IndexInternalID) (uint64, bool) {
	if len(iid) != 8 {
		return 0, false
	}
	return binary.BigEndian.Uint64(iid), true
}

// Close releases the reader.
func (sc *Index) Close() error { return sc.reader.Close() }

// Scans of a large index are split by document number into parts that run
// on their own goroutines, each with its own searcher over the shared
// reader: every part scores with the reader's statistics, so the matches
// and scores are those of one scan, in a fraction of the time on an idle
// machine. A part builds the query's searchers again, so parts are no
// smaller than minScanPart documents (Options.MinPart).
const (
	maxScanParts = 4
	minScanPart  = 25_000
)

// Matches returns every talk matching q that keep keeps (nil: all), with
// its score (Bleve's times ranking.Factors.Of of the clauses it matches),
// in no particular order. The clauses a talk matches are read from the
// term dictionaries, not from its matched words: a scan reads no
// positions. Give the matches back with Recycle once read.
//
// weight is the sum of the squared weights of q's searcher, what Bleve
// derives its query norm from (rescore.go).
func (sc *Index) Matches(ctx context.Context, q query.Query, clauses []ranking.Clause, keep func(n uint64) bool) (ms []Match, weight float64, err error) {
	ctx = sc.scoringContext(ctx)
	mp, err := sc.clauseMasks(ctx, clauses)
	if err != nil {
		return nil, 0, fmt.Errorf("search: %w", err)
	}
	var masks []uint32
	if mp != nil {
		masks = *mp
		defer sc.putMasks(mp)
	}
	var tq *treeQuery
	if !sc.opts.NoTree {
		if tq, err = sc.treeScan(ctx, flat(q)); err != nil {
			return nil, 0, fmt.Errorf("search: %w", err)
		}
	}
	part := func(from, to uint64, out []Match) ([]Match, float64, error) {
		if tq != nil {
			return sc.treePart(ctx, tq, clauses, masks, keep, from, to, out)
		}
		return sc.scanPart(ctx, q, clauses, masks, keep, from, to, out)
	}
	parts := min(runtime.GOMAXPROCS(0), maxScanParts, max(1, len(sc.talks)/sc.opts.MinPart))
	if parts == 1 {
		return part(0, uint64(len(sc.talks)), sc.buffer())
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	outs := make([][]Match, parts)
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for k := range parts {
		from := uint64(len(sc.talks) * k / parts)
		to := uint64(len(sc.talks) * (k + 1) / parts)
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
			sc.Recycle(o)
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
func (sc *Index) buffer() []Match {
	if p, ok := sc.partBufs.Get().(*[]Match); ok {
		return (*p)[:0]
	}
	return nil
}

// Recycle keeps ms, which its user no longer reads, for a later scan.
func (sc *Index) Recycle(ms []Match) {
	if ms == nil {
		return
	}
	// No stale pointers to docs kept alive. A buffer's users only append
	// to it and reorder or filter in place, so nothing was written past
	// its length: a buffer grown by the longest query of a 100k corpus has
	// room for tens of thousands of matches, and clearing all of them would
	// make every later search pay for that longest one.
	clear(ms)
	ms = ms[:0]
	sc.partBufs.Put(&ms)
}

// searcher is the searcher of q over the reader, flattened (flat): the
// same matches and scores through fewer searchers.
func (sc *Index) searcher(ctx context.Context, q query.Query, o bsearch.SearcherOptions) (bsearch.Searcher, error) {
	return flat(q).Searcher(ctx, sc.reader, sc.mapping, o)
}

// seekingSearcher is searcher over sc.seeking(), for a searcher advanced
// to a few talks.
func (sc *Index) seekingSearcher(ctx context.Context, q query.Query, o bsearch.SearcherOptions) (bsearch.Searcher, error) {
	return flat(q).Searcher(ctx, sc.seeking(), sc.mapping, o)
}

// scoringContext is ctx with the scoring model the reader's searchers read.
func (sc *Index) scoringContext(ctx context.Context) context.Context {
	return context.WithValue(ctx, bsearch.GetScoringModelCallbackKey,
		bsearch.GetScoringModelCallbackFn(func() string { return sc.scoring }))
}

// Locate sets the hit of each match of page: q's match of that talk with
// the positions of the matched words, for highlights. It costs about a
// read of q's terms up to the page's last talk, not a search.
func (sc *Index) Locate(ctx context.Context, q query.Query, page []Match) error {
	if len(page) == 0 {
		return nil
	}
	// One searcher of q that records positions advances from talk to talk
	// of the page in document order, scoring and collecting none of the
	// talks between them, where a Bleve search of the page's ids AND q
	// would collect every match and intersect it with the ids. (zap still
	// walks each term's postings up to the page's talks, skipping the
	// frequencies and positions in the target's chunk, which for a term of
	// fewer than 1,024 talks is the whole list.)
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
		page[i].Hit = dm
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
func advanceTo(sctx *bsearch.SearchContext, searcher bsearch.Searcher, ms []Match, keep bool, at func(i int, dm *bsearch.DocumentMatch)) error {
	id := make(bleveidx.IndexInternalID, 8)
	var dm *bsearch.DocumentMatch
	for _, i := range docOrder(ms) {
		n := ms[i].Num
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
func docNumbers(ms []Match) []uint64 {
	nums := make([]uint64, len(ms))
	for i, m := range ms {
		nums[i] = m.Num
	}
	slices.Sort(nums)
	return nums
}

// docOrder is the indices of ms in document number order, the order a
// searcher advances in.
func docOrder(ms []Match) []int {
	order := make([]int, len(ms))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(ms[a].Num, ms[b].Num) })
	return order
}

// maxPooledMatches bounds the matches a one-pass search makes up front;
// beyond them the pool grows by as many at a time (growPool).
const maxPooledMatches = 16

// growPool is a one-pass search's pool's answer to running out: a block
// of maxPooledMatches matches, one returned and the rest pooled, where
// Bleve's default makes them one at a time. A search that needs few
// makes few: most of a conference's queries match a few dozen talks.
func growPool(p *bsearch.DocumentMatchPool) *bsearch.DocumentMatch {
	block := make([]bsearch.DocumentMatch, maxPooledMatches)
	for i := 1; i < len(block); i++ {
		p.Put(&block[i])
	}
	return &block[0]
}

// Located returns every talk matching q that keep keeps (nil: all), with
// its score (Bleve's times the factor of the clauses its matched words
// are in: ranking.Factors.Of) and its hit with the positions of the
// matched words, in document order. This is the one pass of a small
// corpus: what a Bleve search of as many hits as talks gives, without its
// collector (a heap of every hit, each hit's external id read from the
// index), and with its terms' postings read from the memo (memo.go).
func (sc *Index) Located(ctx context.Context, q query.Query, clauses []ranking.Clause, keep func(n uint64) bool) ([]Match, error) {
	f := ranking.NewFactors(clauses)
	ctx = sc.scoringContext(ctx)
	searcher, err := flat(q).Searcher(ctx, sc.memoizing(), sc.mapping, bsearch.SearcherOptions{IncludeTermVectors: true})
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer searcher.Close()
	// Bleve sizes a pool for the most matches its searchers could hold at
	// once, and makes them all up front: 250 for a long query on the
	// seeds, of which about 100 are used (the hits kept included). The
	// pool makes any more one at a time.
	pool := bsearch.NewDocumentMatchPool(min(searcher.DocumentMatchPoolSize(), maxPooledMatches), 0)
	pool.TooSmall = growPool
	sctx := &bsearch.SearchContext{DocumentMatchPool: pool, IndexReader: sc.reader}
	var out []Match
	for i := 1; ; i++ {
		dm, err := searcher.Next(sctx)
		if err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		if dm == nil {
			return out, nil
		}
		n, _ := docNumber(dm.IndexInternalID)
		if sc.isTalk(n, keep) {
			// The hit is kept (not returned to the pool) with its list
			// of matched terms, which the factor and highlights read.
			factor := f.Of(f.Mask(dm.FieldTermLocations), sc.damping[n])
			out = append(out, Match{Num: n, Score: dm.Score * factor, Factor: factor, Hit: dm})
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

// isTalk says whether document n is a talk that keep keeps (nil keeps
// all).
func (sc *Index) isTalk(n uint64, keep func(n uint64) bool) bool {
	return n < uint64(len(sc.talks)) && sc.talks[n] && (keep == nil || keep(n))
}

// appendMatch appends to out the match of document n with Bleve's score,
// unless it is no talk or not of keep: soft coordination over the
// clauses masks says it matches (none when masks is nil), breaks and
// cancelled talks ranked down.
func (sc *Index) appendMatch(out []Match, n uint64, score float64, f *ranking.Factors, masks []uint32, keep func(n uint64) bool) []Match {
	if !sc.isTalk(n, keep) {
		return out
	}
	var mask uint32
	if masks != nil {
		mask = masks[n]
	}
	factor := f.Of(mask, sc.damping[n])
	return append(out, Match{Num: n, Score: score * factor, Factor: factor})
}

// scanPart appends to out the matches of q among documents numbered from
// to to (exclusive), coordinated over clauses by the clauses masks says each
// matches (none when masks is nil).
func (sc *Index) scanPart(ctx context.Context, q query.Query, clauses []ranking.Clause, masks []uint32, keep func(n uint64) bool, from, to uint64, out []Match) ([]Match, float64, error) {
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
	f := ranking.NewFactors(clauses)
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
		out = sc.appendMatch(out, n, dm.Score, f, masks, keep)
		sctx.DocumentMatchPool.Put(dm)
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, 0, fmt.Errorf("search: %w", err)
			}
		}
		dm, err = searcher.Next(sctx)
	}
}

// Explain returns, for each talk of page, q's match of it with Bleve's
// explanation of its score and the positions of its matched words (nil
// where q does not match it): q's searcher, as the one pass and the scan
// score it, read to the last talk of the page. It reads by Next, not
// Advance: Bleve's Boolean searcher advanced to a talk can score it
// otherwise than its walk does, and an explanation must be of the score
// shown. So it costs a pass over the query's matches up to the page's
// last talk, with an explanation made for each.
func (sc *Index) Explain(ctx context.Context, q query.Query, page []Match) ([]*bsearch.DocumentMatch, error) {
	out := make([]*bsearch.DocumentMatch, len(page))
	if len(page) == 0 {
		return out, nil
	}
	at := map[uint64]int{}
	last := uint64(0)
	for i, m := range page {
		at[m.Num] = i
		last = max(last, m.Num)
	}
	searcher, err := sc.searcher(sc.scoringContext(ctx), q, bsearch.SearcherOptions{Explain: true, IncludeTermVectors: true})
	if err != nil {
		return nil, fmt.Errorf("explain: %w", err)
	}
	defer searcher.Close()
	sctx := &bsearch.SearchContext{
		DocumentMatchPool: bsearch.NewDocumentMatchPool(searcher.DocumentMatchPoolSize()+len(page), 0),
		IndexReader:       sc.reader,
	}
	for i := 1; ; i++ {
		dm, err := searcher.Next(sctx)
		if err != nil {
			return nil, fmt.Errorf("explain: %w", err)
		}
		if dm == nil {
			return out, nil
		}
		n, _ := docNumber(dm.IndexInternalID)
		if k, ok := at[n]; ok {
			out[k] = dm // kept: not returned to the pool
		} else {
			sctx.DocumentMatchPool.Put(dm)
		}
		if n >= last {
			return out, nil
		}
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("explain: %w", err)
			}
		}
	}
}

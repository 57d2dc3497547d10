package search

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	bleveidx "github.com/blevesearch/bleve_index_api"
)

// Searches of corpora larger than Options.OnePassMax run their query's Bleve
// searcher directly and read every match's score and internal document
// number, nothing else: no external id (a stored-field read per hit), no
// word positions, no facet doc values. Counting facets, filtering, ordering
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
	docs    []*doc
	mapping mapping.IndexMapping
	// partBufs recycles the matches of the parts of a split scan, which
	// are garbage once merged: tens of thousands of matches per search.
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
		}
		sc.docs[n] = d
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
func (sc *scanner) matches(ctx context.Context, q query.Query, coord []coordClause, tracks map[string]bool) ([]match, error) {
	ctx = context.WithValue(ctx, bsearch.GetScoringModelCallbackKey,
		bsearch.GetScoringModelCallbackFn(func() string { return sc.scoring }))
	mp, err := sc.clauseMasks(ctx, coord)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	var masks []uint32
	if mp != nil {
		masks = *mp
		defer sc.putMasks(mp)
	}
	parts := min(runtime.GOMAXPROCS(0), maxScanParts, max(1, len(sc.docs)/sc.minPart))
	if parts == 1 {
		return sc.scanPart(ctx, q, coord, masks, tracks, 0, uint64(len(sc.docs)), nil)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	outs := make([][]match, parts)
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for k := range parts {
		from := uint64(len(sc.docs) * k / parts)
		to := uint64(len(sc.docs) * (k + 1) / parts)
		var buf []match
		if p, ok := sc.partBufs.Get().(*[]match); ok {
			buf = (*p)[:0]
		}
		wg.Go(func() {
			outs[k], errs[k] = sc.scanPart(ctx, q, coord, masks, tracks, from, to, buf)
			if errs[k] != nil {
				cancel()
			}
		})
	}
	wg.Wait()
	defer func() {
		for _, o := range outs {
			if o != nil {
				clear(o) // no stale pointers to docs kept alive
				o = o[:0]
				sc.partBufs.Put(&o)
			}
		}
	}()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	n := 0
	for _, o := range outs {
		n += len(o)
	}
	out := make([]match, 0, n)
	for _, o := range outs {
		out = append(out, o...)
	}
	return out, nil
}

// scanPart appends to out the matches of q among documents numbered from
// to to (exclusive), coordinated over coord by the clauses masks says each
// matches (none when masks is nil).
func (sc *scanner) scanPart(ctx context.Context, q query.Query, coord []coordClause, masks []uint32, tracks map[string]bool, from, to uint64, out []match) ([]match, error) {
	searcher, err := q.Searcher(ctx, sc.reader, sc.mapping, bsearch.SearcherOptions{})
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer searcher.Close()
	sctx := &bsearch.SearchContext{
		DocumentMatchPool: bsearch.NewDocumentMatchPool(searcher.DocumentMatchPoolSize(), 0),
		IndexReader:       sc.reader,
	}
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
			return nil, fmt.Errorf("search: %w", err)
		}
		if dm == nil {
			return out, nil
		}
		n, _ := docNumber(dm.IndexInternalID)
		if n >= to {
			return out, nil
		}
		if d := sc.docs[n]; d != nil && (tracks == nil || tracks[d.track]) {
			score := dm.Score
			if masks != nil {
				mask := masks[n]
				score *= softCoord(coord, func(i int) bool { return mask&(1<<i) != 0 }, !d.isBreak)
			}
			if d.isBreak {
				score *= breakFactor
			}
			out = append(out, match{d: d, score: score})
		}
		sctx.DocumentMatchPool.Put(dm)
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("search: %w", err)
			}
		}
		dm, err = searcher.Next(sctx)
	}
}

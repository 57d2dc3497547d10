package scan

import (
	"context"
	"errors"
	"fmt"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/search/query"
	zap "github.com/blevesearch/zapx/v17"
)

// The fast path reads the postings of the index's one segment itself: it
// type-asserts scorch's snapshot and zapx's segment, iterator and chunk
// mode. A Bleve upgrade that changes any of them would leave every search
// on Bleve's own searchers, as correct and slower, and nothing would fail.
// FastPath says why, so that a test fails instead (TestFastPathTaken): the
// modules that move together are bleve/v2, zapx/v17 (the segment version
// Bleve writes) and scorch_segment_api/v2, as go.mod lists them.

// ErrNoFastPath: the index cannot be scanned by the fast path.
var ErrNoFastPath = errors.New("no fast path")

// FastPath returns nil when the Index's searches take the fast path (a
// tree scan of its one zap segment, seeking through postings chunks), else
// an error wrapping ErrNoFastPath that says why.
func (sc *Index) FastPath() error {
	snap, ok := sc.reader.(*scorch.IndexSnapshot)
	if !ok {
		return fmt.Errorf("%w: the reader is a %T, not a scorch snapshot", ErrNoFastPath, sc.reader)
	}
	if n := len(snap.Segments()); n != 1 {
		return fmt.Errorf("%w: %d segments, not one", ErrNoFastPath, n)
	}
	seg := snap.Segments()[0].Segment()
	zs, ok := seg.(*zap.Segment)
	if !ok {
		return fmt.Errorf("%w: the segment is a %T, not zapx/v17's", ErrNoFastPath, seg)
	}
	if m := zs.ChunkMode(); m != zapChunkMode {
		return fmt.Errorf("%w: chunk mode %d, not %d", ErrNoFastPath, m, zapChunkMode)
	}
	return nil
}

// TreeScans says whether a scan of q, with the BM25 statistics of ctx,
// evaluates it term by term over the segment's postings (tree.go) rather
// than through Bleve's searchers.
func (sc *Index) TreeScans(ctx context.Context, q query.Query) (bool, error) {
	if sc.opts.NoTree {
		return false, nil
	}
	tq, err := sc.treeScan(sc.scoringContext(ctx), flat(q))
	return tq != nil, err
}

package search

import (
	"github.com/RoaringBitmap/roaring/v2"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	zap "github.com/blevesearch/zapx/v17"
)

// zap's PostingsIterator.Advance walks its postings bitmap one document at
// a time to the target, counting the postings of the target's chunk of
// frequencies so that it can skip them in that chunk. A tree scan's second
// part advanced each term from the first document to its own first, a
// sixth of the scan of `pytorch` at 100k (and most of the part's lag
// behind the first), and a phrase's terms walk from candidate to
// candidate. seek jumps the bitmap to the start of the target's chunk
// first: the first posting there is the first of its chunk, which is
// where zap's own walk would have started counting, so Advance from there
// reads the same frequencies, norms and locations.

// zapChunkMode is the chunk mode whose chunk size postingsChunk knows:
// zapx's DefaultChunkMode, in every segment Bleve writes today.
const zapChunkMode = 1026

// postingsChunk is the number of documents in each chunk of pl's
// frequencies in seg, as zapx's getChunkSize computes it for
// zapChunkMode, or 0 when seek cannot jump: another segment type or
// chunk mode, a list with documents left out (deleted ones: its
// iterators walk a second bitmap that the jump would not move), or a
// list in one chunk.
func postingsChunk(seg segment.Segment, pl segment.PostingsList, deleted *roaring.Bitmap) uint64 {
	zs, ok := seg.(*zap.Segment)
	if !ok || zs.ChunkMode() != zapChunkMode || deleted != nil {
		return 0
	}
	card := pl.Count()
	if card <= 1024 {
		return 0 // one chunk of every document
	}
	return zs.Count() / (card/1024 + 1)
}

// seek is it.Advance(d) for an iterator of a postings list of chunk
// documents a chunk (postingsChunk; 0 for none known).
func seek(it segment.PostingsIterator, chunk, d uint64) (segment.Posting, error) {
	if chunk > 0 && d >= chunk {
		if zi, ok := it.(*zap.PostingsIterator); ok && zi.Actual != nil {
			// A no-op when the iterator is already in d's chunk.
			zi.Actual.AdvanceIfNeeded(uint32(d - d%chunk))
		}
	}
	return it.Advance(d)
}

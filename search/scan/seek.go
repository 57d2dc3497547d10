package scan

import (
	"context"
	"fmt"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	bleveidx "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	zap "github.com/blevesearch/zapx/v17"
)

// zap's PostingsIterator.Advance walks its postings bitmap one document at
// a time to the target, counting the postings of the target's chunk of
// frequencies so that it can skip them in that chunk. A tree scan's second
// part advances each term from the first document to its own first, a
// walk that would leave that part far behind the first, and a phrase's
// terms walk from candidate to candidate. seek jumps the bitmap to the
// start of the target's chunk first: the first posting there is the first
// of its chunk, which is where zap's own walk would have started counting,
// so Advance from there reads the same frequencies, norms and locations.

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

// seekReader is the Index's reader with term field readers that seek
// (one zap segment, no deleted documents): locating a page and rescoring
// a window advance a query's searchers to a few talks, and each term's
// Bleve reader walked its postings one by one to them (for `pytorch` at
// 100k, 80,000 postings in each field to locate ten talks). Every other
// read goes to the Index's reader, and the term field readers return
// the documents, frequencies, norms and term vectors of scorch's.
type seekReader struct {
	bleveidx.IndexReader
	segmentPostings
}

// segmentPostings reads the postings lists of one segment, opening each
// field's dictionary once.
type segmentPostings struct {
	seg   segment.Segment
	dicts map[string]segment.TermDictionary
}

func newSegmentPostings(seg segment.Segment) segmentPostings {
	return segmentPostings{seg: seg, dicts: map[string]segment.TermDictionary{}}
}

// postings is the postings list of term in field, less the documents of
// except.
func (sp segmentPostings) postings(field string, term []byte, except *roaring.Bitmap) (segment.PostingsList, error) {
	d, ok := sp.dicts[field]
	if !ok {
		var err error
		if d, err = sp.seg.Dictionary(field); err != nil {
			return nil, fmt.Errorf("term dictionary of %s: %w", field, err)
		}
		sp.dicts[field] = d
	}
	pl, err := d.PostingsList(term, except, nil)
	if err != nil {
		return nil, fmt.Errorf("postings of %s:%s: %w", field, term, err)
	}
	return pl, nil
}

// seeking is sc's reader for searchers advanced to a few talks: a
// seekReader where one can read the index, else sc.reader.
func (sc *Index) seeking() bleveidx.IndexReader {
	snap, ok := sc.reader.(*scorch.IndexSnapshot)
	if !ok || len(snap.Segments()) != 1 || snap.Segments()[0].Deleted() != nil {
		return sc.reader
	}
	seg := snap.Segments()[0].Segment()
	if _, ok := seg.(*zap.Segment); !ok {
		return sc.reader
	}
	return &seekReader{IndexReader: sc.reader, segmentPostings: newSegmentPostings(seg)}
}

func (r *seekReader) TermFieldReader(_ context.Context, term []byte, field string, freq, norm, vectors bool) (bleveidx.TermFieldReader, error) {
	pl, err := r.postings(field, term, nil)
	if err != nil {
		return nil, err
	}
	t := &seekTermReader{pl: pl, chunk: postingsChunk(r.seg, pl, nil), freq: freq, norm: norm, vectors: vectors}
	t.it = pl.Iterator(freq, norm, vectors, nil)
	return t, nil
}

// seekTermReader reads a term's postings in a field for a seekReader.
type seekTermReader struct {
	pl                  segment.PostingsList
	it                  segment.PostingsIterator
	chunk               uint64
	freq, norm, vectors bool
	read                bool   // a posting was returned
	at                  uint64 // the document of the last one
}

func (t *seekTermReader) Next(pre *bleveidx.TermFieldDoc) (*bleveidx.TermFieldDoc, error) {
	p, err := t.it.Next()
	return t.doc(p, err, pre)
}

func (t *seekTermReader) Advance(id bleveidx.IndexInternalID, pre *bleveidx.TermFieldDoc) (*bleveidx.TermFieldDoc, error) {
	n, ok := docNumber(id)
	if !ok {
		return nil, fmt.Errorf("advance to document %x: not a document number", []byte(id))
	}
	if t.read && t.at >= n {
		// Back (or to where it is): from the first posting again, as
		// scorch's reader does.
		t.it = t.pl.Iterator(t.freq, t.norm, t.vectors, nil)
	}
	p, err := seek(t.it, t.chunk, n)
	return t.doc(p, err, pre)
}

// doc is p as scorch's reader makes its TermFieldDoc (postingToTermFieldDoc).
func (t *seekTermReader) doc(p segment.Posting, err error, pre *bleveidx.TermFieldDoc) (*bleveidx.TermFieldDoc, error) {
	if err != nil || p == nil {
		return nil, err
	}
	rv := pre
	if rv == nil {
		rv = &bleveidx.TermFieldDoc{}
	}
	rv.ID = bleveidx.NewIndexInternalID(rv.ID, p.Number())
	t.read, t.at = true, p.Number()
	if t.freq {
		rv.Freq = p.Frequency()
	}
	if t.norm {
		rv.Norm = p.Norm()
	}
	if t.vectors {
		locs := p.Locations()
		rv.Vectors = sizedVectors(rv.Vectors, len(locs))
		for i, l := range locs {
			*rv.Vectors[i] = bleveidx.TermFieldVector{
				Start: l.Start(), End: l.End(), Pos: l.Pos(), ArrayPositions: l.ArrayPositions(), Field: l.Field(),
			}
		}
	}
	return rv, nil
}

// sizedVectors is vs with room for n vectors, each pointing at its own,
// as scorch's reader sizes a TermFieldDoc's: reused when vs holds enough.
func sizedVectors(vs []*bleveidx.TermFieldVector, n int) []*bleveidx.TermFieldVector {
	if cap(vs) < n {
		vs = make([]*bleveidx.TermFieldVector, n)
		backing := make([]bleveidx.TermFieldVector, n)
		for i := range backing {
			vs[i] = &backing[i]
		}
	}
	return vs[:n]
}

func (t *seekTermReader) Count() uint64 { return t.pl.Count() }
func (t *seekTermReader) Close() error  { return nil }
func (t *seekTermReader) Size() int     { return 0 }

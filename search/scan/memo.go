package scan

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync"
	"sync/atomic"

	bleveidx "github.com/blevesearch/bleve_index_api"
)

// The one pass of a small corpus (Located) builds the query's Bleve
// searchers anew for every search, and each term searcher opens a term
// reader of the segment: a dictionary lookup, a postings list, an iterator
// and the decoders of its chunks, all made again for the same few terms a
// conference is searched with, then the postings decoded one by one. On a
// corpus of a few thousand talks a term's postings are short, so the Index
// keeps each term's postings, decoded, the first time a one pass reads
// them, and the term readers of later passes read those: the same
// documents, frequencies, norms and positions that scorch's reader gives,
// so the same matches and scores to the bit.

// maxMemoLocations bounds the word positions the memo keeps, across terms
// (12 bytes each, and 28 a posting): every term of a corpus of a couple of
// thousand talks fits; past it terms are read from the segment.
const maxMemoLocations = 1 << 21

// memo is the Index's decoded postings, by field and term. A term read
// once is kept for the Index's life: only terms the index has are read
// (the engine leaves the others out of the query before it is searched),
// and the memo holds at most maxMemoLocations positions.
type memo struct {
	mu     sync.RWMutex
	fields map[string]map[string]*memoPostings
	// locations is how many positions the memo holds.
	locations atomic.Int64
}

// memoPostings is one term's postings in one field, as scorch's term
// reader gives them: document numbers in order, each with its frequency,
// norm and positions (locs[ends[i-1]:ends[i]]). Its slices hold no
// pointers, so the garbage collector does not walk them.
type memoPostings struct {
	field string
	count uint64
	nums  []uint64
	freqs []uint64
	norms []float64
	ends  []uint32
	locs  []memoLocation
}

// memoLocation is one position of a term: its token position and byte
// offsets, each of which fits 32 bits in a talk (memoize checks).
type memoLocation struct{ pos, start, end uint32 }

// memoReader is the Index's reader with term field readers from the memo;
// every other read goes to the Index's reader.
type memoReader struct {
	bleveidx.IndexReader
	sc *Index
}

// memoizing is sc's reader for a one pass.
func (sc *Index) memoizing() bleveidx.IndexReader {
	return &memoReader{IndexReader: sc.reader, sc: sc}
}

func (r *memoReader) TermFieldReader(ctx context.Context, term []byte, field string, freq, norm, vectors bool) (bleveidx.TermFieldReader, error) {
	p, err := r.sc.memoized(ctx, term, field)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return r.IndexReader.TermFieldReader(ctx, term, field, freq, norm, vectors)
	}
	return &memoTermReader{p: p, freq: freq, norm: norm, vectors: vectors}, nil
}

// memoized is the memo's postings of term in field, read into it if they
// are not yet there; nil when they cannot be kept (the memo is full, or
// the postings have a shape the memo does not keep), to be read from the
// segment.
func (sc *Index) memoized(ctx context.Context, term []byte, field string) (*memoPostings, error) {
	m := &sc.memo
	m.mu.RLock()
	p, ok := m.fields[field][string(term)]
	m.mu.RUnlock()
	if ok || m.locations.Load() >= maxMemoLocations {
		return p, nil
	}
	p, err := sc.memoize(ctx, term, field)
	if err != nil || p == nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if q, ok := m.fields[field][string(term)]; ok {
		return q, nil // another search read it meanwhile
	}
	if m.fields == nil {
		m.fields = map[string]map[string]*memoPostings{}
	}
	terms := m.fields[field]
	if terms == nil {
		terms = map[string]*memoPostings{}
		m.fields[field] = terms
	}
	terms[string(term)] = p
	m.locations.Add(int64(len(p.locs)))
	return p, nil
}

// memoize reads the postings of term in field from the Index's reader, or
// returns nil when the memo cannot keep them: positions in arrays, in
// another field, or past 32 bits.
func (sc *Index) memoize(ctx context.Context, term []byte, field string) (*memoPostings, error) {
	r, err := sc.reader.TermFieldReader(ctx, term, field, true, true, true)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	p := &memoPostings{field: field, count: r.Count()}
	var tfd bleveidx.TermFieldDoc
	for {
		d, err := r.Next(&tfd)
		if err != nil {
			return nil, fmt.Errorf("postings of %s:%s: %w", field, term, err)
		}
		if d == nil {
			return p, nil
		}
		n, ok := docNumber(d.ID)
		if !ok {
			return nil, nil
		}
		for _, v := range d.Vectors {
			if v.Field != field || len(v.ArrayPositions) > 0 || v.Pos > math.MaxUint32 || v.Start > math.MaxUint32 || v.End > math.MaxUint32 {
				return nil, nil
			}
			p.locs = append(p.locs, memoLocation{pos: uint32(v.Pos), start: uint32(v.Start), end: uint32(v.End)})
		}
		if len(p.locs) > math.MaxUint32 {
			return nil, nil
		}
		p.nums = append(p.nums, n)
		p.freqs = append(p.freqs, d.Freq)
		p.norms = append(p.norms, d.Norm)
		p.ends = append(p.ends, uint32(len(p.locs)))
	}
}

// memoTermReader reads a term's memoized postings as scorch's term field
// reader reads them from the segment.
type memoTermReader struct {
	p                   *memoPostings
	freq, norm, vectors bool
	next                int // the posting Next returns
}

func (t *memoTermReader) Next(pre *bleveidx.TermFieldDoc) (*bleveidx.TermFieldDoc, error) {
	if t.next >= len(t.p.nums) {
		return nil, nil
	}
	t.next++
	return t.doc(t.next-1, pre), nil
}

// Advance goes to the first posting at or after id, from the first posting
// again when id is not ahead (scorch's reader starts again from the first
// posting then).
func (t *memoTermReader) Advance(id bleveidx.IndexInternalID, pre *bleveidx.TermFieldDoc) (*bleveidx.TermFieldDoc, error) {
	n, ok := docNumber(id)
	if !ok {
		return nil, fmt.Errorf("advance to document %x: not a document number", []byte(id))
	}
	nums := t.p.nums
	t.next = sort.Search(len(nums), func(i int) bool { return nums[i] >= n })
	return t.Next(pre)
}

// doc is posting i as scorch's reader makes its TermFieldDoc
// (postingToTermFieldDoc), into pre when given.
func (t *memoTermReader) doc(i int, pre *bleveidx.TermFieldDoc) *bleveidx.TermFieldDoc {
	rv := pre
	if rv == nil {
		rv = &bleveidx.TermFieldDoc{}
	}
	p := t.p
	rv.ID = bleveidx.NewIndexInternalID(rv.ID, p.nums[i])
	if t.freq {
		rv.Freq = p.freqs[i]
	}
	if t.norm {
		rv.Norm = p.norms[i]
	}
	if t.vectors {
		from := uint32(0)
		if i > 0 {
			from = p.ends[i-1]
		}
		locs := p.locs[from:p.ends[i]]
		rv.Vectors = sizedVectors(rv.Vectors, len(locs))
		for j, l := range locs {
			*rv.Vectors[j] = bleveidx.TermFieldVector{
				Start: uint64(l.start), End: uint64(l.end), Pos: uint64(l.pos), Field: p.field,
			}
		}
	}
	return rv
}

func (t *memoTermReader) Count() uint64 { return t.p.count }
func (t *memoTermReader) Close() error  { return nil }
func (t *memoTermReader) Size() int     { return 0 }

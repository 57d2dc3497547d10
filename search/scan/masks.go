package scan

import (
	"context"
	"fmt"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	bleveidx "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	"github.com/talksearch/talksearch/search/ranking"
)

// A scan reads no word positions, so it cannot tell from a match which of
// the query's clauses it matched, and soft coordination (softCoord) would
// be left to Bleve's unweighted factor there: above Options.OnePassMax
// talks a talk with the query's vague words would rank with one that has
// its rare ones, a clear loss of ranking quality. clauseMasks
// reads the documents of each clause's terms from the term dictionaries
// instead, without frequencies or positions, which costs a fraction of
// scoring the same postings, and a scan applies the same factor as the
// one-pass search.

// coordFields are the fields a word's clause matches.
var coordFields = ranking.FieldNames()

// maxMaskClauses is the most clauses a mask holds.
const maxMaskClauses = ranking.MaxClauses

// clauseMasks returns, per document number, the clauses of clauses it
// matches as bits (bit i: clause i), or nil when there is nothing to
// coordinate. Return the masks to maskPool when done.
func (sc *Index) clauseMasks(ctx context.Context, clauses []ranking.Clause) (*[]uint32, error) {
	if len(clauses) < 2 || len(clauses) > maxMaskClauses {
		return nil, nil
	}
	if sc.opts.NoDictionaries {
		return sc.masksFrom(ctx, clauses, nil)
	}
	dicts, err := sc.coordDicts()
	if err != nil {
		return nil, err
	}
	return sc.masksFrom(ctx, clauses, dicts)
}

// masksFrom makes the masks of clauseMasks from the postings bitmaps of
// dicts or, without them, by walking term field readers.
func (sc *Index) masksFrom(ctx context.Context, clauses []ranking.Clause, dicts []segment.TermDictionary) (*[]uint32, error) {
	mp, _ := sc.maskPool.Get().(*[]uint32)
	if mp == nil || len(*mp) != len(sc.talks) {
		m := make([]uint32, len(sc.talks))
		mp = &m
	}
	masks := *mp
	var tfd bleveidx.TermFieldDoc
	docs := roaring.New()
	buf := make([]uint32, 256)
	for i, c := range clauses {
		bit := uint32(1) << i
		if dicts != nil {
			docs.Clear()
			if err := clauseDocs(dicts, c.Terms, docs); err != nil {
				sc.putMasks(mp)
				return nil, err
			}
			it := docs.ManyIterator()
			for n := it.NextMany(buf); n > 0; n = it.NextMany(buf) {
				for _, d := range buf[:n] {
					if int(d) < len(masks) {
						masks[d] |= bit
					}
				}
			}
			continue
		}
		for _, t := range c.Terms {
			for _, f := range coordFields {
				r, err := sc.reader.TermFieldReader(ctx, []byte(t), f, false, false, false)
				if err != nil {
					sc.putMasks(mp)
					return nil, fmt.Errorf("documents of %s:%s: %w", f, t, err)
				}
				for {
					d, err := r.Next(&tfd)
					if err != nil {
						r.Close()
						sc.putMasks(mp)
						return nil, fmt.Errorf("documents of %s:%s: %w", f, t, err)
					}
					if d == nil {
						break
					}
					if n, ok := docNumber(d.ID); ok && n < uint64(len(masks)) {
						masks[n] |= bit
					}
				}
				if err := r.Close(); err != nil {
					sc.putMasks(mp)
					return nil, fmt.Errorf("documents of %s:%s: %w", f, t, err)
				}
			}
		}
	}
	return mp, nil
}

// coordDicts returns the term dictionaries of coordFields when the
// reader is one zap segment, as the index of a large corpus is (its build
// merges it, index/merge.go): a postings list there is a roaring bitmap of
// document numbers, and or-ing the clause's into one and walking that
// costs a fraction of a term field reader's walk of each (which decodes
// every posting). Otherwise nil, and clauseMasks walks the readers.
func (sc *Index) coordDicts() ([]segment.TermDictionary, error) {
	snap, ok := sc.reader.(*scorch.IndexSnapshot)
	if !ok || len(snap.Segments()) != 1 {
		return nil, nil
	}
	seg := snap.Segments()[0].Segment()
	dicts := make([]segment.TermDictionary, 0, len(coordFields))
	for _, f := range coordFields {
		d, err := seg.Dictionary(f)
		if err != nil {
			return nil, fmt.Errorf("term dictionary of %s: %w", f, err)
		}
		dicts = append(dicts, d)
	}
	return dicts, nil
}

// clauseDocs adds to docs the documents with any of terms in any of the
// dictionaries' fields.
func clauseDocs(dicts []segment.TermDictionary, terms []string, docs *roaring.Bitmap) error {
	for _, t := range terms {
		for _, d := range dicts {
			pl, err := d.PostingsList([]byte(t), nil, nil)
			if err != nil {
				return fmt.Errorf("documents of %s: %w", t, err)
			}
			or, ok := pl.(interface{ OrInto(*roaring.Bitmap) })
			if !ok {
				return fmt.Errorf("documents of %s: a %T is not a bitmap", t, pl)
			}
			or.OrInto(docs)
		}
	}
	return nil
}

// putMasks clears masks and keeps them for the next scan.
func (sc *Index) putMasks(mp *[]uint32) {
	clear(*mp)
	sc.maskPool.Put(mp)
}

// MasksOf returns the clause masks Matches coordinates the talks of page
// with (bit i: clause i), for an explanation of their scores.
func (sc *Index) MasksOf(ctx context.Context, clauses []ranking.Clause, page []Match) ([]uint32, error) {
	out := make([]uint32, len(page))
	mp, err := sc.clauseMasks(ctx, clauses)
	if err != nil || mp == nil {
		return out, err
	}
	defer sc.putMasks(mp)
	for i, m := range page {
		out[i] = (*mp)[m.Num]
	}
	return out, nil
}

package scan

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2/index/scorch"
	segment "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/talksearch/talksearch/index"
)

// TestSeekIsAdvance: on the synthetic corpus's one segment, seeking every
// term of more than one chunk of the abstracts and titles gives the
// postings of zap's Advance (document, frequency, norm, positions), from a
// fresh iterator to a part's first document and from target to target as
// a phrase's candidates go, the targets in and across chunks.
func TestSeekIsAdvance(t *testing.T) {
	snap, ok := syntheticIndex(t).sc.reader.(*scorch.IndexSnapshot)
	if !ok || len(snap.Segments()) != 1 {
		t.Fatal("the synthetic index is not one segment")
	}
	seg := snap.Segments()[0]
	if seg.Deleted() != nil {
		t.Fatal("the synthetic segment has deleted documents: seek would not jump")
	}
	docs := seg.Segment().Count()
	rng := rand.New(rand.NewPCG(3, 5))
	terms, jumped := 0, 0
	for _, field := range []string{index.FieldAbstract, index.FieldTitle, index.FieldSpeakers, index.FieldTrackText, index.FieldRoomText} {
		dict, err := seg.Segment().Dictionary(field)
		if err != nil {
			t.Fatal(err)
		}
		it := dict.AutomatonIterator(nil, nil, nil)
		for de, err := it.Next(); de != nil; de, err = it.Next() {
			if err != nil {
				t.Fatal(err)
			}
			pl, err := dict.PostingsList([]byte(de.Term), nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			chunk := postingsChunk(seg.Segment(), pl, nil)
			if chunk == 0 {
				continue
			}
			terms++
			for round := range 16 {
				// A part's start, then targets from next to each other
				// to half a chunk apart.
				var targets []uint64
				for d := rng.Uint64N(docs / 2); d < docs; d += 1 + rng.Uint64N(chunk/2) {
					targets = append(targets, d)
				}
				locs := round%2 == 1
				want, got := pl.Iterator(true, true, locs, nil), pl.Iterator(true, true, locs, nil)
				var at uint64 // the last posting's document
				for _, d := range targets {
					w, err := want.Advance(d)
					if err != nil {
						t.Fatal(err)
					}
					g, err := seek(got, chunk, d)
					if err != nil {
						t.Fatal(err)
					}
					if a, b := postingLine(g), postingLine(w); a != b {
						t.Fatalf("%s:%s (chunk %d), to %d: seek %s, Advance %s", field, de.Term, chunk, d, a, b)
					}
					if w == nil {
						break
					}
					if d/chunk > at/chunk {
						jumped++
					}
					at = w.Number()
				}
			}
		}
	}
	t.Logf("%d terms of more than one chunk, %d targets a chunk or more on", terms, jumped)
	if terms < 10 || jumped < 200 {
		t.Errorf("%d terms of more than one chunk, %d targets a chunk or more on: want 10 and 200", terms, jumped)
	}
}

// postingLine is p's document, frequency, norm and positions.
func postingLine(p segment.Posting) string {
	if p == nil {
		return "none"
	}
	var pos []uint64
	for _, l := range p.Locations() {
		pos = append(pos, l.Pos())
	}
	slices.Sort(pos)
	return fmt.Sprintf("%d tf %d norm %v at %v", p.Number(), p.Frequency(), p.Norm(), pos)
}

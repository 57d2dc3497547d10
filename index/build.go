package index

import (
	"fmt"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
)

// newDocument is what Bleve indexes of a Talk: flat fields named in
// fields.go. Bleve reads structs by reflection and ignores "omitempty", so
// the document is a map holding only the values the talk has.
func newDocument(t Talk) map[string]any {
	d := map[string]any{
		FieldTitle: t.Title,
		FieldKind:  string(t.Kind),
	}
	if t.Abstract != "" {
		d[FieldAbstract] = t.Abstract
	}
	if len(t.Speakers) > 0 {
		d[FieldSpeakers] = SpeakersText(&t)
	}
	if t.Track != "" {
		d[FieldTrackText] = t.Track
	}
	if t.Room != "" {
		d[FieldRoomText] = t.Room
	}
	return d
}

// batchSize documents go to Bleve at once: large enough that batching pays,
// small enough that a batch of long abstracts stays a few MiB. Each batch
// becomes one segment; an index of several is merged into one on disk
// (merge.go), so the batch size no longer decides the segments a search
// visits. Larger batches hold more analysis in memory until their segment
// is built (5,000 per batch raised an in-memory build's peak RSS from 855
// to 1,518 MiB at 100k talks); smaller ones make more segments to merge
// (100k talks, two batches in flight: 500 per batch cut the peak RSS from
// 708 to 626 MiB for 30 % more CPU, 250 to 615 MiB for 58 % more).
//
// Memory: the peak of a build is the talks, the batch in flight and the Go
// runtime's headroom (GOGC=100); the merged index is a file mapped from
// disk, not Go heap. The soft limit that trades CPU for memory is the
// environment's GOMEMLIMIT, which the runtime reads by itself. Build does
// not set a limit itself: it is process-wide, only the command that owns
// the process knows its budget, and the build's live heap (the talks and a
// batch's analysis) leaves a limit little room (100k talks, two batches in
// flight: GOMEMLIMIT=450MiB cut the peak from 725 to 561 MiB for 50 % more
// build CPU, GOGC=50 to 521 MiB for 30 % more).
const batchSize = 1000

// Progress is told, after each batch, how many of total talks are indexed.
// Calls come one at a time, from the goroutine that indexes.
type Progress func(done, total int)

// Build indexes talks into a new read-only index: in memory when they fit
// one batch (one segment), otherwise on disk in a temporary directory,
// merged into one segment (merge.go), removed when the index is closed.
func Build(talks []Talk) (bleve.Index, error) { return BuildWithProgress(talks, nil) }

// BuildWithProgress is Build telling p (if not nil) how far it is.
func BuildWithProgress(talks []Talk, p Progress) (bleve.Index, error) {
	if len(talks) > batchSize {
		return buildMerged(talks, p)
	}
	idx, err := bleve.NewUsing("", NewMapping(), scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("new in-memory index: %w", err)
	}
	if err := indexTalks(idx, talks, p); err != nil {
		idx.Close()
		return nil, err
	}
	return idx, nil
}

// indexTalks adds talks to idx in batches, by ID, so indexing the same talk
// twice overwrites it. Batches go in one at a time: Bleve analyses a
// batch's documents on every core and builds its segment on one, and a
// second batch in flight, meant to keep the other core busy meanwhile,
// held a second batch's analysis (~50 MiB at 1,000 talks) and cost more
// CPU than it saved wall time. 100k generated talks, one batch at a time
// against two, three pairs on one machine at load 1.5-7: the build's peak
// RSS 535-567 against 692-746 MiB, 29-39 against 34-43 CPU-s, 20-39
// against 28-58 s.
func indexTalks(idx bleve.Index, talks []Talk, p Progress) error {
	for from := 0; from < len(talks); from += batchSize {
		batch := talks[from:min(from+batchSize, len(talks))]
		if err := indexBatch(idx, batch, from); err != nil {
			return err
		}
		if p != nil {
			p(from+len(batch), len(talks))
		}
	}
	if len(talks) == 0 {
		return indexBatch(idx, talks, 0)
	}
	return nil
}

// indexBatch indexes talks, the ones from index from on, as one batch.
func indexBatch(idx bleve.Index, talks []Talk, from int) error {
	b := idx.NewBatch()
	for _, t := range talks {
		if err := b.Index(t.ID, newDocument(t)); err != nil {
			return fmt.Errorf("index talk %s: %w", t.ID, err)
		}
	}
	if err := idx.Batch(b); err != nil {
		return fmt.Errorf("index talks %d to %d: %w", from, from+len(talks)-1, err)
	}
	return nil
}

// SpeakersText is the text of the speakers field: one speaker a line,
// "Name, Affiliation" (search highlights this same text).
func SpeakersText(t *Talk) string {
	names := make([]string, 0, len(t.Speakers))
	for _, s := range t.Speakers {
		line := s.Name
		if s.Affiliation != "" {
			line += ", " + s.Affiliation
		}
		names = append(names, line)
	}
	return strings.Join(names, "\n")
}

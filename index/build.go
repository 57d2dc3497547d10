package index

import (
	"fmt"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
)

// newDocument is what Bleve indexes of a Talk: flat fields named in
// fields.go. Bleve reads structs by reflection and ignores "omitempty", so
// the document is a map holding only the values the talk has: an empty
// track must be missing, not a "" facet bucket. The track_text twin repeats
// the same string (no copy) at its own path, so a query on it finds its
// own analyzer by path.
func newDocument(t Talk) map[string]any {
	d := map[string]any{
		FieldTitle: t.Title,
		FieldKind:  string(t.Kind), FieldScheduled: t.Scheduled,
	}
	if t.Abstract != "" {
		d[FieldAbstract] = t.Abstract
	}
	if len(t.Speakers) > 0 {
		names := make([]string, 0, len(t.Speakers))
		for _, s := range t.Speakers {
			line := s.Name
			if s.Affiliation != "" {
				line += ", " + s.Affiliation
			}
			names = append(names, line)
		}
		d[FieldSpeakers] = strings.Join(names, "\n")
	}
	if t.Track != "" {
		d[FieldTrack], d[FieldTrackText] = t.Track, t.Track
	}
	if t.Level != "" {
		d[FieldLevel] = t.Level
	}
	if t.Room != "" {
		d[FieldRoom] = t.Room
	}
	if t.Start != nil {
		d[FieldStart] = *t.Start
	}
	return d
}

// batchSize documents go to Bleve at once: large enough that batching pays,
// small enough that a batch of long abstracts stays a few MiB.
const batchSize = 1000

// Build indexes talks into a new in-memory scorch index.
func Build(talks []Talk) (bleve.Index, error) {
	idx, err := bleve.NewUsing("", NewMapping(), scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("new in-memory index: %w", err)
	}
	if err := indexTalks(idx, talks); err != nil {
		idx.Close()
		return nil, err
	}
	return idx, nil
}

// indexTalks adds talks to idx in batches, by ID, so indexing the same talk
// twice overwrites it.
func indexTalks(idx bleve.Index, talks []Talk) error {
	b := idx.NewBatch()
	for i, t := range talks {
		if err := b.Index(t.ID, newDocument(t)); err != nil {
			return fmt.Errorf("index talk %s: %w", t.ID, err)
		}
		if b.Size() >= batchSize || i == len(talks)-1 {
			if err := idx.Batch(b); err != nil {
				return fmt.Errorf("index batch ending at talk %d: %w", i, err)
			}
			b.Reset()
		}
	}
	return nil
}

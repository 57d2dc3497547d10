package index

import (
	"fmt"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
)

// document is what Bleve stores of a Talk: flat fields named in fields.go.
type document struct {
	Title     string     `json:"title"`
	Abstract  string     `json:"abstract"`
	Speakers  string     `json:"speakers"`
	Track     string     `json:"track,omitempty"`
	Level     string     `json:"level,omitempty"`
	Room      string     `json:"room,omitempty"`
	Kind      string     `json:"kind"`
	Start     *time.Time `json:"start,omitempty"`
	Scheduled bool       `json:"scheduled"`
}

func newDocument(t Talk) document {
	names := make([]string, 0, len(t.Speakers))
	for _, s := range t.Speakers {
		names = append(names, strings.TrimSpace(s.Name+", "+s.Affiliation))
	}
	return document{
		Title: t.Title, Abstract: t.Abstract, Speakers: strings.Join(names, "\n"),
		Track: t.Track, Level: t.Level, Room: t.Room, Kind: string(t.Kind),
		Start: t.Start, Scheduled: t.Scheduled,
	}
}

// Build indexes talks into a new in-memory scorch index.
// TODO(index): persistence with content hash and swap (issue 3).
func Build(talks []Talk) (bleve.Index, error) {
	idx, err := bleve.NewUsing("", NewMapping(), scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("new index: %w", err)
	}
	b := idx.NewBatch()
	for _, t := range talks {
		if err := b.Index(t.ID, newDocument(t)); err != nil {
			idx.Close()
			return nil, fmt.Errorf("index talk %s: %w", t.ID, err)
		}
	}
	if err := idx.Batch(b); err != nil {
		idx.Close()
		return nil, fmt.Errorf("index batch: %w", err)
	}
	return idx, nil
}

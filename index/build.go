package index

import (
	"fmt"
	"runtime"
	"strings"
	"sync"

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
// to 1,518 MiB at 100k talks).
//
// Memory: the peak of a build is the talks, the batches in flight and the
// Go runtime's headroom (GOGC=100); the merged index is a file mapped from
// disk, not Go heap. The soft limit that trades CPU for memory is the
// environment's GOMEMLIMIT, which the runtime reads by itself. Build does
// not set a limit itself: it is process-wide, and only the command that
// owns the process knows its budget.
const batchSize = 1000

// Progress is told, after each batch, how many of total talks are indexed.
// Calls come one at a time, from the goroutines that index.
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
// twice overwrites it. Batches go to Bleve from several goroutines: Bleve
// analyses a batch's documents in parallel but builds its segment on one
// core, so one batch at a time leaves the other core idle for a third of
// the build. The order batches land in does not matter: documents are
// distinct, and scores use index-wide statistics.
func indexTalks(idx bleve.Index, talks []Talk, p Progress) error {
	var mu sync.Mutex
	done := 0
	report := func(n int) {
		if p == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		done += n
		p(done, len(talks))
	}
	workers := min(runtime.GOMAXPROCS(0), maxBatchWorkers, (len(talks)+batchSize-1)/batchSize)
	if workers <= 1 {
		for from := 0; from < len(talks); from += batchSize {
			batch := talks[from:min(from+batchSize, len(talks))]
			if err := indexBatch(idx, batch, from); err != nil {
				return err
			}
			report(len(batch))
		}
		if len(talks) == 0 {
			return indexBatch(idx, talks, 0)
		}
		return nil
	}
	starts := make(chan int)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for from := range starts {
				batch := talks[from:min(from+batchSize, len(talks))]
				if err := indexBatch(idx, batch, from); err != nil {
					errs <- err
					return
				}
				report(len(batch))
			}
		}()
	}
	var err error
send:
	for from := 0; from < len(talks); from += batchSize {
		select {
		case starts <- from:
		case err = <-errs:
			break send
		}
	}
	close(starts)
	wg.Wait()
	close(errs)
	if err != nil {
		return err
	}
	return <-errs // nil once closed and empty
}

// maxBatchWorkers bounds the batches in flight, and so the memory they hold.
const maxBatchWorkers = 2

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

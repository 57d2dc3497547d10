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

// Build indexes talks into a new read-only index: in memory when they fit
// one batch (one segment), otherwise on disk in a temporary directory,
// merged into one segment (merge.go), removed when the index is closed.
func Build(talks []Talk) (bleve.Index, error) {
	if len(talks) > batchSize {
		return buildMerged(talks)
	}
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
// twice overwrites it. Batches go to Bleve from several goroutines: Bleve
// analyses a batch's documents in parallel but builds its segment on one
// core, so one batch at a time leaves the other core idle for a third of
// the build. The order batches land in does not matter: documents are
// distinct, and scores use index-wide statistics.
func indexTalks(idx bleve.Index, talks []Talk) error {
	workers := min(runtime.GOMAXPROCS(0), maxBatchWorkers, (len(talks)+batchSize-1)/batchSize)
	if workers <= 1 {
		return indexBatch(idx, talks, 0)
	}
	starts := make(chan int)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for from := range starts {
				if err := indexBatch(idx, talks[from:min(from+batchSize, len(talks))], from); err != nil {
					errs <- err
					return
				}
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

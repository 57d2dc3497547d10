package index

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
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
	if desc := t.DescriptionText(); desc != "" {
		d[FieldDescription] = desc
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
// small enough that the batches in flight (see indexTalks) stay a few tens
// of MiB of analysis. Each batch becomes one segment; an index of several
// is merged into one on disk (merge.go), so the batch size no longer
// decides the segments a search visits. Larger batches hold more analysis
// in memory until their segment is built, so a build's peak RSS grows
// with them; smaller ones make more segments to merge and build slower.
// This size builds about as fast as larger batches, with less of their
// memory.
//
// Memory: the peak of a build is the talks, the batches in flight and the
// Go runtime's headroom; the merged index is a file mapped from disk, not
// Go heap, though the segment files a build reads count in its resident
// memory until it drops their pages (segpages.go). A large build bounds
// that headroom while its batches are indexed and merged (TightenGC in
// tighten.go) with a memory limit relative to the heap live when they
// start, given back when they are done: the build
// knows its own live heap, not the process's budget. The environment's
// GOGC and GOMEMLIMIT, which the runtime reads by itself, are the
// operator's, and a build then leaves the collector as it is.
const batchSize = 700

// Progress is told, after each batch, how many of total talks are indexed.
// Calls come one at a time, in order, from the goroutine that called Build.
type Progress func(done, total int)

// Build indexes talks into a new read-only index: in memory when they fit
// one batch (one segment), otherwise on disk in a temporary directory,
// merged into one segment (merge.go), removed when the index is closed.
func Build(talks []Talk) (bleve.Index, error) { return BuildWithProgress(talks, nil) }

// BuildWithProgress is Build telling p (if not nil) how far it is.
func BuildWithProgress(talks []Talk, p Progress) (bleve.Index, error) {
	return BuildContext(context.Background(), talks, p)
}

// BuildContext is BuildWithProgress ended early, with an error wrapping
// ErrBuildStopped and ctx's cause, once ctx is done: a signal during a
// server's start need not wait for its whole first build.
func BuildContext(ctx context.Context, talks []Talk, p Progress) (bleve.Index, error) {
	return BuildSlim(ctx, Whole(talks), p)
}

// BuildSlim is BuildContext for a corpus whose texts may be in a store:
// each batch's talks are made whole only while the batch is indexed.
func BuildSlim(ctx context.Context, talks Slim, p Progress) (bleve.Index, error) {
	if talks.Len() > batchSize {
		return buildMerged(ctx, talks, p)
	}
	idx, err := bleve.NewUsing("", NewMapping(), scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("new in-memory index: %w", err)
	}
	if err := indexTalks(ctx, idx, talks, p); err != nil {
		idx.Close()
		return nil, err
	}
	return idx, nil
}

// indexTalks adds talks to idx in batches, two in flight: Bleve analyses a
// batch's documents on every core but builds its segment on one, so while
// one batch's segment is built the next one is analysed (Bleve takes
// batches concurrently). One batch at a time left a core idle for half of
// the build. The talks' IDs are distinct (ingest's dedup; the search
// engine refuses a corpus that repeats one), so two batches in flight
// never race to write the same document.
//
// Progress is told in order, from this goroutine, as each batch is in.
//
// ctx is looked at before each batch: a batch once started is finished
// (a half-written batch is no state to leave an index in).
func indexTalks(ctx context.Context, idx bleve.Index, talks Slim, p Progress) error {
	if talks.Len() == 0 {
		return indexBatch(idx, nil, 0)
	}
	var running chan error // the batch in flight before the one just started
	runningEnd := 0
	wait := func() error {
		if err := <-running; err != nil {
			return err
		}
		if p != nil {
			p(runningEnd, talks.Len())
		}
		return nil
	}
	for from := 0; from < talks.Len(); from += batchSize {
		if err := stopped(ctx); err != nil {
			if running != nil {
				<-running
			}
			return err
		}
		batch := talks.batch(from, min(from+batchSize, talks.Len()))
		next := make(chan error, 1)
		go func() { next <- indexBatch(idx, batch, from) }()
		if running != nil {
			if err := wait(); err != nil {
				// No batch outlives the call. A panic is the
				// consequence of the other batch's failed write
				// (indexBatch), whose error says what went wrong.
				if nerr := <-next; nerr != nil && errors.Is(err, ErrBuildPanic) && !errors.Is(nerr, ErrBuildPanic) {
					return nerr
				}
				return err
			}
		}
		running, runningEnd = next, from+len(batch)
	}
	return wait()
}

// indexBatch indexes talks, the ones from index from on, as one batch.
//
// A panic in Bleve becomes the batch's error (see recoverBuild): when a
// batch fails to persist (a full disk), scorch closes its segment although
// the index still holds it, and the batch in flight beside it then reads
// that closed segment and panics. The index is discarded on any error, so
// nothing reads it afterwards.
func indexBatch(idx bleve.Index, talks []Talk, from int) (err error) {
	// A fault on a mapped file (a segment cut short on a full disk) is
	// a panic to recover as well, not the end of the process.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer recoverBuild(&err, fmt.Sprintf("index talks %d to %d", from, from+len(talks)-1))
	b := idx.NewBatch()
	for i, t := range talks {
		if err := b.Index(t.ID, newDocument(t)); err != nil {
			return fmt.Errorf("index talk %d (id %q): %w", from+i, t.ID, err)
		}
	}
	if err := idx.Batch(b); err != nil {
		return fmt.Errorf("index talks %d to %d: %w", from, from+len(talks)-1, err)
	}
	return nil
}

// ErrBuildStopped is wrapped by the error of a build ended by its context.
var ErrBuildStopped = errors.New("index build stopped")

// stopped is the error of a build whose ctx is done, nil while it runs.
func stopped(ctx context.Context) error {
	if cause := context.Cause(ctx); cause != nil {
		return fmt.Errorf("%w: %w", ErrBuildStopped, cause)
	}
	return nil
}

// ErrBuildPanic is wrapped by the error of a build in which the index
// library panicked. Bleve panics on some paths after a failed write (see
// indexBatch); the build is then abandoned like any failed one, and the
// index it was writing is closed and removed, so that a server keeps
// serving its current index rather than exit.
var ErrBuildPanic = errors.New("the index library panicked")

// recoverBuild, deferred by a build step, turns a panic into *err. It also
// closes the indexes of *open (if any) that the step had open, so that
// their files, goroutines and mapped memory do not outlive the failed
// build. It must be deferred directly (recover works only there).
func recoverBuild(err *error, what string, open ...*bleve.Index) {
	r := recover()
	if r == nil {
		return
	}
	*err = fmt.Errorf("%s: %w: %v", what, ErrBuildPanic, r)
	for _, idx := range open {
		if *idx != nil {
			closeAfterPanic(*idx)
			*idx = nil
		}
	}
}

// closeAfterPanic closes an index whose state a panic may have left
// inconsistent: a second panic while closing it is dropped, the build has
// failed already.
func closeAfterPanic(idx bleve.Index) {
	defer func() { _ = recover() }()
	_ = idx.Close()
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

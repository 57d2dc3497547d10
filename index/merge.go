package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
)

// An index of more than one batch is built on disk and merged into one
// segment before it is searched. Each batch is a segment; a search builds
// its searchers once per segment, and an in-memory scorch index never
// merges (its merger runs only for an index on disk), so 100k talks in
// memory were 100 segments, rebuilt for every query. Merged, the index is
// one segment file that the reader maps from disk: its postings are
// compressed and live in the page cache, not on the Go heap.

// mergeInOnePass merges every segment of the index at once: with the
// default SegmentsPerMergeTask of 10, 100 segments would be merged in 10s,
// then again, rewriting every posting twice.
var mergeInOnePass = func() mergeplan.MergePlanOptions {
	o := mergeplan.SingleSegmentMergePlanOptions
	o.SegmentsPerMergeTask = 1 << 20
	return o
}()

// noBackgroundMerge keeps scorch's merger idle while batches come in: every
// segment is merged in one pass once the last batch is in (forceMerge), so
// merges in between only rewrite postings that are rewritten again, and
// map segment files that the final merge maps once more (they cost build
// CPU and raised the build's file-backed memory).
// A segment is eligible for a planned merge below half MaxSegmentSize
// documents: none is below half of one. Scorch keeps this config in the
// index (index_meta.json), so the index reopened for the final merge
// does not merge on its own either; forceMerge passes its own plan.
//
// Its persister writes each batch's segment as it is, without merging
// the segments in memory first (a MemoryPressurePauseThreshold of 0 turns
// that off): the final merge rewrites them all anyway, and the in-memory
// merge runs on goroutines of Bleve's own that do not survive the state a
// failed write leaves. When a batch cannot be written (a full disk),
// scorch closes its segment although the index still holds it; merging it
// in memory then panics where no caller can recover, ending the process.
// Written directly, a closed segment is only copied out of its bytes.
var noBackgroundMerge = map[string]any{
	"scorchMergePlanOptions": map[string]any{"MaxSegmentSize": 1},
	"scorchPersisterOptions": map[string]any{"MemoryPressurePauseThreshold": 0},
}

// buildOnDisk writes the index of talks into the new directory path,
// merges it into a single segment and closes it. It returns the number of
// documents. On error the caller removes path.
//
// The merge runs on the index reopened from disk: Bleve's merger plans
// over persisted segments only, and right after the last batch some may
// still be in memory, so merging the open index could leave a second
// segment. Each round is checked on the reopened index, which is what a
// reader will see.
//
// A panic of Bleve's on the way (after a failed write: ErrBuildPanic) is
// an error like the others, and the index is closed.
func buildOnDisk(ctx context.Context, path string, talks Slim, p Progress) (docs uint64, err error) {
	var idx bleve.Index // open, to close if Bleve panics
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer recoverBuild(&err, "build index "+path, &idx)
	idx, err = bleve.NewUsing(path, NewMapping(), scorch.Name, scorch.Name, noBackgroundMerge)
	if err != nil {
		return 0, fmt.Errorf("new index %s: %w", path, err)
	}
	// The bound holds through the merge too, whose garbage would
	// otherwise reach the default goal, twice the talks.
	defer TightenGC(talks.Len(), buildHeap)()
	stopDropping := dropSegmentPagesWhile(idx, talks.Len())
	err = indexTalks(ctx, idx, talks, p)
	stopDropping()
	if cerr := idx.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("close new index: %w", cerr)
	}
	idx = nil
	if err != nil {
		return 0, err
	}
	if err := stopped(ctx); err != nil {
		return 0, err
	}
	releaseMemory(talks.Len())
	for range maxMergeRounds {
		idx, err = bleve.Open(path)
		if err != nil {
			return 0, fmt.Errorf("reopen new index: %w", err)
		}
		docs, err := idx.DocCount()
		if err != nil {
			idx.Close()
			return 0, fmt.Errorf("count documents: %w", err)
		}
		n, err := segments(idx)
		if err == nil && n > 1 {
			stopDropping := dropSegmentPagesWhile(idx, talks.Len())
			err = forceMerge(idx)
			stopDropping()
		}
		if cerr := idx.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close new index: %w", cerr)
		}
		idx = nil
		if err != nil || n <= 1 {
			return docs, err
		}
	}
	return 0, fmt.Errorf("merge segments: more than one segment after %d merges", maxMergeRounds)
}

// buildCompact is buildOnDisk for an index that stays: Bleve removes the
// files of merged-away segments only some time after the merge, so the
// index is built beside path and copied into it, which copies the files of
// its one segment only.
func buildCompact(ctx context.Context, path string, talks Slim, p Progress) (docs uint64, err error) {
	build := path + ".build"
	defer os.RemoveAll(build)
	docs, err = buildOnDisk(ctx, build, talks, p)
	if err != nil {
		return 0, err
	}
	var idx bleve.Index
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer recoverBuild(&err, "copy new index to "+path, &idx)
	idx, err = openReadOnly(build)
	if err != nil {
		return 0, fmt.Errorf("open new index: %w", err)
	}
	cp, ok := idx.(bleve.IndexCopyable)
	if !ok {
		err = fmt.Errorf("copy new index: a %T cannot be copied", idx)
	} else if err = cp.CopyTo(bleve.FileSystemDirectory(path)); err != nil {
		err = fmt.Errorf("copy new index to %s: %w", path, err)
	}
	idx.Close()
	idx = nil
	if err != nil {
		return 0, err
	}
	return docs, nil
}

// releaseMemory returns the build's garbage to the system before the next
// step maps more index files. The batches leave a heap of twice what is
// live (GOGC=100) that the runtime would hand back over minutes; the merge
// then maps every segment file and the engine reads the merged one, and a
// process's peak memory is what it holds at once. At 100k talks it is one
// forced collection of the talks each time. A build of a
// few batches leaves too little garbage to be worth a pause of the whole
// process, which a server reloading under load would feel.
func releaseMemory(talks int) {
	if talks >= releaseMemoryMin {
		debug.FreeOSMemory()
	}
}

// ReleaseMemory is releaseMemory for what a caller derives from the talks
// after the index (the search engine's tables): their garbage, left to the
// runtime, would stay resident for minutes while the engine serves.
func ReleaseMemory(talks int) { releaseMemory(talks) }

// releaseMemoryMin is the smallest build that releases its memory.
const releaseMemoryMin = 10 * batchSize

// maxMergeRounds bounds the merges of buildOnDisk; one is the rule.
const maxMergeRounds = 4

// segments is the number of segments of a scorch index.
func segments(idx bleve.Index) (uint64, error) {
	s, err := scorchOf(idx)
	if err != nil {
		return 0, err
	}
	n, ok := s.StatsMap()["TotFileSegmentsAtRoot"].(uint64)
	if !ok {
		return 0, fmt.Errorf("scorch reports no segment count")
	}
	return n, nil
}

func scorchOf(idx bleve.Index) (*scorch.Scorch, error) {
	adv, err := idx.Advanced()
	if err != nil {
		return nil, err
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return nil, fmt.Errorf("index is a %T, not scorch", adv)
	}
	return s, nil
}

// forceMerge merges every segment of a scorch index on disk into one and
// waits until the merged segment is the index's.
//
// Scorch's ForceMerge returns nothing of a merge that fails: without a
// "mergeDone" channel in its context (the key scorch reads, unexported) its
// merger retries the failed merge forever and ForceMerge waits for it, so
// a full disk hung the build. With one, the merger sends the merge's
// result there and drops the request; ForceMerge still waits until the
// index is closed, which the caller does on this error.
func forceMerge(idx bleve.Index) error {
	s, err := scorchOf(idx)
	if err != nil {
		return fmt.Errorf("merge segments: %w", err)
	}
	opts := mergeInOnePass
	merged := make(chan error, 1)
	ctx := context.WithValue(context.Background(), scorchMergeDoneKey, merged)
	returned := make(chan error, 1)
	go func() { returned <- s.ForceMerge(ctx, &opts) }()
	select {
	case err = <-merged:
		if err == nil {
			err = <-returned
		}
	case err = <-returned:
	}
	if err != nil {
		return fmt.Errorf("merge segments: %w", err)
	}
	return waitPersisted(s)
}

// waitPersisted waits until scorch's persister has written the root the
// merge made: closed before, the index reopens on its old segments, and a
// loaded machine could make every round of buildOnDisk's loop miss it.
func waitPersisted(s *scorch.Scorch) error {
	deadline := time.Now().Add(persistWait)
	for {
		m := s.StatsMap()
		root, _ := m["CurRootEpoch"].(uint64)
		persisted, _ := m["LastPersistedEpoch"].(uint64)
		if persisted >= root {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("merge segments: the merged index was not written within %v", persistWait)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// persistWait bounds waitPersisted: scorch writes a root in milliseconds.
const persistWait = time.Minute

// scorchMergeDoneKey is the context key under which scorch's merger looks
// for a channel to send a merge's result to (scorch's mergeDoneKey).
const scorchMergeDoneKey = "mergeDone"

// tempIndex is a read-only index built in a directory of its own, which is
// removed once the index is open, or else when it is closed.
type tempIndex struct {
	bleveIndex
	dir string
}

// bleveIndex names the embedded index so that its Index method is promoted
// (a field named Index would hide it).
type bleveIndex = bleve.Index

func (t *tempIndex) Close() error {
	err := t.bleveIndex.Close()
	if t.dir != "" {
		err = errors.Join(err, os.RemoveAll(t.dir))
	}
	return err
}

// buildMerged builds the index of talks in a temporary directory, merged
// into one segment, and opens it read-only; its directory does not outlive
// the index.
func buildMerged(ctx context.Context, talks Slim, p Progress) (bleve.Index, error) {
	dir, err := os.MkdirTemp("", "talksearch-index-")
	if err != nil {
		return nil, fmt.Errorf("index directory: %w", err)
	}
	path := filepath.Join(dir, "index")
	if _, err := buildOnDisk(ctx, path, talks, p); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	idx, err := openReadOnly(path)
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("open merged index %s: %w", path, err)
	}
	releaseMemory(talks.Len())
	// Open, the index has mapped its files: on Unix they can go now, so a
	// process that ends without closing the index (a crash, a test) leaves
	// nothing behind. Where open files cannot be removed, Close does it.
	if os.RemoveAll(dir) == nil {
		dir = ""
	}
	return &tempIndex{bleveIndex: idx, dir: dir}, nil
}

package index

import (
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
)

// A large build reads every batch's segment file through its mapping: each
// batch looks its talks' IDs up in every segment before it (scorch's
// obsoletes), and the final merge reads them all, more than the merged index
// itself. The kernel keeps those pages in the page cache either way, but
// while they stay mapped in the process they count in its resident memory,
// beside the heap, and as much as it in a large corpus. The build hands
// them back to the page cache now and then (dropSegmentPages): a page read
// again is a minor fault from the page cache, not a read from disk.

// segmentPagesEvery is how often a large build drops its segments' pages.
var segmentPagesEvery = time.Second

// dropSegmentPagesWhile drops the resident pages of idx's segment files
// every segmentPagesEvery until the returned func is called, which waits
// for the last drop to end. A build too small to release its memory
// (releaseMemoryMin) is left alone.
func dropSegmentPagesWhile(idx bleve.Index, talks int) (stop func()) {
	if talks < releaseMemoryMin || !canDropPages || segmentPagesEvery <= 0 {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(segmentPagesEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				dropSegmentPages(idx)
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
	}
}

// dropSegmentPages drops the resident pages of the segment files of idx's
// current snapshot. The snapshot is held meanwhile, so none of its segments
// is closed, and no mapping it names is unmapped (or its addresses reused)
// during the drop. Failures are ignored: the pages then stay resident.
func dropSegmentPages(idx bleve.Index) {
	s, err := scorchOf(idx)
	if err != nil {
		return
	}
	r, err := s.Reader()
	if err != nil {
		return
	}
	defer r.Close()
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return
	}
	var paths []string
	for _, ss := range snap.Segments() {
		if p, ok := ss.Segment().(interface{ Path() string }); ok && p.Path() != "" {
			paths = append(paths, p.Path())
		}
	}
	dropMappedFiles(paths)
}

package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBuildProgress: the callback hears after every batch, in order, with
// counts that grow to the total; and the index holds every talk.
func TestBuildProgress(t *testing.T) {
	talks := make([]Talk, 2*batchSize+500)
	for i := range talks {
		talks[i] = Talk{ID: fmt.Sprintf("t-%d", i), Title: fmt.Sprintf("Talk number %d", i), Kind: KindTalk}
	}
	var calls [][2]int
	idx, err := BuildWithProgress(talks, func(done, total int) { calls = append(calls, [2]int{done, total}) })
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	if n, _ := idx.DocCount(); n != uint64(len(talks)) {
		t.Errorf("%d documents, want %d", n, len(talks))
	}
	n := len(talks)
	if d := cmp.Diff([][2]int{{batchSize, n}, {2 * batchSize, n}, {n, n}}, calls); d != "" {
		t.Errorf("calls (-want +got):\n%s", d)
	}
	var small [][2]int
	idx2, err := BuildWithProgress(talks[:3], func(done, total int) { small = append(small, [2]int{done, total}) })
	if err != nil {
		t.Fatal(err)
	}
	idx2.Close()
	if d := cmp.Diff([][2]int{{3, 3}}, small); d != "" {
		t.Errorf("one batch (-want +got):\n%s", d)
	}
}

// TestBuildStopsAtAFailedBatch: a talk Bleve refuses (it has no ID) fails
// the build with that talk named by its place among the talks, whichever
// of the two batches in flight it is in; the batches before it were told,
// none after.
func TestBuildStopsAtAFailedBatch(t *testing.T) {
	for _, bad := range []int{batchSize + 3, 2*batchSize + 3} {
		talks := make([]Talk, 3*batchSize+10)
		for i := range talks {
			talks[i] = Talk{ID: fmt.Sprintf("t-%d", i), Title: fmt.Sprintf("Talk number %d", i), Kind: KindTalk}
		}
		talks[bad].ID = ""
		var calls [][2]int
		idx, err := BuildWithProgress(talks, func(done, total int) { calls = append(calls, [2]int{done, total}) })
		if err == nil {
			idx.Close()
			t.Fatalf("talk %d without an ID: no error", bad)
		}
		from := bad / batchSize * batchSize
		if want := fmt.Sprintf(`index talk %d (id ""): document ID cannot be empty`, bad); err.Error() != want {
			t.Errorf("talk %d without an ID: error %q, want %q", bad, err, want)
		}
		var told [][2]int
		for end := batchSize; end <= from; end += batchSize {
			told = append(told, [2]int{end, len(talks)})
		}
		if d := cmp.Diff(told, calls); d != "" {
			t.Errorf("talk %d without an ID: progress (-want +got):\n%s", bad, d)
		}
	}
}

// TestBuildContextStops: a context ended during a build (here by the
// progress of its first batch) ends it before the next batch, with its
// cause; a persisted rebuild so ended leaves nothing in its directory.
func TestBuildContextStops(t *testing.T) {
	talks := make([]Talk, 3*batchSize+10)
	for i := range talks {
		talks[i] = Talk{ID: fmt.Sprintf("t-%d", i), Title: fmt.Sprintf("Talk number %d", i), Kind: KindTalk}
	}
	signal := errors.New("terminated signal received")
	for _, persisted := range []bool{false, true} {
		ctx, cancel := context.WithCancelCause(context.Background())
		var calls [][2]int
		p := func(done, total int) {
			calls = append(calls, [2]int{done, total})
			cancel(signal)
		}
		dir := t.TempDir()
		var err error
		if persisted {
			_, _, err = OpenContext(ctx, dir, talks, p)
		} else {
			_, err = BuildContext(ctx, talks, p)
		}
		if !errors.Is(err, ErrBuildStopped) || !errors.Is(err, signal) {
			t.Errorf("persisted %v: error %v, want the build stopped by the signal", persisted, err)
		}
		if d := cmp.Diff([][2]int{{batchSize, len(talks)}}, calls); d != "" {
			t.Errorf("persisted %v: progress after the cancel (-want +got):\n%s", persisted, d)
		}
		if entries, _ := os.ReadDir(dir); persisted && len(entries) > 0 {
			t.Errorf("a stopped rebuild left %d entries in %s, want none", len(entries), dir)
		}
	}
}

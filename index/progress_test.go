package index

import (
	"fmt"
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

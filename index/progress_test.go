package index

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBuildProgress: the callback hears after every batch, one at a time,
// with counts that grow to the total; and the index holds every talk.
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
	// Batches finish in any order, so only the sums are fixed: 1000 or 500
	// more each time.
	if len(calls) != 3 || calls[2] != [2]int{2500, 2500} {
		t.Fatalf("calls %v, want three ending at 2500 of 2500", calls)
	}
	for i := 1; i < len(calls); i++ {
		if step := calls[i][0] - calls[i-1][0]; step != 1000 && step != 500 {
			t.Errorf("calls %v: step %d", calls, step)
		}
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

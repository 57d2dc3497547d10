package index

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/blevesearch/bleve/v2"
)

// segmentsOf is the number of segments of a scorch index.
func segmentsOf(t *testing.T, idx bleve.Index) uint64 {
	t.Helper()
	n, err := segments(idx)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A build of several batches is merged into one segment on disk, whose
// directory goes when the index is closed; one batch stays in memory.
func TestBuildMergesBatches(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where Build makes its directory
	talks := numberedTalks(2*batchSize + 1)
	idx, err := Build(talks)
	if err != nil {
		t.Fatal(err)
	}
	if n := segmentsOf(t, idx); n != 1 {
		t.Errorf("%d segments, want 1", n)
	}
	if n, _ := idx.DocCount(); n != uint64(len(talks)) {
		t.Errorf("DocCount %d, want %d", n, len(talks))
	}
	// Talks of the first and the last batch are found.
	for _, id := range []string{"0", strconv.Itoa(2 * batchSize)} {
		if got := searchIDs(t, idx, matchField(FieldTitle, "number "+id)); len(got) != 1 || got[0] != "t"+id {
			t.Errorf("talk number %s: %v", id, got)
		}
	}
	if _, ok := idx.(*tempIndex); !ok {
		t.Fatalf("Build of %d talks is a %T, want a merged index on disk", len(talks), idx)
	}
	// The build directory went once the index was open (Unix): nothing is
	// left if the process ends without Close.
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("build directories left while the index is open: %v", left)
	}
	if err := idx.Close(); err != nil {
		t.Fatal(err)
	}

	small, err := Build(numberedTalks(batchSize))
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close()
	if _, ok := small.(*tempIndex); ok {
		t.Errorf("Build of one batch went to disk")
	}
}

// A persisted index is one segment file too.
func TestOpenMergesBatches(t *testing.T) {
	dir := t.TempDir()
	talks := numberedTalks(batchSize + 1)
	idx, rep, err := Open(dir, talks)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	if n := segmentsOf(t, idx); n != 1 {
		t.Errorf("%d segments, want 1", n)
	}
	zaps, err := filepath.Glob(filepath.Join(rep.Path, "store", "*.zap"))
	if err != nil {
		t.Fatal(err)
	}
	if len(zaps) != 1 {
		t.Errorf("segment files %v, want one", zaps)
	}
}

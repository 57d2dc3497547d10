package index

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
)

// The pages of an index's segment files that the process has read leave
// its resident memory, and the index reads the same afterwards.
func TestDropSegmentPages(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	idx, err := bleve.NewUsing(dir, NewMapping(), scorch.Name, scorch.Name, noBackgroundMerge)
	if err != nil {
		t.Fatal(err)
	}
	talks := numberedTalks(3 * batchSize)
	if err := indexTalks(context.Background(), idx, Whole(talks), nil); err != nil {
		t.Fatal(err)
	}
	if err := idx.Close(); err != nil {
		t.Fatal(err)
	}
	idx, err = bleve.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	if n := segmentsOf(t, idx); n != 3 {
		t.Fatalf("%d segments, want 3 (one a batch)", n)
	}
	read := func() {
		t.Helper()
		req := bleve.NewSearchRequestOptions(matchField(FieldAbstract, "kernels"), len(talks), 0, false)
		res, err := idx.Search(req)
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != uint64(len(talks)) || len(res.Hits) != len(talks) {
			t.Fatalf("%d hits (%d returned), want %d", res.Total, len(res.Hits), len(talks))
		}
		for _, n := range []int{0, batchSize + 1, 3*batchSize - 1} {
			id := strconv.Itoa(n)
			if got := searchIDs(t, idx, matchField(FieldTitle, "number "+id)); len(got) != 1 || got[0] != "t"+id {
				t.Errorf("talk number %s: %v", id, got)
			}
		}
	}
	read()
	zaps := filepath.Join(dir, "store")
	if kb := residentKiB(t, zaps); kb == 0 {
		t.Fatalf("no page of the segment files in %s resident after a search", zaps)
	}
	dropSegmentPages(idx)
	if kb := residentKiB(t, zaps); kb != 0 {
		t.Errorf("%d KiB of the segment files resident after the drop, want 0", kb)
	}
	read()
}

// residentKiB sums the resident memory of the process's mappings of the
// segment files in dir, from /proc/self/smaps.
func residentKiB(t *testing.T, dir string) int {
	t.Helper()
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	var kb int
	in := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) > 0 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":") {
			in = len(f) >= 6 && filepath.Dir(f[5]) == dir && strings.HasSuffix(f[5], ".zap")
			continue
		}
		if in && len(f) == 3 && f[0] == "Rss:" {
			n, err := strconv.Atoi(f[1])
			if err != nil {
				t.Fatal(err)
			}
			kb += n
		}
	}
	return kb
}

package search

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/talksearch/talksearch/index/ingest"
)

// earlyDir holds the collection over the FOSDEM archive, 2007–2023
// (testdata/relevance/fosdem-archive/HOW.md).
const earlyDir = "testdata/relevance/fosdem-archive"

var (
	earlyOnce sync.Once
	earlyC    *ingest.Corpus
	earlyE    *Engine
	earlyErr  error
)

// earlyFiles are the seventeen schedules the archive collection is over.
func earlyFiles() []string {
	var fs []string
	for y := 2007; y <= 2023; y++ {
		fs = append(fs, filepath.Join("..", "..", "shared", "datasets", "fosdem", fmt.Sprintf("fosdem-%d.xml", y)))
	}
	return fs
}

// earlyArchive is an engine over FOSDEM 2007–2023, built once per binary;
// it skips the test where the datasets are absent (fails under CI=true).
func earlyArchive(t testing.TB) (*Engine, *ingest.Corpus) {
	t.Helper()
	files := earlyFiles()
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("FOSDEM dataset %s: %v (CI must check the archive collection)", f, err)
			}
			t.Skipf("FOSDEM dataset %s absent: the archive collection is not checked", f)
		}
	}
	earlyOnce.Do(func() {
		earlyC, earlyErr = ingest.LoadPaths(files, ingest.Options{})
		if earlyErr == nil {
			earlyE, earlyErr = New(earlyC.Talks)
		}
	})
	if earlyErr != nil {
		t.Fatalf("FOSDEM 2007–2023 engine: %v", earlyErr)
	}
	if n := len(earlyC.Talks); n != 9283 {
		t.Fatalf("FOSDEM 2007–2023: %d talks, want 9,283", n)
	}
	return earlyE, earlyC
}

// earlyFloors are talksearch's figures on the archive collection
// (docs/relevance.md).
var earlyFloors = map[string]scores{
	"alias":       {0.816, 1.000, 0.587},
	"multi":       {0.784, 1.000, 0.632},
	"name":        {0.982, 1.000, 0.641},
	"topic":       {0.879, 1.000, 0.675},
	"descriptive": {0.673, 1.000, 0.651},
	"acronym":     {0.955, 1.000, 0.693},
	"variant":     {0.793, 1.000, 0.604},
	"question":    {0.573, 0.900, 0.489},
	"misspelling": {0.909, 1.000, 0.786},
	"speaker":     {1.000, 1.000, 0.783},
	"all":         {0.837, 0.992, 0.652},
}

func TestRelevanceFOSDEMArchive(t *testing.T) {
	e, c := earlyArchive(t)
	checkPooled(t, e, c, pooledCollection(t, c, earlyDir, "FOSDEM 2007–2023"), earlyDir, earlyFloors)
}

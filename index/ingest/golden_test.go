package ingest

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// TestLoadSeedGolden compares every field of every talk of the real seeds,
// as JSON Lines like `talksearch export` writes them, with
// testdata/seeds.golden.jsonl. After a deliberate change, run
// `go test ./index -run Golden -update` and review the diff.
func TestLoadSeedGolden(t *testing.T) {
	var got bytes.Buffer
	enc := json.NewEncoder(&got)
	enc.SetEscapeHTML(false)
	for _, tk := range loadSeeds(t).Talks {
		if err := enc.Encode(tk); err != nil {
			t.Fatal(err)
		}
	}
	golden := filepath.Join("testdata", "seeds.golden.jsonl")
	if *update {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), got.String()); d != "" {
		t.Errorf("talks differ from %s (-want +got):\n%s", golden, d)
	}
}

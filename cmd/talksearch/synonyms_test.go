package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSynonymsMined: `synonyms --mined` lists the aliases of the seeds with
// their evidence; plain `synonyms` lists the alias among the groups.
func TestSynonymsMined(t *testing.T) {
	var b strings.Builder
	line := func(i int, title, abstract string) {
		fmt.Fprintf(&b, `{"id":"t%d","title":%q,"abstract":%q}`+"\n", i, title, abstract)
	}
	for i := 0; i < 6; i++ {
		abstract := "Planner internals."
		if i < 4 {
			abstract = "We run flump in production."
		}
		line(i, fmt.Sprintf("Flumpgres notes %d", i), abstract)
	}
	for i := 6; i < 46; i++ {
		line(i, fmt.Sprintf("Cats %d", i), "Unrelated words about cats.")
	}
	file := filepath.Join(t.TempDir(), "talks.jsonl")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := runCmd(t, nil, "synonyms", "--mined", "--seeds", file)
	if err != nil {
		t.Fatalf("synonyms --mined: %v, stderr %q", err, stderr)
	}
	if want := "flump → Flumpgres (both in 4 talks; flump in 4, Flumpgres in 6)\n1 aliases mined from 46 talks\n"; out != want {
		t.Errorf("synonyms --mined:\n%s\nwant\n%s", out, want)
	}
	out, _, err = runCmd(t, nil, "synonyms", "--seeds", file)
	if err != nil || !strings.Contains(out, "\nflump → Flumpgres  (alias)\n") || !strings.HasPrefix(out, "LLM | large language model  (curated)\n") {
		t.Errorf("synonyms: %v\n%s", err, out)
	}
	if _, _, err := runCmd(t, nil, "synonyms", "extra"); err == nil {
		t.Error("synonyms with an argument: no error")
	}
}

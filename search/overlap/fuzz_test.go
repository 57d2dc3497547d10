package overlap

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzReadSubmissions feeds the submissions reader arbitrary files under
// the extension of every format (.csv, .jsonl, .json, .xml, .ics) or none
// (format sniffed): a reader registered later (RegisterFormat) is fuzzed by
// the same target. Whatever the input, it must not panic; every talk it
// returns must be usable (id, title and abstract set, ids unique, since
// overlap reports refer to talks by id), every noted row must point at a
// line of the file, and the counts must add up to the rows. Rows are
// bounded at 256 bytes so that the too-long path is reached too.
func FuzzReadSubmissions(f *testing.F) {
	for _, name := range []string{"submissions.csv", "submissions.jsonl", "bad-rows.csv", "bad-rows.jsonl", "unclosed-quote.csv", "pretalx-submissions.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		ext := strings.TrimPrefix(filepath.Ext(name), ".")
		f.Add(data, ext)
		f.Add(data, "") // the format sniffed from the content
	}
	f.Add([]byte("title,abstract\nA,B\nA,B\n"), "csv")
	f.Add([]byte("id,title,abstract\na-7dbde9-l4,C,D\n,A,B\n,A,B\n"), "csv") // derived id taken explicitly
	f.Add([]byte(`{"title":"A","abstract":"B"}`+"\n"+`{"id":"x","title":"A","abstract":"B"}`), "jsonl")
	f.Add([]byte("title,abstract\n\"unclosed,x\n"), "csv")
	f.Fuzz(func(t *testing.T, data []byte, ext string) {
		name := "fuzz"
		if ext != "" {
			name += "." + ext
		}
		imp, err := ReadSubmissions(name, bytes.NewReader(data), ReadOptions{MaxRowBytes: 256})
		if err != nil {
			return
		}
		talks, bad := imp.Talks, imp.Notes
		lines := bytes.Count(data, []byte("\n")) + 1
		seen := map[string]bool{}
		for _, tk := range talks {
			if tk.ID == "" || tk.Title == "" || tk.Abstract == "" {
				t.Fatalf("incomplete talk %+v", tk)
			}
			if seen[tk.ID] {
				t.Fatalf("id %q returned twice", tk.ID)
			}
			seen[tk.ID] = true
		}
		sum := imp.Summary
		if sum.Rows != sum.Kept+sum.Merged+sum.Skipped || sum.Kept != len(talks) {
			t.Fatalf("summary %+v for %d talks", sum, len(talks))
		}
		for _, re := range bad {
			if re.Line < 1 || re.Line > lines {
				t.Fatalf("row error on line %d of a %d-line file: %s", re.Line, lines, re.Reason)
			}
			if re.Reason == "" {
				t.Fatalf("row error on line %d without a reason", re.Line)
			}
		}
	})
}

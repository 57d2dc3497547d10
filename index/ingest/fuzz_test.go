package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/talksearch/talksearch/index"
)

// addSeedCorpus adds the fixtures, the abstract dumps and an excerpt of
// the schedule page to a fuzz corpus. Small inputs keep the fuzzer fast.
func addSeedCorpus(f *testing.F) {
	f.Helper()
	files, err := filepath.Glob("testdata/*/*.txt")
	if err != nil {
		f.Fatal(err)
	}
	files = append(files, "../../seeds/001_2e0c21527924176b.txt", "../../seeds/002_40d108097b152c48.txt")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	sched, err := os.ReadFile(filepath.Join("..", "..", "seeds", schedSeed))
	if err != nil {
		f.Fatal(err)
	}
	lines := strings.SplitAfter(string(sched), "\n")
	f.Add([]byte(strings.Join(lines[:260], "")))            // header, keynotes, breaks, a sponsor activity
	f.Add([]byte(strings.Join(lines[len(lines)-150:], ""))) // the last blocks and the sidebar
	f.Add([]byte("10:00 CEST\n\nT - A, B\nWednesday April 8, 2026 10:00 - 09:00 CEST\n"))
	f.Add([]byte("10:00 CEST\n\nT - A, B\nWednesday April 8, 2026 10:00 - 10:30 CEST\nRoom\nSpeakers\nAB\n\nA B\n"))
}

func FuzzParseSched(f *testing.F) {
	addSeedCorpus(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		const file = "f.txt"
		s := ParseSched(file, data)
		if len(s.Talks) > s.Blocks {
			t.Fatalf("%d talks from %d blocks", len(s.Talks), s.Blocks)
		}
		lines := strings.Count(string(data), "\n") + 1
		for _, w := range s.Warnings {
			if w.File != file || w.Line < 0 || w.Line > lines || w.Msg == "" {
				t.Fatalf("bad warning %+v (file has %d lines)", w, lines)
			}
		}
		for _, tk := range s.Talks {
			checkTalk(t, tk)
			if !tk.Scheduled || tk.Start == nil || tk.End == nil || tk.End.Before(*tk.Start) {
				t.Fatalf("scheduled talk with bad times: %+v", tk)
			}
			if len(tk.Sources) != 1 || tk.Sources[0] != file {
				t.Fatalf("sources %v, want [%s]", tk.Sources, file)
			}
		}
	})
}

func FuzzParseAbstracts(f *testing.F) {
	addSeedCorpus(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		d := ParseAbstracts("f.txt", data)
		lines := strings.Count(string(data), "\n") + 1
		last := 0
		for _, p := range d.Paragraphs {
			if p.Line <= last || p.Line > lines {
				t.Fatalf("paragraph line %d after %d (file has %d lines)", p.Line, last, lines)
			}
			last = p.Line
			if p.Text == "" || strings.Contains(p.Text, "\n\n") || strings.TrimSpace(p.Text) != p.Text {
				t.Fatalf("bad paragraph %q", p.Text)
			}
		}
		if utf8.Valid(data) {
			// Everything that is not blank is kept: no word is lost.
			var got, want int
			for _, p := range d.Paragraphs {
				got += len(strings.Fields(p.Text))
			}
			for _, l := range splitLines(data) {
				want += len(strings.Fields(l))
			}
			if d.Header != "" {
				want -= len(strings.Fields(d.Header))
			}
			if got != want {
				t.Fatalf("%d words in paragraphs, %d in the file", got, want)
			}
		}
	})
}

// FuzzLoad ingests the fuzzed data as an abstract dump next to the real
// schedule: whatever it holds, Load returns talks or warnings, never panics,
// and keeps its invariants.
func FuzzLoad(f *testing.F) {
	addSeedCorpus(f)
	sched, err := os.ReadFile(filepath.Join("..", "..", "seeds", schedSeed))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Load(fstest.MapFS{schedSeed: {Data: sched}, "x.txt": {Data: data}})
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]bool{}
		for _, tk := range c.Talks {
			checkTalk(t, tk)
			if ids[tk.ID] && !tk.Scheduled {
				t.Fatalf("duplicate id %s", tk.ID)
			}
			ids[tk.ID] = true
		}
		if c.Report.Blocks < 62 {
			t.Fatalf("blocks = %d, want at least the 62 of the schedule", c.Report.Blocks)
		}
	})
}

func checkTalk(t *testing.T, tk index.Talk) {
	t.Helper()
	if tk.Title == "" || !idRE.MatchString(tk.ID) {
		t.Fatalf("talk without title or with a bad id: %+v", tk)
	}
	for _, p := range splitParagraphs(tk.Abstract) {
		if p == "" || strings.TrimSpace(p) != p {
			t.Fatalf("%q: empty or padded paragraph in %q", tk.Title, tk.Abstract)
		}
	}
}

func BenchmarkParseSched(b *testing.B) {
	data := readSeed(b, schedSeed)
	for b.Loop() {
		ParseSched(schedSeed, data)
	}
}

func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := Load(os.DirFS("../../seeds")); err != nil {
			b.Fatal(err)
		}
	}
}

package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
)

// within fails the test if f does not return within limit: the inputs
// here used to hang their readers.
func within(t *testing.T, limit time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(limit):
		t.Fatalf("%s: still running after %v", what, limit)
	}
}

func warningStrings(ws []Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.String())
	}
	return out
}

func talkTitles(c *Corpus) []string {
	var out []string
	for _, t := range c.Talks {
		out = append(out, t.Title)
	}
	return out
}

// TestNonRegularFilesRefused: a FIFO or a device named as seeds is refused
// by name before it is opened (opening a FIFO would wait for a writer,
// /dev/zero never ends); one inside a seeds directory is a warning and the
// other files are read.
func TestNonRegularFilesRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo not allowed here: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "talks.jsonl"), []byte(`{"title":"Pipes and filters"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		fifo:        "seeds " + fifo + ": a FIFO, not a regular file: refused",
		"/dev/zero": "seeds /dev/zero: a character device, not a regular file: refused",
	} {
		if _, err := os.Stat(path); err != nil {
			continue
		}
		within(t, 5*time.Second, path, func() {
			_, err := LoadPaths([]string{path}, Options{})
			if err == nil || err.Error() != want || !errors.Is(err, ErrNotRegular) {
				t.Errorf("LoadPaths(%s) = %v, want %q", path, err, want)
			}
			if _, err := OpenRegular(path); !errors.Is(err, ErrNotRegular) {
				t.Errorf("OpenRegular(%s) = %v", path, err)
			}
		})
	}
	within(t, 5*time.Second, "a directory with a FIFO", func() {
		c, err := LoadPaths([]string{dir}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]string{fifo + ":0: a FIFO, not a regular file: refused"}, warningStrings(c.Report.Warnings)); d != "" {
			t.Errorf("warnings (-want +got):\n%s", d)
		}
		if d := cmp.Diff([]string{"Pipes and filters"}, talkTitles(c)); d != "" {
			t.Errorf("talks (-want +got):\n%s", d)
		}
	})
}

// TestMaxFileBytes: the limit of a file read whole is an option; a file
// over it is a warning, the others are read.
func TestMaxFileBytes(t *testing.T) {
	dir := t.TempDir()
	big := "<schedule><day date=\"2025-02-01\"><room><event id=\"1\"><title>Big</title><abstract>" + strings.Repeat("x", 2048) + "</abstract></event></room></day></schedule>"
	os.WriteFile(filepath.Join(dir, "big.xml"), []byte(big), 0o644)
	os.WriteFile(filepath.Join(dir, "small.jsonl"), []byte(`{"title":"Small"}`+"\n"), 0o644)
	c, err := LoadPaths([]string{dir}, Options{MaxFileBytes: 1024})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{fmt.Sprintf("big.xml:0: %d bytes: over the 1 KiB limit of a seed file (--max-file-bytes), not read", len(big))}
	if d := cmp.Diff(want, warningStrings(c.Report.Warnings)); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"Small"}, talkTitles(c)); d != "" {
		t.Errorf("talks (-want +got):\n%s", d)
	}
	if _, _, err := ReadFile("big.xml", []byte(big), Options{MaxFileBytes: 1024}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadFile over the limit: %v", err)
	}
}

// TestOverlongLineCostsTheLine: a line over the limit in JSON Lines, CSV
// or a Sched page is a warning with its line; the lines around it are read.
func TestOverlongLineCostsTheLine(t *testing.T) {
	long := strings.Repeat("x", 5<<20)
	hugeLine := `{"title":"Huge","abstract":"` + long + `"}` + "\n"
	jsonl := `{"title":"Before"}` + "\n" + hugeLine + `{"title":"After"}` + "\n"
	csv := "title,abstract\nBefore,One\nHuge," + long + "\nAfter,Two\n"
	for _, tt := range []struct{ name, data, warn string }{
		{"f.jsonl", jsonl, fmt.Sprintf("f.jsonl:2: line is %d bytes, longer than the 4 MiB limit of a row (--max-line-bytes): skipped", len(hugeLine))},
		{"f.csv", csv, "f.csv:3: row is longer than the 4 MiB limit of a row (--max-line-bytes): skipped"},
	} {
		c, err := LoadFS(mapFS(tt.name, tt.data), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]string{tt.warn}, warningStrings(c.Report.Warnings)); d != "" {
			t.Errorf("%s warnings (-want +got):\n%s", tt.name, d)
		}
		if d := cmp.Diff([]string{"After", "Before"}, talkTitles(c)); d != "" {
			t.Errorf("%s talks (-want +got):\n%s", tt.name, d)
		}
	}

	sched := readSeed(t, schedSeed)
	lines := bytes.SplitAfter(sched, []byte("\n"))
	withLong := bytes.Join(append(append(lines[:3:3], []byte(long+"\n")), lines[3:]...), nil)
	want, err := LoadFS(mapFS(schedSeed, string(sched)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := LoadFS(mapFS(schedSeed, string(withLong)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Report.Warnings) != len(want.Report.Warnings)+1 ||
		got.Report.Warnings[0].String() != fmt.Sprintf("%s:4: line is %d bytes, longer than the 4 MiB limit of a line (--max-line-bytes): skipped", schedSeed, len(long)) {
		t.Errorf("warnings %v", got.Report.Warnings[:min(3, len(got.Report.Warnings))])
	}
	if len(got.Talks) != len(want.Talks) || got.Report.Blocks != want.Report.Blocks || len(got.Talks) < 60 {
		t.Errorf("%d talks, %d blocks; want %d, %d", len(got.Talks), got.Report.Blocks, len(want.Talks), want.Report.Blocks)
	}
}

// TestDeepXMLElementSkipped: 200,000 nested elements are one warning
// with their line; the events before and after them are read.
func TestDeepXMLElementSkipped(t *testing.T) {
	ev := func(id, title string) string {
		return `<event id="` + id + `"><start>10:00</start><title>` + title + `</title></event>`
	}
	const n = 200000
	for _, nest := range []string{"extra", "room"} {
		doc := "<schedule>\n<day date=\"2025-02-01\"><room name=\"A\">" + ev("1", "Before") + "</room>\n" +
			strings.Repeat("<"+nest+">", n) + strings.Repeat("</"+nest+">", n) +
			"\n<room name=\"B\">" + ev("2", "After") + "</room></day>\n</schedule>\n"
		c, err := LoadFS(mapFS("deep.xml", doc), Options{TimeZone: time.UTC})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"deep.xml:3: elements nested deeper than 64 (to line 3): skipped, the rest of the file read"}
		if d := cmp.Diff(want, warningStrings(c.Report.Warnings)); d != "" {
			t.Errorf("<%s> warnings (-want +got):\n%s", nest, d)
		}
		if d := cmp.Diff([]string{"After", "Before"}, talkTitles(c)); d != "" {
			t.Errorf("<%s> talks (-want +got):\n%s", nest, d)
		}
	}
}

// utf16Bytes encodes s as UTF-16 with a byte order mark.
func utf16Bytes(s string, bigEndian bool) []byte {
	var b bytes.Buffer
	for _, u := range append([]uint16{0xfeff}, utf16.Encode([]rune(s))...) {
		if bigEndian {
			b.Write([]byte{byte(u >> 8), byte(u)})
		} else {
			b.Write([]byte{byte(u), byte(u >> 8)})
		}
	}
	return b.Bytes()
}

// TestUTF16Decoded: XML (declaring its encoding) and JSON Lines saved as
// UTF-16 with a byte order mark, little- or big-endian, are read.
func TestUTF16Decoded(t *testing.T) {
	xml := "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\r\n<schedule><day date=\"2025-02-01\"><room name=\"Salle\"><event id=\"7\"><start>10:00</start><title>Déjà vu in Zürich</title></event></room></day></schedule>\r\n"
	jsonl := `{"title":"Ελληνικά ok"}` + "\n"
	for _, be := range []bool{false, true} {
		for name, text := range map[string]string{"u.xml": xml, "u.jsonl": jsonl} {
			c, err := LoadFS(mapFS(name, string(utf16Bytes(text, be))), Options{TimeZone: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			want := []string{name + ":1: UTF-16 (byte order mark): read as UTF-16 and converted to UTF-8"}
			if d := cmp.Diff(want, warningStrings(c.Report.Warnings)); d != "" {
				t.Errorf("%s big-endian %v: warnings (-want +got):\n%s", name, be, d)
			}
			if len(c.Talks) != 1 || (c.Talks[0].Title != "Déjà vu in Zürich" && c.Talks[0].Title != "Ελληνικά ok") {
				t.Errorf("%s big-endian %v: talks %+v", name, be, talkTitles(c))
			}
		}
		imp, err := ReadSubmissions("u.csv", bytes.NewReader(utf16Bytes("title,abstract\r\nÜber,Ein Vortrag\r\n", be)), ImportOptions{})
		if err != nil || len(imp.Talks) != 1 || imp.Talks[0].Title != "Über" || imp.Talks[0].Abstract != "Ein Vortrag" {
			t.Errorf("CSV big-endian %v: %+v %v", be, imp, err)
		}
	}
}

// TestNULAndBadUTF8Replaced: NUL bytes (raw, or \u0000 in JSON) are
// removed and bytes that are not UTF-8 replaced by U+FFFD, each time with
// a warning naming the line; the row is kept.
func TestNULAndBadUTF8Replaced(t *testing.T) {
	jsonl := `{"title":"Clean","abstract":"Text"}` + "\n" + `{"title":"Nul\u0000led","abstract":"Raw ` + "\xff" + ` byte"}` + "\n"
	csv := "title,abstract\nClean,Text\nNul\x00led,Raw \xff byte\n"
	for name, data := range map[string]string{"f.jsonl": jsonl, "f.csv": csv} {
		c, err := LoadFS(mapFS(name, data), Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"f.jsonl:2: bytes that are not UTF-8 replaced by U+FFFD", `f.jsonl:2: 1 NUL characters (\u0000) removed`}
		if name == "f.csv" {
			want = []string{"f.csv:3: 1 NUL bytes removed", "f.csv:3: bytes that are not UTF-8 replaced by U+FFFD"}
		}
		if d := cmp.Diff(want, warningStrings(c.Report.Warnings)); d != "" {
			t.Errorf("%s warnings (-want +got):\n%s", name, d)
		}
		found := false
		for _, tk := range c.Talks {
			if tk.Title == "Nulled" {
				found = true
				if tk.Abstract != "Raw \uFFFD byte" {
					t.Errorf("%s abstract %q", name, tk.Abstract)
				}
			}
		}
		if !found || len(c.Talks) != 2 {
			t.Errorf("%s talks %q", name, talkTitles(c))
		}
		imp, err := ReadSubmissions(name, strings.NewReader(data), ImportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(imp.Talks) != 2 || imp.Summary.Repaired != 1 || len(imp.Notes) != 1 || imp.Notes[0].Action != ActionRepaired ||
			imp.Notes[0].Line != map[string]int{"f.jsonl": 2, "f.csv": 3}[name] || !strings.Contains(imp.Notes[0].Reason, "replaced by U+FFFD") {
			t.Errorf("%s import: %+v", name, imp)
		}
	}
}

// TestICalParametersCapped: a property with more parameters than any real
// one is dropped before the iCalendar library (whose cost grows with their
// square) sees it; the event keeps its other properties.
func TestICalParametersCapped(t *testing.T) {
	ics := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:1\r\nSUMMARY:Calendars at scale\r\n" +
		"ATTENDEE" + strings.Repeat(";X-A=b", 200000) + ":mailto:a@example.org\r\n" +
		"ATTENDEE;CN=Ana Ruiz:mailto:ana@example.org\r\n" +
		"DESCRIPTION:Long" + strings.Repeat("g", 5<<20) + "\r\n END\r\n" +
		"END:VEVENT\r\nEND:VCALENDAR\r\n"
	var talks []string
	var warns []Warning
	within(t, 20*time.Second, "200,000 parameters", func() {
		ts, ws, err := ReadFile("c.ics", []byte(ics), Options{TimeZone: time.UTC})
		if err != nil {
			t.Error(err)
			return
		}
		warns = ws
		for _, tk := range ts {
			talks = append(talks, tk.Title+" / "+tk.Speakers[0].Name+" / "+tk.Abstract)
		}
	})
	want := []string{
		"c.ics:6: ATTENDEE property with 200000 parameters, more than 32: dropped",
		fmt.Sprintf("c.ics:8: DESCRIPTION property of %d bytes, longer than the 4 MiB limit of a line (--max-line-bytes): dropped", 5<<20+len("DESCRIPTION:Long\r\n END\r\n")),
	}
	if d := cmp.Diff(want, warningStrings(warns)); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"Calendars at scale / Ana Ruiz / "}, talks); d != "" {
		t.Errorf("talks (-want +got):\n%s", d)
	}
}

// TestMarkdownNestingCapped: lists or quotes opened more than
// maxMarkdownNesting deep on a line never reach the Markdown parser (a few
// kilobytes of them cost it seconds): the text is read as plain text.
func TestMarkdownNestingCapped(t *testing.T) {
	deep := strings.Repeat("- ", 4000) + "deep"
	if got := cleanText(deep); got != deep {
		t.Errorf("4000 nested list items: %.40q…", got)
	}
	if got, want := cleanText("Intro *here*\n\n- one\n  - two\n    1. three"), "Intro here\n\none\n\ntwo\n\nthree"; got != want {
		t.Errorf("a list three deep: %q, want %q", got, want)
	}
	for s, want := range map[string]int{"> - 1. - x": 4, "  1) a": 1, "-x": 0, "12.5 ms": 0, "+ + +": 3} {
		if got := containerDepth(s); got != want {
			t.Errorf("containerDepth(%q) = %d, want %d", s, got, want)
		}
	}
}

// endless is a JSON Lines stream that never ends.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	line := fmt.Sprintf("{\"title\":\"Talk %d\",\"abstract\":\"Text.\"}\n", e.n)
	e.n++
	return copy(p, line), nil
}

// TestCancelEndsImport: a cancelled context ends a load and an import
// under way, with its cause.
func TestCancelEndsImport(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.jsonl"), []byte(`{"title":"A"}`+"\n"), 0o644)
	if _, err := LoadPaths([]string{dir}, Options{Context: ctx}); !errors.Is(err, context.Canceled) {
		t.Errorf("LoadPaths with a cancelled context: %v", err)
	}
	for _, name := range []string{"frab-devroom.xml", "frab-camp.json", "pretalx-submissions.json", "pentabarf.ical", "sessionize-all-data.json", "cfp.csv", "synthetic-sample.jsonl"} {
		data, err := os.ReadFile(filepath.Join(formatsDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if talks, _, err := ReadFile(name, data, Options{Context: ctx}); !errors.Is(err, context.Canceled) || talks != nil {
			t.Errorf("%s with a cancelled context: %d talks, %v", name, len(talks), err)
		}
	}
	ctx, cancel = context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	within(t, 10*time.Second, "an endless import", func() {
		in := NewImporter(ImportOptions{Context: ctx}, func(index.Talk) {})
		_, err := in.Read("endless.jsonl", &endless{})
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "ingest stopped") {
			t.Errorf("endless import: %v", err)
		}
	})
}

// mapFS is a folder of one file.
func mapFS(name, data string) fstest.MapFS {
	return fstest.MapFS{name: &fstest.MapFile{Data: []byte(data)}}
}

// TestMarkdownBudgetPerFile: past maxMarkdownPerFile of Markdown in one
// file, texts are read as plain text, with one warning that counts them.
func TestMarkdownBudgetPerFile(t *testing.T) {
	const size, events = 15000, 300
	abstract := ("**Bold** " + strings.Repeat("word ", size/5))[:size]
	var b strings.Builder
	b.WriteString("<schedule><day date=\"2025-02-01\"><room name=\"A\">\n")
	start := time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC)
	for i := range events {
		fmt.Fprintf(&b, "<event id=\"%d\"><date>%s</date><title>T%d</title><abstract>%s</abstract></event>\n", i, start.Add(time.Duration(i)*time.Minute).Format(time.RFC3339), i, abstract)
	}
	b.WriteString("</room></day></schedule>\n")
	c, err := LoadFS(mapFS("md.xml", b.String()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	fit := maxMarkdownPerFile / size
	want := []string{fmt.Sprintf("md.xml:1: more than 4 MiB of Markdown in the file: %d texts past it read as plain text", events-fit)}
	if d := cmp.Diff(want, warningStrings(c.Report.Warnings)); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	if len(c.Talks) != events || !strings.HasPrefix(c.Talks[fit-1].Abstract, "Bold word") || !strings.HasPrefix(c.Talks[fit].Abstract, "**Bold** word") {
		t.Errorf("%d talks; talk %d: %.20q, talk %d: %.20q", len(c.Talks), fit-1, c.Talks[fit-1].Abstract, fit, c.Talks[fit].Abstract)
	}
}

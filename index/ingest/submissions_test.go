package ingest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
)

// submissionsDir holds the organizers' example files of `talksearch
// overlaps --from`, documented in its README: the overlap tests pair the
// same files.
var submissionsDir = filepath.Join("..", "..", "search", "overlap", "testdata")

func readSubmissionsFile(t *testing.T, name string) ([]index.Talk, []RowError) {
	t.Helper()
	f, err := os.Open(filepath.Join(submissionsDir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	imp, err := ReadSubmissions(name, f, ImportOptions{Location: time.UTC})
	if err != nil {
		t.Fatalf("ReadSubmissions(%s): %v", name, err)
	}
	return imp.Talks, imp.Notes
}

// checkSummary asserts that a file's counts account for every row.
func checkSummary(t *testing.T, s FileSummary, notes []RowError) {
	t.Helper()
	if s.Rows != s.Kept+s.Merged+s.Skipped {
		t.Errorf("%s: %d rows but %d kept + %d merged + %d skipped", s.File, s.Rows, s.Kept, s.Merged, s.Skipped)
	}
	count := map[string]int{}
	for _, n := range notes {
		if n.File == s.File {
			count[n.Action]++
		}
	}
	if count[ActionSkipped] != s.Skipped || count[ActionMerged] != s.Merged || count[ActionRepaired] != s.Repaired {
		t.Errorf("%s: notes %v, summary %+v", s.File, count, s)
	}
}

func readSubmissionsString(t *testing.T, name, data string, opt ImportOptions) *Import {
	t.Helper()
	imp, err := ReadSubmissions(name, strings.NewReader(data), opt)
	if err != nil {
		t.Fatalf("ReadSubmissions(%s): %v", name, err)
	}
	checkSummary(t, imp.Summary, imp.Notes)
	return imp
}

func talkIDs(talks []index.Talk) []string {
	out := []string{}
	for _, t := range talks {
		out = append(out, t.ID)
	}
	return out
}

// The two example files hold the same submissions, in CSV and JSON Lines.
func TestReadSubmissionsExamples(t *testing.T) {
	csvTalks, csvBad := readSubmissionsFile(t, "submissions.csv")
	jsonTalks, jsonBad := readSubmissionsFile(t, "submissions.jsonl")
	if len(csvBad)+len(jsonBad) != 0 {
		t.Fatalf("bad rows in the examples: %v %v", csvBad, jsonBad)
	}
	if len(csvTalks) != 9 || len(jsonTalks) != 9 {
		t.Fatalf("%d CSV and %d JSON Lines talks, want 9 each", len(csvTalks), len(jsonTalks))
	}
	start := time.Date(2026, 4, 8, 10, 0, 0, 0, time.UTC)
	end := start.Add(30 * time.Minute)
	want := index.Talk{
		ID: "s01", Title: "Scaling RL Post-Training With Monarch Actors",
		Speakers: []index.Speaker{{Name: "Ada Lovelace", Affiliation: "Analytical Engines"}, {Name: "Charles Babbage"}},
		Track:    "Post-Training", Level: "Intermediate", Room: "Room A", Start: &start, End: &end, TimeZone: "UTC",
		Kind: index.KindTalk, Scheduled: true, Sources: []string{"submissions.csv"},
	}
	got := csvTalks[0]
	if !strings.HasPrefix(got.Abstract, "Reinforcement learning post-training needs") || !strings.Contains(got.Abstract, ".\n\nWe cover") {
		t.Errorf("abstract %q", got.Abstract)
	}
	got.Abstract = ""
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("first CSV talk (-want +got):\n%s", diff)
	}
	for k := range csvTalks {
		c, j := csvTalks[k], jsonTalks[k]
		if c.ID != j.ID || c.Title != j.Title || c.Abstract != j.Abstract || c.Kind != j.Kind || !cmp.Equal(c.Speakers, j.Speakers) {
			t.Errorf("row %d differs between the formats:\n csv  %+v\n json %+v", k+1, c, j)
		}
		if (c.Start == nil) != (j.Start == nil) || (c.Start != nil && !c.Start.Add(-2*time.Hour).Equal(*j.Start)) {
			t.Errorf("row %d: start %v (CSV, UTC) vs %v (JSON Lines, +02:00)", k+1, c.Start, j.Start)
		}
	}
	if csvTalks[6].Kind != index.KindBreak {
		t.Errorf("Coffee Break kind %q", csvTalks[6].Kind)
	}
	// The last row has no id: it gets the ingest's stable id of its text.
	last := csvTalks[8]
	if want := TalkID(last.Title, AbstractIdentity(last.Title+"\n"+last.Abstract)); last.ID != want || !strings.HasPrefix(last.ID, "fast-1ms-checkpoints") {
		t.Errorf("derived id %q, want %q", last.ID, want)
	}
}

func TestReadSubmissionsBadRows(t *testing.T) {
	tests := []struct {
		file    string
		wantIDs []string
		wantBad []RowError
	}{
		{
			file:    "bad-rows.csv",
			wantIDs: []string{"b1", "b7", "derived-id-"},
			wantBad: []RowError{
				{File: "bad-rows.csv", Line: 3, Action: ActionSkipped, Reason: "abstract is empty"},
				{File: "bad-rows.csv", Line: 4, Action: ActionSkipped, Reason: `start: "tomorrow" is not a time like 2026-04-08T10:05:00+02:00 or 2026-04-08 10:05`},
				{File: "bad-rows.csv", Line: 5, Action: ActionSkipped, Reason: "end 2026-04-08 10:30 is before start 2026-04-08 11:00"},
				{File: "bad-rows.csv", Line: 6, Action: ActionSkipped, Reason: `id "b1" is already used on line 2`},
				{File: "bad-rows.csv", Line: 7, Action: ActionSkipped, Reason: "has 3 fields, the header has 5"},
				{File: "bad-rows.csv", Line: 10, Action: ActionSkipped, Reason: `malformed csv: bare " in non-quoted-field`},
			},
		},
		{
			file:    "bad-rows.jsonl",
			wantIDs: []string{"j1", "5"},
			wantBad: []RowError{
				{File: "bad-rows.jsonl", Line: 2, Action: ActionSkipped, Reason: "invalid JSON: unexpected end of JSON input"},
				{File: "bad-rows.jsonl", Line: 3, Action: ActionSkipped, Reason: "title is empty"},
				{File: "bad-rows.jsonl", Line: 4, Action: ActionSkipped, Reason: "speakers must be a string or a list of {name, affiliation}: json: cannot unmarshal number into Go value of type []index.Speaker"},
				{File: "bad-rows.jsonl", Line: 7, Action: ActionSkipped, Reason: `unknown kind "seminar" (kinds: keynote, talk, lightning, workshop, panel, bof, meet, poster, sponsor, break, other)`},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			talks, bad := readSubmissionsFile(t, tt.file)
			if diff := cmp.Diff(tt.wantBad, bad); diff != "" {
				t.Errorf("bad rows (-want +got):\n%s", diff)
			}
			var ids []string
			for _, tk := range talks {
				ids = append(ids, tk.ID)
			}
			if len(ids) != len(tt.wantIDs) {
				t.Fatalf("ids %q, want %q", ids, tt.wantIDs)
			}
			for k := range ids {
				if !strings.HasPrefix(ids[k], tt.wantIDs[k]) {
					t.Errorf("id %d = %q, want %q…", k, ids[k], tt.wantIDs[k])
				}
			}
		})
	}
}

func TestReadSubmissionsFormat(t *testing.T) {
	tests := []struct {
		name, data string
		want       []string // titles
		wantErr    string
	}{
		{"talks.ndjson", `{"title":"T","abstract":"A"}`, []string{"T"}, ""},
		{"export.txt", "\ufeff  {\"title\":\"Sniffed\",\"abstract\":\"A\"}\n", []string{"Sniffed"}, ""},
		{"export.txt", "title,abstract\nSniffed CSV,A\n", []string{"Sniffed CSV"}, ""},
		{"Talks.CSV", "Title , ABSTRACT,extra\nCase,A,ignored\n", []string{"Case"}, ""},
		{"talks.csv", "id,title\nx,T\n", nil, `read talks.csv: csv header has no "abstract" column`},
		{"talks.csv", "", nil, "read talks.csv: the file has no header row"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			imp, err := ReadSubmissions(tt.name, strings.NewReader(tt.data), ImportOptions{})
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var titles []string
			for _, tk := range imp.Talks {
				titles = append(titles, tk.Title)
			}
			if diff := cmp.Diff(tt.want, titles); diff != "" {
				t.Errorf("titles (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseSpeakerList(t *testing.T) {
	tests := []struct {
		in   string
		want []index.Speaker
	}{
		{"", nil},
		{"Ada Lovelace", []index.Speaker{{Name: "Ada Lovelace"}}},
		{"Ada Lovelace (Analytical Engines); Charles Babbage ;", []index.Speaker{{Name: "Ada Lovelace", Affiliation: "Analytical Engines"}, {Name: "Charles Babbage"}}},
		{"Jane Doe (Acme (EU))", []index.Speaker{{Name: "Jane Doe", Affiliation: "Acme (EU)"}}},
		{"(Anonymous)", []index.Speaker{{Name: "(Anonymous)"}}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, parseSpeakerList(tt.in)); diff != "" {
			t.Errorf("parseSpeakerList(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

// A text repeated without ids gets its line appended to the derived id; a
// row that already uses that id explicitly must not end up sharing it.
func TestReadSubmissionsDerivedIDsUnique(t *testing.T) {
	derived := TalkID("A", AbstractIdentity("A\nB"))
	in := "id,title,abstract\n" + derived + "-l4,C,D\n,A,B\n,A,B\n"
	imp, err := ReadSubmissions("f.csv", strings.NewReader(in), ImportOptions{})
	if err != nil || len(imp.Notes) != 1 || imp.Notes[0].Action != ActionRepaired {
		t.Fatalf("err %v, notes %v", err, imp)
	}
	var got []string
	for _, tk := range imp.Talks {
		got = append(got, tk.ID)
	}
	want := []string{derived + "-l4", derived, derived + "-l4-2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
}

// An unclosed quote costs its own row only: the identical copy right after
// it is read, the legitimate two-line field is kept whole, and the quote
// left open at the end of the file is one skipped row.
func TestUnclosedQuoteNoRowLost(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(submissionsDir, "unclosed-quote.csv"))
	if err != nil {
		t.Fatal(err)
	}
	imp := readSubmissionsString(t, "unclosed-quote.csv", string(data), ImportOptions{})
	if diff := cmp.Diff([]string{"u1", "u3", "u4"}, talkIDs(imp.Talks)); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	want := []RowError{
		{File: "unclosed-quote.csv", Line: 3, Action: ActionSkipped, Reason: "malformed csv: a quoted field opened on line 3 is not closed (lines 3-3 skipped)"},
		{File: "unclosed-quote.csv", Line: 7, Action: ActionSkipped, Reason: "malformed csv: a quoted field opened on line 7 is not closed (lines 7-7 skipped)"},
	}
	if diff := cmp.Diff(want, imp.Notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	if s := imp.Summary; s.Rows != 5 || s.Kept != 3 || s.Skipped != 2 {
		t.Errorf("summary %+v, want 5 rows: 3 kept, 2 skipped", s)
	}
	if got := imp.Talks[2].Abstract; got != "First line of the abstract,\nsecond line, still the same field." {
		t.Errorf("two-line field %q", got)
	}
	if a, b := imp.Talks[0], imp.Talks[1]; a.Title != b.Title || a.Abstract != b.Abstract {
		t.Errorf("the copy after the unclosed quote differs: %+v %+v", a, b)
	}
}

// A 17 MiB line is one skipped row, never held whole; the rows around it
// are read.
func TestHugeJSONLLine(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"id":"a","title":"Before","abstract":"The row before."}` + "\n")
	start := b.Len()
	b.WriteString(`{"id":"big","title":"Huge","abstract":"`)
	b.Write(bytes.Repeat([]byte("x"), 17<<20))
	b.WriteString(`"}` + "\n")
	huge := b.Len() - start
	b.WriteString(`{"id":"c","title":"After","abstract":"The row after."}` + "\n")
	imp, err := ReadSubmissions("big.jsonl", &b, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkSummary(t, imp.Summary, imp.Notes)
	if diff := cmp.Diff([]string{"a", "c"}, talkIDs(imp.Talks)); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	want := []RowError{{File: "big.jsonl", Line: 2, Action: ActionSkipped,
		Reason: fmt.Sprintf("line is %d bytes, longer than the 1 MiB limit of a row", huge)}}
	if diff := cmp.Diff(want, imp.Notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

// The same 17 MiB as one CSV record is one skipped row too.
func TestHugeCSVRecord(t *testing.T) {
	var b strings.Builder
	b.WriteString("id,title,abstract\na,Before,The row before.\nbig,Huge,\"")
	b.WriteString(strings.Repeat(strings.Repeat("x", 1023)+"\n", 17<<10))
	b.WriteString("\"\nc,After,The row after.\n")
	imp := readSubmissionsString(t, "big.csv", b.String(), ImportOptions{})
	if diff := cmp.Diff([]string{"a", "c"}, talkIDs(imp.Talks)); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	if len(imp.Notes) != 1 || imp.Notes[0].Line != 3 || imp.Notes[0].Reason != "row is longer than the 1 MiB limit of a row" {
		t.Errorf("notes %+v", imp.Notes)
	}
}

func TestBadRowsCountsAddUp(t *testing.T) {
	for _, name := range []string{"bad-rows.csv", "bad-rows.jsonl", "submissions.csv", "submissions.jsonl"} {
		f, err := os.Open(filepath.Join(submissionsDir, name))
		if err != nil {
			t.Fatal(err)
		}
		imp, err := ReadSubmissions(name, f, ImportOptions{})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		checkSummary(t, imp.Summary, imp.Notes)
	}
}

// Naive times take the zone of the row, else the caller's, else
// DefaultZone, and the summary counts them.
func TestNaiveTimesTakeZone(t *testing.T) {
	in := "title,abstract,start,end,time_zone\n" +
		"Naive,A,2026-04-08 10:00,2026-04-08 10:30,\n" +
		"Zoned,B,2026-04-08T10:00:00Z,2026-04-08T10:30:00Z,\n" +
		"Own zone,C,2026-04-08 10:00,2026-04-08 10:30,America/New_York\n" +
		"Bad zone,D,2026-04-08 10:00,2026-04-08 10:30,Mars/Olympus\n"
	imp := readSubmissionsString(t, "zones.csv", in, ImportOptions{})
	if s := imp.Summary; s.NaiveTimes != 2 || s.Zone != "Europe/Paris" || s.Skipped != 1 {
		t.Errorf("summary %+v", s)
	}
	want := []string{"2026-04-08T08:00:00Z", "2026-04-08T10:00:00Z", "2026-04-08T14:00:00Z"}
	for k, tk := range imp.Talks {
		if got := tk.Start.UTC().Format(time.RFC3339); got != want[k] {
			t.Errorf("%s: start %s, want %s", tk.Title, got, want[k])
		}
	}
	if imp.Talks[0].TimeZone != "Europe/Paris" || imp.Talks[2].TimeZone != "America/New_York" {
		t.Errorf("zones %q %q", imp.Talks[0].TimeZone, imp.Talks[2].TimeZone)
	}
	if imp.Notes[0].Reason != `time_zone "Mars/Olympus" is not an IANA zone name like Europe/Paris` {
		t.Errorf("notes %+v", imp.Notes)
	}
	imp = readSubmissionsString(t, "zones.csv", in, ImportOptions{Location: time.UTC})
	if got := imp.Talks[0].Start.UTC().Format(time.RFC3339); got != "2026-04-08T10:00:00Z" || imp.Summary.Zone != "UTC" {
		t.Errorf("with UTC given: %s, zone %s", got, imp.Summary.Zone)
	}
}

// Two files are read as one set: a repeated row merges, an id reused by
// another file is qualified by that file's name.
func TestImporterFilesAndMerges(t *testing.T) {
	var talks []index.Talk
	in := NewImporter(ImportOptions{}, func(t index.Talk) { talks = append(talks, t) })
	first := "id,title,abstract\n1,Same,Text\n1,Same,Text\n2,Other,Other text\n"
	second := `{"id":"1","title":"Another year","abstract":"New text","conference":"FOSDEM 2025"}` + "\n"
	s1, err := in.Read("fosdem-2024.csv", strings.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	s2, err := in.Read("fosdem-2025.jsonl", strings.NewReader(second))
	if err != nil {
		t.Fatal(err)
	}
	checkSummary(t, s1, in.Notes())
	checkSummary(t, s2, in.Notes())
	if diff := cmp.Diff([]string{"1", "2", "fosdem-2025/1"}, talkIDs(talks)); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	want := []RowError{
		{File: "fosdem-2024.csv", Line: 3, Action: ActionMerged, Reason: `id "1" and text repeat line 2`},
		{File: "fosdem-2025.jsonl", Line: 1, Action: ActionRepaired, Reason: `id "1" is already used in fosdem-2024.csv line 2: given id fosdem-2025/1`},
	}
	if diff := cmp.Diff(want, in.Notes()); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	if talks[2].Conference.ID != "fosdem-2025" {
		t.Errorf("conference %+v", talks[2].Conference)
	}
}

// Documents of the other formats that hold no usable submission (an empty
// schedule, a truncated calendar, an API page without results) give no
// talks (the CLI then fails: nothing usable); a file of no known format is
// an error naming the formats read.
func TestUnreadableFormats(t *testing.T) {
	for _, tt := range []struct{ name, data string }{
		{"schedule.xml", "<schedule></schedule>"},
		{"talks.ics", "BEGIN:VCALENDAR\n"},
		{"export", `{"count": 1,` + "\n" + `"results": []}`},
		{"notes.txt", "just some words"},
	} {
		imp, err := ReadSubmissions(tt.name, strings.NewReader(tt.data), ImportOptions{})
		if err != nil {
			if !strings.Contains(err.Error(), tt.name) && !strings.Contains(err.Error(), "formats read") {
				t.Errorf("%s: err %v", tt.name, err)
			}
			continue
		}
		if imp.Summary.Kept != 0 {
			t.Errorf("%s: %d talks kept", tt.name, imp.Summary.Kept)
		}
	}
}

// Every format of the registry reads submissions: each fixture of the
// formats is accounted for row by row, its talks known by their source's
// id where it has one.
func TestSubmissionsEveryFormat(t *testing.T) {
	seen := map[string]bool{}
	for _, path := range []string{
		filepath.Join(formatsDir, "frab-devroom.xml"), filepath.Join(formatsDir, "frab-camp.json"),
		filepath.Join(formatsDir, "pentabarf.ical"), filepath.Join(formatsDir, "pretalx-submissions.json"),
		filepath.Join(formatsDir, "synthetic-sample.jsonl"), filepath.Join(submissionsDir, "submissions.csv"),
		filepath.Join(formatsDir, "sessionize-all-data.json"),
	} {
		name := filepath.Base(path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// No extension: the format is found by content.
		imp := readSubmissionsString(t, strings.TrimSuffix(name, filepath.Ext(name)), string(data), ImportOptions{})
		seen[imp.Summary.Format] = true
		if imp.Summary.Kept == 0 {
			t.Errorf("%s: nothing kept: %+v %v", name, imp.Summary, imp.Notes)
		}
		for _, tk := range imp.Talks {
			if tk.SourceID != "" && tk.ID != tk.SourceID {
				t.Errorf("%s: id %q, source id %q", name, tk.ID, tk.SourceID)
			}
		}
	}
	if diff := cmp.Diff(FormatNames(), sortedKeys(seen)); diff != "" {
		t.Errorf("formats read (-registry +read):\n%s", diff)
	}
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// FuzzReadSubmissions feeds the submissions reader arbitrary files under
// the extension of every format (.csv, .jsonl, .json, .xml, .ics) or none
// (format found by content). Whatever the input, it must not panic; every
// talk it returns must be usable (id, title and abstract set, ids unique,
// since overlap reports refer to talks by id), every noted row must point
// at a line of the file, and the counts must add up to the rows. Rows are
// bounded at 256 bytes so that the too-long path is reached too.
func FuzzReadSubmissions(f *testing.F) {
	for _, name := range []string{"submissions.csv", "submissions.jsonl", "bad-rows.csv", "bad-rows.jsonl", "unclosed-quote.csv", "pretalx-submissions.json"} {
		data, err := os.ReadFile(filepath.Join(submissionsDir, name))
		if err != nil {
			f.Fatal(err)
		}
		ext := strings.TrimPrefix(filepath.Ext(name), ".")
		f.Add(data, ext)
		f.Add(data, "") // the format found by content
	}
	f.Add([]byte("title,abstract\nA,B\nA,B\n"), "csv")
	f.Add([]byte("id,title,abstract\na-7dbde9-l4,C,D\n,A,B\n,A,B\n"), "csv") // derived id taken explicitly
	f.Add([]byte(`{"title":"A","abstract":"B"}`+"\n"+`{"id":"x","title":"A","abstract":"B"}`), "jsonl")
	f.Add([]byte("title,abstract\n\"unclosed,x\n"), "csv")
	f.Add([]byte("title,abstract\nN\x00ul,Bad \xff byte\n"), "csv")
	f.Add([]byte(`{"title":"N\u0000ul","abstract":"Bad `+"\xff"+` byte"}`+"\n"), "jsonl")
	f.Add([]byte("\xff\xfet\x00i\x00t\x00l\x00e\x00,\x00a\x00b\x00s\x00t\x00r\x00a\x00c\x00t\x00\n\x00A\x00,\x00B\x00\n\x00"), "")
	f.Fuzz(func(t *testing.T, data []byte, ext string) {
		name := "fuzz"
		if ext != "" {
			name += "." + ext
		}
		imp, err := ReadSubmissions(name, bytes.NewReader(data), ImportOptions{MaxRowBytes: 256})
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
			if f := imp.Summary.Format; f == "csv" || f == "jsonl" {
				// NUL and bytes that are not UTF-8 are repaired, never kept.
				for _, s := range []string{tk.ID, tk.Title, tk.Abstract, tk.Description, tk.Track, tk.Room} {
					if !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
						t.Fatalf("%s row kept with NUL or bad UTF-8: %q", f, s)
					}
				}
			}
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

// peakHeap runs f and returns the most heap in use (live and not yet
// collected) seen by a sampler every 50 ms, less the heap before, in MiB.
func peakHeap(f func()) float64 {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	done := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		var m runtime.MemStats
		var most uint64
		for {
			select {
			case <-done:
				runtime.ReadMemStats(&m)
				peak <- max(most, m.HeapAlloc)
				return
			case <-tick.C:
				runtime.ReadMemStats(&m)
				most = max(most, m.HeapAlloc)
			}
		}
	}()
	f()
	close(done)
	return float64(<-peak-before.HeapAlloc) / (1 << 20)
}

// go test -run XXX -bench ReadCSV1M -benchtime 1x ./index/ingest
// Reads 1,000,000 CSV rows streamed (the talks counted, not kept) and
// reports the peak heap; the file is made in a temporary directory.
func BenchmarkReadCSV1M(b *testing.B) {
	path := filepath.Join(b.TempDir(), "million.csv")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "id,title,abstract,speakers,track,room,start,end")
	var words []string
	for _, tk := range loadSeeds(b).Talks {
		words = append(words, strings.Fields(tk.Abstract)...)
	}
	for k := range rowsCSV {
		abstract := strings.Join(words[k%(len(words)-60):k%(len(words)-60)+60], " ")
		fmt.Fprintf(w, "s%d,Talk number %d,\"%s\",Speaker %d,Track %d,Room %d,2026-04-08 10:00,2026-04-08 10:30\n",
			k, k, strings.ReplaceAll(abstract, `"`, `""`), k%5000, k%40, k%20)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	st, _ := os.Stat(path)
	b.ResetTimer()
	var sum FileSummary
	mib := peakHeap(func() {
		for range b.N {
			f, err := os.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			in := NewImporter(ImportOptions{}, func(index.Talk) { n++ })
			if sum, err = in.Read(path, f); err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
	})
	if sum.Kept != rowsCSV {
		b.Fatalf("summary %+v", sum)
	}
	b.ReportMetric(mib, "peak-MiB")
	b.ReportMetric(float64(st.Size())/(1<<20), "file-MiB")
}

var rowsCSV = 1_000_000

// repeatReader yields n bytes of b, without holding them.
type repeatReader struct {
	b byte
	n int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), r.n)
	for i := range p[:k] {
		p[i] = r.b
	}
	r.n -= k
	return k, nil
}

// go test -run XXX -bench HugeLine -benchtime 1x ./index/ingest
// A 17 MiB JSON line read from a stream (never in memory whole): the peak
// heap stays near the 1 MiB row bound.
func BenchmarkHugeLine(b *testing.B) {
	var sum FileSummary
	mib := peakHeap(func() {
		for range b.N {
			r := io.MultiReader(strings.NewReader(`{"id":"big","title":"Huge","abstract":"`), &repeatReader{'x', 17 << 20},
				strings.NewReader("\"}\n"+`{"id":"c","title":"After","abstract":"The row after."}`+"\n"))
			in := NewImporter(ImportOptions{}, func(index.Talk) {})
			var err error
			if sum, err = in.Read("big.jsonl", r); err != nil {
				b.Fatal(err)
			}
		}
	})
	if sum.Skipped != 1 || sum.Kept != 1 {
		b.Fatalf("summary %+v", sum)
	}
	b.ReportMetric(mib, "peak-MiB")
}

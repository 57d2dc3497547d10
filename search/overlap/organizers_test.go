package overlap

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
)

// checkSummary asserts that a file's counts account for every row.
func checkSummary(t *testing.T, s Summary, notes []RowError) {
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

func readString(t *testing.T, name, data string, opt ReadOptions) *Import {
	t.Helper()
	imp, err := ReadSubmissions(name, strings.NewReader(data), opt)
	if err != nil {
		t.Fatalf("ReadSubmissions(%s): %v", name, err)
	}
	checkSummary(t, imp.Summary, imp.Notes)
	return imp
}

func ids(talks []index.Talk) []string {
	out := []string{}
	for _, t := range talks {
		out = append(out, t.ID)
	}
	return out
}

// An unclosed quote costs its own row only: the identical copy right after
// it is read and paired, the legitimate two-line field is kept whole, and
// the quote left open at the end of the file is one skipped row.
func TestUnclosedQuoteNoRowLost(t *testing.T) {
	data, err := os.ReadFile("testdata/unclosed-quote.csv")
	if err != nil {
		t.Fatal(err)
	}
	imp := readString(t, "unclosed-quote.csv", string(data), ReadOptions{})
	if diff := cmp.Diff([]string{"u1", "u3", "u4"}, ids(imp.Talks)); diff != "" {
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
	rep := Detect(imp.Talks, Options{})
	if len(rep.Pairs) == 0 || rep.Pairs[0].A != "u1" || rep.Pairs[0].B != "u3" || rep.Pairs[0].Kind != KindDuplicate {
		t.Errorf("pairs %+v, want u1/u3 duplicate first", rep.Pairs)
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
	imp, err := ReadSubmissions("big.jsonl", &b, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkSummary(t, imp.Summary, imp.Notes)
	if diff := cmp.Diff([]string{"a", "c"}, ids(imp.Talks)); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	want := []RowError{{File: "big.jsonl", Line: 2, Action: ActionSkipped,
		Reason: fmt.Sprintf("line is %d bytes, longer than the 1048576-byte limit of a row", huge)}}
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
	imp := readString(t, "big.csv", b.String(), ReadOptions{})
	if diff := cmp.Diff([]string{"a", "c"}, ids(imp.Talks)); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	if len(imp.Notes) != 1 || imp.Notes[0].Line != 3 || imp.Notes[0].Reason != "row is longer than 1048576 bytes" {
		t.Errorf("notes %+v", imp.Notes)
	}
}

func TestBadRowsCountsAddUp(t *testing.T) {
	for _, name := range []string{"testdata/bad-rows.csv", "testdata/bad-rows.jsonl", "testdata/submissions.csv", "testdata/submissions.jsonl"} {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		imp, err := ReadSubmissions(name, f, ReadOptions{})
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
	imp := readString(t, "zones.csv", in, ReadOptions{})
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
	imp = readString(t, "zones.csv", in, ReadOptions{Location: time.UTC})
	if got := imp.Talks[0].Start.UTC().Format(time.RFC3339); got != "2026-04-08T10:00:00Z" || imp.Summary.Zone != "UTC" {
		t.Errorf("with UTC given: %s, zone %s", got, imp.Summary.Zone)
	}
}

// Two files are read as one set: a repeated row merges, an id reused by
// another file is qualified by that file's name.
func TestImporterFilesAndMerges(t *testing.T) {
	var talks []index.Talk
	in := NewImporter(ReadOptions{}, func(t index.Talk) { talks = append(talks, t) })
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
	if diff := cmp.Diff([]string{"1", "2", "fosdem-2025/1"}, ids(talks)); diff != "" {
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

// Documents of the ingest formats that hold no usable submission (an empty
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
		imp, err := ReadSubmissions(tt.name, strings.NewReader(tt.data), ReadOptions{})
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

func at2(day, hhmm string, zone *time.Location) *time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04", day+" "+hhmm, zone)
	if err != nil {
		panic(err)
	}
	return &t
}

// pretalxTalks are testdata/pretalx-submissions.json as a pretalx reader
// gives them: the speaker, conflict and resubmission logic is tested on
// them until that reader is registered (TestPretalxFixture).
func pretalxTalks() []index.Talk {
	paris := time.FixedZone("CEST", 2*3600)
	day := "2026-04-08"
	mk := func(code, title, abstract, track, room, start, end string, sp index.Speaker) index.Talk {
		return index.Talk{ID: code, SourceID: code, Title: title, Abstract: abstract, Track: track, Room: room,
			Start: at2(day, start, paris), End: at2(day, end, paris), Kind: index.KindTalk, Scheduled: true,
			Speakers: []index.Speaker{sp}, Conference: index.Conference{ID: "pytorch-conference-europe-2026"}}
	}
	ada := index.Speaker{Name: "Ada Lovelace", SourceID: "ADA1"}
	ada2 := index.Speaker{Name: "ada LOVELACE", SourceID: "ADA1"}
	grace := index.Speaker{Name: "Grace Hopper", SourceID: "GRC2"}
	return []index.Talk{
		mk("AB7XQK", "Monarch Actors for Reinforcement Learning", "Monarch is a single-controller runtime: one Python program drives actors on a whole cluster through process meshes. We show how Monarch actors orchestrate reinforcement learning, with weights synchronized over RDMA between trainers and rollout workers.", "Post-Training", "Room A", "10:00", "10:30", ada),
		mk("CD9YRM", "One Controller, Many Actors: Asynchronous RL at Cluster Scale", "A single Python program can drive a cluster: Monarch meshes of actors run trainers and rollout workers for asynchronous reinforcement learning, and weights move between them over RDMA. We show the design and what broke at scale.", "Distributed", "Room B", "10:15", "10:45", ada2),
		mk("EF3ZSP", "CUDA Graphs Without Tears", "CPU kernel launch overhead is now the bottleneck of fast GPUs. CUDA Graphs remove it, but capture fails on dynamic shapes.", "Compilers", "Room C", "14:00", "14:30", grace),
		mk("GH5WTN", "Profiling Kernels on ROCm", "We profile HIP kernels on MI300 accelerators with rocprof and omniperf, and show which counters explain a slow GEMM.", "Hardware", "Room D", "14:20", "14:50", grace),
	}
}

// checkPretalxReport holds the report of the pretalx fixture to what a
// committee must see: the reworded resubmission by one speaker (spelled two
// ways, one code), shown with that speaker; the speaker booked twice.
func checkPretalxReport(t *testing.T, rep *Report) {
	t.Helper()
	if len(rep.Pairs) == 0 {
		t.Fatal("no pairs")
	}
	p := rep.Pairs[0]
	if p.A != "AB7XQK" || p.B != "CD9YRM" || p.Kind != KindResubmission || !cmp.Equal(p.SharedSpeakers, []string{"Ada Lovelace"}) {
		t.Errorf("first pair %s/%s %s %v, want AB7XQK/CD9YRM resubmission by Ada Lovelace", p.A, p.B, p.Kind, p.SharedSpeakers)
	}
	if p.Score < 0.5 || p.RoomA != "Room A" || p.RoomB != "Room B" || p.StartA == nil || len(p.SpeakersB) != 1 {
		t.Errorf("pair card data: %+v", p)
	}
	type row struct{ Kind, Speaker, A, B, Start, End string }
	var got []row
	for _, c := range rep.Conflicts {
		got = append(got, row{c.Kind, c.Speaker, c.A, c.B, c.Start.UTC().Format("15:04"), c.End.UTC().Format("15:04")})
	}
	want := []row{
		{ConflictSpeaker, "Ada Lovelace", "AB7XQK", "CD9YRM", "08:15", "08:30"},
		{ConflictSpeaker, "Grace Hopper", "EF3ZSP", "GH5WTN", "12:20", "12:30"},
	}
	if len(got) < 2 || !cmp.Equal(want, got[:2]) {
		t.Errorf("conflicts (-want +got):\n%s", cmp.Diff(want, got))
	}
	for _, c := range got[2:] {
		if c.Kind == ConflictSpeaker {
			t.Errorf("extra speaker conflict %+v", c)
		}
	}
}

func TestSpeakersResubmissionAndConflicts(t *testing.T) {
	checkPretalxReport(t, Detect(pretalxTalks(), Options{}))
}

// The same texts by strangers are only a topical pair: the speaker is the
// evidence.
func TestResubmissionNeedsTheSpeaker(t *testing.T) {
	talks := pretalxTalks()[:2]
	talks[1].Speakers = []index.Speaker{{Name: "Charles Babbage", SourceID: "CB3"}}
	rep := Detect(talks, Options{})
	if len(rep.Pairs) != 1 || rep.Pairs[0].Kind != KindTopical || len(rep.Pairs[0].SharedSpeakers) != 0 {
		t.Fatalf("pairs %+v", rep.Pairs)
	}
	// A name matches across spellings (case, accents) without a code.
	talks[0].Speakers = []index.Speaker{{Name: "José García"}}
	talks[1].Speakers = []index.Speaker{{Name: "jose  GARCIA"}}
	rep = Detect(talks, Options{})
	if rep.Pairs[0].Kind != KindResubmission || !cmp.Equal(rep.Pairs[0].SharedSpeakers, []string{"José García"}) {
		t.Errorf("pair %+v", rep.Pairs[0])
	}
}

func TestTrackConflicts(t *testing.T) {
	talks := pretalxTalks()
	talks[3].Track = "Compilers" // EF3ZSP 14:00-14:30 Room C, GH5WTN 14:20-14:50 Room D
	talks[3].Speakers = nil
	extra := talks[2]
	extra.ID, extra.Room, extra.Speakers = "SAMEROOM", "Room C", nil
	extra.Start, extra.End = talks[2].End, at2("2026-04-08", "15:00", time.FixedZone("CEST", 2*3600))
	talks = append(talks, extra) // starts as EF3ZSP ends: no conflict
	rep := Detect(talks, Options{})
	var got []string
	for _, c := range rep.Conflicts {
		if c.Kind == ConflictTrack {
			got = append(got, c.Track+" "+c.A+"/"+c.B)
		}
	}
	if diff := cmp.Diff([]string{"Compilers EF3ZSP/GH5WTN", "Compilers GH5WTN/SAMEROOM"}, got); diff != "" {
		t.Errorf("track conflicts (-want +got):\n%s", diff)
	}
}

// With two conferences loaded, a talk that comes back (same speaker, the
// abstract edited, a new title; or the same title) is listed as a
// resubmission, earlier conference first, and in both talks' views.
func TestResubmissionsAcrossConferences(t *testing.T) {
	base := pretalxTalks()
	y1 := index.Conference{ID: "fosdem-2024", Name: "FOSDEM 2024"}
	y2 := index.Conference{ID: "fosdem-2025", Name: "FOSDEM 2025"}
	old := base[0]
	old.ID, old.Conference = "fosdem-2024/1", y1
	old.Start, old.End = nil, nil
	edited := base[0]
	edited.ID, edited.Conference, edited.Title = "fosdem-2025/9", y2, "Reinforcement Learning on One Controller"
	edited.Abstract = strings.Replace(edited.Abstract, "We show how", "This talk explains how", 1)
	edited.Start, edited.End = nil, nil
	other := base[2]
	other.ID, other.Conference, other.Start, other.End = "fosdem-2025/3", y2, nil, nil
	rep := Detect([]index.Talk{edited, other, old}, Options{})
	if len(rep.Resubmissions) != 1 {
		t.Fatalf("resubmissions %+v", rep.Resubmissions)
	}
	r := rep.Resubmissions[0]
	want := Resubmission{Earlier: "fosdem-2024/1", Later: "fosdem-2025/9", TitleEarlier: old.Title, TitleLater: edited.Title,
		ConferenceEarlier: "fosdem-2024", ConferenceLater: "fosdem-2025", Kind: KindNearDuplicate, Score: r.Score,
		Resemblance: r.Resemblance, SharedSpeakers: []string{"Ada Lovelace"}, Evidence: []string{"new title", "edited abstract", "same speaker"}}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("resubmission (-want +got):\n%s", diff)
	}
	v, ok := rep.Talk("fosdem-2025/9")
	if !ok || len(v.Versions) != 1 || v.Versions[0].Earlier != "fosdem-2024/1" || len(v.Similar) == 0 || v.Similar[0].B != "fosdem-2024/1" && v.Similar[0].A != "fosdem-2024/1" {
		t.Errorf("talk view %+v", v)
	}
	if len(v.Similar[0].Passages.A) == 0 || len(v.Similar[0].SharedTerms) == 0 {
		t.Errorf("similar submission without its explanation: %+v", v.Similar[0])
	}
	if _, ok := rep.Talk("no-such-id"); ok {
		t.Error("a view of an unknown id")
	}
}

// TestPretalxFixture reads the pretalx export once a reader of it is
// registered (formats.go); until then it says why it cannot.
func TestPretalxFixture(t *testing.T) {
	f, err := os.Open("testdata/pretalx-submissions.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	imp, err := ReadSubmissions("pretalx-submissions.json", f, ReadOptions{})
	if err != nil {
		if strings.Contains(err.Error(), "no reader") {
			t.Skipf("no pretalx reader registered yet: %v", err)
		}
		t.Fatal(err)
	}
	checkSummary(t, imp.Summary, imp.Notes)
	if imp.Summary.Kept != 4 {
		t.Fatalf("summary %+v", imp.Summary)
	}
	checkPretalxReport(t, Detect(imp.Talks, Options{}))
}

// Two FOSDEM years: the talks that come back are found, earlier year first,
// with their evidence, and nothing else is.
func TestFOSDEMResubmissions(t *testing.T) {
	talks, _ := readFile(t, "testdata/fosdem-2024-2025.jsonl")
	rep := Detect(talks, Options{})
	type row struct{ Earlier, Later, Evidence string }
	var got []row
	for _, r := range rep.Resubmissions {
		got = append(got, row{r.Earlier, r.Later, strings.Join(r.Evidence, ", ")})
	}
	want := []row{
		{"fosdem-2024/1681", "fosdem-2025/5353", "same title, edited abstract, same speaker"}, // The state of Go
		{"fosdem-2024/3590", "fosdem-2025/6318", "same title, edited abstract, same speaker"}, // GStreamer: State of the Union 2024 → 2025
		{"fosdem-2024/2634", "fosdem-2025/6468", "new title, same speaker"},                   // Sega Dreamcast with GCC
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resubmissions (-want +got):\n%s", diff)
	}
	if v, ok := rep.Talk("fosdem-2025/5353"); !ok || len(v.Versions) != 1 || v.Versions[0].Earlier != "fosdem-2024/1681" {
		t.Errorf("the 2025 state of Go lacks its earlier version: %+v", v)
	}
}

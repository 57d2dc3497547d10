package overlap

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
)

func readFile(t *testing.T, name string) ([]index.Talk, []RowError) {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	imp, err := ReadSubmissions(name, f, ReadOptions{Location: time.UTC})
	if err != nil {
		t.Fatalf("ReadSubmissions(%s): %v", name, err)
	}
	return imp.Talks, imp.Notes
}

// The two example files hold the same submissions, in CSV and JSON Lines.
func TestReadSubmissionsExamples(t *testing.T) {
	csvTalks, csvBad := readFile(t, "testdata/submissions.csv")
	jsonTalks, jsonBad := readFile(t, "testdata/submissions.jsonl")
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
	if want := ingest.TalkID(last.Title, ingest.AbstractIdentity(last.Title+"\n"+last.Abstract)); last.ID != want || !strings.HasPrefix(last.ID, "fast-1ms-checkpoints") {
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
			file:    "testdata/bad-rows.csv",
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
			file:    "testdata/bad-rows.jsonl",
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
			talks, bad := readFile(t, tt.file)
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
			imp, err := ReadSubmissions(tt.name, strings.NewReader(tt.data), ReadOptions{})
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

func TestParseSpeakers(t *testing.T) {
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
		if diff := cmp.Diff(tt.want, parseSpeakers(tt.in)); diff != "" {
			t.Errorf("parseSpeakers(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

// Imported submissions go through Detect like the seeds: the example file
// holds an identical resubmission, an edited copy, topical pairs and a
// clash, and its break is never paired.
func TestDetectExampleSubmissions(t *testing.T) {
	talks, _ := readFile(t, "testdata/submissions.csv")
	rep := Detect(talks, Options{})
	type row struct {
		A, B, Kind string
		Score      float64
	}
	var got []row
	for _, p := range rep.Pairs {
		got = append(got, row{p.A, p.B, p.Kind, p.Score})
	}
	want := []row{
		{"s01", "s02", KindDuplicate, 1},
		{"s01", "s03", KindNearDuplicate, 0.972},
		{"s02", "s03", KindNearDuplicate, 0.972},
		// 0.39 before C++ was a term (cpp, as in the index): only s06 says it.
		{"s05", "s06", KindTopical, 0.358},
		{"s01", "s04", KindTopical, 0.181},
		{"s02", "s04", KindTopical, 0.181},
		{"s03", "s04", KindTopical, 0.175},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pairs (-want +got):\n%s", diff)
	}
	wantClusters := []Cluster{
		{IDs: []string{"s01", "s02", "s03", "s04"}, Label: "Monarch, RL, post-training", Titles: []string{
			"Scaling RL Post-Training With Monarch Actors", "Scaling RL Post-Training With Monarch Actors",
			"Asynchronous RL Post-Training on Monarch Actors", "Bringing Monarch to ROCm"}},
		{IDs: []string{"s05", "s06"}, Label: "overhead, launch, CUDA Graphs", Titles: []string{
			"CUDA Graphs Without Tears", "Less CPU Overhead With torch.compile's C++ Wrapper"}},
	}
	if diff := cmp.Diff(wantClusters, rep.Clusters); diff != "" {
		t.Errorf("clusters (-want +got):\n%s", diff)
	}
	if len(rep.Clashes) != 1 || rep.Clashes[0].A != "s05" || rep.Clashes[0].B != "s06" {
		t.Errorf("clashes %+v, want s05/s06", rep.Clashes)
	}
}

// A text repeated without ids gets its line appended to the derived id; a
// row that already uses that id explicitly must not end up sharing it.
func TestReadSubmissionsDerivedIDsUnique(t *testing.T) {
	derived := ingest.TalkID("A", ingest.AbstractIdentity("A\nB"))
	in := "id,title,abstract\n" + derived + "-l4,C,D\n,A,B\n,A,B\n"
	imp, err := ReadSubmissions("f.csv", strings.NewReader(in), ReadOptions{})
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

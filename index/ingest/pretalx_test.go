package ingest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
)

// TestFormatGoldensPretalx: the pretalx API as its versions answer
// (expanded objects, ids, plain strings, i18n objects; slot and slots),
// compared with the goldens.
func TestFormatGoldensPretalx(t *testing.T) {
	for _, file := range []string{"pretalx-expanded.json", "pretalx-ids.json"} {
		t.Run(file, func(t *testing.T) { checkFormatGolden(t, file, "pretalx", Options{}) })
	}
}

// TestPretalxExpandedFacts states what the golden of the expanded export
// shows: expanded submission types, tracks and rooms are names; the
// conference is the event the page's links name; the level is the
// English option of the question whose answers are levels.
func TestPretalxExpandedFacts(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(formatsDir, "pretalx-expanded.json"))
	if err != nil {
		t.Fatal(err)
	}
	talks, warns, err := pretalxAPI{}.Read("page-1.json", data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 0 {
		t.Errorf("warnings %v", warns)
	}
	if len(talks) != 3 {
		t.Fatalf("%d talks, want 3", len(talks))
	}
	k, d, l := talks[0], talks[1], talks[2]
	if k.Kind != index.KindKeynote || k.Room != "Amphi A" || k.Conference.ID != "democon-2026" {
		t.Errorf("keynote %+v", k)
	}
	if d.Track != "Données" || d.Room != "Salle C2" || d.Level != "Intermediate" || d.Kind != index.KindTalk || len(d.Speakers) != 2 {
		t.Errorf("talk in French %+v", d)
	}
	if l.Track != "Languages" || l.Room != "Room C2" || l.Level != "Advanced" {
		t.Errorf("talk in English %+v", l)
	}
	if want := time.Date(2026, 3, 14, 13, 0, 0, 0, time.UTC); !d.Start.Equal(want) || d.End.Sub(*d.Start) != 25*time.Minute {
		t.Errorf("start %v end %v", d.Start, d.End)
	}
}

// TestPretalxFieldShapes: every field of a shape no version writes costs
// that field, with a warning on the submission's line naming it and the
// field; ids are named from expanded objects elsewhere on the page, and
// the rest are one warning per field.
func TestPretalxFieldShapes(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(formatsDir, "pretalx-ids.json"))
	if err != nil {
		t.Fatal(err)
	}
	talks, warns, err := pretalxAPI{}.Read("ids.json", data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range warns {
		got = append(got, w.String())
	}
	want := []string{
		`ids.json:64: a result that is an array, not a submission object: skipped`,
		`ids.json:34: submission "IJ56KL" ("Firmware updates over LoRa"): description is an array, not a text or a {language: text} object: description not read`,
		`ids.json:34: submission "IJ56KL" ("Firmware updates over LoRa"): duration is a string, not a number of minutes: duration not read`,
		`ids.json:50: submission "MN78OP" ("Power budgets, honestly"): abstract is a number, not a text or a {language: text} object: abstract not read`,
		`ids.json:50: submission "MN78OP" ("Power budgets, honestly"): submission_type is an array, not a name, an id or an {"id", "name"} object: submission_type not read`,
		`ids.json:50: submission "MN78OP" ("Power budgets, honestly"): speakers is an object, not an array: speakers not read`,
		`ids.json:50: submission "MN78OP" ("Power budgets, honestly"): slots is an object, not an array: slots not read`,
		`ids.json:6: 3 speakers given as codes only, without names (ask the API with ?expand=speakers)`,
		`ids.json:6: submission type given as ids only, which no object of this page names, in 1 submissions (the first here, submission "AB12CD" ("Sensor meshes on a shoestring")): not read (ask the API with ?expand=submission_type)`,
		`ids.json:34: track given as ids only, which no object of this page names, in 1 submissions (the first here, submission "IJ56KL" ("Firmware updates over LoRa")): not read (ask the API with ?expand=track)`,
		`ids.json:6: slots (talks left unscheduled) given as ids only, which no object of this page names, in 1 submissions (the first here, submission "AB12CD" ("Sensor meshes on a shoestring")): not read (ask the API with ?expand=slots,slots.room)`,
		`ids.json:34: room given as ids only, which no object of this page names, in 1 submissions (the first here, submission "IJ56KL" ("Firmware updates over LoRa")): not read (ask the API with ?expand=slots.room)`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	if len(talks) != 4 {
		t.Fatalf("%d talks, want 4: a field never costs a submission", len(talks))
	}
	byCode := map[string]index.Talk{}
	for _, tk := range talks {
		byCode[tk.SourceID] = tk
	}
	a, e, i, m := byCode["AB12CD"], byCode["EF34GH"], byCode["IJ56KL"], byCode["MN78OP"]
	// SPK002 is named by the next submission's expanded speaker.
	if a.Track != "Hardware" || a.Scheduled || a.Kind != index.KindTalk || len(a.Speakers) != 1 || a.Speakers[0].Name != "Rafaela Quintero" {
		t.Errorf("ids only %+v", a)
	}
	// Track 3 is named by the previous submission's expanded track.
	if e.Track != "Hardware" || e.Kind != index.KindWorkshop || e.Room != "Workbench hall" || !e.Scheduled {
		t.Errorf("plain strings and the older slot %+v", e)
	}
	if i.Track != "" || i.Room != "" || !i.Scheduled || i.Abstract != "Delta patches in 51-byte frames." || i.Description != "" || len(i.Speakers) != 1 {
		t.Errorf("unnamed ids and bad shapes %+v", i)
	}
	// An object with an id and no name is the id: track 3 again.
	if m.Track != "Hardware" || m.Abstract != "" || m.Scheduled || m.Level != "Beginner" || m.Description == "" {
		t.Errorf("fields of unexpected shapes %+v", m)
	}
}

// TestPretalxPagesOfOneExport: a folder of an export's pages, named
// anyhow, is one conference (the event of the pages' links) and one set
// of talks: a submission that two pages both hold (the offset moved while
// they were fetched) is one talk.
func TestPretalxPagesOfOneExport(t *testing.T) {
	page := func(next, prev string, codes ...string) string {
		var rs []string
		for i, c := range codes {
			rs = append(rs, fmt.Sprintf(`{"code": %q, "title": "Talk %s", "speakers": [{"code": "S%d", "name": "Speaker %s"}],
 "submission_type": {"id": 1, "name": {"en": "Talk"}}, "state": "confirmed", "abstract": "About %s.",
 "slots": [{"id": %d, "room": {"id": 2, "name": {"en": "Main"}}, "start": "2026-06-0%dT10:00:00+02:00", "end": "2026-06-0%dT10:30:00+02:00"}]}`,
				c, c, i, c, c, 100+i, 1+len(c)%5, 1+len(c)%5))
		}
		q := func(s string) string {
			if s == "" {
				return "null"
			}
			return fmt.Sprintf("%q", s)
		}
		return fmt.Sprintf(`{"count": 5, "next": %s, "previous": %s, "results": [%s]}`, q(next), q(prev), strings.Join(rs, ",\n"))
	}
	const base = "https://pretalx.example.com/api/events/pagecon-26/submissions/?expand=speakers&limit=3"
	dir := t.TempDir()
	for name, body := range map[string]string{
		"p1.json": page(base+"&offset=3", "", "AAA", "BBBB", "CC"),
		// CC again: the pages were fetched while a submission was withdrawn.
		"p2.json": page("", base, "CC", "DDDDD", "E"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := LoadPaths([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Report.Warnings) != 0 {
		t.Errorf("warnings %v", c.Report.Warnings)
	}
	var codes []string
	for _, tk := range c.Talks {
		codes = append(codes, tk.SourceID)
		if tk.Conference.ID != "pagecon-26" {
			t.Errorf("%s: conference %q", tk.SourceID, tk.Conference.ID)
		}
	}
	if len(codes) != 5 {
		t.Errorf("talks %v, want the 5 submissions once each", codes)
	}
}

// TestPretalxHoldout reads a real organizer's export with expanded
// submission types and rooms and questions as ids: every confirmed talk,
// scheduled, with its room and, where it was answered, its level. Its
// resources are ids only: one warning says how to ask for them.
func TestPretalxHoldout(t *testing.T) {
	p := filepath.Join("..", "..", "..", "shared", "holdout", "external", "pretalx-api-json", "pyconfr-2025-submissions-api.json")
	data, err := os.ReadFile(p)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s missing under CI: %v", p, err)
		}
		t.Skipf("%s absent: %v", p, err)
	}
	talks, warns, err := ReadFile("pyconfr-2025-submissions-api.json", data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 1 || !strings.Contains(warns[0].Msg, "resources (slides, links) given as ids only") ||
		!strings.Contains(warns[0].Msg, "in 3 submissions") || !strings.Contains(warns[0].Msg, "?expand=resources") {
		t.Errorf("warnings %v, want the one about 3 submissions' resources as ids", warns)
	}
	levels := 0
	for _, tk := range talks {
		if !tk.Scheduled || tk.Room == "" || len(tk.Speakers) == 0 || tk.Description == "" {
			t.Errorf("%s %q: scheduled %v room %q speakers %v", tk.SourceID, tk.Title, tk.Scheduled, tk.Room, tk.Speakers)
		}
		if tk.Level != "" {
			levels++
		}
	}
	if len(talks) != 75 || levels < 60 {
		t.Errorf("%d talks (want 75), %d with a level", len(talks), levels)
	}
}

// FuzzReadPretalxShapes fuzzes the reader from the page of ids and
// fields of unexpected shapes.
func FuzzReadPretalxShapes(f *testing.F) {
	fuzzFormat(f, pretalxAPI{}, "pretalx-ids.json",
		`{"next":"http://x/api/events//","results":[{"code":1,"title":{"en":null},"track":{"name":5}},{"title":"T","slot":{"room":{"id":1},"start":"2026-01-01T10:00:00Z"},"slots":[]}]}`,
		`{"results":[{"title":"T","answers":[{"question":1,"answer":"Beginner","options":[{"answer":3}]}],"speakers":[null,{"name":{}}]}]}`)
}

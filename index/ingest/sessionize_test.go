package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
)

// TestFormatGoldensSessionize: Sessionize's "All data" read in the
// conference's zone, its GridSmart view without one (times read as UTC,
// with the warning), compared with the goldens.
func TestFormatGoldensSessionize(t *testing.T) {
	stockholm, err := time.LoadLocation("Europe/Stockholm")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		file string
		opt  Options
	}{
		{"sessionize-all-data.json", Options{TimeZone: stockholm}},
		{"sessionize-gridsmart.json", Options{}},
	} {
		t.Run(tt.file, func(t *testing.T) { checkFormatGolden(t, tt.file, "sessionize", tt.opt) })
	}
}

func readSessionizeFixture(t *testing.T, file string, opt Options) ([]index.Talk, []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(formatsDir, file))
	if err != nil {
		t.Fatal(err)
	}
	talks, warns, err := sessionize{}.Read(file, data, opt)
	if err != nil {
		t.Fatal(err)
	}
	var ws []string
	for _, w := range warns {
		ws = append(ws, w.String())
	}
	return talks, ws
}

// TestSessionizeAllData: speakers by id, level, track, kind and language
// by category item, rooms by id, local times in --time-zone; an unknown
// speaker or item costs that value with a warning naming the session;
// declined sessions are counted, not indexed.
func TestSessionizeAllData(t *testing.T) {
	stockholm, _ := time.LoadLocation("Europe/Stockholm")
	talks, warns := readSessionizeFixture(t, "sessionize-all-data.json", Options{TimeZone: stockholm})
	want := []string{
		`sessionize-all-data.json:97: session "612004" ("Data contracts between teams that never meet"): speaker id "e6c4f5a7-0000-4000-8000-000000000000" is none of the file's speakers: speaker not read`,
		`sessionize-all-data.json:97: session "612004" ("Data contracts between teams that never meet"): category item 88099 is in none of the file's categories: item not read`,
		`sessionize-all-data.json:122: 1 declined or withdrawn sessions not indexed (the first here)`,
	}
	if d := cmp.Diff(want, warns); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	if len(talks) != 6 {
		t.Fatalf("%d talks, want 6", len(talks))
	}
	by := map[string]index.Talk{}
	for _, tk := range talks {
		by[tk.SourceID] = tk
	}
	k := by["612001"]
	if k.Kind != index.KindKeynote || k.Level != "Introductory and overview" || k.Track != "Cloud & Infrastructure" ||
		k.Language != "English" || k.Room != "Main Hall" || k.TimeZone != "Europe/Stockholm" ||
		k.Start.Format(time.RFC3339) != "2026-05-12T09:00:00+02:00" || k.End.Sub(*k.Start) != 45*time.Minute {
		t.Errorf("keynote %+v", k)
	}
	if s := by["612002"]; len(s.Speakers) != 2 || s.Speakers[0].Name != "Joaquín Ferreira" || s.Kind != index.KindTalk || !strings.Contains(s.Abstract, "three metrics") {
		t.Errorf("session %+v", s)
	}
	if w := by["612003"]; w.Kind != index.KindWorkshop || w.Room != "Workshop Lab" || w.Level != "Advanced" || w.Track != "Data" {
		t.Errorf("workshop %+v", w)
	}
	if l := by["a0c7e2f1-1b2c-4d3e-9f40-5a6b7c8d9e0f"]; l.Kind != index.KindBreak || l.Title != "Lunch" || !l.Scheduled {
		t.Errorf("service session %+v", l)
	}
	if u := by["612004"]; u.Scheduled || u.Start != nil || len(u.Speakers) != 1 || u.Track != "Data" {
		t.Errorf("unscheduled %+v", u)
	}
	if s := by["612006"]; s.Kind != index.KindLightning || s.Language != "Swedish" {
		t.Errorf("lightning %+v", s)
	}
}

// TestSessionizeGridSmart: each session once although the grid shows it
// in its room and again in its time slot; speakers and categories as the
// view carries them; service sessions are breaks; a session without a
// title and a categories field of another shape are warnings; without
// --time-zone the times are read as UTC, and a warning says so.
func TestSessionizeGridSmart(t *testing.T) {
	talks, warns := readSessionizeFixture(t, "sessionize-gridsmart.json", Options{})
	if len(talks) != 6 {
		t.Errorf("%d talks, want 6", len(talks))
	}
	joined := strings.Join(warns, "\n")
	for _, w := range []string{
		`sessionize-gridsmart.json:10: Sessionize's startsAt names no time zone: times read as UTC; pass --time-zone`,
		`session "733104" ("Pairing with a rubber duck"): categories is an object, not an array: categories not read`,
		`session "733202" without a title: skipped`,
	} {
		if !strings.Contains(joined, w) {
			t.Errorf("no warning %q in\n%s", w, joined)
		}
	}
	if len(warns) != 3 {
		t.Errorf("warnings %v", warns)
	}
	by := map[string]index.Talk{}
	for _, tk := range talks {
		by[tk.SourceID] = tk
	}
	if w := by["733101"]; w.Kind != index.KindBreak || w.Room != "Auditorium" {
		t.Errorf("welcome %+v", w)
	}
	if c := by["733199"]; c.Kind != index.KindBreak {
		t.Errorf("coffee %+v", c)
	}
	m := by["733102"]
	if m.Level != "Beginner" || m.Track != "Mobile" || m.Kind != index.KindTalk || len(m.Speakers) != 1 ||
		m.Start.Format(time.RFC3339) != "2026-10-08T09:30:00Z" || m.TimeZone != "" {
		t.Errorf("session %+v", m)
	}
	if f := by["733103"]; len(f.Speakers) != 2 || f.Room != "Room B" || f.Level != "Intermediate" {
		t.Errorf("two speakers %+v", f)
	}
	if k := by["733201"]; k.Kind != index.KindKeynote || len(k.Speakers) != 2 {
		t.Errorf("keynote %+v", k)
	}
}

// TestSessionizeVariants: the Sessions view (groups), All data whose
// categories are written {name, categoryItems}, times with an offset,
// fields of unexpected shapes, and detection against the other JSON
// formats.
func TestSessionizeVariants(t *testing.T) {
	groups := `[
 {"groupId": null, "groupName": "All",
  "sessions": [
   {"id": "1", "title": "Grouped", "description": "x", "startsAt": "2026-04-01T10:00:00+02:00", "endsAt": "2026-04-01T10:30:00+02:00",
    "speakers": [{"id": "s1", "name": "Noor Haddad"}], "categories": [{"id": 1, "name": "Topic", "categoryItems": [{"id": 2, "name": "Security"}]}],
    "roomId": 5, "room": "Hall 5", "isServiceSession": false}
  ]}
]`
	if f := Detect([]byte(groups)); f == nil || f.Name() != "sessionize" {
		t.Fatalf("groups detected as %v", f)
	}
	talks, warns, err := sessionize{}.Read("g.json", []byte(groups), Options{})
	if err != nil || len(warns) != 0 || len(talks) != 1 {
		t.Fatalf("groups: %v %v %v", talks, warns, err)
	}
	if g := talks[0]; g.Track != "Security" || g.Room != "Hall 5" || g.Start.Format(time.RFC3339) != "2026-04-01T10:00:00+02:00" || g.Speakers[0].Name != "Noor Haddad" {
		t.Errorf("grouped %+v", g)
	}

	named := `{"sessions": [
{"id": 7, "title": "Named categories", "startsAt": "2026-04-01T10:00:00", "endsAt": "soon", "speakers": ["p"], "categoryItems": [3, "x", {"id": 4}], "roomId": 9, "isServiceSession": "no"}
],
"speakers": [{"id": "p", "firstName": "Ana", "lastName": "Lima"}, 5],
"categories": [{"id": 1, "name": "Level", "categoryItems": [{"id": 3, "name": "Expert"}]}],
"rooms": {"id": 9}}`
	if f := Detect([]byte(named)); f == nil || f.Name() != "sessionize" {
		t.Fatalf("All data detected as %v", f)
	}
	talks, warns, err = sessionize{}.Read("n.json", []byte(named), Options{})
	if err != nil || len(talks) != 1 {
		t.Fatalf("%v %v", talks, err)
	}
	n := talks[0]
	if n.Level != "Expert" || n.Speakers[0].Name != "Ana Lima" || n.SourceID != "7" || n.End != nil || !n.Scheduled || n.Kind != index.KindTalk {
		t.Errorf("named categories %+v", n)
	}
	want := []string{
		`n.json:4: a speaker that is a number, not an object: skipped`,
		`n.json:6: the rooms are an object, not an array: not read`,
		`n.json:2: session "7" ("Named categories"): category item x is in none of the file's categories: item not read`,
		`n.json:2: session "7" ("Named categories"): a category item is an object, not an id: item not read`,
		`n.json:2: session "7" ("Named categories"): isServiceSession is a string, not true or false: isServiceSession not read`,
		`n.json:2: session "7" ("Named categories"): room id 9 is none of the file's rooms: room not read`,
		`n.json:2: Sessionize's startsAt names no time zone: times read as UTC; pass --time-zone (e.g. Europe/Brussels)`,
		`n.json:2: session "7" ("Named categories"): endsAt "soon" is not a time: end not read`,
	}
	var got []string
	for _, w := range warns {
		got = append(got, w.String())
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}

	for _, other := range []string{
		`{"sessions": [{"name": "a login session"}]}`,
		`[{"date": "2026-01-01"}]`,
		`[1, 2]`,
		`{"results": [], "sessions": []}`,
	} {
		if f := Detect([]byte(other)); f != nil && f.Name() == "sessionize" {
			t.Errorf("%s detected as Sessionize", other)
		}
	}
	for _, fix := range []string{"frab-camp.json", "pretalx-submissions.json", "synthetic-sample.jsonl"} {
		data, err := os.ReadFile(filepath.Join(formatsDir, fix))
		if err != nil {
			t.Fatal(err)
		}
		if (sessionize{}).Detect(trimHead(data)) {
			t.Errorf("%s detected as Sessionize", fix)
		}
	}
}

// TestSessionizeLargeFirstDay: detection decides on the first keys, so a
// first day larger than what Detect sees is still Sessionize.
func TestSessionizeLargeFirstDay(t *testing.T) {
	var b strings.Builder
	b.WriteString(`[{"date": "2026-10-08T00:00:00", "rooms": [{"id": 1, "name": "A", "sessions": [`)
	for i := 0; i < 2000; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"id": "` + strings.Repeat("x", 10) + string(rune('a'+i%26)) + `", "title": "T", "description": "` + strings.Repeat("d", 40) + `", "startsAt": null}`)
	}
	b.WriteString(`]}], "timeSlots": []}]`)
	data := []byte(b.String())
	if len(data) <= detectBytes {
		t.Fatalf("%d bytes: not larger than what Detect sees", len(data))
	}
	if f := Detect(data); f == nil || f.Name() != "sessionize" {
		t.Fatalf("detected as %v", f)
	}
}

// FuzzReadSessionize fuzzes the reader from the All data fixture and
// small documents of the grid and group views (the GridSmart fixture is
// too large a seed to minimise inputs from).
func FuzzReadSessionize(f *testing.F) {
	fuzzFormat(f, sessionize{}, "sessionize-all-data.json",
		`{"sessions":[{"id":1,"title":"T","startsAt":"2026-01-01T10:00:00","endsAt":"2026-01-01T09:00:00","speakers":[null,1],"categoryItems":[null]}],"categories":[{"items":[{"id":null}]}]}`,
		`[{"groupId":1,"sessions":[{"title":"T","startsAt":"2026-01-01T10:00:00Z"},{"id":"a","title":" "}]}]`,
		`[{"date":"x","rooms":[{"sessions":[{"id":"1","title":"T","startsAt":"2026-01-01T10:00:00"}],"name":"R"}],"timeSlots":[{"rooms":[{"session":{"id":"1","title":"T","startsAt":"2026-01-01T10:00:00"}}]},null]},3]`,
		`[{"date":"2026-01-01T00:00:00","rooms":[{"id":1,"name":"A","sessions":[{"id":"2","title":"U","speakers":[{"id":"s","name":"N"}],"categories":[{"name":"Level","categoryItems":[{"id":3,"name":"Expert"}]}],"isServiceSession":true}]}]}]`)
}

package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// frabFixtures are the fixtures of frab's variants, each with its golden
// (`go test ./index/ingest -run TestFormatGoldens -update` rewrites them).
var frabFixtures = []struct{ file, format string }{
	{"frab-congress-2013.json", "frab-json"},
	{"frab-day-change.json", "frab-json"},
	{"frab-hub-markdown.xml", "frab-xml"},
}

func TestFormatGoldensFrab(t *testing.T) {
	for _, tt := range frabFixtures {
		t.Run(tt.file, func(t *testing.T) { checkFormatGolden(t, tt.file, tt.format, Options{}) })
	}
}

func readFixture(t *testing.T, file string, opt Options) ([]string, map[string]talkFacts) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(formatsDir, file))
	if err != nil {
		t.Fatal(err)
	}
	talks, warns, err := ReadFile(file, data, opt)
	if err != nil {
		t.Fatal(err)
	}
	var ws []string
	for _, w := range warns {
		ws = append(ws, w.String())
	}
	facts := map[string]talkFacts{}
	for _, tk := range talks {
		f := talkFacts{Track: tk.Track, Abstract: tk.Abstract, Description: tk.Description}
		if tk.Start != nil {
			f.Start = tk.Start.Format(time.RFC3339)
		}
		for _, s := range tk.Speakers {
			f.Speakers = append(f.Speakers, s.Name)
		}
		facts[tk.Title] = f
	}
	return ws, facts
}

type talkFacts struct {
	Start, Track, Abstract, Description string
	Speakers                            []string
}

// TestFrab08: frab 0.8's schedule.json (no per-event date, no zone, every
// text escaped and quoted, speakers as full_public_name) reads as frab's
// XML of the same schedule would: the night's events on the next calendar
// day, in the zone given, with one warning where none is.
func TestFrab08(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip(err)
	}
	warns, facts := readFixture(t, "frab-congress-2013.json", Options{TimeZone: berlin})
	if len(warns) != 0 {
		t.Errorf("warnings with a zone given: %q", warns)
	}
	want := map[string]talkFacts{
		"Opening": {Start: "2013-12-27T11:00:00+01:00", Track: "Kongress",
			Abstract: "A short hello to everybody, and what the week's features are", Speakers: []string{"Marla Quendt"}},
		"DOs and DON'Ts of Lock Picking": {Start: "2013-12-27T12:00:00+01:00", Track: "Security & Safety",
			Abstract:    "Why a pin tumbler lock opens, in ten minutes.",
			Description: "We open three locks on stage & explain each pin.\n\nSlides: locks.example.org",
			Speakers:    []string{"Ole Brandvik", `Pia "Pick" Sauer`}},
		"Nachtquiz": {Start: "2013-12-28T00:00:00+01:00", Track: "Entertainment",
			Abstract: "Das Quiz nach Mitternacht.", Description: "Fragen aus dem Publikum.\n\nPreise: ein Kochtopf."},
		"Late Show":    {Start: "2013-12-27T23:30:00+01:00", Track: "Art & Beauty", Speakers: []string{"Rune Haldorsen"}},
		"Fnord Review": {Start: "2013-12-28T00:30:00+01:00", Track: "Entertainment", Abstract: "Der Jahresrückblick.", Speakers: []string{"Ida Fenn"}},
		"Closing": {Start: "2013-12-28T11:30:00+01:00", Track: "Kongress", Abstract: "Goodbye, and see you next year.",
			Speakers: []string{"Marla Quendt"}},
		"Teardown": {Start: "2013-12-28T18:00:00+01:00", Track: "Kongress"},
	}
	if d := cmp.Diff(want, facts); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	warns, facts = readFixture(t, "frab-congress-2013.json", Options{})
	if len(warns) != 1 || !strings.Contains(warns[0], "read as UTC") {
		t.Errorf("warnings without a zone: %q, want one that times are read as UTC", warns)
	}
	if got := facts["Nachtquiz"].Start; got != "2013-12-28T00:00:00Z" {
		t.Errorf("Nachtquiz without a zone starts %s", got)
	}
}

// TestFrabDayChange: a stated day_change decides which starts are the
// next calendar day ("03:30" is, "04:00" is not), in the schedule's zone.
func TestFrabDayChange(t *testing.T) {
	warns, facts := readFixture(t, "frab-day-change.json", Options{})
	if len(warns) != 0 {
		t.Errorf("warnings: %q", warns)
	}
	for title, want := range map[string]string{
		"Sternwarte für alle": "2024-07-12T20:00:00+02:00",
		"Dawn Chorus":         "2024-07-13T03:30:00+02:00",
		"Breakfast Talk":      "2024-07-13T04:00:00+02:00",
	} {
		if got := facts[title].Start; got != want {
			t.Errorf("%s starts %s, want %s", title, got, want)
		}
	}
	if got := facts["Dawn Chorus"].Speakers; len(got) != 1 || got[0] != "Noor Castell" {
		t.Errorf("speakers %q", got)
	}
}

func TestInferDayChange(t *testing.T) {
	ev := func(starts ...string) []frabJSONEvent {
		var evs []frabJSONEvent
		for _, s := range starts {
			evs = append(evs, frabJSONEvent{Start: s})
		}
		return evs
	}
	for _, tt := range []struct {
		starts []string
		want   int
	}{
		{[]string{"11:00", "00:00", "12:00", "23:30", "00:30"}, 11 * 60},
		{[]string{"09:00", "12:00", "18:00"}, 0},
		{[]string{"10:00"}, 0},
		{[]string{"08:00", "20:00"}, 0},
		{[]string{"13:00", "14:00", "23:00"}, 0},
		{[]string{"bad", "11:00"}, 0},
	} {
		if got := inferDayChange(ev(tt.starts...)); got != tt.want {
			t.Errorf("inferDayChange(%q) = %d, want %d", tt.starts, got, tt.want)
		}
	}
}

// TestFrabHubMarkdown: the CCC hub's XML writes Markdown, indented by its
// pretty-printer, into titles, abstracts and descriptions; plain text that
// only looks like markup stays as it is.
func TestFrabHubMarkdown(t *testing.T) {
	_, facts := readFixture(t, "frab-hub-markdown.xml", Options{})
	want := map[string]talkFacts{
		"Listening to Low Satellites": {Start: "2024-12-27T11:00:00+01:00", Track: "Science",
			Abstract:    "What we heard from low orbit this year.",
			Description: "We cover:\n\nAntennas from a tin can\nDecoding with one board\nTiming, and why ntp was not enough\n\nResults\n\nOur recordings are at the archive. Teilnehmer*innen welcome.",
			Speakers:    []string{"Fenna Oltmann"}},
		"C++ after midnight: <1ms or bust": {Start: "2024-12-28T00:15:00+01:00", Track: "Hardware & Making",
			Abstract:    "Why a*b costs less than you think, for snake_case_names too.",
			Description: "An HTML description, & escaped twice.",
			Speakers:    []string{`Lasse "Bit" Morr`}},
	}
	if d := cmp.Diff(want, facts); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestSharedFrab08: the real frab 0.8 export of the holdout, where present.
func TestSharedFrab08(t *testing.T) {
	p := filepath.Join("..", "..", "..", "shared", "holdout", "hidden", "ccc30c3-json", "30c3-schedule.json")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Skipf("%s absent: %v", p, err)
	}
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip(err)
	}
	talks, warns, err := ReadFile(p, data, Options{TimeZone: berlin})
	if err != nil {
		t.Fatal(err)
	}
	speakers, scheduled, night := 0, 0, 0
	for _, tk := range talks {
		speakers += len(tk.Speakers)
		if tk.Start != nil {
			scheduled++
			if tk.Start.Hour() < 4 {
				night++
			}
		}
		for _, s := range []string{tk.Title, tk.Track, tk.Abstract, tk.Description} {
			if m := markupLeft.FindString(s); m != "" || strings.HasPrefix(s, `"`) {
				t.Errorf("%q: %q left in %q", tk.Title, m, s)
			}
		}
	}
	t.Logf("%d talks, %d scheduled, %d after midnight, %d speakers, %d warnings", len(talks), scheduled, night, speakers, len(warns))
	if len(talks) == 0 || scheduled != len(talks) || speakers == 0 || night == 0 {
		t.Errorf("%d talks, %d scheduled, %d speakers, %d after midnight", len(talks), scheduled, speakers, night)
	}
}

// FuzzReadFrab08 fuzzes the frab JSON reader from the frab 0.8 fixture:
// start-only events, day changes, quoted and escaped texts.
func FuzzReadFrab08(f *testing.F) {
	fuzzFormat(f, frabJSON{}, "frab-congress-2013.json",
		`{"schedule":{"conference":{"day_change":"25:00","days":[{"date":"2013-12-27","rooms":{"A":[{"id":"1","title":"&quot;&quot;","start":"00:00"},{"id":"2","title":"T","start":"99:99"},{"id":"3","title":"U","start":"11:00"}]}},{"rooms":{"B":[{"id":"4","title":"V","start":"10:00"}]}}]}}}`)
}

// TestFrabJSONFieldShapes: a field of a shape frab never writes costs that
// field, with a warning on the event's line, never the event or the file.
func TestFrabJSONFieldShapes(t *testing.T) {
	data := []byte(`{"schedule": {"conference": {"title": "Shapes", "time_zone_name": "UTC", "days": [{"date": "2024-05-01", "rooms": {"A": [
{"id": 1, "title": "Kept", "start": "10:00", "abstract": {"en": "x"}, "persons": [5, {"id": 7, "public_name": ["x"], "name": "Ana Ruiz"}]},
"not an event",
{"id": [2], "title": ["T"]},
{"id": 3, "title": 2024, "start": 1100, "persons": "Ana", "duration": "00:30"}
]}}]}}}`)
	talks, warns, err := ReadFile("shapes.json", data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range warns {
		got = append(got, w.String())
	}
	want := []string{
		`shapes.json:2: event "Kept": a person is a number, not an object: ignored`,
		`shapes.json:2: event "Kept": a person's public_name is an array, not a string: ignored`,
		`shapes.json:2: event "Kept": abstract is an object, not a string: ignored`,
		`shapes.json:3: event is a string, not an object: skipped`,
		`shapes.json:4: event "": id is an array, not a string or a number: ignored`,
		`shapes.json:4: event "": title is an array, not a string: ignored`,
		`shapes.json:5: event "2024": persons is a string, not an array: ignored`,
		`shapes.json:4: event "" without a title: skipped`,
		`shapes.json:5: event "2024": start "1100" is not HH:MM: left unscheduled`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	if len(talks) != 2 || talks[0].Title != "Kept" || len(talks[0].Speakers) != 1 || talks[0].Speakers[0].Name != "Ana Ruiz" ||
		talks[0].Start == nil || talks[1].Title != "2024" || talks[1].Start != nil {
		t.Errorf("talks %+v", talks)
	}
}

// TestFrabXMLDayChange: in the XML too, a start-only event before the
// conference's day_change is on the next calendar day.
func TestFrabXMLDayChange(t *testing.T) {
	data := []byte(`<schedule><conference><title>Night</title><time_zone_name>Europe/Berlin</time_zone_name><day_change>04:00</day_change></conference>
<day date="2024-07-12"><room name="A">
<event id="1"><start>23:00</start><duration>01:00</duration><title>Late</title></event>
<event id="2"><start>01:30</start><duration>00:30</duration><title>Later</title></event>
<event id="3"><start>04:00</start><duration>00:30</duration><title>Early</title></event>
</room></day></schedule>`)
	talks, warns, err := ReadFile("night.xml", data, Options{})
	if err != nil || len(warns) != 0 {
		t.Fatal(err, warns)
	}
	var got []string
	for _, tk := range talks {
		got = append(got, tk.Title+" "+tk.Start.Format(time.RFC3339))
	}
	want := []string{"Late 2024-07-12T23:00:00+02:00", "Later 2024-07-13T01:30:00+02:00", "Early 2024-07-12T04:00:00+02:00"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

package ingest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
)

// TestICalWarningLines: every warning about an event of a calendar sits at
// the line of the event's BEGIN:VEVENT, whether the library read the
// calendar whole or it was read event by event around a broken one.
func TestICalWarningLines(t *testing.T) {
	events := "BEGIN:VEVENT\nUID:a@x\nDTSTART:20250201T100000Z\nSUMMARY:Fine\nEND:VEVENT\n" + // 2
		"BEGIN:VEVENT\nUID:b@x\nDTSTART:20250201T110000Z\nEND:VEVENT\n" + // 7: no SUMMARY
		"BEGIN:VEVENT\nUID:c@x\nDTSTART:2025-02-01Z\nSUMMARY:Bad start\nEND:VEVENT\n" + // 11
		"BEGIN:VEVENT\nUID:d@x\nSTATUS:CANCELLED\nSUMMARY:Gone\nEND:VEVENT\n" + // 16: read, cancelled
		"BEGIN:VEVENT\nUID:e@x\nDTSTART:20250201T120000\nSUMMARY:Floating\nEND:VEVENT\n" // 21: no zone
	for _, tt := range []struct{ name, cal string }{
		{"whole", "BEGIN:VCALENDAR\n" + events + "END:VCALENDAR\n"},
		// The unescaped quotes in the CN make the library refuse the
		// calendar, which is then read event by event.
		{"by event", "BEGIN:VCALENDAR\n" + events +
			"BEGIN:VEVENT\nUID:f@x\nDTSTART:20250201T130000Z\nSUMMARY:Quoted\nATTENDEE;CN=\"Ana \"Pixel\" Moreau\":invalid:nomail\nEND:VEVENT\n" + // 26
			"END:VCALENDAR\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, warns, err := ReadFile("w.ics", []byte(tt.cal), Options{})
			if err != nil {
				t.Fatal(err)
			}
			want := map[int]string{7: "without a SUMMARY", 11: "DTSTART", 21: "names no time zone"}
			if tt.name == "by event" {
				want[26] = "quotes inside a quoted CN"
			}
			got := map[int]string{}
			for _, w := range warns {
				for line, sub := range want {
					if strings.Contains(w.Msg, sub) {
						got[line] = sub
						if w.Line != line {
							t.Errorf("%s: line %d, want %d (BEGIN:VEVENT)", w, w.Line, line)
						}
					}
				}
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("warnings %v (-want +got):\n%s", warns, d)
			}
		})
	}
}

// TestRepeatedIDsOncePerID: an id that several events of one file share is
// one warning, at the line of its first repeat, naming the line of the
// first event, in every format that has ids.
func TestRepeatedIDsOncePerID(t *testing.T) {
	for _, tt := range []struct {
		file, data string
		want       []string
		talks      int
	}{
		{"camp.ics", "BEGIN:VCALENDAR\nX-WR-TIMEZONE:Europe/Rome\n" +
			"BEGIN:VEVENT\nUID:7\nDTSTART:20240913T100000Z\nSUMMARY:Opening\nEND:VEVENT\n" + // 3
			"BEGIN:VEVENT\nUID:7\nDTSTART:20240913T110000Z\nSUMMARY:Radio\nEND:VEVENT\n" + // 8
			"BEGIN:VEVENT\nUID:8\nDTSTART:20240913T120000Z\nSUMMARY:Lockpicking\nEND:VEVENT\n" + // 13
			"BEGIN:VEVENT\nUID:7\nDTSTART:20240913T130000Z\nSUMMARY:Soldering\nEND:VEVENT\n" + // 18
			"BEGIN:VEVENT\nUID:8\nDTSTART:20240913T140000Z\nSUMMARY:Closing\nEND:VEVENT\n" + // 23
			"END:VCALENDAR\n",
			[]string{
				`camp.ics:8: event id "7" of line 3 repeated at lines 8 and 18: each kept as a separate talk`,
				`camp.ics:23: event id "8" of line 13 repeated at line 23: kept as a separate talk`,
			}, 5},
		{"dup.json", `{"schedule": {"conference": {"acronym": "dup25", "time_zone_name": "Europe/Berlin", "days": [{"date": "2025-08-01", "rooms": {"A": [
{"id": 1, "title": "One", "date": "2025-08-01T10:00:00+02:00", "duration": "00:30"},
{"id": 1, "title": "Two", "date": "2025-08-01T11:00:00+02:00", "duration": "00:30"},
{"id": 1, "title": "Two", "date": "2025-08-01T11:00:00+02:00", "duration": "00:30"},
{"id": 1, "title": "Three", "date": "2025-08-01T12:00:00+02:00", "duration": "00:30"}
]}}]}}}`,
			[]string{`dup.json:3: event id "1" of line 2 repeated at line 3 and 2 more times, the last at line 5: 1 dropped (same title and start), 2 kept as separate talks`}, 3},
		{"dup.jsonl", `{"id":"a","title":"A"}
{"id":"b","title":"B"}
{"id":"a","title":"A again"}
{"id":"a","title":"A once more"}
`, []string{`dup.jsonl:3: id "a" of line 1 repeated at lines 3 and 4: dropped`}, 2},
	} {
		t.Run(tt.file, func(t *testing.T) {
			talks, warns, err := ReadFile(tt.file, []byte(tt.data), Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range warns {
				got = append(got, w.String())
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("warnings (-want +got):\n%s", d)
			}
			if len(talks) != tt.talks {
				t.Errorf("%d talks, want %d", len(talks), tt.talks)
			}
		})
	}
}

// TestICalCommunityFixture reads ical-community.ics through Load: the
// calendar's X-WR-CALNAME (after the events) names the conference, meals
// without a type are breaks, an event in two languages has both, and the
// repeated UID is one warning.
func TestICalCommunityFixture(t *testing.T) {
	c, err := LoadPaths([]string{filepath.Join(formatsDir, "ical-community.ics")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]index.Kind{}
	for _, tk := range c.Talks {
		kinds[tk.Title] = tk.Kind
		if tk.Title == "Lightning Talks / Blitzvorträge" && !cmp.Equal(tk.Languages(), []string{"de", "en"}) {
			t.Errorf("%s: languages %q, want de and en", tk.Title, tk.Languages())
		}
		if tk.Conference != (index.Conference{ID: "riverside-python-day-2025", Name: "Riverside Python Day 2025"}) {
			t.Errorf("%s: conference %+v", tk.Title, tk.Conference)
		}
	}
	want := map[string]index.Kind{
		"Registration / Breakfast": index.KindBreak, "Packaging ohne Tränen, mit uv": index.KindTalk,
		"Coffee Break": index.KindBreak, "Breaking the build on purpose": index.KindTalk, "Lunch": index.KindBreak,
		"Lunch and learn: typing in anger": index.KindTalk, "Afternoon Coffee & Snacks": index.KindBreak, "Supper": index.KindBreak,
		"Lightning Talks / Blitzvorträge": index.KindTalk,
	}
	if d := cmp.Diff(want, kinds); d != "" {
		t.Errorf("kinds (-want +got):\n%s", d)
	}
	repeats := 0
	for _, w := range c.Report.Warnings {
		if strings.Contains(w.Msg, "repeated") {
			repeats++
		}
	}
	if repeats != 1 {
		t.Errorf("%d warnings about repeated ids, want 1: %v", repeats, c.Report.Warnings)
	}
}

func TestCalendarName(t *testing.T) {
	for in, want := range map[string]string{
		"iCal":                          "",
		"Schedule":                      "",
		"PyCon UK 2015 Schedule":        "PyCon UK 2015",
		"Schedule - Camp 2024":          "Camp 2024",
		`Fahrplan: Datenspuren 2025`:    "Datenspuren 2025",
		`Rust\, Beer & Friends Meetup`:  "Rust, Beer & Friends Meetup",
		"  MOCA 2024 — full programme ": "MOCA 2024",
	} {
		if got := calendarName(in); got != want {
			t.Errorf("calendarName(%q) = %q, want %q", in, got, want)
		}
	}
	cal := "BEGIN:VCALENDAR\nNAME:Datenspuren 2025\nX-WR-CALNAME:iCal\nBEGIN:VEVENT\nUID:a\nDTSTART:20250920T100000Z\nSUMMARY:Eröffnung\nEND:VEVENT\nEND:VCALENDAR\n"
	talks, _, err := ReadFile("export.ics", []byte(cal), Options{})
	if err != nil || len(talks) != 1 || talks[0].Conference != (index.Conference{ID: "datenspuren-2025", Name: "Datenspuren 2025"}) {
		t.Errorf("talks %+v, err %v", talks, err)
	}
	// A generic name leaves the conference to the file name.
	cal = strings.Replace(cal, "NAME:Datenspuren 2025\n", "", 1)
	talks, _, err = ReadFile("ds25.ics", []byte(cal), Options{})
	if err != nil || len(talks) != 1 || talks[0].Conference.ID != "ds25" {
		t.Errorf("talks %+v, err %v", talks, err)
	}
}

func TestBreakTitle(t *testing.T) {
	for title, want := range map[string]bool{
		"Lunch": true, "Breakfast": true, "Supper": true, "Dinner": true, "Coffee Break": true, "Coffee break": true,
		"Registration / Breakfast": true, "Afternoon Coffee & Snacks": true, "Afternoon tea": true, "Lunch Break": true,
		"Breaking the build": false, "Lunch and learn: typing": false, "5 impossible things before breakfast": false,
		"Lunchtime Event": false, "The PyCon UK Dinner (Ticket required)": false, "Registration": false, "": false,
	} {
		if got := breakTitle(title); got != want {
			t.Errorf("breakTitle(%q) = %v, want %v", title, got, want)
		}
	}
	// The rule is for sessions whose type says nothing more than talk:
	// a type the source states wins.
	xml := `<schedule><conference><acronym>m25</acronym><time_zone_name>Europe/Zurich</time_zone_name></conference><day date="2025-08-01"><room name="A">
<event id="1"><date>2025-08-01T12:00:00+02:00</date><duration>01:00</duration><title>Lunch</title><type></type></event>
<event id="2"><date>2025-08-01T13:00:00+02:00</date><duration>01:00</duration><title>Lunch</title><type>workshop</type></event>
</room></day></schedule>`
	talks, _, err := ReadFile("m.xml", []byte(xml), Options{})
	if err != nil || len(talks) != 2 || talks[0].Kind != index.KindBreak || talks[1].Kind != index.KindWorkshop {
		t.Errorf("talks %+v, err %v", talks, err)
	}
}

func TestLanguages(t *testing.T) {
	for in, want := range map[string]string{
		"": "", "en": "en", " de ": "de", "de, en": "de, en", "de/en": "de, en", "DE & EN": "DE, EN",
		"de und en": "de, en", "en; en": "en", "English and German": "English, German", "pt-BR": "pt-BR",
	} {
		if got := Languages(in); got != want {
			t.Errorf("Languages(%q) = %q, want %q", in, got, want)
		}
	}
	xml := `<schedule><conference><acronym>l25</acronym><time_zone_name>Europe/Berlin</time_zone_name></conference><day date="2025-08-01"><room name="A">
<event id="1"><date>2025-08-01T12:00:00+02:00</date><duration>01:00</duration><title>Zweisprachig</title><language>de, en</language></event>
</room></day></schedule>`
	talks, _, err := ReadFile("l.xml", []byte(xml), Options{})
	if err != nil || len(talks) != 1 || talks[0].Language != "de, en" || !cmp.Equal(talks[0].Languages(), []string{"de", "en"}) {
		t.Errorf("talks %+v, err %v", talks, err)
	}
}

// FuzzICalLines: whatever the calendar, every warning of the iCalendar
// reader is about the whole file (line 0), sits on a BEGIN:VEVENT line, or
// names a property dropped before the library (too long, too many
// parameters) on the line where it begins.
func FuzzICalLines(f *testing.F) {
	for _, name := range []string{"ical-community.ics", "pentabarf.ical"} {
		data, err := os.ReadFile(filepath.Join(formatsDir, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nSUMMARY:T\nEND:VEVENT\n BEGIN:VEVENT\nBEGIN:VEVENT\nUID:a\nSUMMARY:T\nEND:VCALENDAR\n"))
	f.Add([]byte("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nSUMMARY:T\nATTENDEE" + strings.Repeat(";A=b", 40) + ":x\nDESCRIPTION:" + strings.Repeat("d", 600) + "\n more\nEND:VEVENT\nEND:VCALENDAR\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, warns, _ := iCalendar{}.Read("f", data, Options{MaxLineBytes: 512})
		lines := bytes.SplitAfter(data, []byte("\n"))
		for _, w := range warns {
			if w.Line == 0 {
				continue
			}
			if strings.HasSuffix(w.Msg, ": dropped") {
				if w.Line > len(lines) || len(lines[w.Line-1]) > 0 && (lines[w.Line-1][0] == ' ' || lines[w.Line-1][0] == '\t') {
					t.Fatalf("warning %v is not at the first line of a property", w)
				}
				continue
			}
			if w.Line > len(lines) || !isICalLine(lines[w.Line-1], "BEGIN:VEVENT") {
				t.Fatalf("warning %v is not at a BEGIN:VEVENT line", w)
			}
		}
	})
}

// TestNoTalks: Report.NoTalks names every seed file that gave no talk,
// refused or read without one, and not the documentation beside them.
func TestNoTalks(t *testing.T) {
	ev := func(status string) string {
		return "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nDTSTART:20250201T100000Z\nSUMMARY:Talk\nSTATUS:" + status + "\nEND:VEVENT\nEND:VCALENDAR\n"
	}
	c, err := LoadFS(fstest.MapFS{
		"README.md":  {Data: []byte("These are the seeds.")},
		"good.ics":   {Data: []byte(ev("CONFIRMED"))},
		"empty.ics":  {Data: []byte("BEGIN:VCALENDAR\nEND:VCALENDAR\n")},
		"other.json": {Data: []byte(`{"generator": "x"}`)},
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"empty.ics", "other.json"}; !cmp.Equal(c.Report.NoTalks, want) || len(c.Talks) != 1 {
		t.Errorf("NoTalks %v, want %v (%d talks)", c.Report.NoTalks, want, len(c.Talks))
	}
}

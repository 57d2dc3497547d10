package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
)

const formatsDir = "testdata/formats"

func brussels(t testing.TB) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Europe/Brussels")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// goldenLine is what the goldens show of a talk.
func goldenLine(tk index.Talk) string {
	var names []string
	for _, s := range tk.Speakers {
		n := s.Name
		if s.SourceID != "" {
			n += "#" + s.SourceID
		}
		names = append(names, n)
	}
	tm := func(p *time.Time) string {
		if p == nil {
			return "-"
		}
		return p.Format(time.RFC3339)
	}
	words := func(s string, n int) string {
		w := strings.Fields(s)
		if len(w) > n {
			w = append(w[:n], "…")
		}
		return strings.Join(w, " ")
	}
	line := fmt.Sprintf("id=%s conf=%s/%q src=%s\n  title=%q speakers=%q\n  track=%q room=%q level=%q lang=%q kind=%s scheduled=%v\n  start=%s end=%s zone=%q url=%q\n  abstract=%q paragraphs=%d\n  description=%q\n",
		tk.ID, tk.Conference.ID, tk.Conference.Name, tk.SourceID, tk.Title, strings.Join(names, "; "),
		tk.Track, tk.Room, tk.Level, tk.Language, tk.Kind, tk.Scheduled, tm(tk.Start), tm(tk.End), tk.TimeZone, tk.URL,
		words(tk.Abstract, 12), len(splitParagraphs(tk.Abstract)), words(tk.Description, 8))
	if tk.Cancelled {
		line += "  cancelled\n"
	}
	for _, l := range tk.Links {
		line += fmt.Sprintf("  link %s %q %q %s\n", l.Kind, l.Title, l.URL, l.MIMEType)
	}
	return line
}

// TestFormatGoldens reads each fixture with its reader and compares every
// talk's fields with testdata/formats/<file>.golden.
func TestFormatGoldens(t *testing.T) {
	for _, tt := range []struct{ file, format string }{
		{"frab-devroom.xml", "frab-xml"},
		{"frab-camp.json", "frab-json"},
		{"pentabarf.ical", "ical"},
		{"ical-community.ics", "ical"},
		{"pretalx-submissions.json", "pretalx"},
		{"frab-cancelled.xml", "frab-xml"},
		{"pretalx-resources.json", "pretalx"},
		{"synthetic-sample.jsonl", "jsonl"},
		{"cfp.csv", "csv"},
	} {
		t.Run(tt.file, func(t *testing.T) { checkFormatGolden(t, tt.file, tt.format, Options{}) })
	}
}

// checkFormatGolden reads one fixture with the reader Detect gives it and
// compares its warnings and every talk's fields with <file>.golden
// (rewritten with -update, as TestFormatGoldens does).
func checkFormatGolden(t *testing.T, file, format string, opt Options) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(formatsDir, file))
	if err != nil {
		t.Fatal(err)
	}
	if f := Detect(data); f == nil || f.Name() != format {
		t.Fatalf("Detect = %v, want %s", f, format)
	}
	talks, warns, err := ReadFile(file, data, opt)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, w := range warns {
		fmt.Fprintf(&b, "warning %s\n", w)
	}
	for _, tk := range talks {
		b.WriteString(goldenLine(tk))
		if len(tk.Sources) != 1 || (tk.Sources[0] != file && format != "jsonl") {
			t.Errorf("%s: sources %v", tk.ID, tk.Sources)
		}
	}
	golden := filepath.Join(formatsDir, file+".golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), b.String()); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestFrabDevroomFixtureFacts states the facts of the frab XML fixture:
// +01:00 times in Europe/Brussels (from <date> with its offset, and from
// start and duration on the day where there is no <date>), clean text
// from escaped HTML, both sessions of the workshop held twice.
func TestFrabDevroomFixtureFacts(t *testing.T) {
	c, err := LoadPaths([]string{filepath.Join(formatsDir, "frab-devroom.xml")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Talks) != 6 || len(c.Report.Warnings) != 0 {
		t.Fatalf("%d talks, warnings %v; want 6, none", len(c.Talks), c.Report.Warnings)
	}
	var twice []string
	for _, tk := range c.Talks {
		if tk.Conference != (index.Conference{ID: "osw-2025", Name: "Open Source Weekend 2025"}) || tk.TimeZone != "Europe/Brussels" {
			t.Errorf("%s: conference %v, zone %q", tk.ID, tk.Conference, tk.TimeZone)
		}
		if !strings.HasSuffix(tk.Start.Format(time.RFC3339), "+01:00") {
			t.Errorf("%s: start %s, want +01:00", tk.ID, tk.Start.Format(time.RFC3339))
		}
		if strings.ContainsAny(tk.Abstract, "<>") || strings.Contains(tk.Abstract, "&lt;") || strings.Contains(tk.Abstract, "&amp;") {
			t.Errorf("%s: markup left in abstract %q", tk.ID, tk.Abstract)
		}
		if tk.Title == "Learn to program with turtle graphics" {
			twice = append(twice, tk.ID+" "+tk.Start.Format(time.RFC3339))
		}
		if tk.SourceID == "7104" && tk.Start.Format(time.RFC3339) != "2025-02-01T12:00:00+01:00" {
			t.Errorf("event without <date>: start %s", tk.Start.Format(time.RFC3339))
		}
		if tk.SourceID == "7102" && !strings.Contains(tk.Abstract, "its keep & when") {
			t.Errorf("doubly escaped ampersand: %q", tk.Abstract)
		}
	}
	want := []string{"learn-to-program-with-turtle-graphics-8a1872 2025-02-01T12:15:00+01:00", "learn-to-program-with-turtle-graphics-027306 2025-02-02T16:00:00+01:00"}
	if d := cmp.Diff(want, twice); d != "" {
		t.Errorf("workshop sessions (-want +got):\n%s", d)
	}
	if st := c.Report.PerFile; len(st) != 1 || st[0].Kind != "frab-xml" || st[0].Talks != 6 || st[0].File != "frab-devroom.xml" {
		t.Errorf("per file %+v", st)
	}
}

// sharedDataset returns the path of ../shared/datasets/<rel>, skipping the
// test when it is absent (failing under CI=true, where it must be there).
func sharedDataset(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join("..", "..", "..", "shared", "datasets", rel)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("shared dataset %s missing under CI: %v", p, err)
		}
		t.Skipf("shared dataset %s absent: %v", p, err)
	}
	return p
}

// fosdemEvents are the <event> counts of every year's schedule.
var fosdemEvents = map[int]int{
	2007: 215, 2008: 258, 2009: 281, 2010: 301, 2011: 331, 2012: 442, 2013: 487, 2014: 513, 2015: 551,
	2016: 617, 2017: 668, 2018: 689, 2019: 775, 2020: 872, 2021: 773, 2022: 730, 2023: 780,
	2024: 874, 2025: 1105,
}

func TestSharedFosdemYears(t *testing.T) {
	dir := sharedDataset(t, "fosdem")
	total := 0
	for year := 2007; year <= 2025; year++ {
		want := fosdemEvents[year]
		total += want
		name := fmt.Sprintf("fosdem-%d.xml", year)
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		talks, warns, err := ReadFile(name, data, Options{TimeZone: brussels(t)})
		if err != nil {
			t.Fatal(err)
		}
		if len(talks) != want || len(warns) != 0 {
			t.Errorf("%s: %d talks, %d warnings %v; want %d, 0", name, len(talks), len(warns), warns, want)
		}
		conf := index.Conference{ID: fmt.Sprintf("fosdem-%d", year), Name: fmt.Sprintf("FOSDEM %d", year)}
		for _, tk := range talks {
			if tk.Conference != conf || tk.Start == nil || tk.TimeZone != "Europe/Brussels" || !tk.Scheduled {
				t.Errorf("%s: %s: conference %v, start %v, zone %q", name, tk.ID, tk.Conference, tk.Start, tk.TimeZone)
				break
			}
			if _, off := tk.Start.Zone(); off != 3600 {
				t.Errorf("%s: %s starts at offset %d, want +01:00", name, tk.ID, off)
				break
			}
		}
		// Without --time-zone, the years before 2024 name no zone: one
		// warning per file says so, no talk is lost (checked on two years:
		// the files are alike).
		if year == 2013 || year == 2024 {
			talks, warns, _ = ReadFile(name, data, Options{})
			wantWarns := 0
			if year < 2024 {
				wantWarns = 1
			}
			if len(talks) != want || len(warns) != wantWarns {
				t.Errorf("%s without --time-zone: %d talks, warnings %v; want %d, %d", name, len(talks), warns, want, wantWarns)
			}
		}
	}
	// The sum the datasets README quotes for 2007–2023 (10,283) is off by 1,000: the
	// files hold 9,283.
	if pre := total - 874 - 1105; pre != 9283 {
		t.Errorf("2007–2023: %d events", pre)
	}
	c, err := LoadPaths([]string{dir}, Options{TimeZone: brussels(t)})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Talks) != total || len(c.Report.Warnings) != 0 || len(c.Report.PerFile) != 19 || c.Report.Merged != 0 {
		t.Errorf("all years: %d talks, %d warnings, %d files, %d merged; want %d, 0, 19, 0", len(c.Talks), len(c.Report.Warnings), len(c.Report.PerFile), c.Report.Merged, total)
	}
	ids := map[string]bool{}
	for _, tk := range c.Talks {
		if ids[tk.ID] || !idRE.MatchString(tk.ID) {
			t.Errorf("id %q repeated or not URL-safe", tk.ID)
		}
		ids[tk.ID] = true
	}
}

func TestSharedFrabJSONAndICal(t *testing.T) {
	frab := sharedDataset(t, "frab-json/camp2019-frab.json")
	c, err := LoadPaths([]string{frab}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	langs := map[string]int{}
	for _, tk := range c.Talks {
		langs[tk.Language]++
		if tk.TimeZone != "Europe/Berlin" || tk.Conference.ID != "camp2019" {
			t.Errorf("%s: zone %q, conference %v", tk.ID, tk.TimeZone, tk.Conference)
			break
		}
	}
	if len(c.Talks) != 79 || len(c.Report.Warnings) != 0 {
		t.Errorf("frab JSON: %d talks, warnings %v; want 79, none", len(c.Talks), c.Report.Warnings)
	}
	if langs["de"] == 0 || langs["en"] == 0 {
		t.Errorf("languages %v, want German and English", langs)
	}

	ical := sharedDataset(t, "ical/fosdem-2015.ical")
	c, err = LoadPaths([]string{ical}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Warning{{File: "fosdem-2015.ical", Line: 7127, Msg: "quotes inside a quoted CN parameter (not RFC 5545) read as single quotes"}}
	if len(c.Talks) != 549 || !cmp.Equal(want, c.Report.Warnings) {
		t.Errorf("iCal: %d talks, warnings %v; want 549, %v", len(c.Talks), c.Report.Warnings, want)
	}
	for _, tk := range c.Talks {
		if tk.TimeZone != "Europe/Brussels" || tk.Start == nil {
			t.Errorf("%s: zone %q start %v", tk.ID, tk.TimeZone, tk.Start)
			break
		}
	}

	// The same FOSDEM 2015 read from its XML and its iCalendar export:
	// one talk per session, listing both files.
	xml2015 := sharedDataset(t, "fosdem/fosdem-2015.xml")
	c, err = LoadPaths([]string{xml2015, ical}, Options{TimeZone: brussels(t)})
	if err != nil {
		t.Fatal(err)
	}
	both := 0
	for _, tk := range c.Talks {
		if len(tk.Sources) == 2 {
			both++
		}
	}
	if len(c.Talks) != fosdemBoth2015.talks || both != fosdemBoth2015.both {
		t.Errorf("FOSDEM 2015 XML + iCal: %d talks, %d from both files; want %d, %d", len(c.Talks), both, fosdemBoth2015.talks, fosdemBoth2015.both)
	}
}

// fosdemBoth2015 is what XML (551 events) and iCalendar (549) of FOSDEM
// 2015 make together: 548 sessions in both; the iCalendar spells one title
// differently ("OpenNebula Deployments, from Small to Massive" against the
// XML's "OpenNebla Deployments, from small to massive"), so it stays a
// talk of its own, as do the 3 sessions only the XML has.
var fosdemBoth2015 = struct{ talks, both int }{552, 548}

// exportJSONL writes talks as `talksearch export` does.
func exportJSONL(t *testing.T, ts []index.Talk) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for i := range ts {
		if err := enc.Encode(&ts[i]); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// TestJSONLinesRoundTrip: export → import → export is byte-identical.
func TestJSONLinesRoundTrip(t *testing.T) {
	export := func(ts []index.Talk) []byte { return exportJSONL(t, ts) }
	first := export(loadSeeds(t).Talks)
	dir := t.TempDir()
	file := filepath.Join(dir, "talks.jsonl")
	if err := os.WriteFile(file, first, 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := LoadPaths([]string{file}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Report.Warnings != nil || c.Report.PerFile[0].Kind != "jsonl" || c.Report.PerFile[0].Talks != 73 {
		t.Errorf("warnings %v, per file %+v", c.Report.Warnings, c.Report.PerFile)
	}
	if d := cmp.Diff(string(first), string(export(c.Talks))); d != "" {
		t.Errorf("export of the import differs (-first +second):\n%s", d)
	}
}

func TestJSONLinesBadLines(t *testing.T) {
	data := []byte(`{"id":"a-1","title":"One","kind":"talk"}
{"id":"a-1","title":"One again","kind":"talk"}
{"title":""}
{"title": "Truncated", "abs
{"id":"has space","title":"Two","kind":"keynote-ish"}
`)
	talks, warns, err := ReadFile("x.jsonl", data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range warns {
		got = append(got, fmt.Sprintf("%d %s", w.Line, strings.SplitN(w.Msg, ":", 2)[0]))
	}
	want := []string{"2 id \"a-1\" of line 1 repeated at line 2", "3 talk \"\" without a title", "4 not a talk object", "5 kind \"keynote-ish\" is not one of talksearch's kinds", "5 id \"has space\" is not URL-safe"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	if len(talks) != 2 || talks[1].Kind != index.KindKeynote || talks[0].Conference.ID != "x" {
		t.Errorf("talks %+v", talks)
	}
}

// TestBadStructuredInput: broken files are warnings naming file and line,
// never talks, and the other files still load.
func TestBadStructuredInput(t *testing.T) {
	xmlFix, _ := os.ReadFile(filepath.Join(formatsDir, "frab-devroom.xml"))
	jsonFix, _ := os.ReadFile(filepath.Join(formatsDir, "frab-camp.json"))
	deep := "<schedule>" + strings.Repeat("<day>", 100) + strings.Repeat("</day>", 100) + "</schedule>"
	laughs := `<?xml version="1.0"?>
<!DOCTYPE schedule [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<schedule><conference><title>&lol2;</title></conference></schedule>`
	for _, tt := range []struct {
		name, data, want string
	}{
		{"truncated.xml", string(xmlFix[:bytes.Index(xmlFix, []byte("<event "))+20]), "FILE:0: frab-xml: line LINE: XML syntax error on line LINE: unexpected EOF; no talks read from this file"},
		{"truncated.json", string(jsonFix[:len(jsonFix)/2]), "FILE:0: frab-json: line LINE: truncated JSON (unexpected end of file); no talks read from this file"},
		{"latin1-undeclared.xml", "<schedule><day date=\"2025-02-01\"><room><event id=\"1\"><title>Caf\xe9</title></event></room></day></schedule>", "FILE:0: frab-xml: line 1: XML syntax error on line 1: invalid UTF-8; no talks read from this file"},
		{"not-a-schedule.xml", "<?xml version=\"1.0\"?>\n<html><body>hi</body></html>", "FILE:0: frab-xml: line 2: XML with root <html>, not a pentabarf/frab <schedule>; no talks read from this file"},
		{"deep.xml", deep, "FILE:1: elements nested deeper than 64 (to line 1): skipped, the rest of the file read"},
		{"laughs.xml", laughs, "FILE:0: frab-xml: line 3: XML syntax error on line 3: invalid character entity &lol2;; no talks read from this file"},
		{"latin1.json", "{\"schedule\": {\"conference\": {\"title\": \"Caf\xe9\"}}}", "FILE:0: frab-json: line 1: not UTF-8 (byte 0xe9); convert the file to UTF-8; no talks read from this file"},
		{"deep.json", `{"schedule": ` + strings.Repeat("[", 20000), "FILE:0: frab-json: line 1: expected an object, found [; no talks read from this file"},
		{"deep-results.json", `{"results": [` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `]}`, "FILE:0: pretalx: line 1: invalid character '[' exceeded max depth; no talks read from this file"},
		{"latin1.ics", "BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:Caf\xe9\nEND:VEVENT\nEND:VCALENDAR\n", "FILE:0: ical: line 3: not UTF-8 (byte 0xe9); convert the file to UTF-8; no talks read from this file"},
		{"other.json", `{"talks": []}`, "FILE:0: looks like JSON but is no format talksearch reads (pentabarf/frab XML, frab or pretalx JSON, talksearch JSON Lines, iCalendar)"},
		{"broken.ics", "BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VEVENT\nSUMMARY;broken\nEND:VEVENT\nEND:VCALENDAR\n", "FILE:3: event not read: failed to parse event: parsing component property 0: parsing property SUMMARY: missing property param operator for broken in SUMMARY"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, tt.name), []byte(tt.data), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "good.json"), jsonFix, 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := LoadPaths([]string{dir}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Talks) != 3 {
				t.Errorf("%d talks, want the 3 of good.json", len(c.Talks))
			}
			if len(c.Report.Warnings) != 1 {
				t.Fatalf("warnings %v, want one", c.Report.Warnings)
			}
			w := c.Report.Warnings[0]
			line := ""
			if _, rest, ok := strings.Cut(w.Msg, ": line "); ok {
				line, _, _ = strings.Cut(rest, ":")
			}
			want := strings.ReplaceAll(strings.ReplaceAll(tt.want, "LINE", line), "FILE:", tt.name+":")
			if w.String() != want {
				t.Errorf("warning\n %s\nwant\n %s", w, want)
			}
			if n, _ := strconv.Atoi(line); strings.Contains(tt.want, "LINE") && n < 2 {
				t.Errorf("line %q: want the line where the file breaks", line)
			}
		})
	}
}

// TestDeepInsideEvent: 20,000 nested elements inside an abstract are read
// through without recursion (encoding/xml skips them for a string field):
// the event is still a talk, the nesting leaves no text.
func TestDeepInsideEvent(t *testing.T) {
	data := "<schedule><day date=\"2025-02-01\"><room><event id=\"1\"><title>T</title><abstract>" + strings.Repeat("<a>", 20000) + strings.Repeat("</a>", 20000) + "</abstract></event></room></day></schedule>"
	talks, warns, err := ReadFile("deep.xml", []byte(data), Options{})
	if err != nil || len(warns) != 0 || len(talks) != 1 || talks[0].Title != "T" || talks[0].Abstract != "" {
		t.Errorf("%+v %v %v", talks, warns, err)
	}
}

// TestXMLDeclaredEncoding: a schedule in ISO-8859-1 that says so is read.
func TestXMLDeclaredEncoding(t *testing.T) {
	data := []byte("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<schedule><conference><title>Caf\xe9 Conf 2024</title><time_zone_name>Europe/Paris</time_zone_name></conference>" +
		"<day date=\"2024-03-02\"><room name=\"A\"><event id=\"7\"><start>10:00</start><duration>00:30</duration><room>A</room><title>Cr\xe8me br\xfbl\xe9e</title><type>Talk</type><persons><person id=\"3\">Ren\xe9</person></persons></event></room></day></schedule>")
	talks, warns, err := ReadFile("cafe.xml", data, Options{})
	if err != nil || len(warns) != 0 || len(talks) != 1 {
		t.Fatalf("%v %v %v", talks, warns, err)
	}
	tk := talks[0]
	if tk.Title != "Crème brûlée" || tk.Speakers[0].Name != "René" || tk.Conference.ID != "cafe-conf-2024" ||
		tk.Start.Format(time.RFC3339) != "2024-03-02T10:00:00+01:00" || tk.End.Format(time.RFC3339) != "2024-03-02T10:30:00+01:00" || tk.TimeZone != "Europe/Paris" {
		t.Errorf("%+v", tk)
	}
}

// TestDuplicateAndUntitledEvents: a repeated event id is one warning
// naming its lines and the later event stays a talk of its own; an exact
// repeat is dropped; an event without a title is a warning, never a talk.
func TestDuplicateAndUntitledEvents(t *testing.T) {
	data := []byte(`<schedule>
<conference><acronym>dup-2025</acronym><title>Dup 2025</title><time_zone_name>Europe/Brussels</time_zone_name></conference>
<day date="2025-02-01"><room name="A">
<event id="1"><start>10:00</start><duration>00:30</duration><title>First</title></event>
<event id="1"><start>11:00</start><duration>00:30</duration><title>Second</title></event>
<event id="1"><start>11:00</start><duration>00:30</duration><title>Second</title></event>
<event id="2"><start>12:00</start><duration>00:30</duration><title>  </title></event>
</room></day></schedule>`)
	talks, warns, err := ReadFile("dup.xml", data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`dup.xml:7: event "2" without a title: skipped`,
		`dup.xml:5: event id "1" of line 4 repeated at lines 5 and 6: 1 dropped (same title and start), 1 kept as a separate talk`,
	}
	var got []string
	for _, w := range warns {
		got = append(got, w.String())
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	if len(talks) != 2 || talks[0].Title != "First" || talks[1].Title != "Second" || talks[0].ID == talks[1].ID {
		t.Errorf("talks %+v", talks)
	}
}

// TestTimesWithoutZone: floating times are read in --time-zone, else as
// UTC with one warning per file.
func TestTimesWithoutZone(t *testing.T) {
	ics := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a@x\r\nDTSTART:20250201T100000\r\nDTEND:20250201T103000\r\nSUMMARY:Floating\r\nEND:VEVENT\r\n" +
		"BEGIN:VEVENT\r\nUID:b@x\r\nDTSTART:20250201T110000\r\nSUMMARY:Floating too\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	talks, warns, err := ReadFile("float.ics", []byte(ics), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 1 || !strings.Contains(warns[0].Msg, "names no time zone: times read as UTC; pass --time-zone") || warns[0].Line != 3 {
		t.Errorf("warnings %v", warns)
	}
	if len(talks) != 2 || talks[0].Start.Format(time.RFC3339) != "2025-02-01T10:00:00Z" || talks[0].TimeZone != "" {
		t.Errorf("talks %+v", talks)
	}
	talks, warns, _ = ReadFile("float.ics", []byte(ics), Options{TimeZone: brussels(t)})
	if len(warns) != 0 || talks[0].Start.Format(time.RFC3339) != "2025-02-01T10:00:00+01:00" || talks[0].TimeZone != "Europe/Brussels" ||
		talks[0].End.Sub(*talks[0].Start) != 30*time.Minute {
		t.Errorf("with --time-zone: %v %+v", warns, talks[0])
	}
}

// TestSchedOtherZones: a Sched page in another zone is read in the zone it
// states; a zone it does not define needs --time-zone.
func TestSchedOtherZones(t *testing.T) {
	block := "ZONEPAGE\n\n09:00 PDT\n\nKeynote: Opening - Ada Lovelace, Babbage & Co\nTuesday October 21, 2025 09:00 - 09:20 PDT\nMain Hall\nWelcome.\n" +
		"Tuesday October 21, 2025 09:00 - 09:20 PDT\nMain Hall\n  Keynote Sessions\n\n"
	page := strings.Replace(block, "ZONEPAGE", "This schedule is automatically displayed in PDT (UTC/GMT -7). To see the schedule in your preferred timezone", 1)
	s := ParseSchedIn("p.txt", []byte(page), Options{})
	if len(s.Talks) != 1 || len(s.Warnings) != 0 || s.Talks[0].Start.Format(time.RFC3339) != "2025-10-21T09:00:00-07:00" {
		t.Fatalf("stated PDT: %+v %v", s.Talks, s.Warnings)
	}
	odd := strings.ReplaceAll(strings.Replace(block, "ZONEPAGE", "", 1), "PDT", "HKT")
	s = ParseSchedIn("p.txt", []byte(odd), Options{})
	if len(s.Talks) != 1 || len(s.Warnings) != 1 || s.Warnings[0].Line != 6 || !strings.Contains(s.Warnings[0].Msg, `time zone "HKT" is not defined on the page`) {
		t.Fatalf("undefined HKT: %+v %v", s.Talks, s.Warnings)
	}
	hk, _ := time.LoadLocation("Asia/Hong_Kong")
	s = ParseSchedIn("p.txt", []byte(odd), Options{TimeZone: hk})
	if len(s.Warnings) != 0 || s.Talks[0].Start.Format(time.RFC3339) != "2025-10-21T09:00:00+08:00" || s.Talks[0].TimeZone != "Asia/Hong_Kong" {
		t.Fatalf("--time-zone Asia/Hong_Kong: %+v %v", s.Talks, s.Warnings)
	}
}

// TestLoadRefusals: files over MaxFileSize, symlinks out of the folder.
func TestLoadRefusals(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.xml")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// Sparse: 100 MB on the file system, nothing read.
	if err := f.Truncate(100 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	outside := filepath.Join(t.TempDir(), "elsewhere.json")
	jsonFix, _ := os.ReadFile(filepath.Join(formatsDir, "frab-camp.json"))
	if err := os.WriteFile(outside, jsonFix, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# our exports\n\nThese are the files of the conference, read by talksearch every night.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := LoadPaths([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range c.Report.Warnings {
		got = append(got, w.String())
	}
	want := []string{
		filepath.Join(dir, "link.json") + ":0: symbolic link to " + outside + ", outside its folder: refused",
		"big.xml:0: 104857600 bytes: over the 64 MiB limit of a seed file (--max-file-bytes), not read",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	if len(c.Talks) != 0 {
		t.Errorf("%d talks", len(c.Talks))
	}
	// The same file named on the command line is read: the user chose it.
	c, err = LoadPaths([]string{filepath.Join(dir, "link.json")}, Options{})
	if err != nil || len(c.Talks) != 3 {
		t.Errorf("link named directly: %v, %v", c, err)
	}
	if _, _, err := ReadFile("big", make([]byte, MaxFileSize+1), Options{}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadFile of %d bytes: %v, want ErrTooLarge", MaxFileSize+1, err)
	}
}

func TestKindOf(t *testing.T) {
	for in, want := range map[string]index.Kind{
		"": index.KindTalk, "maintrack": index.KindTalk, "devroom": index.KindTalk, "keynote": index.KindKeynote,
		"lightningtalk": index.KindLightning, "bof": index.KindBOF, "workshop": index.KindWorkshop, "junior": index.KindWorkshop,
		"lecture": index.KindTalk, "Talk (30 min)": index.KindTalk, "Hands-on Workshop": index.KindWorkshop,
		"Lightning Talk": index.KindLightning, "Panel discussion": index.KindPanel, "Poster": index.KindPoster,
		"certification": index.KindOther, "performance": index.KindOther, "Vortrag": index.KindOther,
		"Tutorial": index.KindWorkshop, "Birds of a Feather": index.KindBOF, "Sponsored talk": index.KindSponsor,
	} {
		if got := KindOf(in); got != want {
			t.Errorf("KindOf(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestHTMLAndMarkdownText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"<p>One &amp; <b>two</b>.</p>\n<p>Three<br/>four</p>", "One & two.\n\nThree\nfour"},
		{"<p>List:</p><ul><li>a</li><li>b <i>c</i></li></ul>", "List:\n\na\nb c"},
		{"<p><b>Py</b>Torch</p><script>x()</script>", "PyTorch"},
		{"plain first\nwrapped line\n\nsecond paragraph", "plain first wrapped line\n\nsecond paragraph"},
		{"a &lt;= b", "a <= b"},
	} {
		if got := htmlText(tt.in); got != tt.want {
			t.Errorf("htmlText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	md := "We **measured**\nhandshakes.\n\n- one\n- [two](http://x)\n\n```\ncode <x>\nline\n```"
	if got, want := cleanText(md), "We measured handshakes.\n\none\ntwo\n\ncode <x>\nline"; got != want {
		t.Errorf("markdownText = %q, want %q", got, want)
	}
}

// TestPretalxStates: rejected and withdrawn submissions are counted, not
// indexed; speakers without names and submissions without titles are
// warnings; the conference comes from the folder of a generic file name.
func TestPretalxStates(t *testing.T) {
	data := []byte(`{"count": 4, "next": null, "results": [
{"code": "A1", "title": "Kept", "state": "submitted", "speakers": ["SPK1"], "submission_type": 3},
{"code": "A2", "title": "No", "state": "rejected"},
{"code": "A3", "title": "Gone", "state": "withdrawn"},
{"code": "A4", "title": {"en": ""}, "state": "confirmed"}
]}`)
	talks, warns, err := ReadFile("pycon-de-2025/submissions.json", data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range warns {
		got = append(got, w.String())
	}
	want := []string{
		`pycon-de-2025/submissions.json:5: submission "A4" without a title: skipped`,
		`pycon-de-2025/submissions.json:3: submissions not indexed: 1 rejected, 1 withdrawn (the first here)`,
		`pycon-de-2025/submissions.json:2: 1 speakers given as codes only, without names (ask the API with ?expand=speakers)`,
		`pycon-de-2025/submissions.json:2: submission type given as ids only, which no object of this page names, in 1 submissions (the first here, submission "A1" ("Kept")): not read (ask the API with ?expand=submission_type)`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	if len(talks) != 1 || talks[0].Title != "Kept" || talks[0].Scheduled || talks[0].Kind != index.KindTalk ||
		talks[0].Conference.ID != "pycon-de-2025" || talks[0].Speakers != nil {
		t.Errorf("talks %+v", talks)
	}
}

// TestLargeJSONLinesStream: a JSON Lines file over MaxFileSize (the 100k
// benchmark corpus is 130 MB) is read a line at a time; any other large
// file is refused. Two talks of one file never merge, whatever the sources
// they were exported with.
func TestLargeJSONLinesStream(t *testing.T) {
	lines := `{"id":"syn1","title":"Same","start":"2026-04-01T10:00:00+02:00","kind":"talk","sources":["synthetic"]}
{"id":"syn2","title":"Same","start":"2026-04-01T10:00:00+02:00","kind":"talk","sources":["synthetic"]}
`
	open := func(s string) func() (io.ReadCloser, error) {
		return func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(s)), nil }
	}
	noRead := func(int64) ([]byte, error) { t.Fatal("a large file was read whole"); return nil, nil }
	c, err := load([]input{
		{name: "big.jsonl", size: MaxFileSize + 1, open: open(lines), read: noRead},
		{name: "big.xml", size: MaxFileSize + 1, open: open("<schedule/>"), read: noRead},
	}, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Talks) != 2 || c.Report.Merged != 0 || c.Report.PerFile[0].Kind != "jsonl" || c.Report.PerFile[1].Kind != FileSkipped {
		t.Errorf("%d talks, %d merged, per file %+v", len(c.Talks), c.Report.Merged, c.Report.PerFile)
	}
	if len(c.Report.Warnings) != 1 || c.Report.Warnings[0].File != "big.xml" {
		t.Errorf("warnings %v, want big.xml refused", c.Report.Warnings)
	}
}

// TestMergedAcrossFormatsIDs: a session read from a schedule and from its
// iCalendar export takes its id and conference name from the schedule,
// whatever the files are called.
func TestMergedAcrossFormatsIDs(t *testing.T) {
	xml := `<schedule><conference><acronym>devconf-2024</acronym><title>DevConf 2024</title><time_zone_name>Europe/Prague</time_zone_name></conference>
<day date="2024-06-13"><room name="A"><event id="42"><date>2024-06-13T10:00:00+02:00</date><duration>00:30</duration><room>A</room><title>Kernel news</title><type>talk</type></event>
<event id="43"><date>2024-06-13T11:00:00+02:00</date><duration>00:30</duration><room>A</room><title>Only in XML</title></event></room></day></schedule>`
	ics := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nX-WR-TIMEZONE:Europe/Prague\r\nBEGIN:VEVENT\r\nUID:42@devconf\r\nDTSTART:20240613T100000\r\nDTEND:20240613T103000\r\n" +
		"SUMMARY:Kernel News\r\nURL:https://example.org/42\r\nATTENDEE;CN=\"Jan Novak\":invalid:nomail\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	for _, names := range [][2]string{{"a.xml", "devconf-2024.ics"}, {"z.xml", "devconf-2024.ics"}} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, names[0]), []byte(xml), 0o644)
		os.WriteFile(filepath.Join(dir, names[1]), []byte(ics), 0o644)
		c, err := LoadPaths([]string{dir}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Talks) != 2 || c.Report.Merged != 1 {
			t.Fatalf("%v: %d talks, %d merged", names, len(c.Talks), c.Report.Merged)
		}
		k := c.Talks[0]
		want := index.Conference{ID: "devconf-2024", Name: "DevConf 2024"}
		if k.Title != "Kernel news" || k.SourceID != "42" || k.Conference != want || c.Talks[1].Conference != want ||
			k.URL != "https://example.org/42" || len(k.Speakers) != 1 || len(k.Sources) != 2 {
			t.Errorf("%v: merged talk %+v", names, k)
		}
		if k.ID != "kernel-news-"+k.ID[len(k.ID)-6:] || k.ID != structuredID(&index.Talk{Title: "Kernel news", SourceID: "42", Conference: want}) {
			t.Errorf("%v: id %s, want the XML event's", names, k.ID)
		}
	}
}

// TestByteOrderMark: a UTF-8 BOM before any format is read past.
func TestByteOrderMark(t *testing.T) {
	for _, d := range []string{
		"\xef\xbb\xbf<?xml version=\"1.0\"?><schedule><day date=\"2025-01-01\"><room><event id=\"1\"><title>T</title></event></room></day></schedule>",
		"\xef\xbb\xbf{\"schedule\":{\"conference\":{\"days\":[{\"rooms\":{\"A\":[{\"id\":1,\"title\":\"T\"}]}}]}}}",
		"\xef\xbb\xbf{\"results\":[{\"code\":\"A\",\"title\":\"T\"}]}",
		"\xef\xbb\xbf{\"title\":\"T\"}\n",
		"\xef\xbb\xbfBEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:1\r\nSUMMARY:T\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
	} {
		talks, warns, err := ReadFile("f", []byte(d), Options{})
		if err != nil || len(warns) != 0 || len(talks) != 1 || talks[0].Title != "T" {
			t.Errorf("%q: %v %v %v", d[3:20], talks, warns, err)
		}
	}
}

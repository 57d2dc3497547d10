package web

import (
	"bytes"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/search"
)

// frabSchema is the frab schedule schema conference apps' files follow.
var frabSchema = filepath.Join("..", "..", "shared", "schemas", "frab-schedule.xml.xsd")

// needOrSkip skips a test that needs something absent here, and fails it
// under CI=true, where everything must be present.
func needOrSkip(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}

// validateFrab checks body against the frab schema with xmllint.
func validateFrab(t testing.TB, body []byte) {
	t.Helper()
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		needOrSkip(t, "xmllint absent (apt-get install libxml2-utils): schedule.xml is not validated")
	}
	if _, err := os.Stat(frabSchema); err != nil {
		needOrSkip(t, "frab schema %s absent: schedule.xml is not validated", frabSchema)
	}
	file := filepath.Join(t.TempDir(), "schedule.xml")
	if err := os.WriteFile(file, body, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(xmllint, "--noout", "--schema", frabSchema, file).CombinedOutput()
	if err != nil {
		t.Fatalf("xmllint: %v\n%s", err, out)
	}
}

// decodeFrab reads a schedule back with encoding/xml.
func decodeFrab(t testing.TB, body []byte) frabSchedule {
	t.Helper()
	var s frabSchedule
	if err := xml.Unmarshal(body, &s); err != nil {
		t.Fatalf("decode schedule.xml: %v", err)
	}
	return s
}

func frabEvents(s frabSchedule) []frabEvent {
	var out []frabEvent
	for _, d := range s.Days {
		for _, r := range d.Rooms {
			out = append(out, r.Events...)
		}
	}
	return out
}

var guidForm = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// checkEvents checks what the schema cannot: ids and GUIDs unique, each
// the talk's own, and every event under the day and room it names.
func checkEvents(t testing.TB, s frabSchedule) []frabEvent {
	t.Helper()
	ids, guids := map[uint32]bool{}, map[string]bool{}
	for _, d := range s.Days {
		for _, r := range d.Rooms {
			for _, e := range r.Events {
				if ids[e.ID] || guids[e.GUID] {
					t.Errorf("event %s: id %d or guid %s repeated", e.Slug, e.ID, e.GUID)
				}
				ids[e.ID], guids[e.GUID] = true, true
				if e.GUID != frabGUID(e.Slug) || !guidForm.MatchString(e.GUID) {
					t.Errorf("event %s: guid %s", e.Slug, e.GUID)
				}
				if e.Room != r.Name || !strings.HasPrefix(e.Date, d.Date+"T") || e.Date[11:16] != e.Start {
					t.Errorf("event %s: room %q date %s start %s under day %s room %q", e.Slug, e.Room, e.Date, e.Start, d.Date, r.Name)
				}
			}
		}
	}
	return frabEvents(s)
}

func getFrab(t testing.TB, h http.Handler, conf string) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/c/"+conf+"/schedule.xml", nil))
	return w
}

func TestScheduleXMLSeeds(t *testing.T) {
	h, e := newRealHandler(t)
	w := getFrab(t, h, "pytorch-conference-europe-2026")
	if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "application/xml; charset=utf-8" {
		t.Fatalf("status %d, type %q: %s", w.Code, w.Header().Get("Content-Type"), w.Body)
	}
	validateFrab(t, w.Body.Bytes())
	s := decodeFrab(t, w.Body.Bytes())
	events := checkEvents(t, s)
	// 73 seed talks, 11 of them known only from abstract dumps.
	if len(events) != 62 {
		t.Errorf("%d events, want 62", len(events))
	}
	if s.Conference.Title != "PyTorch Conference Europe 2026" || s.Conference.Acronym != "pytorch-conference-europe-2026" ||
		s.Conference.Days != len(s.Days) || s.Conference.Start != s.Days[0].Date || s.Conference.End != s.Days[len(s.Days)-1].Date {
		t.Errorf("conference %+v, %d days", s.Conference, len(s.Days))
	}
	m := talkByTitle(t, e, monarchAPI)
	var got *frabEvent
	for i := range events {
		if events[i].Slug == m.ID {
			got = &events[i]
		}
	}
	if got == nil {
		t.Fatalf("no event for %s", m.ID)
	}
	want := m.Start.Format(time.RFC3339)
	if got.Title != m.Title || got.Date != want || got.ID != frabID(m.ID) || got.Room != m.Room || got.Type != string(m.Kind) ||
		got.Duration != frabDuration(m.End.Sub(*m.Start)) || len(got.Persons) != len(m.Speakers) {
		t.Errorf("event %+v for talk %+v", got, m)
	}

	// HEAD answers too (net/http drops the body).
	hw := httptest.NewRecorder()
	h.ServeHTTP(hw, httptest.NewRequest(http.MethodHead, "/c/pytorch-conference-europe-2026/schedule.xml", nil))
	if hw.Code != http.StatusOK || hw.Header().Get("Content-Type") != "application/xml; charset=utf-8" {
		t.Errorf("HEAD: status %d, type %q", hw.Code, hw.Header().Get("Content-Type"))
	}
}

// frabHandler serves two conferences written for these tests: Haven Conf
// 2025 in Brussels (two days, three talks on the schedule and one not) and
// Fjell Summit 2026 in Oslo (one day, two talks, the break without a room).
func frabHandler(t *testing.T) http.Handler {
	t.Helper()
	return talksHandler(t, testdataTalks(t, "frab", 6))
}

func TestScheduleXMLTwoConferences(t *testing.T) {
	h := frabHandler(t)

	w := getFrab(t, h, "haven-2025")
	if w.Code != http.StatusOK {
		t.Fatalf("haven: status %d: %s", w.Code, w.Body)
	}
	validateFrab(t, w.Body.Bytes())
	haven := decodeFrab(t, w.Body.Bytes())
	events := checkEvents(t, haven)
	var slugs []string
	for _, e := range events {
		slugs = append(slugs, e.Slug)
	}
	if want := []string{"haven-opening", "haven-cranes", "haven-tides"}; !slices.Equal(slugs, want) {
		t.Errorf("haven events %v, want %v", slugs, want)
	}
	if c := haven.Conference; c.Title != "Haven Conf 2025" || c.Acronym != "haven-2025" || c.Start != "2025-02-01" || c.End != "2025-02-02" || c.Days != 2 {
		t.Errorf("haven conference %+v", c)
	}
	if len(haven.Days) != 2 || haven.Days[0].Index != 1 || haven.Days[0].Date != "2025-02-01" || haven.Days[1].Index != 2 ||
		haven.Days[0].Start != "2025-02-01T10:00:00+01:00" || haven.Days[0].End != "2025-02-01T12:30:00+01:00" {
		t.Fatalf("haven days %+v", haven.Days)
	}
	// Rooms keep the conference's order: Aula first on both days.
	if r := haven.Days[0].Rooms; len(r) != 2 || r[0].Name != "Aula" || r[1].Name != "Zaal 2" {
		t.Errorf("day 1 rooms %+v", r)
	}
	cranes := events[1]
	want := frabEvent{
		ID: frabID("haven-cranes"), GUID: frabGUID("haven-cranes"),
		Date: "2025-02-01T11:00:00+01:00", Start: "11:00", Duration: "01:30", Room: "Zaal 2",
		Slug: "haven-cranes", Title: "Crane scheduling with constraint solvers", Track: "Logistics", Type: "talk",
		Abstract: "A solver decides which crane waits.", Description: "The longer story of the solver.",
		Persons: []frabPerson{{Name: "Lotte Maes"}, {Name: "Jef Claes"}},
		Links:   []frabLink{{Href: "http://example.com/talks/haven-cranes", Text: "talksearch"}},
	}
	if !equalEvent(cranes, want) {
		t.Errorf("cranes event\n got %+v\nwant %+v", cranes, want)
	}
	opening := events[0]
	if opening.Type != "keynote" || opening.Language != "en" || len(opening.Persons) != 1 || opening.Persons[0].ID != "7" ||
		len(opening.Links) != 2 || opening.Links[0].Href != "https://haven.example/talks/101" {
		t.Errorf("opening event %+v", opening)
	}

	w = getFrab(t, h, "fjell-2026")
	if w.Code != http.StatusOK {
		t.Fatalf("fjell: status %d: %s", w.Code, w.Body)
	}
	validateFrab(t, w.Body.Bytes())
	fjell := decodeFrab(t, w.Body.Bytes())
	events = checkEvents(t, fjell)
	if len(events) != 2 || events[0].Slug != "fjell-glaciers" || events[1].Slug != "fjell-coffee" ||
		events[0].Date != "2026-06-10T09:00:00+02:00" || events[1].Room != "" || events[1].Type != "break" || len(events[1].Persons) != 0 {
		t.Errorf("fjell events %+v", events)
	}
	if c := fjell.Conference; c.Title != "Fjell Summit 2026" || c.Days != 1 || c.Start != "2026-06-10" {
		t.Errorf("fjell conference %+v", c)
	}

	// The ids are the talks' own, so a second file is the same file.
	if again := getFrab(t, h, "fjell-2026"); !bytes.Equal(again.Body.Bytes(), w.Body.Bytes()) {
		t.Error("a second fetch differs")
	}

	// An unknown conference is a 404 page, like any unknown page.
	w = getFrab(t, h, "nowhere-2025")
	if w.Code != http.StatusNotFound || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") ||
		!strings.Contains(w.Body.String(), "no conference has the id") {
		t.Errorf("unknown conference: status %d, type %q", w.Code, w.Header().Get("Content-Type"))
	}
}

func equalEvent(a, b frabEvent) bool {
	return a.ID == b.ID && a.GUID == b.GUID && a.Date == b.Date && a.Start == b.Start && a.Duration == b.Duration &&
		a.Room == b.Room && a.Slug == b.Slug && a.Title == b.Title && a.Subtitle == b.Subtitle && a.Track == b.Track &&
		a.Type == b.Type && a.Language == b.Language && a.Abstract == b.Abstract && a.Description == b.Description &&
		slices.Equal(a.Persons, b.Persons) && slices.Equal(a.Links, b.Links)
}

func TestScheduleXMLFOSDEM2025(t *testing.T) {
	file := filepath.Join("..", "..", "shared", "datasets", "fosdem", "fosdem-2025.xml")
	if _, err := os.Stat(file); err != nil {
		needOrSkip(t, "FOSDEM 2025 schedule %s absent: its schedule.xml is not tested", file)
	}
	loc, err := time.LoadLocation("Europe/Brussels")
	if err != nil {
		t.Fatal(err)
	}
	c, err := ingest.LoadPaths([]string{file}, ingest.Options{TimeZone: loc})
	if err != nil {
		t.Fatal(err)
	}
	unscheduled := 0
	for _, tk := range c.Talks {
		if tk.Start == nil {
			unscheduled++
		}
	}
	// The file has 1,105 events, every one with a slot.
	if len(c.Talks) != 1105 || unscheduled != 0 {
		t.Fatalf("%d talks, %d unscheduled; want 1105 and 0", len(c.Talks), unscheduled)
	}
	e, err := search.New(c.Talks)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHandler(served(e), zerolog.Nop(), Options{ClientBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	w := getFrab(t, h, "fosdem-2025")
	if w.Code != http.StatusOK {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	validateFrab(t, w.Body.Bytes())
	s := decodeFrab(t, w.Body.Bytes())
	if n := len(checkEvents(t, s)); n != 1105-unscheduled {
		t.Errorf("%d events, want %d", n, 1105-unscheduled)
	}
	if s.Conference.Start != "2025-02-01" || s.Conference.End != "2025-02-02" || len(s.Days) != 2 {
		t.Errorf("conference %+v, %d days", s.Conference, len(s.Days))
	}
}

// hostileTalk is a talk on the schedule with the given title and abstract.
func hostileTalk(title, abstract string) *index.Talk {
	start := time.Date(2025, 2, 1, 10, 0, 0, 0, time.FixedZone("", 3600))
	end := start.Add(25 * time.Minute)
	return &index.Talk{
		ID: "hostile-1", Conference: index.Conference{ID: "c-2025", Name: title},
		Title: title, Abstract: abstract, Room: title, Track: title,
		Speakers: []index.Speaker{{Name: title}}, URL: "https://example.org/" + title,
		Start: &start, End: &end, Kind: index.KindTalk, Scheduled: true,
	}
}

func writeOne(t testing.TB, tk *index.Talk) []byte {
	t.Helper()
	b, err := writeFrab(tk.Conference, []*index.Talk{tk}, func(_ *index.Talk, tm time.Time) time.Time { return tm }, "http://example.com")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestScheduleXMLHostileText(t *testing.T) {
	title := "a\x00b\x1b[31m ]]> <script>alert(1)</script> &amp; \x7f\u0085\uffff\xff\r\nc"
	b := writeOne(t, hostileTalk(title, "</abstract><event id=\"2\">"))
	if bytes.Contains(b, []byte("<script>")) || bytes.Contains(b, []byte("]]>")) || bytes.Contains(b, []byte("<event id=\"2\"")) {
		t.Errorf("data reached the file as markup:\n%s", b)
	}
	s := decodeFrab(t, b)
	ev := frabEvents(s)
	if len(ev) != 1 {
		t.Fatalf("%d events, want 1", len(ev))
	}
	want := "ab[31m ]]> <script>alert(1)</script> &amp; \nc"
	if ev[0].Title != want || ev[0].Room != want || ev[0].Persons[0].Name != want || s.Conference.Title != want {
		t.Errorf("title %q, room %q, want %q", ev[0].Title, ev[0].Room, want)
	}
	if ev[0].Abstract != "</abstract><event id=\"2\">" {
		t.Errorf("abstract %q", ev[0].Abstract)
	}
	// A URL with control characters or spaces is no link.
	if len(ev[0].Links) != 1 || ev[0].Links[0].Text != "talksearch" {
		t.Errorf("links %+v", ev[0].Links)
	}
	validateFrab(t, b)
}

func TestFrabIDsUnique(t *testing.T) {
	// Hash collisions are resolved in id order: the later id takes the
	// next free number, so a file never repeats an id.
	a, b := &index.Talk{ID: "a"}, &index.Talk{ID: "b"}
	ids := frabIDs([]*index.Talk{b, a})
	if ids["a"] != frabID("a") || ids["b"] != frabID("b") || ids["a"] == ids["b"] || ids["a"] == 0 {
		t.Errorf("ids %v", ids)
	}
	if got := frabDuration(150 * time.Hour); got != "99:59" {
		t.Errorf("long duration %s", got)
	}
	if got := frabDuration(-time.Hour); got != "00:00" {
		t.Errorf("negative duration %s", got)
	}
}

func FuzzScheduleXML(f *testing.F) {
	f.Add("Opening", "Welcome.")
	f.Add("a\x00b\x1b]]><script>", "\r\n\uffff\xff")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, title, abstract string) {
		b := writeOne(t, hostileTalk(title, abstract))
		s := decodeFrab(t, b)
		ev := frabEvents(s)
		if len(ev) != 1 {
			t.Fatalf("%d events, want 1", len(ev))
		}
		if ev[0].Title != xmlText(title) || ev[0].Abstract != xmlText(abstract) {
			t.Errorf("title %q abstract %q, want %q and %q", ev[0].Title, ev[0].Abstract, xmlText(title), xmlText(abstract))
		}
	})
}

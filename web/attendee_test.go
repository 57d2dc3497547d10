package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-ical"
	"github.com/google/go-cmp/cmp"
	"github.com/rs/zerolog"

	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/search"
)

// fixedNow is the clock of the attendee tests: 10:42 CEST on the fake
// talks' day, while the Monarch talk (10:35–10:45, Master Stage) and the
// Torchstore workshop (10:40–11:05, Room 2) both run.
var fixedNow = time.Date(2026, 4, 8, 8, 42, 0, 0, time.UTC)

func newAttendeeHandler(t *testing.T) (http.Handler, *fakeSearcher) {
	t.Helper()
	f := &fakeSearcher{}
	// The fake's times are in UTC, naming no zone: --time-zone gives one.
	h, err := NewHandler(f, zerolog.Nop(), Options{Location: paris, Now: func() time.Time { return fixedNow }})
	if err != nil {
		t.Fatal(err)
	}
	return h, f
}

func TestAttendeeStatuses(t *testing.T) {
	h, _ := newAttendeeHandler(t)
	var many []string
	for i := range 201 {
		many = append(many, fmt.Sprintf("talk-%d", i))
	}
	ids201 := strings.Join(many, ",")
	const (
		html = "text/html; charset=utf-8"
		js   = "application/json; charset=utf-8"
		cal  = "text/calendar; charset=utf-8"
	)
	tests := []struct {
		name, target string
		status       int
		contentType  string
		has, hasNot  []string
	}{
		{"now page, server clock", "/now", 200, html, []string{`<h2 id="now-h">On now <span class="at-time">Wed 8 Apr, 10:42</span></h2>`, `href="/talks/torchstore-3c4d"`, `value="2026-04-08T10:42"`}, nil},
		{"now page at a time", "/now?at=2026-04-08T10:30:00%2B02:00", 200, html, []string{"Nothing is on at this time.", `<h2 id="next-h">Next, room by room</h2>`, `href="/talks/monarch-on-rocm-1a2b"`}, nil},
		{"now page from the form", "/now?at=2026-04-08T12:00", 200, html, []string{"Wed 8 Apr, 12:00", "Nothing more is scheduled."}, nil},
		{"now page bad at", "/now?at=tomorrow", 400, html, []string{htmlText(`at must be an RFC 3339 time such as 2026-04-08T14:00:00+02:00, not "tomorrow"`)}, nil},
		{"api now bad at", "/api/now?at=2026-04-08", 400, js, []string{`{"error":"invalid request: at must be an RFC 3339 time such as 2026-04-08T14:00:00+02:00, not \"2026-04-08\""}`}, nil},
		{"schedule", "/schedule", 200, html, []string{`<h1>Schedule · Wednesday 8 April</h1>`, `<th scope="col" dir="auto">Master Stage</th><th scope="col" dir="auto">Room 2</th>`, `id="now-row"`, `<td rowspan="2" class="cell running">`, `<span class="on-now">on now</span>`, `<a href="#now-row">Now: 10:42</a>`}, []string{"Float8 training"}},
		{"schedule of a day without talks", "/schedule?day=2026-04-09", 200, html, []string{"No sessions are scheduled on this day."}, nil},
		{"schedule bad day", "/schedule?day=2026-13-01", 400, html, []string{"day must be a date YYYY-MM-DD, not &#34;2026-13-01&#34;"}, nil},
		{"schedule bad at", "/schedule?at=noon", 400, html, []string{"at must be an RFC 3339 time"}, nil},
		{"empty agenda", "/agenda", 200, html, []string{"Your agenda is empty."}, []string{"More like my agenda"}},
		{"agenda", "/agenda?ids=torchstore-3c4d,nope,monarch-on-rocm-1a2b,abstract-only-5e6f,nope", 200, html, []string{
			`1 talk is not in the programme and was left out: <code dir="auto">nope</code>`,
			`<h2 id="overlap-h">Overlapping talks</h2>`,
			`<a href="/talks/monarch-on-rocm-1a2b" dir="auto">Monarch on ROCm: &lt;1ms &amp; beyond</a> and <a href="/talks/torchstore-3c4d" dir="auto">Torchstore on Monarch actors</a> both run Wed 8 Apr, 10:40–10:45.`,
			`<h2>Wednesday 8 April</h2>`, `<h2>Not on the schedule</h2>`,
			`<a href="/agenda.ics?ids=monarch-on-rocm-1a2b,torchstore-3c4d,abstract-only-5e6f" download>`,
			`data-ids="monarch-on-rocm-1a2b,torchstore-3c4d,abstract-only-5e6f"`,
			`<h2 id="more-h">More like my agenda</h2>`, `No related talks.`,
		}, nil},
		{"agenda of too many", "/agenda?ids=" + ids201, 400, html, []string{"ids: 201 talks, an agenda holds at most 200"}, nil},
		{"agenda id too long", "/agenda?ids=" + strings.Repeat("a", 201), 400, html, []string{"ids: a talk id must be 1 to 200 bytes"}, nil},
		{"api agenda of too many", "/api/agenda?ids=" + ids201, 400, js, []string{`{"error":"invalid request: ids: 201 talks, an agenda holds at most 200"}`}, nil},
		{"agenda calendar of too many", "/agenda.ics?ids=" + ids201, 400, html, []string{"ids: 201 talks"}, nil},
		{"talk calendar", "/talks/monarch-on-rocm-1a2b.ics", 200, cal, []string{"BEGIN:VCALENDAR", "UID:monarch-on-rocm-1a2b@talksearch", "DTSTART:20260408T083500Z"}, nil},
		{"unscheduled talk has no calendar", "/talks/abstract-only-5e6f.ics", 404, html, []string{"is not on the schedule, so it has no calendar entry"}, nil},
		{"unknown talk calendar", "/talks/nope.ics", 404, html, []string{"no talk has the id &#34;nope&#34;"}, nil},
		{"search calendar bad sort", "/search.ics?sort=bogus", 400, html, []string{"sort must be"}, nil},
		{"search calendar bad time", "/search.ics?after=2pm", 400, html, []string{"after must be a time of day HH:MM (24-hour), not &#34;2pm&#34;"}, nil},
		{"speaker", "/speakers/ada-lovelace", 200, html, []string{`<h1 dir="auto">Ada Lovelace</h1>`, `<p class="aff-list"><bdi>AMD</bdi>, <bdi>Meta</bdi></p>`, `<h2 id="talks-h">Talks (2)</h2>`, `href="/talks/torchstore-3c4d"`, `href="/talks/monarch-on-rocm-1a2b"`}, nil},
		{"unknown speaker", "/speakers/nobody-at-all", 404, html, []string{"no speaker is called &#34;nobody-at-all&#34;"}, nil},
		{"speaker slug too long", "/speakers/" + strings.Repeat("a", 201), 400, html, []string{"speaker must be 1 to 200 bytes"}, nil},
		{"speaker of a name without ASCII letters", "/speakers/" + speakerSlug("李明"), 404, html, []string{"no speaker is called &#34;speaker-"}, nil},
		{"talk page links speakers, no provenance", "/talks/monarch-on-rocm-1a2b", 200, html, []string{
			`<a class="speaker" href="/speakers/ada-lovelace" dir="auto">Ada Lovelace</a>`, `<a class="speaker" href="/speakers/alan-turing" dir="auto">Alan Turing</a>`,
			`<meta property="og:title" content="Monarch on ROCm: &lt;1ms &amp; beyond">`,
			`<meta property="og:description" content="Ada Lovelace, Alan Turing · PyTorch Monarch runs on AMD.">`,
			`<a href="/talks/monarch-on-rocm-1a2b.ics" download>`,
			`data-star="monarch-on-rocm-1a2b"`,
		}, []string{"000_a.txt", "Found in"}},
		{"talk page links the source", "/talks/torchstore-3c4d", 200, html, []string{`<a href="https://example.org/torchstore" rel="external">At the source</a>`}, nil},
		{"api talk keeps provenance", "/api/talks/monarch-on-rocm-1a2b", 200, js, []string{`"sources":["000_a.txt","003_b.txt"]`}, nil},
		{"organizers keep provenance", "/overlaps", 200, html, []string{"<code dir=\"auto\">001_c.txt</code>"}, nil},
		{"search page links its calendar", "/?q=monarch&kind=talk&scheduled=true&after=14:00", 200, html, []string{
			`href="/search.ics?q=monarch&amp;kind=talk&amp;scheduled=true&amp;after=14%3A00" download`,
			`<input type="checkbox" name="scheduled" value="true" checked>`, `<input id="after" name="after" type="time" value="14:00">`,
			`aria-label="Remove filter Only: on the schedule"`, `aria-label="Remove filter Starts after: 14:00"`, `aria-label="Remove filter Session type: Talk"`,
		}, nil},
		{"bad scheduled", "/api/search?scheduled=maybe", 400, js, []string{`{"error":"invalid request: scheduled must be true or false, not \"maybe\""}`}, nil},
		{"bad after", "/api/search?after=25:00", 400, js, []string{`after must be a time of day HH:MM (24-hour), not \"25:00\"`}, nil},
		{"bad before", "/?before=9:00", 400, html, []string{`before must be a time of day HH:MM (24-hour), not &#34;9:00&#34;`}, nil},
		{"nav on every page", "/", 200, html, []string{`<li><a href="/now">Now</a></li>`, `<li><a href="/schedule">Schedule</a></li>`, `<li><a href="/agenda" id="agenda-link">Agenda</a></li>`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := get(t, h, "http://example.com"+tt.target)
			if rec.Code != tt.status {
				t.Errorf("status = %d, want %d; body:\n%.800s", rec.Code, tt.status, rec.Body.String())
			}
			if got := rec.Header().Get("Content-Type"); got != tt.contentType {
				t.Errorf("Content-Type = %q, want %q", got, tt.contentType)
			}
			checkBody(t, rec.Body.String(), tt.has, tt.hasNot)
		})
	}
}

func TestAPINow(t *testing.T) {
	h, _ := newAttendeeHandler(t)
	tests := []struct {
		target    string
		at        string
		now, next []string
	}{
		{"/api/now", "2026-04-08T10:42:00+02:00", []string{"monarch-on-rocm-1a2b", "torchstore-3c4d"}, []string{}},
		{"/api/now?at=2026-04-08T10:30:00%2B02:00", "2026-04-08T10:30:00+02:00", []string{}, []string{"monarch-on-rocm-1a2b", "torchstore-3c4d"}},
		// An unescaped "+" arrives as a space.
		{"/api/now?at=2026-04-08T10:36:00+02:00", "2026-04-08T10:36:00+02:00", []string{"monarch-on-rocm-1a2b"}, []string{"torchstore-3c4d"}},
		{"/api/now?at=2026-04-08T08:45:00Z", "2026-04-08T10:45:00+02:00", []string{"torchstore-3c4d"}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			rec := get(t, h, tt.target)
			if rec.Code != 200 {
				t.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
			var got struct {
				At   string `json:"at"`
				Now  []struct{ ID, Path, Start string }
				Next []struct{ ID string }
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			now, next := []string{}, []string{}
			for _, x := range got.Now {
				now = append(now, x.ID)
				if x.Path != "/talks/"+x.ID {
					t.Errorf("path %q", x.Path)
				}
			}
			for _, x := range got.Next {
				next = append(next, x.ID)
			}
			if got.At != tt.at || !cmp.Equal(now, tt.now) || !cmp.Equal(next, tt.next) {
				t.Errorf("at %s now %v next %v; want at %s now %v next %v", got.At, now, next, tt.at, tt.now, tt.next)
			}
		})
	}
}

func TestAPIAgenda(t *testing.T) {
	h, _ := newAttendeeHandler(t)
	rec := get(t, h, "/api/agenda?ids=torchstore-3c4d,nope&ids=monarch-on-rocm-1a2b")
	if rec.Code != 200 {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	var got struct {
		Talks []struct {
			ID    string `json:"id"`
			Start string `json:"start"`
		} `json:"talks"`
		Unknown  []string    `json:"unknown"`
		Overlaps [][2]string `json:"overlaps"`
		Related  []struct {
			ID string `json:"id"`
		} `json:"related"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	// In schedule order, times as the data gives them.
	want := []struct{ ID, Start string }{{"monarch-on-rocm-1a2b", "2026-04-08T08:35:00Z"}, {"torchstore-3c4d", "2026-04-08T08:40:00Z"}}
	if len(got.Talks) != 2 || got.Talks[0].ID != want[0].ID || got.Talks[0].Start != want[0].Start || got.Talks[1].ID != want[1].ID {
		t.Errorf("talks %+v, want %+v", got.Talks, want)
	}
	if !cmp.Equal(got.Unknown, []string{"nope"}) {
		t.Errorf("unknown %v", got.Unknown)
	}
	if !cmp.Equal(got.Overlaps, [][2]string{{"monarch-on-rocm-1a2b", "torchstore-3c4d"}}) {
		t.Errorf("overlaps %v", got.Overlaps)
	}
	if len(got.Related) != 1 || got.Related[0].ID != "abstract-only-5e6f" {
		t.Errorf("related %+v, want the unscheduled talk only (the other is in the agenda)", got.Related)
	}
	// Related talks are listed as /api/talks/ID lists them: the API's
	// names, not Go's (encoding/json would read "ID" as "id" above).
	if body := rec.Body.String(); !strings.Contains(body, `"related":[{"id":"abstract-only-5e6f","title":`) || !strings.Contains(body, `"shared_terms":[`) || strings.Contains(body, `"SharedTerms"`) {
		t.Errorf("related talks not in the API's names: %s", body)
	}
	rec = get(t, h, "/api/agenda")
	if body := rec.Body.String(); rec.Code != 200 || body != `{"talks":[],"unknown":[],"overlaps":[],"related":[]}` {
		t.Errorf("empty agenda: %d %s", rec.Code, body)
	}
}

// parseCalendar reads a calendar file with a second library (go-ical), as
// a calendar program would.
func parseCalendar(t *testing.T, body string) []ical.Event {
	t.Helper()
	cal, err := ical.NewDecoder(strings.NewReader(body)).Decode()
	if err != nil {
		t.Fatalf("not a calendar: %v\n%s", err, body)
	}
	if v, _ := cal.Props.Text(ical.PropVersion); v != "2.0" {
		t.Errorf("VERSION %q", v)
	}
	return cal.Events()
}

func TestAgendaCalendar(t *testing.T) {
	h, _ := newAttendeeHandler(t)
	rec := get(t, h, "http://talks.example.org/agenda.ics?ids=torchstore-3c4d,abstract-only-5e6f,nope,monarch-on-rocm-1a2b")
	if rec.Code != 200 || rec.Header().Get("Content-Type") != typeCalendar {
		t.Fatalf("status %d, %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	if !strings.Contains(rec.Body.String(), "\r\n") {
		t.Error("lines not ended by CRLF")
	}
	events := parseCalendar(t, rec.Body.String())
	cest := time.FixedZone("CEST", 2*60*60)
	type ev struct{ UID, Summary, Start, End, Location, URL, Stamp string }
	var got []ev
	for _, e := range events {
		var x ev
		x.UID, _ = e.Props.Text(ical.PropUID)
		x.Summary, _ = e.Props.Text(ical.PropSummary)
		x.Location, _ = e.Props.Text(ical.PropLocation)
		if u, err := e.Props.URI(ical.PropURL); err == nil {
			x.URL = u.String()
		}
		st, err := e.DateTimeStart(time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		en, err := e.DateTimeEnd(time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		x.Start, x.End = st.In(cest).Format("2006-01-02 15:04"), en.In(cest).Format("15:04")
		if stamp, err := e.Props.DateTime(ical.PropDateTimeStamp, time.UTC); err == nil {
			x.Stamp = stamp.Format(time.RFC3339)
		}
		desc, _ := e.Props.Text(ical.PropDescription)
		if x.UID == "monarch-on-rocm-1a2b@talksearch" && !strings.HasPrefix(desc, "Ada Lovelace (AMD), Alan Turing\n\nPyTorch Monarch runs on AMD.") {
			t.Errorf("description %q", desc)
		}
		got = append(got, x)
	}
	want := []ev{
		{"monarch-on-rocm-1a2b@talksearch", "Monarch on ROCm: <1ms & beyond", "2026-04-08 10:35", "10:45",
			"Master Stage, PyTorch Conference Europe 2026", "http://talks.example.org/talks/monarch-on-rocm-1a2b", "2026-04-08T08:42:00Z"},
		{"torchstore-3c4d@talksearch", "Torchstore on Monarch actors", "2026-04-08 10:40", "11:05",
			"Room 2, PyTorch Conference Europe 2026", "https://example.org/torchstore", "2026-04-08T08:42:00Z"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

func TestSearchCalendar(t *testing.T) {
	h, f := newAttendeeHandler(t)
	rec := get(t, h, "/search.ics?q=monarch&kind=talk&page=3")
	if rec.Code != 200 {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	// Every result, not one page: the fake's 45 hits come 100 at a time
	// (it repeats its two talks; the calendar has each once).
	events := parseCalendar(t, rec.Body.String())
	if len(events) != 1 {
		t.Errorf("%d events, want 1 (the other hit is not on the schedule)", len(events))
	}
	last := f.lastRequest()
	if last.Query != "monarch" || last.Limit != search.MaxLimit || !cmp.Equal(last.Kinds, []string{"talk"}) {
		t.Errorf("last request %+v", last)
	}
}

func TestAttendeeParamsReachTheEngine(t *testing.T) {
	h, f := newAttendeeHandler(t)
	rec := get(t, h, "/api/search?day=2026-04-08&day=2026-04-09&kind=keynote&conference=a&conference=b&language=fr&scheduled=true&after=14:00&before=18:30")
	if rec.Code != 200 {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	want := search.Request{Days: []string{"2026-04-08", "2026-04-09"}, Kinds: []string{"keynote"}, Conferences: []string{"a", "b"},
		Languages: []string{"fr"}, Scheduled: true, After: "14:00", Before: "18:30"}
	if diff := cmp.Diff(want, f.lastRequest()); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}
	// The permalink keeps them, in a fixed order; a checkbox's "on" is true.
	req, _, err := (&server{opts: Options{}.withDefaults()}).parseSearch(map[string][]string{
		"q": {"kv"}, "after": {"14:00"}, "scheduled": {"on"}, "kind": {"talk"}, "day": {"2026-04-08"}, "sort": {"time"},
	}, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(searchURL(req, 2)); got != "/?q=kv&day=2026-04-08&kind=talk&scheduled=true&after=14%3A00&sort=time&page=2" {
		t.Errorf("permalink %s", got)
	}
}

// zoneHandler serves two conferences written for the zone tests: Kanaal
// Dev Days in Brussels on 1 February 2025 (+01:00, winter) and the Seine
// Summit in Paris on 8 April 2026 (+02:00, summer). No --time-zone: every
// time comes with its conference's zone. now is the server's clock.
func zoneHandler(t *testing.T, now time.Time) http.Handler {
	t.Helper()
	return zoneHandlerWith(t, Options{ClientBudget: -1, Now: func() time.Time { return now }})
}

// zoneHandlerWith serves testdata/zones with opts.
func zoneHandlerWith(t *testing.T, opts Options) http.Handler {
	t.Helper()
	return talksHandlerWith(t, testdataTalks(t, "zones", 5), opts)
}

// nowTitles are the titles /api/now lists on now and next.
func nowTitles(t *testing.T, h http.Handler, target string) (at string, now, next []string) {
	t.Helper()
	rec := get(t, h, target)
	if rec.Code != 200 {
		t.Fatalf("%s: status %d: %s", target, rec.Code, rec.Body)
	}
	var got struct {
		At        string
		Now, Next []struct{ Title, Start string }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	now, next = []string{}, []string{}
	for _, x := range got.Now {
		now = append(now, x.Title+" "+x.Start)
	}
	for _, x := range got.Next {
		next = append(next, x.Title+" "+x.Start)
	}
	return got.At, now, next
}

// TestNowInTheConferenceZone: /api/now reads a datetime-local at in the
// zone of the conference running that day (+01:00 in Brussels in winter,
// +02:00 in Paris in summer), else of the next one, else of the latest,
// and answers at in that zone. Next lists at least the talks named (the
// next of every room may come from another conference).
func TestNowInTheConferenceZone(t *testing.T) {
	h := zoneHandler(t, time.Date(2025, 2, 1, 9, 30, 0, 0, time.UTC))
	const (
		opening = "Opening the canal locks 2025-02-01T10:00:00+01:00"
		barges  = "Scheduling barges with constraint solvers 2025-02-01T11:00:00+01:00"
		late    = "Night shift on the quay 2025-02-01T23:30:00+01:00"
		welcome = "Welcome to the river bank 2026-04-08T10:00:00+02:00"
		bridges = "Counting bridges with graph queries 2026-04-08T11:00:00+02:00"
	)
	tests := []struct {
		name, target, at string
		now, next        []string
	}{
		{"the clock, in Brussels in winter", "/api/now", "2025-02-01T10:30:00+01:00", []string{opening}, []string{barges, late}},
		{"a form's time in Brussels", "/api/now?at=2025-02-01T11:00", "2025-02-01T11:00:00+01:00", []string{barges}, []string{late}},
		{"with seconds", "/api/now?at=2025-02-01T11:00:00", "2025-02-01T11:00:00+01:00", []string{barges}, []string{late}},
		{"an explicit offset", "/api/now?at=2025-02-01T11:00:00%2B01:00", "2025-02-01T11:00:00+01:00", []string{barges}, []string{late}},
		{"an instant in UTC", "/api/now?at=2025-02-01T10:00:00Z", "2025-02-01T11:00:00+01:00", []string{barges}, []string{late}},
		{"another zone's offset", "/api/now?at=2025-02-01T12:00:00%2B02:00", "2025-02-01T11:00:00+01:00", []string{barges}, []string{late}},
		{"a form's time in Paris in summer", "/api/now?at=2026-04-08T10:30", "2026-04-08T10:30:00+02:00", []string{welcome}, []string{bridges}},
		{"between the two: the next one's zone", "/api/now?at=2025-06-01T12:00", "2025-06-01T12:00:00+02:00", []string{}, []string{welcome}},
		{"after both: the latest one's, in its winter", "/api/now?at=2027-01-10T12:00", "2027-01-10T12:00:00+01:00", []string{}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at, now, next := nowTitles(t, h, tt.target)
			if len(next) > len(tt.next) {
				next = next[:len(tt.next)]
			}
			if at != tt.at || !cmp.Equal(now, tt.now) || !cmp.Equal(next, tt.next) {
				t.Errorf("at %s now %q next %q;\nwant at %s now %q next %q", at, now, next, tt.at, tt.now, tt.next)
			}
		})
	}
}

// TestNowPageInTheConferenceZone: the pages head and list times in the
// conference's own zone, and with tz= in the visitor's as well, where it
// reads differently. With two conferences loaded, /now and /schedule send
// a visitor to the edition on at that time, else the next, else the
// latest (keeping the query), and every date has its year.
func TestNowPageInTheConferenceZone(t *testing.T) {
	h := zoneHandler(t, time.Date(2026, 4, 8, 8, 40, 0, 0, time.UTC))
	const html = "text/html; charset=utf-8"
	const kanaal, seine = "/c/kanaal-days-2025", "/c/seine-summit-2026"
	heading := func(s string) string { return `<span class="at-time">` + s + `</span>` }
	tests := []struct {
		name, target string
		// location is where the target sends the visitor first (302).
		location    string
		status      int
		has, hasNot []string
	}{
		{"the clock, in Paris in summer", "/now", seine + "/now", 200, []string{heading("Wed 8 Apr 2026, 10:40"), "Wed 8 Apr 2026, 10:00–10:50", `value="2026-04-08T10:40"`,
			"Times are in Europe/Paris (CEST).", `<form class="tz-switch" action="/c/seine-summit-2026/now" method="get" data-tz="">`,
			`<p class="scope"><a class="scope-name" href="/c/seine-summit-2026/" dir="auto">Seine Summit 2026</a> <span class="scope-dates">8 Apr 2026</span> <span class="scope-count">2 talks</span>`,
			`<li><a href="/c/seine-summit-2026/schedule">Schedule</a></li>`}, []string{"at-tz", "tz-off", "Kanaal"}},
		{"a form's time in Brussels in winter", "/now?at=2025-02-01T11:00", kanaal + "/now?at=2025-02-01T11:00", 200, []string{heading("Sat 1 Feb 2025, 11:00"), "Scheduling barges", "Sat 1 Feb 2025, 11:00–11:50",
			"Times are in Europe/Brussels (CET).", `<input type="hidden" name="at" value="2025-02-01T11:00:00&#43;01:00">`}, []string{"Opening the canal locks", "Seine"}},
		{"an explicit offset is headed in local time", kanaal + "/now?at=2025-02-01T11:00:00%2B01:00", "", 200, []string{heading("Sat 1 Feb 2025, 11:00"), `value="2025-02-01T11:00"`}, nil},
		{"a UTC instant is headed in local time", kanaal + "/now?at=2025-02-01T10:00:00Z", "", 200, []string{heading("Sat 1 Feb 2025, 11:00")}, nil},
		{"the visitor's zone as well", kanaal + "/now?at=2025-02-01T11:00&tz=America/New_York", "", 200, []string{
			heading("Sat 1 Feb 2025, 11:00 CET"), `<span class="at-tz">05:00 EST in New York</span>`,
			"Sat 1 Feb 2025, 11:00–11:50 CET · 05:00–05:50 EST in New York",
			"Sat 1 Feb 2025, 23:30 – Sun 2 Feb 2025, 00:30 CET · 17:30–18:30 EST in New York",
			`<input type="hidden" name="tz" value="America/New_York">`, `<input id="tz" name="tz" type="text" value="America/New_York"`,
			`<a class="tz-off" href="/c/kanaal-days-2025/now?at=2025-02-01T11%3A00%3A00%2B01%3A00">Conference time only</a>`,
			`<a href="/c/kanaal-days-2025/schedule?tz=America%2fNew_York">`,
		}, nil},
		{"a visitor's day differs", kanaal + "/now?at=2025-02-01T11:00&tz=Asia/Tokyo", "", 200, []string{"Sat 1 Feb 2025, 23:30 – Sun 2 Feb 2025, 00:30 CET · Sun 2 Feb, 07:30–08:30 JST in Tokyo"}, nil},
		{"the same clock is not repeated", kanaal + "/now?at=2025-02-01T11:00&tz=Europe/Paris", "", 200, []string{heading("Sat 1 Feb 2025, 11:00"), "Sat 1 Feb 2025, 11:00–11:50"}, []string{"at-tz", "CET · "}},
		{"between the two: the next edition", "/now?at=2025-06-01T12:00", seine + "/now?at=2025-06-01T12:00", 200, []string{"Welcome to the river bank"}, []string{"Kanaal"}},
		{"after both: the latest, ended", "/now?at=2027-01-10T12:00", seine + "/now?at=2027-01-10T12:00", 200, []string{"This conference ended on Wednesday 8 April 2026."}, nil},
		{"an edition that is none", "/c/nowhere-2024/now", "", 404, []string{"no conference has the id &#34;nowhere-2024&#34;"}, nil},
		{"a zone that is none", "/now?tz=Mars/Base", "", 400, []string{"tz must be an IANA time zone name such as America/New_York, not &#34;Mars/Base&#34;"}, nil},
		{"the server's zone is not the visitor's", "/now?tz=Local", "", 400, []string{"tz must be an IANA time zone name"}, nil},
		{"schedule: a zone that is none", "/schedule?tz=Mars/Base", "", 400, []string{"tz must be an IANA time zone name"}, nil},
		{"schedule: the day of a form's time", "/schedule?at=2025-02-01T10:30", kanaal + "/schedule?at=2025-02-01T10:30", 200, []string{"<h1>Schedule · Saturday 1 February 2025</h1>", `<a href="#now-row">Now: 10:30</a>`,
			"Times are in Europe/Brussels (CET).", `<input type="hidden" name="day" value="2025-02-01">`}, []string{"2026-04-08"}},
		{"schedule: a day's edition", "/schedule?day=2026-04-08", seine + "/schedule?day=2026-04-08", 200, []string{"<h1>Schedule · Wednesday 8 April 2026</h1>"}, nil},
		{"schedule in the visitor's zone as well", kanaal + "/schedule?day=2025-02-01&at=2025-02-01T10:30&tz=America/New_York", "", 200, []string{
			`<time datetime="2025-02-01T10:00:00&#43;01:00">10:00</time> <span class="tz-time">04:00</span>`,
			`<a href="#now-row">Now: 10:30</a> <span class="at-tz">04:30 EST in New York</span>`,
			"11:00–11:50 CET · 05:00–05:50 EST in New York",
		}, []string{"2026-04-08"}},
		{"schedule of the clock's day, in Paris", "/schedule", seine + "/schedule", 200, []string{"<h1>Schedule · Wednesday 8 April 2026</h1>", `<a href="#now-row">Now: 10:40</a>`, "Times are in Europe/Paris (CEST)."}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := get(t, h, tt.target)
			if tt.location != "" {
				if rec.Code != 302 || rec.Header().Get("Location") != tt.location {
					t.Fatalf("%s: status %d to %q, want 302 to %q", tt.target, rec.Code, rec.Header().Get("Location"), tt.location)
				}
				rec = get(t, h, tt.location)
			}
			if rec.Code != tt.status || rec.Header().Get("Content-Type") != html {
				t.Errorf("status %d %s, want %d; body:\n%.800s", rec.Code, rec.Header().Get("Content-Type"), tt.status, rec.Body.String())
			}
			checkBody(t, rec.Body.String(), tt.has, tt.hasNot)
		})
	}
}

// TestAtInTheSitesZone: a talk whose times name no zone (UTC) reads in
// --time-zone, and a form's time with it; without one, in UTC.
func TestAtInTheSitesZone(t *testing.T) {
	for _, tt := range []struct {
		loc  *time.Location
		want string
	}{{paris, "2026-04-08T10:42:00+02:00"}, {nil, "2026-04-08T08:42:00Z"}} {
		h, err := NewHandler(&fakeSearcher{}, zerolog.Nop(), Options{Location: tt.loc, Now: func() time.Time { return fixedNow }})
		if err != nil {
			t.Fatal(err)
		}
		if at, _, _ := nowTitles(t, h, "/api/now"); at != tt.want {
			t.Errorf("--time-zone %v: at %s, want %s", tt.loc, at, tt.want)
		}
	}
}

// TestNowOnTheFOSDEMArchive: FOSDEM 2024 and 2025 (Brussels, +01:00 in
// February) from the shared archive: a form's 11:00 on 1 February 2025 is
// 11:00 in Brussels, and lists the talks on then, not those of 10:00.
func TestNowOnTheFOSDEMArchive(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "datasets", "fosdem")
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("shared dataset %s missing under CI: %v", dir, err)
		}
		t.Skipf("shared dataset %s absent: %v", dir, err)
	}
	c, err := ingest.LoadPaths([]string{filepath.Join(dir, "fosdem-2024.xml"), filepath.Join(dir, "fosdem-2025.xml")}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e, err := search.New(c.Talks)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHandler(served(e), zerolog.Nop(), Options{ClientBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	eleven := time.Date(2025, 2, 1, 10, 0, 0, 0, time.UTC)
	for _, target := range []string{"/api/now?at=2025-02-01T11:00", "/api/now?at=2025-02-01T11:00:00%2B01:00"} {
		rec := get(t, h, target)
		var got struct {
			At  string
			Now []struct {
				Title      string
				Start, End time.Time
			}
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &got); rec.Code != 200 || err != nil {
			t.Fatalf("%s: %d %v", target, rec.Code, err)
		}
		if got.At != "2025-02-01T11:00:00+01:00" {
			t.Errorf("%s: at %s", target, got.At)
		}
		starting := 0
		for _, x := range got.Now {
			if x.Start.After(eleven) || !x.End.After(eleven) {
				t.Errorf("%s: %q (%s–%s) is not on at 11:00 in Brussels", target, x.Title, x.Start, x.End)
			}
			if x.Start.Equal(eleven) {
				starting++
			}
			if _, off := x.Start.Zone(); off != 3600 {
				t.Errorf("%s: %q starts %s, not in Brussels time", target, x.Title, x.Start)
			}
		}
		if starting == 0 {
			t.Errorf("%s: %d talks on, none starting at 11:00", target, len(got.Now))
		}
	}
	// The page opens on the edition of that day, in its time and year.
	rec := get(t, h, "/now?at=2025-02-01T11:00:00%2B01:00")
	if loc := rec.Header().Get("Location"); rec.Code != 302 || loc != "/c/fosdem-2025/now?at=2025-02-01T11:00:00%2B01:00" {
		t.Fatalf("/now: %d to %q, want 302 to FOSDEM 2025's", rec.Code, loc)
	}
	rec = get(t, h, rec.Header().Get("Location"))
	checkBody(t, rec.Body.String(), []string{`<span class="at-time">Sat 1 Feb 2025, 11:00</span>`, "Times are in Europe/Brussels (CET)."}, nil)
}

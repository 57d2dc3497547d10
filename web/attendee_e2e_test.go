package web

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-ical"
	"github.com/google/go-cmp/cmp"
)

// The attendee's views over the real seeds: 73 talks, 62 on the schedule
// of Wednesday 8 April 2026, in CEST.

func TestEndToEndAttendeeFilters(t *testing.T) {
	h, _ := newRealHandler(t)
	tests := []struct {
		query   string
		total   int
		day     string // the day facet, as "value=count"
		missing int    // talks without a day
	}{
		{"", 73, "2026-04-08=62", 11},
		{"kind=lightning", 26, "2026-04-08=26", 0},
		{"scheduled=true", 62, "2026-04-08=62", 0},
		{"day=2026-04-08", 62, "2026-04-08=62", 11},
		{"day=2026-04-09", 0, "2026-04-08=62,2026-04-09=0", 11}, // kept, to be unticked
		{"scheduled=true&after=14:00", 28, "2026-04-08=28", 0},
		{"after=14:00&before=15:00", 16, "2026-04-08=16", 0},
		{"kind=keynote&q=pytorch", 3, "2026-04-08=3", 0},
		{"conference=pytorch-conference-europe-2026&kind=break", 5, "2026-04-08=5", 0},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			rec := get(t, h, "/api/search?"+tt.query)
			if rec.Code != 200 {
				t.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
			var res struct {
				Total  int `json:"total"`
				Facets struct {
					Day []struct {
						Value string
						Count int
					}
					Conference []struct{ Value, Label string }
					Missing    map[string]int
				}
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil {
				t.Fatal(err)
			}
			var day []string
			for _, d := range res.Facets.Day {
				day = append(day, d.Value+"="+strconv.Itoa(d.Count))
			}
			if res.Total != tt.total || strings.Join(day, ",") != tt.day || res.Facets.Missing["day"] != tt.missing {
				t.Errorf("total %d, day %v, missing %d; want %d, %s, %d", res.Total, day, res.Facets.Missing["day"], tt.total, tt.day, tt.missing)
			}
			if tt.total > 0 && (len(res.Facets.Conference) != 1 || res.Facets.Conference[0].Label != "PyTorch Conference Europe 2026") {
				t.Errorf("conference facet %+v", res.Facets.Conference)
			}
		})
	}
	// The page offers the new facets with labels people read.
	rec := get(t, h, "/?kind=keynote")
	checkBody(t, rec.Body.String(), []string{
		`<legend>Day</legend>`, `<input type="checkbox" name="day" value="2026-04-08"><span class="fv" dir="auto">Wed 8 Apr</span><span class="count">5</span>`,
		`<input type="checkbox" name="kind" value="keynote" checked><span class="fv" dir="auto">Keynote</span><span class="count">5</span>`,
		`<span class="fv" dir="auto">Lightning talk</span><span class="count">26</span>`,
		`<span class="fv" dir="auto">PyTorch Conference Europe 2026</span>`,
		`aria-label="Remove filter Session type: Keynote"`,
	}, []string{`<legend>Language</legend>`})
}

func TestEndToEndNowAndNext(t *testing.T) {
	h, _ := newRealHandler(t)
	rec := get(t, h, "/api/now?at=2026-04-08T10:40:00%2B02:00")
	if rec.Code != 200 {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	var got struct {
		Now, Next []struct {
			Title string  `json:"title"`
			Room  *string `json:"room"`
			Start string  `json:"start"`
		}
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	line := func(x struct {
		Title string  `json:"title"`
		Room  *string `json:"room"`
		Start string  `json:"start"`
	}) string {
		return x.Start[11:16] + " " + *x.Room + " " + x.Title[:min(len(x.Title), 30)]
	}
	var now, next []string
	for _, x := range got.Now {
		now = append(now, line(x))
	}
	for _, x := range got.Next {
		next = append(next, line(x))
	}
	// The sponsor activity 10:25–10:40 has just ended; the expo and the
	// registration desk run all day.
	wantNow := []string{
		"08:00 Open Platform Community Expo",
		"08:00 Lobby Registration & Badge Pick-Up",
		"10:35 Junior Stage Beyond JSON-RPC: Scaling Model",
		"10:35 Founders Cafe How To Write C++ Extensions in",
		"10:35 Central Room Lightning Talk: Live Migration",
		"10:35 Master Stage Lightning Talk: Monarch: An AP",
	}
	wantNext := []string{
		"10:50 Master Stage Lightning Talk: Achieving SOTA",
		"10:50 Central Room Lightning Talk: Step-Aligned T",
		"11:05 Founders Cafe Bringing PyTorch Monarch to AM",
		"11:05 Junior Stage Lightning Talk: Accelerating P",
		"12:00 Open Platform Attendee Lunch",
	}
	if diff := cmp.Diff(wantNow, now); diff != "" {
		t.Errorf("now (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantNext, next); diff != "" {
		t.Errorf("next (-want +got):\n%s", diff)
	}
	// After the last talk nothing is on and nothing is next.
	rec = get(t, h, "/api/now?at=2026-04-08T18:00:00%2B02:00")
	if body := rec.Body.String(); !strings.Contains(body, `"now":[],"next":[]`) {
		t.Errorf("after the day: %s", body)
	}
}

// TestNowPageRefreshesLive: the clock's now and next reloads itself each
// minute; a page asked for one instant stays still.
func TestNowPageRefreshesLive(t *testing.T) {
	h, _ := newRealHandler(t)
	const refresh = `<meta http-equiv="refresh" content="60">`
	if body := get(t, h, "/now").Body.String(); !strings.Contains(body, refresh) {
		t.Errorf("/now has no %s", refresh)
	}
	body := get(t, h, "/now?at=2026-04-08T10:40:00%2B02:00").Body.String()
	if strings.Contains(body, "http-equiv") {
		t.Errorf("/now?at= refreshes itself")
	}
	if !strings.Contains(body, "Beyond JSON-RPC") {
		t.Errorf("/now?at= lacks the talk on at 10:40")
	}
}

func TestEndToEndSchedule(t *testing.T) {
	h, e := newRealHandler(t)
	api := talkByTitle(t, e, monarchAPI)
	rec := get(t, h, "/schedule?at=2026-04-08T10:40:00%2B02:00")
	if rec.Code != 200 {
		t.Fatalf("status %d", rec.Code)
	}
	body := rec.Body.String()
	checkBody(t, body, []string{
		`<th scope="col" dir="auto">Central Room</th><th scope="col" dir="auto">Master Stage</th><th scope="col" dir="auto">Founders Cafe</th><th scope="col" dir="auto">Junior Stage</th><th scope="col" dir="auto">Open Platform</th>`,
		`<h2 id="allday-h">All day</h2>`,
		// 10:40 only ends a session: the mark is a row of its own.
		`<tr class="gap now" id="now-row">`,
		`href="/talks/` + api.ID + `"`,
		`<a href="#now-row">Now: 10:40</a>`,
	}, nil)
	// Every scheduled session but the two all-day ones is in one cell.
	if n := strings.Count(body, `<div class="session`); n != 60 {
		t.Errorf("%d sessions in the grid, want 60", n)
	}
}

func TestEndToEndAgendaCalendar(t *testing.T) {
	h, e := newRealHandler(t)
	api := talkByTitle(t, e, monarchAPI)
	amd := talkByTitle(t, e, monarchAMD)
	cpp := talkByTitle(t, e, "How To Write C++ Extensions")
	ids := amd.ID + "," + api.ID + ",not-a-talk," + cpp.ID
	rec := get(t, h, "/agenda?ids="+ids)
	checkBody(t, rec.Body.String(), []string{
		`<code dir="auto">not-a-talk</code>`,
		htmlText(cpp.Title) + `</a> and <a href="/talks/` + api.ID + `" dir="auto">` + htmlText(api.Title) + `</a> both run Wed 8 Apr, 10:35–10:45.`,
		`<h2 id="more-h">More like my agenda</h2>`, `<ol class="related-list">`,
	}, []string{"Found in", ".txt"})

	rec = get(t, h, "http://localhost:8080/agenda.ics?ids="+ids)
	cal, err := ical.NewDecoder(strings.NewReader(rec.Body.String())).Decode()
	if err != nil {
		t.Fatalf("agenda.ics: %v", err)
	}
	cest := time.FixedZone("CEST", 2*60*60)
	var got []string
	for _, ev := range cal.Events() {
		st, err := ev.DateTimeStart(time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		en, _ := ev.DateTimeEnd(time.UTC)
		sum, _ := ev.Props.Text(ical.PropSummary)
		loc, _ := ev.Props.Text(ical.PropLocation)
		uid, _ := ev.Props.Text(ical.PropUID)
		got = append(got, st.In(cest).Format("Mon 15:04")+"–"+en.In(cest).Format("15:04")+" "+loc+" | "+uid+" | "+sum[:min(len(sum), 25)])
	}
	want := []string{
		"Wed 10:35–11:00 Founders Cafe, PyTorch Conference Europe 2026 | " + cpp.ID + "@talksearch | How To Write C++ Extensio",
		"Wed 10:35–10:45 Master Stage, PyTorch Conference Europe 2026 | " + api.ID + "@talksearch | Lightning Talk: Monarch: ",
		"Wed 11:05–11:30 Founders Cafe, PyTorch Conference Europe 2026 | " + amd.ID + "@talksearch | Bringing PyTorch Monarch ",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	// /search.ics is the same search as the page: the five keynotes.
	rec = get(t, h, "/search.ics?kind=keynote&sort=time")
	cal, err = ical.NewDecoder(strings.NewReader(rec.Body.String())).Decode()
	if err != nil {
		t.Fatalf("search.ics: %v", err)
	}
	if n := len(cal.Events()); n != 5 {
		t.Errorf("%d keynotes in search.ics, want 5", n)
	}
}

func TestEndToEndSpeakers(t *testing.T) {
	h, e := newRealHandler(t)
	// Every speaker of every talk has a page listing that talk.
	for _, tk := range e.Talks() {
		for _, sp := range tk.Speakers {
			rec := get(t, h, "/speakers/"+speakerSlug(sp.Name))
			if rec.Code != 200 || !strings.Contains(rec.Body.String(), `href="/talks/`+tk.ID+`"`) {
				t.Fatalf("speaker %q of %s: status %d", sp.Name, tk.ID, rec.Code)
			}
		}
	}
}

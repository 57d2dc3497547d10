package web

import (
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-ical"
)

// The pages of a site that holds two conferences (testdata/zones: Kanaal
// Dev Days 2025 in Brussels, three talks; Seine Summit 2026 in Paris, two):
// the home page lists them newest first, each has its own pages under
// /c/ID/, and every page that mixes them names each talk's conference and
// year.
func TestConferencePages(t *testing.T) {
	h := zoneHandlerWith(t, Options{ClientBudget: -1, MaxCalendarTalks: 3,
		Now: func() time.Time { return time.Date(2026, 12, 4, 9, 0, 0, 0, time.UTC) }})
	tests := []struct {
		name, target string
		status       int
		has, hasNot  []string
	}{
		{"home lists the conferences, newest first", "/", 200, []string{
			`<h2 id="conferences-h">Conferences (2)</h2>`,
			`<ul><li><a href="/c/seine-summit-2026/" dir="auto">Seine Summit 2026</a> <span class="dates">8 Apr 2026</span> <span class="count">2 talks</span></li>` +
				`<li><a href="/c/kanaal-days-2025/" dir="auto">Kanaal Dev Days 2025</a> <span class="dates">1 Feb 2025</span> <span class="count">3 talks</span></li></ul>`,
		}, []string{`class="scope"`}},
		{"a search names each talk's conference and year", "/?q=bridges", 200, []string{
			`<span class="edition" dir="auto">Seine Summit 2026</span><span class="when">Wed 8 Apr 2026, 11:00–11:50</span>`,
		}, []string{"conferences-h"}},
		{"a conference's search keeps to it", "/c/kanaal-days-2025/", 200, []string{
			`<h1 id="summary" data-total="3">3 talks</h1>`,
			`<p class="scope"><a class="scope-name" href="/c/kanaal-days-2025/" dir="auto">Kanaal Dev Days 2025</a> <span class="scope-dates">1 Feb 2025</span> <span class="scope-count">3 talks</span> <a class="scope-all" href="/">All conferences</a></p>`,
			`<li><a href="/c/kanaal-days-2025/now">Now</a></li>`,
			`<span class="when">Sat 1 Feb 2025, 10:00–10:50</span>`,
		}, []string{"Counting bridges", "Welcome to the river bank", `<span class="edition"`, "conferences-h"}},
		{"the same search by its filter", "/?conference=kanaal-days-2025", 200, []string{
			`<h1 id="summary" data-total="3">3 talks</h1>`, `<a class="scope-name" href="/c/kanaal-days-2025/" dir="auto">Kanaal Dev Days 2025</a>`,
		}, nil},
		{"an unknown conference", "/c/kanaal-days-2024/", 404, []string{"no conference has the id &#34;kanaal-days-2024&#34;"}, nil},
		{"newest first", "/?sort=newest", 200, []string{`<option value="newest" selected>newest first</option>`}, nil},
		{"a talk page names its conference", "/talks/kanaal-opening", 200, []string{
			`<div><dt>Conference</dt><dd dir="auto"><a href="/c/kanaal-days-2025/">Kanaal Dev Days 2025</a></dd></div>`,
			`Sat 1 Feb 2025, 10:00–10:50`,
			`<a href="/talks/kanaal-opening.ics?alarm=10" download>with a reminder 10 minutes before</a>`,
		}, nil},
		{"a speaker across conferences", "/speakers/camille-girard", 200, []string{
			`<span class="edition" dir="auto">Seine Summit 2026</span><span class="when">Wed 8 Apr 2026, 10:00–10:50</span>`,
		}, nil},
		{"a speaker at one conference", "/c/seine-summit-2026/speakers/camille-girard", 200, []string{
			`<span class="when">Wed 8 Apr 2026, 10:00–10:50</span>`, `<a href="/speakers/camille-girard">Talks at every conference</a>`,
		}, []string{`<span class="edition"`}},
		{"a speaker not at that conference", "/c/kanaal-days-2025/speakers/camille-girard", 404, []string{"no speaker is called"}, nil},
		{"too many talks for a calendar, said on the page", "/", 200, []string{
			"5 of these talks are on the schedule: too many for one calendar (at most 3). Narrow the search to add them to yours.",
		}, []string{`href="/search.ics`}},
		{"a calendar of a conference, counted", "/c/kanaal-days-2025/", 200, []string{
			`<a href="/search.ics?conference=kanaal-days-2025" download>Add these 3 talks to a calendar (.ics)</a>`,
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := get(t, h, tt.target)
			if rec.Code != tt.status {
				t.Errorf("%s: status %d, want %d; body:\n%.600s", tt.target, rec.Code, tt.status, rec.Body.String())
			}
			checkBody(t, rec.Body.String(), tt.has, tt.hasNot)
		})
	}

	// Newest first: Seine's talks lead, the later of them first.
	body := get(t, h, "/?sort=newest").Body.String()
	if i, j, k := strings.Index(body, "Counting bridges"), strings.Index(body, "Welcome to the river bank"), strings.Index(body, "Night shift on the quay"); !(i >= 0 && i < j && j < k) {
		t.Errorf("newest first: bridges at %d, welcome at %d, night shift at %d", i, j, k)
	}
	// /c/ID without its slash is sent to the page with it.
	if rec := get(t, h, "/c/kanaal-days-2025"); rec.Code != 301 || rec.Header().Get("Location") != "/c/kanaal-days-2025/" {
		t.Errorf("/c/kanaal-days-2025: %d to %q", rec.Code, rec.Header().Get("Location"))
	}
}

// A search's calendar holds every talk it finds on the schedule and says
// so; more than the cap is refused with the reason, not cut; agenda and
// talk calendars carry a reminder when asked.
func TestCalendarCountsAndReminders(t *testing.T) {
	h := zoneHandlerWith(t, Options{ClientBudget: -1, MaxCalendarTalks: 3})
	rec := get(t, h, "/search.ics")
	checkBody(t, rec.Body.String(), []string{"this search finds 5 talks on the schedule; a calendar holds at most 3: narrow it (a conference, a day, a track)"}, nil)
	if rec.Code != 400 {
		t.Errorf("/search.ics of 5 talks with a cap of 3: status %d, want 400", rec.Code)
	}

	rec = get(t, h, "/search.ics?conference=kanaal-days-2025")
	cal, err := ical.NewDecoder(strings.NewReader(rec.Body.String())).Decode()
	if err != nil {
		t.Fatalf("an independent parser refuses the calendar: %v\n%s", err, rec.Body)
	}
	if events := cal.Events(); rec.Code != 200 || len(events) != 3 {
		t.Fatalf("a conference's calendar: status %d, %d events, want 3", rec.Code, len(events))
	}
	if !strings.Contains(rec.Body.String(), "X-WR-CALDESC:3 of 3 talks\r\n") {
		t.Errorf("the calendar does not say how many talks it holds:\n%s", rec.Body)
	}

	for _, tt := range []struct {
		target  string
		alarms  int
		trigger string
	}{
		{"/talks/kanaal-opening.ics", 0, ""},
		{"/talks/kanaal-opening.ics?alarm=10", 1, "TRIGGER:-PT10M\r\n"},
		{"/agenda.ics?ids=kanaal-opening,seine-welcome&alarm=15", 2, "TRIGGER:-PT15M\r\n"},
	} {
		rec := get(t, h, tt.target)
		body := rec.Body.String()
		if rec.Code != 200 || strings.Count(body, "BEGIN:VALARM\r\n") != tt.alarms || !strings.Contains(body, tt.trigger) {
			t.Errorf("%s: status %d, %d alarms (want %d with %q):\n%s", tt.target, rec.Code, strings.Count(body, "BEGIN:VALARM"), tt.alarms, tt.trigger, body)
		}
	}
	for _, bad := range []string{"/talks/kanaal-opening.ics?alarm=-5", "/agenda.ics?ids=kanaal-opening&alarm=1441", "/agenda.ics?ids=kanaal-opening&alarm=soon"} {
		if rec := get(t, h, bad); rec.Code != 400 || !strings.Contains(rec.Body.String(), "alarm must be a number of minutes from 0 to 1440") {
			t.Errorf("%s: status %d: %s", bad, rec.Code, rec.Body)
		}
	}
}

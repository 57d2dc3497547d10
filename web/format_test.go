package web

import (
	"html/template"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/search"
)

func TestSafeHighlight(t *testing.T) {
	tests := []struct {
		name, in string
		want     template.HTML
	}{
		{"plain text", "no marks", "no marks"},
		{"engine output", "<mark>Monarch</mark> on ROCm: &lt;1ms &amp; beyond", "<mark>Monarch</mark> on ROCm: &lt;1ms &amp; beyond"},
		{"raw tag escaped", `a <img src=x onerror=alert(1)> b`, "a &lt;img src=x onerror=alert(1)&gt; b"},
		{"script escaped", "<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
		{"mark with attributes is not a mark", `<mark onclick="x">a</mark>`, "&lt;mark onclick=&#34;x&#34;&gt;a&lt;/mark&gt;"},
		{"unclosed mark", "<mark>open", "&lt;mark&gt;open"},
		{"stray close", "a</mark> b", "a&lt;/mark&gt; b"},
		{"nested mark", "<mark>a<mark>b</mark>c</mark>", "<mark>a&lt;mark&gt;b</mark>c&lt;/mark&gt;"},
		{"two marks", "<mark>kv</mark> <mark>cache</mark>", "<mark>kv</mark> <mark>cache</mark>"},
		{"raw ampersand and quotes", `AT&T "x" 'y'`, "AT&amp;T &#34;x&#34; &#39;y&#39;"},
		{"entity stays one escape deep", "&amp;lt;", "&amp;lt;"},
		{"lone angle brackets", "a < b > c", "a &lt; b &gt; c"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := safeHighlight(tt.in); got != tt.want {
				t.Errorf("safeHighlight(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// paris is the zone the tests give as --time-zone: +02:00 in April, +01:00
// in winter.
var paris = mustZone("Europe/Paris")

func mustZone(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err) // time/tzdata is linked in (index/ingest)
	}
	return loc
}

func TestFormatWhen(t *testing.T) {
	utc := func(s string) *time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return &v
	}
	tests := []struct {
		name       string
		start, end *time.Time
		want       string
	}{
		{"unscheduled", nil, nil, ""},
		{"slot shown in CEST", utc("2026-04-08T08:35:00Z"), utc("2026-04-08T08:45:00Z"), "Wed 8 Apr, 10:35–10:45"},
		{"no end", utc("2026-04-09T07:00:00Z"), nil, "Thu 9 Apr, 09:00"},
		{"across midnight", utc("2026-04-08T21:30:00Z"), utc("2026-04-08T22:30:00Z"), "Wed 8 Apr, 23:30 – Thu 9 Apr, 00:30"},
		{"zone of the input ignored", utc("2026-04-08T10:35:00+02:00"), utc("2026-04-08T10:45:00+02:00"), "Wed 8 Apr, 10:35–10:45"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := formatWhen(tt.start, tt.end, paris, noYear); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSearchURL(t *testing.T) {
	tests := []struct {
		name string
		req  search.Request
		page int
		want template.URL
	}{
		{"home", search.Request{}, 1, "/"},
		{"the issue's example", search.Request{Query: "kv cache", Tracks: []string{"Inference & Production"}, Sort: "time"}, 2,
			"/?q=kv+cache&track=Inference+%26+Production&sort=time&page=2"},
		{"relevance is the default", search.Request{Query: "x", Sort: "relevance"}, 1, "/?q=x"},
		{"order and repeats", search.Request{Rooms: []string{"R 1"}, Levels: []string{"Any"}, Tracks: []string{"A", "B"}}, 1,
			"/?track=A&track=B&level=Any&room=R+1"},
		{"escaping", search.Request{Query: `"a"&b=c#d/é`}, 1, "/?q=%22a%22%26b%3Dc%23d%2F%C3%A9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := searchURL(tt.req, tt.page); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPagination(t *testing.T) {
	s := &server{opts: Options{}.withDefaults()}
	req := search.Request{Query: "gpu"}
	tests := []struct {
		name       string
		current    int
		total      uint64
		want       []pageLink
		prev, next template.URL
	}{
		{"one page", 1, 20, nil, "", ""},
		{"no results", 1, 0, nil, "", ""},
		{"two pages", 2, 21, []pageLink{{Num: 1, URL: "/?q=gpu"}, {Num: 2, URL: "/?q=gpu&page=2", Current: true}}, "/?q=gpu", ""},
		{"gaps both sides", 6, 300, []pageLink{
			{Num: 1, URL: "/?q=gpu"}, {Gap: true},
			{Num: 4, URL: "/?q=gpu&page=4"}, {Num: 5, URL: "/?q=gpu&page=5"}, {Num: 6, URL: "/?q=gpu&page=6", Current: true},
			{Num: 7, URL: "/?q=gpu&page=7"}, {Num: 8, URL: "/?q=gpu&page=8"}, {Gap: true},
			{Num: 15, URL: "/?q=gpu&page=15"},
		}, "/?q=gpu&page=5", "/?q=gpu&page=7"},
		{"past the end links back", 9, 41, []pageLink{{Num: 1, URL: "/?q=gpu"}, {Num: 2, URL: "/?q=gpu&page=2"}, {Num: 3, URL: "/?q=gpu&page=3"}}, "/?q=gpu&page=3", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			links, prev, next := s.pagination(req, tt.current, tt.total)
			if diff := cmp.Diff(tt.want, links); diff != "" {
				t.Errorf("links (-want +got):\n%s", diff)
			}
			if prev != tt.prev || next != tt.next {
				t.Errorf("prev, next = %q, %q; want %q, %q", prev, next, tt.prev, tt.next)
			}
		})
	}
}

func TestParagraphs(t *testing.T) {
	got := paragraphs("First para.\n\nA list:\n- one\n- two\r\n\r\n\n\nLast.")
	want := [][]string{{"First para."}, {"A list:", "- one", "- two"}, {"Last."}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// A talk's slot reads in its own conference's zone (FOSDEM in Brussels
// time, even on a server whose --time-zone is Paris); a UTC time, which
// names no zone, reads in the site's, and stays in UTC without one.
func TestFormatWhenInTheConferenceZone(t *testing.T) {
	brussels, err := time.LoadLocation("Europe/Brussels")
	if err != nil {
		t.Skip("no zone database:", err)
	}
	start := time.Date(2025, 2, 1, 10, 30, 0, 0, brussels)
	end := start.Add(25 * time.Minute)
	if got := formatWhen(&start, &end, paris, noYear); got != "Sat 1 Feb, 10:30–10:55" {
		t.Errorf("FOSDEM slot %q", got)
	}
	if got := zoneName(&start, paris); got != "CET" {
		t.Errorf("FOSDEM zone %q", got)
	}
	utc := start.UTC()
	if got := formatWhen(&utc, nil, paris, noYear); got != "Sat 1 Feb, 10:30" {
		t.Errorf("UTC time in the site zone %q", got)
	}
	if got := formatWhen(&utc, nil, nil, noYear); got != "Sat 1 Feb, 09:30" {
		t.Errorf("UTC time without a site zone %q", got)
	}
	// Where several conferences are loaded the year is part of the date,
	// on both ends of a slot across midnight.
	if got := formatWhen(&start, &end, paris, withYear); got != "Sat 1 Feb 2025, 10:30–10:55" {
		t.Errorf("slot with its year %q", got)
	}
	late := time.Date(2024, 12, 31, 23, 30, 0, 0, brussels)
	next := late.Add(time.Hour)
	if got := formatWhen(&late, &next, paris, withYear); got != "Tue 31 Dec 2024, 23:30 – Wed 1 Jan 2025, 00:30" {
		t.Errorf("slot across the year's end %q", got)
	}
}

// A slot reads in the visitor's zone as well where it reads differently
// there: with the date where it is another day, the zone's abbreviation
// and its city.
func TestFormatWhenFor(t *testing.T) {
	brussels := mustZone("Europe/Brussels")
	slot := func(hhmm string, minutes int) (*time.Time, *time.Time) {
		s, err := time.ParseInLocation("2006-01-02 15:04", "2025-02-01 "+hhmm, brussels)
		if err != nil {
			t.Fatal(err)
		}
		e := s.Add(time.Duration(minutes) * time.Minute)
		return &s, &e
	}
	tests := []struct {
		name, from string
		minutes    int
		visitor    string
		want       string
	}{
		{"no visitor's zone", "10:00", 50, "", "Sat 1 Feb, 10:00–10:50"},
		{"the same clock", "10:00", 50, "Europe/Paris", "Sat 1 Feb, 10:00–10:50"},
		{"New York", "10:00", 50, "America/New_York", "Sat 1 Feb, 10:00–10:50 CET · 04:00–04:50 EST in New York"},
		{"the day before", "08:00", 50, "America/Los_Angeles", "Sat 1 Feb, 08:00–08:50 CET · Fri 31 Jan, 23:00–23:50 PST in Los Angeles"},
		{"across the visitor's midnight", "08:30", 60, "America/Los_Angeles", "Sat 1 Feb, 08:30–09:30 CET · Fri 31 Jan, 23:30 – Sat 1 Feb, 00:30 PST in Los Angeles"},
		{"UTC names itself once", "10:00", 50, "UTC", "Sat 1 Feb, 10:00–10:50 CET · 09:00–09:50 UTC"},
		{"a zone without letters", "10:00", 50, "America/Sao_Paulo", "Sat 1 Feb, 10:00–10:50 CET · 06:00–06:50 -03 in Sao Paulo"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var visitor *time.Location
			if tt.visitor != "" {
				visitor = mustZone(tt.visitor)
			}
			start, end := slot(tt.from, tt.minutes)
			if got := formatWhenFor(start, end, nil, visitor, noYear); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	if got := formatWhenFor(nil, nil, nil, mustZone("Asia/Tokyo"), noYear); got != "" {
		t.Errorf("unscheduled: %q", got)
	}
	start, _ := slot("10:00", 0)
	if got := visitorTime(*start, mustZone("Asia/Tokyo")); got != "18:00 JST in Tokyo" {
		t.Errorf("an instant in Tokyo: %q", got)
	}
}

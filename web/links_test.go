package web

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-ical"
	"golang.org/x/net/html"

	"github.com/talksearch/talksearch/index"
)

// linkedTalks: "knobs" with links of every kind, some no web address;
// "gone", cancelled, in the same room next; "held" beside it in another
// room at the same time; "later" after it in the first room.
func linkedTalks() []index.Talk {
	brussels := time.FixedZone("CET", 3600)
	at := func(h, m int) *time.Time {
		t := time.Date(2025, 2, 1, h, m, 0, 0, brussels)
		return &t
	}
	conf := index.Conference{ID: "mhc-2025", Name: "Mosel Hack Camp 2025"}
	talk := func(id, title, room string, h int) index.Talk {
		return index.Talk{ID: id, Conference: conf, Title: title, Abstract: title + ", explained.", Room: room,
			Start: at(h, 0), End: at(h, 40), TimeZone: "Europe/Brussels", Kind: index.KindTalk, Scheduled: true, Sources: []string{"mhc.xml"}}
	}
	knobs := talk("knobs", "Rotary encoders for old radios", "Hall A", 10)
	knobs.Links = []index.Link{
		{Kind: index.LinkRecording, Title: "Video recording (WebM)", URL: "https://media.example.net/knobs.webm", MIMEType: "video/webm"},
		{Kind: index.LinkRecording, Title: "Video recording (MP4)", URL: "https://media.example.net/knobs.mp4"},
		{Kind: index.LinkSlides, Title: "Slides <b>PDF</b>", URL: "https://mhc.example.net/knobs.pdf", MIMEType: "application/pdf; x=\"y\""},
		{Kind: index.LinkSlides, Title: "Old slides", URL: "javascript:alert(1)"},
		{Kind: index.LinkOther, Title: "Measurements", URL: "489/measurements.csv"},
		{Kind: index.LinkOther, URL: "https://git.example.net/knobs"},
	}
	gone := talk("gone", "Soldering with a clothes iron", "Hall A", 11)
	gone.Cancelled = true
	return []index.Talk{knobs, gone, talk("held", "Mesh networks in vineyards", "Hall B", 11), talk("later", "Low-power beacons", "Hall A", 12)}
}

func linkedHandler(t *testing.T) http.Handler {
	t.Helper()
	return talksHandler(t, linkedTalks())
}

// getOK is get that must answer 200.
func getOK(t *testing.T, h http.Handler, target string) *httptest.ResponseRecorder {
	t.Helper()
	w := get(t, h, target)
	if w.Code != http.StatusOK {
		t.Fatalf("GET %s: status %d: %s", target, w.Code, w.Body)
	}
	return w
}

// linkItems are the talk page's links, in order, as "kind|href|text".
func linkItems(t *testing.T, page string) []string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var items []string
	var walk func(n *html.Node, in bool)
	walk = func(n *html.Node, in bool) {
		if n.Type == html.ElementNode && n.Data == "ul" && attr(n, "class") == "link-list" {
			in = true
		}
		if in && n.Type == html.ElementNode && n.Data == "li" {
			var kind, href, text strings.Builder
			var inner func(c *html.Node)
			inner = func(c *html.Node) {
				if c.Type == html.ElementNode && c.Data == "a" {
					href.WriteString(attr(c, "href"))
				}
				if c.Type == html.TextNode {
					if c.Parent.Data == "span" && attr(c.Parent, "class") == "link-kind" {
						kind.WriteString(c.Data)
					} else {
						text.WriteString(c.Data)
					}
				}
				for k := c.FirstChild; k != nil; k = k.NextSibling {
					inner(k)
				}
			}
			inner(n)
			items = append(items, kind.String()+"|"+href.String()+"|"+strings.TrimSpace(text.String()))
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, in)
		}
	}
	walk(doc, false)
	return items
}

// TestTalkPageLinks: the talk page lists the links recordings first, links
// only web addresses and shows the others as text, all of it escaped.
func TestTalkPageLinks(t *testing.T) {
	h := linkedHandler(t)
	page := getOK(t, h, "/talks/knobs").Body.String()
	want := []string{
		"Recording|https://media.example.net/knobs.webm|Video recording (WebM)",
		"Recording|https://media.example.net/knobs.mp4|Video recording (MP4)",
		"Slides|https://mhc.example.net/knobs.pdf|Slides <b>PDF</b>",
		"Slides||Old slides javascript:alert(1)",
		"Link||Measurements 489/measurements.csv",
		"Link|https://git.example.net/knobs|https://git.example.net/knobs",
	}
	if got := linkItems(t, page); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("links\n got %q\nwant %q", got, want)
	}
	if strings.Contains(page, "<b>PDF") || strings.Contains(page, `href="javascript:`) {
		t.Error("a link's text or address reached the page unescaped")
	}
	if strings.Contains(page, "badge cancelled") {
		t.Error("a talk held is badged cancelled")
	}
}

// TestCancelledBadge: the talk page and the result card of a cancelled
// talk say so; the search page's filter keeps or leaves it out.
func TestCancelledBadge(t *testing.T) {
	h := linkedHandler(t)
	if page := getOK(t, h, "/talks/gone").Body.String(); !strings.Contains(page, `<strong class="badge cancelled">Cancelled</strong> The source marks this session as cancelled`) {
		t.Error("the talk page of a cancelled talk has no badge")
	}
	for _, tt := range []struct {
		target string
		badges int
		titles []string
	}{
		{"/?q=soldering", 1, []string{"Soldering with a clothes iron"}},
		{"/?q=soldering&cancelled=exclude", 0, nil},
		{"/?cancelled=only", 1, []string{"Soldering with a clothes iron"}},
	} {
		page := getOK(t, h, tt.target).Body.String()
		if n := strings.Count(page, `<strong class="badge cancelled">Cancelled</strong>`); n != tt.badges {
			t.Errorf("%s: %d badges, want %d", tt.target, n, tt.badges)
		}
		for _, title := range tt.titles {
			if !strings.Contains(page, title) {
				t.Errorf("%s: %q not listed", tt.target, title)
			}
		}
	}
	w := get(t, h, "/api/search?cancelled=maybe")
	if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), `cancelled must be \"exclude\" or \"only\"`) {
		t.Errorf("cancelled=maybe: status %d: %s", w.Code, w.Body)
	}
	var doc SearchDoc
	if err := json.Unmarshal(getOK(t, h, "/api/search?q=soldering").Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Hits) != 1 || doc.Hits[0].ID != "gone" || !doc.Hits[0].Cancelled {
		t.Errorf("API hits %+v, want gone, cancelled", doc.Hits)
	}
}

// TestNowLeavesCancelledOut: at 11:10 the room of the cancelled talk has
// nothing on, and at 10:50 its next talk is the one held after it.
func TestNowLeavesCancelledOut(t *testing.T) {
	h := linkedHandler(t)
	ids := func(ts []talkJSON) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.ID)
		}
		return out
	}
	for _, tt := range []struct {
		at        string
		now, next []string
	}{
		{"2025-02-01T11:10:00+01:00", []string{"held"}, []string{"later"}},
		{"2025-02-01T10:50:00+01:00", nil, []string{"held", "later"}},
	} {
		var got nowJSON
		if err := json.Unmarshal(getOK(t, h, "/api/now?at="+strings.ReplaceAll(tt.at, "+", "%2B")).Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if strings.Join(ids(got.Now), ",") != strings.Join(tt.now, ",") || strings.Join(ids(got.Next), ",") != strings.Join(tt.next, ",") {
			t.Errorf("at %s: now %v next %v, want %v and %v", tt.at, ids(got.Now), ids(got.Next), tt.now, tt.next)
		}
	}
	if page := getOK(t, h, "/now?at=2025-02-01T11:10:00%2B01:00").Body.String(); strings.Contains(page, "Soldering") {
		t.Error("the now page lists the cancelled talk")
	}
}

// TestAgendaNoClashWithCancelled: an agenda holding a cancelled talk and
// one held at the same time warns of no overlap.
func TestAgendaNoClashWithCancelled(t *testing.T) {
	h := linkedHandler(t)
	var got agendaJSON
	if err := json.Unmarshal(getOK(t, h, "/api/agenda?ids=gone,held").Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	cancelled := map[string]bool{}
	for _, tk := range got.Talks {
		cancelled[tk.ID] = tk.Cancelled
	}
	if len(got.Talks) != 2 || len(got.Overlaps) != 0 || !cancelled["gone"] || cancelled["held"] {
		t.Errorf("talks %+v, overlaps %v; want both, gone cancelled, no overlap", got.Talks, got.Overlaps)
	}
	// Held, the two would overlap.
	talks := linkedTalks()
	gone, held := talks[1], talks[2]
	gone.Cancelled = false
	if !overlapping(&gone, &held) {
		t.Error("the two talks do not overlap even when both are held: the test shows nothing")
	}
}

// TestCalendarAttachments: a talk's .ics carries its recordings and slides
// with web addresses as ATTACH, read back by an independent parser, URL
// staying the talk's page; a cancelled talk's event is CANCELLED.
func TestCalendarAttachments(t *testing.T) {
	h := linkedHandler(t)
	read := func(target string) []ical.Event {
		cal, err := ical.NewDecoder(bytes.NewReader(getOK(t, h, target).Body.Bytes())).Decode()
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		return cal.Events()
	}
	events := read("/talks/knobs.ics")
	if len(events) != 1 {
		t.Fatalf("%d events", len(events))
	}
	var got []string
	for _, p := range events[0].Props.Values(ical.PropAttach) {
		got = append(got, p.Value+" "+p.Params.Get(ical.ParamFormatType))
	}
	want := []string{
		"https://media.example.net/knobs.webm video/webm",
		"https://media.example.net/knobs.mp4 ",
		"https://mhc.example.net/knobs.pdf ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("ATTACH\n got %q\nwant %q", got, want)
	}
	if u := events[0].Props.Get(ical.PropURL); u == nil || u.Value != "http://example.com/talks/knobs" {
		t.Errorf("URL %v, want the talk's page", u)
	}
	if s := events[0].Props.Get(ical.PropStatus); s != nil {
		t.Errorf("STATUS %q on a talk held", s.Value)
	}
	events = read("/agenda.ics?ids=gone,held")
	if len(events) != 2 {
		t.Fatalf("agenda: %d events", len(events))
	}
	for _, e := range events {
		uid := e.Props.Get(ical.PropUID).Value
		status := e.Props.Get(ical.PropStatus)
		if cancelled := status != nil && status.Value == "CANCELLED"; cancelled != (uid == "gone@talksearch") {
			t.Errorf("%s: STATUS %v", uid, status)
		}
	}
}

// TestScheduleXMLLinksAndCancelled: the frab schedule carries the web
// links (recordings and slides as links: the schema has no attachments),
// says CANCELLED in a cancelled talk's title, and still validates.
func TestScheduleXMLLinksAndCancelled(t *testing.T) {
	h := linkedHandler(t)
	w := getFrab(t, h, "mhc-2025")
	if w.Code != http.StatusOK {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	validateFrab(t, w.Body.Bytes())
	events := checkEvents(t, decodeFrab(t, w.Body.Bytes()))
	byslug := map[string]frabEvent{}
	for _, e := range events {
		byslug[e.Slug] = e
	}
	var got []string
	for _, l := range byslug["knobs"].Links {
		got = append(got, l.Href+" "+l.Text)
	}
	want := []string{
		"http://example.com/talks/knobs talksearch",
		"https://media.example.net/knobs.webm Video recording (WebM)",
		"https://media.example.net/knobs.mp4 Video recording (MP4)",
		"https://mhc.example.net/knobs.pdf Slides <b>PDF</b>",
		"https://git.example.net/knobs Link",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("links\n got %q\nwant %q", got, want)
	}
	if byslug["gone"].Title != "CANCELLED: Soldering with a clothes iron" || byslug["held"].Title != "Mesh networks in vineyards" {
		t.Errorf("titles %q, %q", byslug["gone"].Title, byslug["held"].Title)
	}
}

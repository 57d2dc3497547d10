package web

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/emersion/go-ical"

	"github.com/talksearch/talksearch/index"
)

// hostileTalks carry in every text field what a schedule's editor could
// put there to steer a calendar file: line breaks that would start a
// property or an event of their own, bare CRs, NUL and ESC, bidirectional
// overrides, and links of other schemes or with line breaks.
func hostileTalks() []*index.Talk {
	start := time.Date(2026, 4, 8, 10, 0, 0, 0, time.UTC)
	end := start.Add(30 * time.Minute)
	inject := "\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:evil@x\r\nSUMMARY:Injected event\r\nATTENDEE:mailto:a@b.c\r\n"
	var out []*index.Talk
	for i, u := range []string{
		"https://example.org/talk" + inject,
		"https://example.org/a\r\nATTACH:https://evil.example/x",
		"javascript:alert(1)",
		"data:text/html,<script>alert(1)</script>",
		"https://example.org/fine",
		"//example.org/no-scheme",
	} {
		out = append(out, &index.Talk{
			ID: "talk-" + string(rune('a'+i)), Title: "Title" + inject + "\x00\x1b[31m\u202eevil",
			Abstract: "Abstract\rwith a bare CR" + inject,
			Speakers: []index.Speaker{{Name: "Ada\r\nATTENDEE:mailto:x@y.z", Affiliation: "Org;X,Y"}},
			Track:    "Track" + inject, Room: "Room\r\nLOCATION:elsewhere",
			Conference: index.Conference{ID: "c", Name: "Conf\x00"},
			URL:        u, Start: &start, End: &end, Kind: index.KindTalk, Scheduled: true,
		})
	}
	return out
}

// TestCalendarCannotBeSteeredByData: every hostile talk written into a
// calendar is one event, read back by an independent iCalendar parser,
// with no property but those written, no control character but a line
// break in its text, and only http(s) links (others replaced by the talk's
// page on the site).
func TestCalendarCannotBeSteeredByData(t *testing.T) {
	s := &server{opts: Options{}.withDefaults()}
	talks := hostileTalks()
	body := s.writeCalendar(calendarFile{name: "My agenda\r\nMETHOD:CANCEL"}, talks, "http://127.0.0.1:8080")
	cal, err := ical.NewDecoder(bytes.NewReader(body)).Decode()
	if err != nil {
		t.Fatalf("an independent parser refuses the file: %v\n%s", err, body)
	}
	written := map[string]bool{"UID": true, "DTSTAMP": true, "DTSTART": true, "DTEND": true, "SUMMARY": true,
		"LOCATION": true, "DESCRIPTION": true, "URL": true, "CATEGORIES": true}
	events := cal.Events()
	if len(events) != len(talks) {
		t.Fatalf("%d events for %d talks:\n%s", len(events), len(talks), body)
	}
	if m := cal.Props.Get(ical.PropMethod); m == nil || m.Value != "PUBLISH" {
		t.Errorf("METHOD %v, want PUBLISH", m)
	}
	for i, e := range events {
		for name, props := range e.Props {
			if !written[name] || len(props) != 1 {
				t.Errorf("event %d: property %s ×%d, written: none of the data's", i, name, len(props))
			}
			for _, p := range props {
				if strings.IndexFunc(p.Value, func(r rune) bool { return r != '\n' && unicode.IsControl(r) }) >= 0 || strings.ContainsRune(p.Value, '\u202e') {
					t.Errorf("event %d: %s %q holds a control character or an override", i, name, p.Value)
				}
			}
		}
		if uid := e.Props.Get(ical.PropUID); uid == nil || uid.Value != talks[i].ID+"@talksearch" {
			t.Errorf("event %d: UID %v", i, uid)
		}
		u := e.Props.Get(ical.PropURL).Value
		want := "http://127.0.0.1:8080/talks/" + talks[i].ID
		if talks[i].URL == "https://example.org/fine" {
			want = talks[i].URL
		}
		if u != want {
			t.Errorf("event %d: URL %q, want %q", i, u, want)
		}
		if sum, err := e.Props.Get(ical.PropSummary).Text(); err != nil || !strings.HasPrefix(sum, "Title\n") || !strings.Contains(sum, "SUMMARY:Injected event") {
			t.Errorf("event %d: SUMMARY %q, want the title's text kept as text", i, sum)
		}
	}
}

// FuzzCalendarWriter: whatever a talk's text and link, its calendar is one
// event that an independent parser reads back with the properties written
// and no other.
func FuzzCalendarWriter(f *testing.F) {
	f.Add("Title\r\nEND:VEVENT", "https://example.org/x\r\nATTACH:y", "Room;A,B\\C", "Ada\x00\x1b")
	f.Add("\u202eevil", "javascript:alert(1)", "", "")
	s := &server{opts: Options{}.withDefaults()}
	start := time.Date(2026, 4, 8, 10, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, title, link, room, speaker string) {
		tk := &index.Talk{ID: "talk-a", Title: title, URL: link, Room: room, Track: room,
			Speakers: []index.Speaker{{Name: speaker}}, Abstract: title + link, Start: &start, Kind: index.KindTalk}
		body := s.writeCalendar(calendarFile{name: title}, []*index.Talk{tk}, "http://127.0.0.1:8080")
		cal, err := ical.NewDecoder(bytes.NewReader(body)).Decode()
		if err != nil {
			t.Fatalf("unreadable calendar: %v\n%q", err, body)
		}
		if n := len(cal.Events()); n != 1 {
			t.Fatalf("%d events\n%s", n, body)
		}
		for name := range cal.Events()[0].Props {
			switch name {
			case "UID", "DTSTAMP", "DTSTART", "SUMMARY", "LOCATION", "DESCRIPTION", "URL", "CATEGORIES":
			default:
				t.Fatalf("property %s of the data's making\n%s", name, body)
			}
		}
	})
}

package ingest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
)

func TestCancelledTitle(t *testing.T) {
	for _, tt := range []struct {
		name, title, want string
		cancelled         bool
	}{
		{"capitals and a space", "CANCELLED Usability made simple", "Usability made simple", true},
		{"colon", "CANCELLED: Cockpit for servers", "Cockpit for servers", true},
		{"dash", "CANCELLED - Community translations", "Community translations", true},
		{"brackets, American spelling", "[CANCELED] Debugging in WebAssembly", "Debugging in WebAssembly", true},
		{"parentheses, lower case", "(cancelled) Funding the commons", "Funding the commons", true},
		{"colon in any case", "Cancelled: Mesh routing", "Mesh routing", true},
		{"a word of the title", "Cancelling POSIX syscalls", "Cancelling POSIX syscalls", false},
		{"another word in capitals", "CANCELLATION Strategy for outreach", "CANCELLATION Strategy for outreach", false},
		{"the word in lower case alone", "Cancelled flights and open data", "Cancelled flights and open data", false},
		{"a mark further on", "A PID controller - CANCELLED, replaced by a panel", "A PID controller - CANCELLED, replaced by a panel", false},
		{"the mark alone", "CANCELLED", "CANCELLED", false},
		{"the mark and a colon alone", "[CANCELLED]: ", "[CANCELLED]: ", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := CancelledTitle(tt.title)
			if got != tt.want || ok != tt.cancelled {
				t.Errorf("CancelledTitle(%q) = %q, %v; want %q, %v", tt.title, got, ok, tt.want, tt.cancelled)
			}
		})
	}
}

// TestStructuredMergeKeepsLinks: one session read from a schedule XML and
// from an iCalendar export of it is one talk with the links of both, each
// address once, recordings first, cancelled because the calendar says so.
func TestStructuredMergeKeepsLinks(t *testing.T) {
	dir := t.TempDir()
	xmlFile := `<?xml version="1.0" encoding="UTF-8"?>
<schedule><conference><acronym>mhc-2024</acronym><title>mhc-2024</title><time_zone_name>Europe/Berlin</time_zone_name></conference>
<day date="2024-03-09"><room name="Hall"><event id="7">
<date>2024-03-09T10:00:00+01:00</date><duration>00:30</duration><room>Hall</room>
<title>Knobs and Encoders</title><type>talk</type><abstract>Turning things.</abstract>
<attachments><attachment type="slides" href="https://mhc.example.net/s.pdf">Slides</attachment></attachments>
<links><link href="https://mhc.example.net/project">Project</link></links>
</event></room></day></schedule>
`
	icsFile := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:7@mhc\r\nDTSTAMP:20240301T000000Z\r\n" +
		"DTSTART:20240309T090000Z\r\nDTEND:20240309T093000Z\r\nSUMMARY:Knobs and Encoders\r\nSTATUS:CANCELLED\r\n" +
		"ATTACH:https://mhc.example.net/s.pdf\r\nATTACH;FMTTYPE=video/mp4:https://media.mhc.example.net/7.mp4\r\n" +
		"END:VEVENT\r\nEND:VCALENDAR\r\n"
	for name, data := range map[string]string{"mhc-2024.xml": xmlFile, "mhc-2024.ics": icsFile} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := LoadPaths([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Talks) != 1 {
		t.Fatalf("%d talks, want 1 (warnings %v)", len(c.Talks), c.Report.Warnings)
	}
	tk := c.Talks[0]
	want := []index.Link{
		{Kind: index.LinkRecording, URL: "https://media.mhc.example.net/7.mp4", MIMEType: "video/mp4"},
		{Kind: index.LinkSlides, Title: "Slides", URL: "https://mhc.example.net/s.pdf"},
		{Kind: index.LinkOther, Title: "Project", URL: "https://mhc.example.net/project"},
	}
	if d := cmp.Diff(want, tk.Links); d != "" || !tk.Cancelled || len(tk.Sources) != 2 {
		t.Errorf("cancelled %v, sources %v, links (-want +got):\n%s", tk.Cancelled, tk.Sources, d)
	}
}

// TestSchedMergeKeepsLinks: a session repeated on two schedule pages keeps
// the links of both, once each, and is cancelled when either page says so.
func TestSchedMergeKeepsLinks(t *testing.T) {
	at := time.Date(2026, 4, 8, 9, 0, 0, 0, time.UTC)
	one := index.Talk{ID: "knobs-1", Title: "Knobs", Start: &at, Scheduled: true, Sources: []string{"a.txt"}, ReadFrom: []string{"a.txt"},
		Links: []index.Link{{Kind: index.LinkSlides, URL: "https://x.example/s.pdf"}}}
	two := index.Talk{ID: "knobs-1", Title: "CANCELLED Knobs", Start: &at, Scheduled: true, Sources: []string{"b.txt"}, ReadFrom: []string{"b.txt"},
		Links: []index.Link{{Kind: index.LinkSlides, URL: "https://x.example/s.pdf"}, {Kind: index.LinkRecording, URL: "https://x.example/v.webm"}}}
	m := newMerger()
	m.addScheduled(one)
	m.addScheduled(two)
	if len(m.talks) != 1 {
		t.Fatalf("%d talks, want 1", len(m.talks))
	}
	got := m.talks[0].talk
	want := []index.Link{{Kind: index.LinkRecording, URL: "https://x.example/v.webm"}, {Kind: index.LinkSlides, URL: "https://x.example/s.pdf"}}
	if d := cmp.Diff(want, got.Links); d != "" || !got.Cancelled || got.Title != "Knobs" || len(got.Sources) != 2 {
		t.Errorf("title %q cancelled %v sources %v, links (-want +got):\n%s", got.Title, got.Cancelled, got.Sources, d)
	}
}

// TestJSONLinesRoundTripLinks: the links and the cancellation of the
// fixtures are exported and read back unchanged, byte for byte.
func TestJSONLinesRoundTripLinks(t *testing.T) {
	c, err := LoadPaths([]string{filepath.Join(formatsDir, "frab-cancelled.xml"), filepath.Join(formatsDir, "pretalx-resources.json")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	first := exportJSONL(t, c.Talks)
	file := filepath.Join(t.TempDir(), "talks.jsonl")
	if err := os.WriteFile(file, first, 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := LoadPaths([]string{file}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(first), string(exportJSONL(t, back.Talks))); d != "" {
		t.Errorf("export of the import differs (-first +second):\n%s", d)
	}
	cancelled, links := 0, 0
	for _, tk := range back.Talks {
		if tk.Cancelled {
			cancelled++
		}
		links += len(tk.Links)
	}
	if len(back.Talks) != 9 || cancelled != 4 || links != 11 {
		t.Errorf("%d talks, %d cancelled, %d links; want 9, 4, 11", len(back.Talks), cancelled, links)
	}
}

// TestJSONLinesLinksLoosely: links written by hand are read as the
// readers make them: a kind talksearch does not have is read from the
// link, an address without one is dropped, a repeated address kept once,
// recordings first.
func TestJSONLinesLinksLoosely(t *testing.T) {
	data := []byte(`{"id":"a-1","title":"One","kind":"talk","links":[` +
		`{"kind":"link","title":"Slides (PDF)","url":"https://x.example/s.pdf"},` +
		`{"kind":"video","url":"https://x.example/v.mp4","mime_type":"Video/MP4; codecs=avc1"},` +
		`{"kind":"slides","url":"https://x.example/s.pdf"},` +
		`{"kind":"recording","title":"no address","url":""}]}` + "\n")
	talks, warns, err := ReadFile("x.jsonl", data, Options{})
	if err != nil || len(warns) != 0 || len(talks) != 1 {
		t.Fatalf("%d talks, warnings %v, err %v", len(talks), warns, err)
	}
	want := []index.Link{
		{Kind: index.LinkRecording, URL: "https://x.example/v.mp4", MIMEType: "video/mp4"},
		{Kind: index.LinkSlides, Title: "Slides (PDF)", URL: "https://x.example/s.pdf"},
	}
	if d := cmp.Diff(want, talks[0].Links); d != "" {
		t.Errorf("links (-want +got):\n%s", d)
	}
}

// TestSharedFosdemCancelled counts the talks of the FOSDEM archive whose
// titles mark them cancelled, and checks that every one lost its mark.
func TestSharedFosdemCancelled(t *testing.T) {
	dir := sharedDataset(t, "fosdem")
	c, err := LoadPaths([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cancelled, withLinks, recordings := 0, 0, 0
	for _, tk := range c.Talks {
		if tk.Cancelled {
			cancelled++
			if _, again := CancelledTitle(tk.Title); again {
				t.Errorf("%s: title %q still marked", tk.ID, tk.Title)
			}
		}
		if len(tk.Links) > 0 {
			withLinks++
		}
		if len(tk.Links) > 0 && tk.Links[0].Kind == index.LinkRecording {
			recordings++
		}
	}
	t.Logf("%d talks: %d cancelled, %d with links, %d with a recording", len(c.Talks), cancelled, withLinks, recordings)
	if cancelled != fosdemCancelled {
		t.Errorf("%d cancelled talks, want %d", cancelled, fosdemCancelled)
	}
}

// fosdemCancelled are the archive's titles marked cancelled: "CANCELLED
// …" (17), "CANCELLED: …" (2), "CANCELLED - …" (2), "CANCELED …" (1),
// "[CANCELED] …" (1) and "(CANCELLED) …" (1). Titles that only mention
// a cancellation ("… (REPLACES CANCELLED TALK)", "… - CANCELLED, replaced
// by …", "Informal discussion (original talk cancelled)") are not.
const fosdemCancelled = 24

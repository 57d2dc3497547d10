package ingest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// brokenSchedule has two syntax errors: an unescaped "&" in event 2 and
// a bare "<" in event 4, the last of its day; events 3 and 5 are
// start-only, so they need the date of the <day> they are in.
const brokenSchedule = `<?xml version="1.0" encoding="UTF-8"?>
<schedule>
<conference><title>Broken</title><time_zone_name>Europe/Brussels</time_zone_name></conference>
<day date="2025-02-01" index="1">
<room name="A">
<event id="1"><start>10:00</start><duration>00:30</duration><title>One</title><abstract>Fine.</abstract></event>
<event id="2"><start>11:00</start><duration>00:30</duration><title>Two</title><abstract>R&D at scale</abstract></event>
<event id="3"><start>12:00</start><duration>00:30</duration><title>Three</title></event>
</room>
<room name="B">
<event id="4"><start>13:00</start><title>Four</title><abstract>a < b</abstract></event>
</room>
</day>
<day date="2025-02-02" index="2">
<room name="A">
<event id="5"><start>09:00</start><duration>00:30</duration><title>Five</title></event>
</room>
</day>
</schedule>
`

// TestXMLSyntaxErrorCostsTheEvent: a syntax error in a frab XML file
// costs the event it breaks: the events before and after it are read,
// each in its day, with one warning per error naming it, its line and
// where reading resumed.
func TestXMLSyntaxErrorCostsTheEvent(t *testing.T) {
	c, err := LoadFS(mapFS("broken.xml", brokenSchedule), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tk := range c.Talks {
		got = append(got, tk.SourceID+" "+tk.Title+" "+tk.Start.Format(time.RFC3339))
	}
	want := []string{"1 One 2025-02-01T10:00:00+01:00", "3 Three 2025-02-01T12:00:00+01:00", "5 Five 2025-02-02T09:00:00+01:00"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("talks (-want +got):\n%s", d)
	}
	wantWarns := []Warning{
		{File: "broken.xml", Line: 7, Dropped: 1, Msg: "XML syntax error: invalid character entity &D (no semicolon): that event not read; read on from line 8 (the next <event>)"},
		{File: "broken.xml", Line: 11, Dropped: 1, Msg: "XML syntax error: expected element name after <: that event not read; read on from line 14 (the next <day>)"},
	}
	if d := cmp.Diff(wantWarns, c.Report.Warnings); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
}

// TestXMLCutShortKeepsTheEventsBefore: a file cut inside an event keeps
// the events before the cut, with one warning at the cut that says the
// rest was not read (Cut), so that a reload can refuse such a copy.
func TestXMLCutShortKeepsTheEventsBefore(t *testing.T) {
	full, err := os.ReadFile(filepath.Join(formatsDir, "frab-devroom.xml"))
	if err != nil {
		t.Fatal(err)
	}
	whole, _, err := ReadFile("devroom.xml", full, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Cut in the middle of the third event's title.
	third := 0
	for range 3 {
		third += bytes.Index(full[third+1:], []byte("<event ")) + 1
	}
	title := third + bytes.Index(full[third:], []byte("<title>")) + len("<title>") + 3
	cut := full[:title]
	talks, warns, err := ReadFile("devroom.xml", cut, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(talks) != 2 || talks[0].ID != whole[0].ID || talks[1].ID != whole[1].ID {
		t.Errorf("%d talks from the cut file, want the first 2 of %d", len(talks), len(whole))
	}
	line := bytes.Count(cut, []byte("\n")) + 1
	want := []Warning{{File: "devroom.xml", Line: line, Dropped: 1, Cut: true,
		Msg: "XML syntax error: unexpected EOF: the file ends before its elements close (cut short?); the events before kept"}}
	if d := cmp.Diff(want, warns); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}

	// A break with nothing to resume at: the rest is not read either.
	tail := strings.Replace(brokenSchedule, "<title>Five</title>", "<title>Five</titl>", 1)
	talks, warns, err = ReadFile("tail.xml", []byte(tail), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(talks) != 2 {
		t.Errorf("%d talks, want 2 (One, Three)", len(talks))
	}
	if n := len(warns); n != 3 || !warns[2].Cut || warns[2].Line != 16 ||
		warns[2].Msg != "XML syntax error: element <title> closed by </titl>: the rest of the file not read (no <event>, <day> or <room> after it to read on from); the events before kept" {
		t.Errorf("warnings %v, want the third at line 16 saying the rest was not read", warns)
	}
}

// TestXMLBreakInLatin1DoesNotResume: in a declared encoding other than
// UTF-8, decoded offsets are not the file's: no resume, the rest unread.
func TestXMLBreakInLatin1DoesNotResume(t *testing.T) {
	latin := strings.Replace(brokenSchedule, `encoding="UTF-8"`, `encoding="ISO-8859-1"`, 1)
	latin = strings.Replace(latin, "<title>One</title>", "<title>Caf\xe9</title>", 1)
	talks, warns, err := ReadFile("latin.xml", []byte(latin), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(talks) != 1 || talks[0].Title != "Café" {
		t.Errorf("talks %v, want Café alone", talks)
	}
	if len(warns) != 1 || !warns[0].Cut || warns[0].Line != 7 {
		t.Errorf("warnings %v, want one at line 7 cutting the rest", warns)
	}
}

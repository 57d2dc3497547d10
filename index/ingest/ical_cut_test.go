package ingest

import (
	"strings"
	"testing"
)

// TestICalCutShort: a calendar that stops before END:VCALENDAR (a download
// cut short) is read up to its last whole event, with a file-wide warning
// (line 0), which a fetched copy is refused for; a whole one has none.
func TestICalCutShort(t *testing.T) {
	whole := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" +
		"BEGIN:VEVENT\r\nUID:a@x\r\nDTSTART:20260408T100000Z\r\nDTEND:20260408T103000Z\r\nSUMMARY:First talk\r\nEND:VEVENT\r\n" +
		"BEGIN:VEVENT\r\nUID:b@x\r\nDTSTART:20260408T110000Z\r\nDTEND:20260408T113000Z\r\nSUMMARY:Second talk\r\nEND:VEVENT\r\n" +
		"END:VCALENDAR\r\n"
	cut := whole[:strings.Index(whole, "SUMMARY:Second")]
	for _, tc := range []struct {
		name       string
		data       string
		talks      int
		fileWarned bool
	}{{"whole", whole, 2, false}, {"cut in the second event", cut, 1, true}} {
		talks, warns, err := iCalendar{}.Read("cal.ics", []byte(tc.data), Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		fileWarned := false
		for _, w := range warns {
			fileWarned = fileWarned || (w.Line == 0 && strings.Contains(w.Msg, "END:VCALENDAR"))
		}
		if len(talks) != tc.talks || fileWarned != tc.fileWarned {
			t.Errorf("%s: %d talks, file-wide warning %v; want %d, %v (%v)", tc.name, len(talks), fileWarned, tc.talks, tc.fileWarned, warns)
		}
	}
}

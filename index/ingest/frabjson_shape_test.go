package ingest

import (
	"strings"
	"testing"
)

// TestFrabJSONDayFieldsOfAWrongShape: a day whose rooms are not an object,
// a room whose events are not a list, a date that is not a text: each
// costs that field with a warning at its line, and the other days' and
// rooms' talks are read.
func TestFrabJSONDayFieldsOfAWrongShape(t *testing.T) {
	doc := `{"schedule": {"conference": {"title": "Shapes Conf", "acronym": "shapes", "time_zone_name": "Europe/Berlin", "days": [
  {"index": 1, "date": "2026-05-01", "rooms": {
    "Hall A": [{"id": 1, "guid": "g1", "title": "First talk", "start": "10:00", "duration": "00:30", "date": "2026-05-01T10:00:00+02:00", "persons": []}],
    "Hall B": {"oops": true}
  }},
  {"index": 2, "date": 20260502, "rooms": [1, 2, 3]},
  {"index": 3, "date": "2026-05-03", "rooms": {
    "Hall A": [{"id": 3, "guid": "g3", "title": "Third talk", "start": "11:00", "duration": "00:30", "date": "2026-05-03T11:00:00+02:00", "persons": []}]
  }}
]}}}`
	talks, warns, err := frabJSON{}.Read("shapes.json", []byte(doc), Options{})
	if err != nil {
		t.Fatalf("the file is lost to one field: %v", err)
	}
	var titles []string
	for _, tk := range talks {
		titles = append(titles, tk.Title)
	}
	if strings.Join(titles, "|") != "First talk|Third talk" {
		t.Errorf("talks %q, want First talk and Third talk", titles)
	}
	want := map[string]int{`room "Hall B" is not a list of events`: 4, "the day's date is not a text": 6, "the day's rooms is not an object of rooms": 6}
	for _, w := range warns {
		for msg, line := range want {
			if strings.HasPrefix(w.Msg, msg) && w.Line == line {
				delete(want, msg)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("warnings %v lack %v", warns, want)
	}
}

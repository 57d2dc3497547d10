package web

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
)

// TestScheduleGrid builds the grid of hand-made talks over two days: a
// session of the whole day goes above the grid, two overlapping sessions of
// one room share a cell, cells span the rows they cover, rooms with more
// sessions come first (ties by name), and rows where no cell starts are
// marked so a phone can fold them.
func TestScheduleGrid(t *testing.T) {
	cest := time.FixedZone("CEST", 2*60*60)
	slot := func(id, room, day, from, to string) index.Talk {
		s, _ := time.ParseInLocation("2006-01-02 15:04", day+" "+from, cest)
		e, _ := time.ParseInLocation("2006-01-02 15:04", day+" "+to, cest)
		return index.Talk{ID: id, Title: "Talk " + id, Room: room, Start: &s, End: &e, Scheduled: true, Kind: index.KindTalk}
	}
	talks := []index.Talk{
		slot("expo", "Hall", "2026-04-08", "08:00", "17:00"),
		slot("a", "Stage", "2026-04-08", "09:00", "09:30"),
		slot("b", "Room 1", "2026-04-08", "09:00", "09:10"),
		slot("coffee", "Hall", "2026-04-08", "09:10", "09:40"),
		slot("meetup", "Hall", "2026-04-08", "09:20", "09:50"),
		slot("c", "Stage", "2026-04-08", "09:30", "10:00"),
		slot("d", "Stage", "2026-04-09", "09:00", "09:30"),
		{ID: "u", Title: "Abstract only"},
	}
	s := &server{opts: Options{}.withDefaults()}
	cat := newCatalog(1, pointers(talks), s.local)
	at := time.Date(2026, 4, 8, 9, 25, 0, 0, cest)
	v := s.scheduleView(cat, "2026-04-08", at, nil)

	if len(v.AllDay) != 1 || v.AllDay[0].ID != "expo" {
		t.Errorf("all day %+v, want the expo", v.AllDay)
	}
	if diff := cmp.Diff([]string{"Hall", "Stage", "Room 1"}, v.Rooms); diff != "" {
		t.Errorf("rooms (-want +got):\n%s", diff)
	}
	var days []string
	for _, d := range v.Days {
		days = append(days, fmt.Sprintf("%s %s %v", d.Label, d.URL, d.Current))
	}
	if diff := cmp.Diff([]string{"Wed 8 Apr /schedule?day=2026-04-08 true", "Thu 9 Apr /schedule?day=2026-04-09 false"}, days); diff != "" {
		t.Errorf("days (-want +got):\n%s", diff)
	}
	// One line per row: time, mark, then each cell as room:talks/span
	// ("-" an empty cell); covered rows have no cell.
	var rows []string
	for _, r := range v.Rows {
		line := r.Time
		if !r.Starts {
			line += " (ends)" // no cell starts here
		}
		if r.Now {
			line += " NOW"
		}
		for _, c := range r.Cells {
			if c.Empty {
				line += " " + c.Room + ":-"
				continue
			}
			var ids []string
			for _, ct := range c.Talks {
				ids = append(ids, ct.ID)
			}
			run := ""
			if c.Running {
				run = "*"
			}
			line += fmt.Sprintf(" %s:%s/%d%s", c.Room, strings.Join(ids, "+"), c.Span, run)
		}
		rows = append(rows, line)
	}
	want := []string{
		"09:00 Hall:- Stage:a/3* Room 1:b/1",
		"09:10 Hall:coffee+meetup/4* Room 1:-",
		// The meetup starts here but shares the coffee's cell, which
		// names its time: no cell starts in this row.
		"09:20 (ends) NOW Room 1:-",
		"09:30 Stage:c/3 Room 1:-",
		"09:40 (ends) Room 1:-",
		"09:50 (ends) Hall:- Room 1:-",
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if v.NowAt != "09:25" {
		t.Errorf("now at %q", v.NowAt)
	}
	// The second day, and a day without talks.
	if v := s.scheduleView(cat, "2026-04-09", at, nil); len(v.Rows) != 1 || len(v.AllDay) != 0 || v.NowAt != "" {
		t.Errorf("9 April: %d rows, %d all day, now %q", len(v.Rows), len(v.AllDay), v.NowAt)
	}
	if v := s.scheduleView(cat, "2026-04-10", at, nil); len(v.Rows) != 0 {
		t.Errorf("10 April: %d rows", len(v.Rows))
	}
	if got := defaultDay(cat.days, "2026-04-09"); got != "2026-04-09" {
		t.Errorf("default day during the conference: %s", got)
	}
	if got := defaultDay(cat.days, "2026-05-01"); got != "2026-04-08" {
		t.Errorf("default day after it: %s", got)
	}
}

// A cancelled session keeps its place in the grid, marked, and is never
// "on now".
func TestScheduleGridCancelled(t *testing.T) {
	cest := time.FixedZone("CEST", 2*60*60)
	s := time.Date(2026, 4, 8, 9, 0, 0, 0, cest)
	e := s.Add(30 * time.Minute)
	talks := []index.Talk{
		{ID: "on", Title: "Held", Room: "Stage", Start: &s, End: &e, Scheduled: true, Kind: index.KindTalk},
		{ID: "off", Title: "Called off", Room: "Hall", Start: &s, End: &e, Scheduled: true, Kind: index.KindTalk, Cancelled: true},
	}
	srv := &server{opts: Options{}.withDefaults()}
	v := srv.scheduleView(newCatalog(1, pointers(talks), srv.local), "2026-04-08", s.Add(10*time.Minute), nil)
	got := map[string]string{}
	for _, r := range v.Rows {
		for _, c := range r.Cells {
			for _, ct := range c.Talks {
				got[ct.ID] = fmt.Sprintf("running=%v cancelled=%v", ct.Running, ct.Cancelled)
			}
		}
	}
	want := map[string]string{"on": "running=true cancelled=false", "off": "running=false cancelled=true"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cells (-want +got):\n%s", diff)
	}
}

package index

import (
	"testing"
	"time"
)

// TestClashes pins the one clash rule, with the pairs on which the two
// rules it replaces (related talks': scheduled, rooms compared exactly;
// overlap's: any slot, both rooms, case folded) disagreed marked "was".
func TestClashes(t *testing.T) {
	at := func(hhmm string) *time.Time {
		tm, err := time.Parse("2006-01-02 15:04", "2026-04-08 "+hhmm)
		if err != nil {
			t.Fatal(err)
		}
		return &tm
	}
	talk := func(start, end, room string, scheduled bool) Talk {
		tk := Talk{Room: room, Scheduled: scheduled}
		if start != "" {
			tk.Start = at(start)
		}
		if end != "" {
			tk.End = at(end)
		}
		return tk
	}
	slot := func(start, end, room string) Talk { return talk(start, end, room, true) }
	cancelled := func(tk Talk) Talk { tk.Cancelled = true; return tk }
	tests := []struct {
		name string
		a, b Talk
		want bool
	}{
		{"same time, other room", slot("10:00", "10:30", "A"), slot("10:00", "10:30", "B"), true},
		{"partly overlapping", slot("10:00", "10:30", "A"), slot("10:15", "10:45", "B"), true},
		{"one inside the other", slot("10:00", "11:00", "A"), slot("10:15", "10:30", "B"), true},
		{"back to back", slot("10:00", "10:30", "A"), slot("10:30", "11:00", "B"), false},
		{"same room", slot("10:00", "10:30", "A"), slot("10:00", "10:30", "A"), false},
		{"no end", slot("10:00", "", "A"), slot("10:00", "10:30", "B"), false},
		{"unscheduled, no times", talk("", "", "A", false), slot("10:00", "10:30", "B"), false},
		// was a clash for related talks (rooms compared exactly), not for overlap
		{"same room, spelled differently", slot("10:00", "10:30", "Room A"), slot("10:00", "10:30", " room a "), false},
		// was a clash for related talks ("" differs from "B"), not for overlap
		{"one room unknown", slot("10:00", "10:30", ""), slot("10:00", "10:30", "B"), false},
		// was a clash for overlap (scheduled ignored), not for related talks
		{"times but not scheduled", talk("10:00", "10:30", "A", false), talk("10:00", "10:30", "B", false), false},
		{"one not scheduled", talk("10:00", "10:30", "A", false), slot("10:00", "10:30", "B"), false},
		{"one cancelled", cancelled(slot("10:00", "10:30", "A")), slot("10:00", "10:30", "B"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.a.Clashes(tt.b); got != tt.want {
				t.Errorf("Clashes = %v, want %v", got, tt.want)
			}
			if got := tt.b.Clashes(tt.a); got != tt.want {
				t.Errorf("Clashes reversed = %v, want %v", got, tt.want)
			}
		})
	}
}

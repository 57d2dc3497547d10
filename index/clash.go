package index

import "strings"

// Clashes reports whether one attendee cannot see both t and u: both are
// scheduled, neither is cancelled, each has a full slot (start and end)
// and a room, the rooms differ, and the slots overlap. It is the one rule behind the talk page's
// "clash" flag and the organizers' schedule clashes.
//
// Each condition is there to avoid claiming a clash the data does not show:
// times on a talk the schedule does not place (a submission's wish) are no
// slot; a talk without an end or a room could be a part of the other's
// session; and rooms are compared as people write them, so "Room A" and
// " room a " are one room, not a clash of a session with itself. Slots that
// only touch (one ends as the other starts) leave time to walk.
func (t Talk) Clashes(u Talk) bool {
	if !t.Scheduled || !u.Scheduled || !t.hasSlot() || !u.hasSlot() || t.Cancelled || u.Cancelled {
		return false
	}
	a, b := strings.TrimSpace(t.Room), strings.TrimSpace(u.Room)
	if a == "" || b == "" || strings.EqualFold(a, b) {
		return false
	}
	return t.Start.Before(*u.End) && u.Start.Before(*t.End)
}

func (t Talk) hasSlot() bool { return t.Start != nil && t.End != nil }

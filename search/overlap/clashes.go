package overlap

import (
	"strings"

	"github.com/talksearch/talksearch/index"
)

// SlotsClash reports whether a and b are scheduled at overlapping times in
// different rooms, so one attendee cannot see both. Talks without a full
// slot or a room never clash; two talks in the same room at the same time
// are one session's parts, not a clash.
func SlotsClash(a, b index.Talk) bool {
	if a.Start == nil || a.End == nil || b.Start == nil || b.End == nil || a.Room == "" || b.Room == "" {
		return false
	}
	if strings.EqualFold(strings.TrimSpace(a.Room), strings.TrimSpace(b.Room)) {
		return false
	}
	return a.Start.Before(*b.End) && b.Start.Before(*a.End)
}

// buildClashes turns the clashing pairs (best first) into report clashes.
func (d *detector) buildClashes(pairs []pairInfo) []Clash {
	out := []Clash{}
	for _, p := range pairs {
		a, b := d.talks[p.i], d.talks[p.j]
		start, end := *a.Start, *a.End
		if b.Start.After(start) {
			start = *b.Start
		}
		if b.End.Before(end) {
			end = *b.End
		}
		out = append(out, Clash{
			A: a.ID, B: b.ID, Score: round(p.score),
			TitleA: a.Title, TitleB: b.Title, RoomA: a.Room, RoomB: b.Room,
			Start: start, End: end,
		})
	}
	return out
}

package overlap

import (
	"sort"
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

// buildClashes returns the pairs scoring at least clashMin whose talks
// clash, best first.
func (d *detector) buildClashes(pairs []pairInfo, clashMin float64) []Clash {
	out := []Clash{}
	for _, p := range pairs { // best first
		if p.score < clashMin {
			break
		}
		a, b := d.talks[p.i], d.talks[p.j]
		if !SlotsClash(a, b) {
			continue
		}
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
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}

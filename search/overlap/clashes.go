package overlap

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

package overlap

import (
	"sort"
	"strings"
	"time"

	"github.com/talksearch/talksearch/index"
)

// Kinds of schedule conflict.
const (
	// ConflictSpeaker is one speaker booked in two overlapping slots.
	ConflictSpeaker = "speaker"
	// ConflictTrack is two talks of one track at the same time in
	// different rooms: the track's audience must choose.
	ConflictTrack = "track"
	// ConflictSimilar is two similar talks in parallel (the clashes).
	ConflictSimilar = "similar"
)

// Conflict is a problem of the schedule between two talks.
type Conflict struct {
	Kind    string
	Speaker string // ConflictSpeaker: as the first talk writes the name
	Track   string // ConflictTrack
	A       string
	B       string
	TitleA  string
	TitleB  string
	RoomA   string
	RoomB   string
	// Start and End are the span both talks share.
	Start time.Time
	End   time.Time
	Score float64 // ConflictSimilar: the pair's score
}

// slotsOverlap reports whether both talks have a full slot and the slots
// overlap.
func slotsOverlap(a, b index.Talk) bool {
	return a.Start != nil && a.End != nil && b.Start != nil && b.End != nil &&
		a.Start.Before(*b.End) && b.Start.Before(*a.End)
}

func sharedSpan(a, b index.Talk) (time.Time, time.Time) {
	start, end := *a.Start, *a.End
	if b.Start.After(start) {
		start = *b.Start
	}
	if b.End.Before(end) {
		end = *b.End
	}
	return start, end
}

// conflicts lists the schedule's conflicts: speakers first (a person cannot
// be in two rooms), then tracks, then the similar talks in parallel, each
// kind in time order.
func (d *detector) conflicts(clashes []Clash) []Conflict {
	out := []Conflict{}
	// Speakers: group the scheduled talks by speaker key.
	bySpeaker := map[string][]int{}
	names := map[string]string{}
	for k, t := range d.talks {
		if t.Start == nil || t.End == nil {
			continue
		}
		for _, sp := range t.Speakers {
			// Every key: a person with a code on one talk and only a
			// name on another is still one person (seen below keeps one
			// conflict per pair of talks).
			for _, key := range speakerKeys(sp) {
				if _, ok := names[key]; !ok {
					names[key] = sp.Name
				}
				if l := bySpeaker[key]; len(l) == 0 || l[len(l)-1] != k {
					bySpeaker[key] = append(l, k)
				}
			}
		}
	}
	keys := make([]string, 0, len(bySpeaker))
	for key := range bySpeaker {
		keys = append(keys, key)
	}
	sort.Strings(keys) // ids ("id\x00…") before names: the code's spelling wins
	seen := map[[2]int]bool{}
	for _, key := range keys {
		d.sweep(bySpeaker[key], func(i, j int) {
			if seen[[2]int{i, j}] {
				return // two shared speakers are one conflict
			}
			seen[[2]int{i, j}] = true
			c := d.conflict(ConflictSpeaker, i, j)
			c.Speaker = names[key]
			out = append(out, c)
		})
	}
	// Tracks.
	byTrack := map[string][]int{}
	for k, t := range d.talks {
		if tr := strings.ToLower(strings.TrimSpace(t.Track)); tr != "" && t.Start != nil && t.End != nil {
			byTrack[tr] = append(byTrack[tr], k)
		}
	}
	for _, ks := range byTrack {
		d.sweep(ks, func(i, j int) {
			a, b := d.talks[i], d.talks[j]
			if a.Room == "" || b.Room == "" || strings.EqualFold(strings.TrimSpace(a.Room), strings.TrimSpace(b.Room)) {
				return // one room: the parts of one session
			}
			c := d.conflict(ConflictTrack, i, j)
			c.Track = a.Track
			out = append(out, c)
		})
	}
	sort.SliceStable(out, func(x, y int) bool {
		if out[x].Kind != out[y].Kind {
			return out[x].Kind == ConflictSpeaker
		}
		if !out[x].Start.Equal(out[y].Start) {
			return out[x].Start.Before(out[y].Start)
		}
		if out[x].A != out[y].A {
			return out[x].A < out[y].A
		}
		return out[x].B < out[y].B
	})
	for _, cl := range clashes {
		out = append(out, Conflict{
			Kind: ConflictSimilar, A: cl.A, B: cl.B, TitleA: cl.TitleA, TitleB: cl.TitleB,
			RoomA: cl.RoomA, RoomB: cl.RoomB, Start: cl.Start, End: cl.End, Score: cl.Score,
		})
	}
	return out
}

// sweep calls f(i, j), i before j in the talks' order, for every two talks
// of ks whose slots overlap: sorted by start, each talk only meets those
// starting before it ends.
func (d *detector) sweep(ks []int, f func(i, j int)) {
	if len(ks) < 2 {
		return
	}
	sort.Slice(ks, func(x, y int) bool {
		a, b := d.talks[ks[x]].Start, d.talks[ks[y]].Start
		if !a.Equal(*b) {
			return a.Before(*b)
		}
		return ks[x] < ks[y]
	})
	for x, i := range ks {
		for _, j := range ks[x+1:] {
			if !d.talks[j].Start.Before(*d.talks[i].End) {
				break
			}
			if i == j || !slotsOverlap(d.talks[i], d.talks[j]) {
				continue
			}
			f(min(i, j), max(i, j))
		}
	}
}

func (d *detector) conflict(kind string, i, j int) Conflict {
	a, b := d.talks[i], d.talks[j]
	start, end := sharedSpan(a, b)
	return Conflict{Kind: kind, A: a.ID, B: b.ID, TitleA: a.Title, TitleB: b.Title,
		RoomA: a.Room, RoomB: b.Room, Start: start, End: end}
}

package search

import (
	"strings"
	"time"
	"unique"

	"github.com/talksearch/talksearch/index"
)

// sharer makes the talks of a listing share the values many talks repeat:
// a conference's name and zone, its tracks, rooms and levels, the kinds,
// the slots' times, the seed files, the speakers of several talks. Read
// from JSON or XML every talk has copies of its own, which at 100,000
// talks are a fifth of what the engine keeps of them without their texts.
type sharer struct {
	times    map[time.Time]*time.Time
	sources  map[string][]string
	speakers map[string][]index.Speaker
}

func newSharer() *sharer {
	return &sharer{times: map[time.Time]*time.Time{}, sources: map[string][]string{}, speakers: map[string][]index.Speaker{}}
}

// str is the one copy of s.
func str(s string) string {
	if s == "" {
		return ""
	}
	return unique.Make(s).Value()
}

// share replaces t's repeated values by the copies every talk of the
// listing shares; t's fields keep their values. t must then be treated
// as read-only: its times and lists are another talk's too.
func (sh *sharer) share(t *index.Talk) {
	t.Conference.ID, t.Conference.Name = str(t.Conference.ID), str(t.Conference.Name)
	t.Track, t.Level, t.Room, t.Language = str(t.Track), str(t.Level), str(t.Room), str(t.Language)
	t.TimeZone, t.Kind = str(t.TimeZone), index.Kind(str(string(t.Kind)))
	t.Start, t.End = sh.time(t.Start), sh.time(t.End)
	t.Sources, t.ReadFrom = sh.list(t.Sources), sh.list(t.ReadFrom)
	t.Speakers = sh.people(t.Speakers)
}

// people is the one copy of a list of speakers.
func (sh *sharer) people(l []index.Speaker) []index.Speaker {
	if len(l) == 0 {
		return l
	}
	var b strings.Builder
	for _, s := range l {
		b.WriteString(s.Name + "\x01" + s.Affiliation + "\x01" + s.SourceID + "\x00")
	}
	key := b.String()
	if s, ok := sh.speakers[key]; ok {
		return s
	}
	s := make([]index.Speaker, len(l))
	for i, p := range l {
		s[i] = index.Speaker{Name: str(p.Name), Affiliation: str(p.Affiliation), SourceID: str(p.SourceID)}
	}
	sh.speakers[key] = s
	return s
}

func (sh *sharer) time(tm *time.Time) *time.Time {
	if tm == nil {
		return nil
	}
	if p, ok := sh.times[*tm]; ok {
		return p
	}
	p := new(time.Time)
	*p = *tm
	sh.times[*tm] = p
	return p
}

func (sh *sharer) list(l []string) []string {
	if len(l) == 0 {
		return l
	}
	key := strings.Join(l, "\x00")
	if s, ok := sh.sources[key]; ok {
		return s
	}
	s := make([]string, len(l))
	for i, v := range l {
		s[i] = str(v)
	}
	sh.sources[key] = s
	return s
}

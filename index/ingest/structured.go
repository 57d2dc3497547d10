package ingest

import (
	"strings"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/analysis"
)

// structured dedups the talks of structured files. The same session read
// from two files of one conference (its XML and its iCalendar export: same
// conference, same folded title, same start) is one talk listing both
// files. Talks of different conferences never merge (the same title next
// year is a resubmission), nor do sessions of one title in different
// slots (FOSDEM holds some workshops twice), nor two events of one file.
type structured struct {
	talks       []*sTalk
	byKey       map[string]*sTalk
	conferences map[string]index.Conference
	merges      []Merge
}

type sTalk struct {
	talk      index.Talk
	firstFile string
	// merged is the talk's index in the abstract-dump merger, or -1 when
	// no dumps were loaded.
	merged int
}

func newStructured() *structured {
	return &structured{byKey: map[string]*sTalk{}, conferences: map[string]index.Conference{}}
}

// sessionKey is what makes two records one session.
func sessionKey(t *index.Talk) string {
	k := t.Conference.ID + "|" + strings.Join(analysis.MatchWords(t.Title), " ") + "|"
	if t.Start != nil {
		k += t.Start.UTC().Format("2006-01-02T15:04:05Z")
	}
	return k
}

func (s *structured) add(t index.Talk, file string) {
	s.conferences[t.Conference.ID] = t.Conference
	key := sessionKey(&t)
	if k, ok := s.byKey[key]; ok && !k.readFrom(file) {
		k.talk.ReadFrom = append(k.talk.ReadFrom, file)
		k.fill(t)
		for _, src := range t.Sources {
			if !k.hasSource(src) {
				k.talk.Sources = append(k.talk.Sources, src)
			}
		}
		s.merges = append(s.merges, Merge{TalkID: k.talk.ID, Title: k.talk.Title, File: file})
		return
	}
	t.ReadFrom = []string{file}
	k := &sTalk{talk: t, firstFile: file}
	s.talks = append(s.talks, k)
	if _, ok := s.byKey[key]; !ok {
		s.byKey[key] = k
	}
}

func (k *sTalk) readFrom(file string) bool {
	for _, f := range k.talk.ReadFrom {
		if f == file {
			return true
		}
	}
	return false
}

func (k *sTalk) hasSource(file string) bool {
	for _, s := range k.talk.Sources {
		if s == file {
			return true
		}
	}
	return false
}

// fill takes from o what the talk does not state yet: the first file read
// wins each field, the others only add (links too: the union of both).
func (k *sTalk) fill(o index.Talk) {
	t := &k.talk
	for _, f := range []struct {
		dst *string
		src string
	}{
		{&t.Abstract, o.Abstract}, {&t.Description, o.Description}, {&t.Track, o.Track},
		{&t.Level, o.Level}, {&t.Room, o.Room}, {&t.Language, o.Language}, {&t.URL, o.URL},
		{&t.TimeZone, o.TimeZone},
	} {
		if *f.dst == "" {
			*f.dst = f.src
		}
	}
	if len(t.Speakers) == 0 {
		t.Speakers = o.Speakers
	}
	if t.End == nil {
		t.End = o.End
	}
	// Either record's cancellation is the talk's: a schedule that still
	// lists it was written before.
	t.Cancelled = t.Cancelled || o.Cancelled
	t.AddLinks(o.Links...)
	if t.Kind == index.KindTalk && o.Kind != index.KindTalk {
		t.Kind = o.Kind // a source that states a type knows better than one that states none
	}
}

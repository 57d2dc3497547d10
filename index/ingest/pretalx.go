package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/talksearch/talksearch/index"
)

// pretalxAPI reads a page of the pretalx REST API, /api/events/<event>/
// submissions/ or /talks/: {"count", "next", "previous", "results": [object]}.
type pretalxAPI struct{}

func (pretalxAPI) Name() string { return "pretalx" }

func (pretalxAPI) Detect(head []byte) bool {
	return len(head) > 0 && head[0] == '{' && hasTopKey(head, "results")
}

// i18n is a pretalx text field: a string, or {"en": …, "de": …}. Numbers
// (ids of an unexpanded field) read as no text.
type i18n struct {
	text  string
	langs map[string]string
}

func (t *i18n) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) == 0 || bytes.Equal(b, []byte("null")):
		return nil
	case b[0] == '"':
		return json.Unmarshal(b, &t.text)
	case b[0] == '{':
		return json.Unmarshal(b, &t.langs)
	case b[0] == '-' || (b[0] >= '0' && b[0] <= '9'):
		return nil
	}
	return fmt.Errorf("text %.40s is neither a string nor a {language: text} object", b)
}

// in is the text in the talk's own language, else English, else the first
// language in alphabetical order.
func (t i18n) in(locale string) string {
	if t.langs == nil {
		return t.text
	}
	for _, l := range []string{locale, "en"} {
		if s, ok := t.langs[l]; ok && s != "" {
			return s
		}
	}
	keys := make([]string, 0, len(t.langs))
	for k := range t.langs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if t.langs[k] != "" {
			return t.langs[k]
		}
	}
	return ""
}

// pretalxSpeaker is a speaker object; the unexpanded API gives codes only.
type pretalxSpeaker struct {
	Code string
	Name string
}

func (s *pretalxSpeaker) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &s.Code)
	}
	var o struct {
		Code string `json:"code"`
		Name string `json:"name"`
	}
	err := json.Unmarshal(b, &o)
	s.Code, s.Name = o.Code, o.Name
	return err
}

type pretalxSlot struct {
	Room  i18n   `json:"room"`
	Start string `json:"start"`
	End   string `json:"end"`
}

type pretalxAnswer struct {
	Question struct {
		Question i18n `json:"question"`
	} `json:"question"`
	Answer string `json:"answer"`
}

type pretalxObject struct {
	Code           string           `json:"code"`
	Title          i18n             `json:"title"`
	Speakers       []pretalxSpeaker `json:"speakers"`
	SubmissionType i18n             `json:"submission_type"`
	Track          i18n             `json:"track"`
	State          string           `json:"state"`
	Abstract       i18n             `json:"abstract"`
	Description    i18n             `json:"description"`
	ContentLocale  string           `json:"content_locale"`
	Duration       *int             `json:"duration"`
	Slots          []pretalxSlot    `json:"slots"`
	Slot           *pretalxSlot     `json:"slot"`
	Answers        []pretalxAnswer  `json:"answers"`
}

// droppedStates are submissions no programme will hold: counted in one
// warning per file rather than indexed. Submitted and accepted ones stay
// (a programme committee searches its whole call for papers).
var droppedStates = map[string]bool{"rejected": true, "withdrawn": true, "canceled": true, "cancelled": true, "deleted": true}

func (pretalxAPI) Read(file string, data []byte, opt Options) ([]index.Talk, []Warning, error) {
	if err := checkUTF8(data); err != nil {
		return nil, nil, err
	}
	var (
		talks   []index.Talk
		lines   []int
		warns   []Warning
		dropped = map[string]int{}
		codes   int
		// lines of the first dropped object and of the first speaker
		// without a name, for the summary warnings
		droppedAt, codesAt int
		conf               = conferenceFromName(file)
	)
	dec := json.NewDecoder(bytes.NewReader(data))
	err := walkObject(dec, func(dec *json.Decoder, key string) error {
		if key != "results" {
			return skipValue(dec)
		}
		return walkArray(dec, func(dec *json.Decoder) error {
			line := valueLine(data, dec)
			var o pretalxObject
			if err := dec.Decode(&o); err != nil {
				return err
			}
			if state := strings.ToLower(o.State); droppedStates[state] {
				dropped[state]++
				if droppedAt == 0 {
					droppedAt = line
				}
				return nil
			}
			ts, w, c := o.talks(file, line, conf, opt.TimeZone)
			warns = append(warns, w...)
			codes += c
			if c > 0 && codesAt == 0 {
				codesAt = line
			}
			for _, t := range ts {
				talks = append(talks, t)
				lines = append(lines, line)
			}
			return nil
		})
	})
	if err != nil {
		return nil, warns, jsonError(data, dec, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, warns, fmt.Errorf("line %d: data after the API object", valueLine(data, dec))
	}
	if len(dropped) > 0 {
		var parts []string
		for _, s := range []string{"rejected", "withdrawn", "canceled", "cancelled", "deleted"} {
			if n := dropped[s]; n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", n, s))
			}
		}
		warns = append(warns, Warning{File: file, Line: droppedAt, Msg: "submissions not indexed: " + strings.Join(parts, ", ") + " (the first here)"})
	}
	if codes > 0 {
		warns = append(warns, Warning{File: file, Line: codesAt, Msg: fmt.Sprintf("%d speakers given as codes only, without names (ask the API with ?expand=speakers)", codes)})
	}
	talks, w := assignIDs(file, talks, lines)
	return talks, append(warns, w...), nil
}

// talks makes one talk per slot of the object (one unscheduled talk when
// it has none): a workshop held twice is two sessions. codesOnly counts
// speakers without a name.
func (o *pretalxObject) talks(file string, line int, conf index.Conference, loc *time.Location) ([]index.Talk, []Warning, int) {
	var warns []Warning
	warn := func(format string, args ...any) {
		warns = append(warns, Warning{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	lang := strings.TrimSpace(o.ContentLocale)
	title := cleanLine(o.Title.in(lang))
	if title == "" {
		warn("submission %q without a title: skipped", o.Code)
		return nil, warns, 0
	}
	base := index.Talk{
		Conference:  conf,
		SourceID:    strings.TrimSpace(o.Code),
		Title:       title,
		Abstract:    markdownText(o.Abstract.in(lang)),
		Description: markdownText(o.Description.in(lang)),
		Track:       cleanLine(o.Track.in(lang)),
		Language:    lang,
		// Types are matched by their English name where there is one.
		Kind:    KindOf(o.SubmissionType.in("en")),
		Sources: []string{file},
	}
	codesOnly := 0
	for _, s := range o.Speakers {
		if name := cleanLine(s.Name); name != "" {
			base.Speakers = append(base.Speakers, index.Speaker{Name: name, SourceID: s.Code})
		} else {
			codesOnly++
		}
	}
	for _, a := range o.Answers {
		q := strings.ToLower(a.Question.Question.in(lang))
		if strings.Contains(q, "level") && base.Level == "" {
			base.Level = cleanLine(a.Answer)
		}
	}
	slots := o.Slots
	if len(slots) == 0 && o.Slot != nil {
		slots = []pretalxSlot{*o.Slot}
	}
	var out []index.Talk
	for _, s := range slots {
		if strings.TrimSpace(s.Start) == "" {
			continue // a slot not yet placed in the schedule
		}
		t := base
		t.Room = cleanLine(s.Room.in(lang))
		start, err := time.Parse(time.RFC3339, strings.TrimSpace(s.Start))
		if err != nil {
			warn("submission %q: slot start %q is not RFC 3339 with an offset: slot skipped", o.Code, s.Start)
			continue
		}
		var dur time.Duration
		if end, err := time.Parse(time.RFC3339, strings.TrimSpace(s.End)); err == nil && !end.Before(start) {
			dur = end.Sub(start)
		} else if o.Duration != nil && *o.Duration > 0 {
			dur = time.Duration(*o.Duration) * time.Minute
		}
		slot(&t, start, dur, loc)
		out = append(out, t)
	}
	if len(out) == 0 {
		out = append(out, base)
	}
	return out, warns, codesOnly
}

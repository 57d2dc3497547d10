package ingest

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"golang.org/x/net/html/charset"

	"github.com/talksearch/talksearch/index"
)

// frabXML reads the pentabarf/frab schedule XML that FOSDEM publishes and
// pretalx exports: <schedule><conference/><day date><room name><event id>.
type frabXML struct{}

func (frabXML) Name() string { return "frab-xml" }

// Detect: any XML document. A document whose root is not <schedule> is then
// an error from Read, not an abstract dump.
func (frabXML) Detect(head []byte) bool { return len(head) > 0 && head[0] == '<' }

// maxXMLDepth bounds element nesting: a schedule nests five deep, so a
// much deeper document is no schedule, and reading it would only grow the
// decoder's stack.
const maxXMLDepth = 64

type xmlConference struct {
	Acronym      string `xml:"acronym"`
	Title        string `xml:"title"`
	TimeZoneName string `xml:"time_zone_name"`
	DayChange    string `xml:"day_change"`
}

type xmlPerson struct {
	ID   string `xml:"id,attr"`
	Name string `xml:",chardata"`
}

type xmlEvent struct {
	ID          string      `xml:"id,attr"`
	GUID        string      `xml:"guid,attr"`
	Date        string      `xml:"date"`
	Start       string      `xml:"start"`
	Duration    string      `xml:"duration"`
	Room        string      `xml:"room"`
	URL         string      `xml:"url"`
	Title       string      `xml:"title"`
	Track       string      `xml:"track"`
	Type        string      `xml:"type"`
	Language    string      `xml:"language"`
	Abstract    string      `xml:"abstract"`
	Description string      `xml:"description"`
	Persons     []xmlPerson `xml:"persons>person"`
}

func (frabXML) Read(file string, data []byte, opt Options) ([]index.Talk, []Warning, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	// Encodings other than UTF-8 are read when the document declares them
	// (<?xml encoding="ISO-8859-1"?>); undeclared bytes that are not UTF-8
	// stay an error with their line.
	d.CharsetReader = charset.NewReaderLabel
	// Strict mode knows only the five XML entities and numeric ones: a
	// custom entity (&lol9;) is an error, never an expansion.
	var (
		talks []index.Talk
		lines []int
		warns []Warning
		conf  index.Conference
		loc   *time.Location
		zone  = &fileZone{file: file, opt: opt.TimeZone}
		// dayChange is the time of day (in minutes) before which a
		// start-only event is the next calendar day.
		dayChange int
		day       string
		depth     int
		root      = true
	)
	errAt := func(err error) error {
		line, _ := d.InputPos()
		return fmt.Errorf("line %d: %w", line, err)
	}
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, warns, errAt(err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			line, _ := d.InputPos()
			if root {
				root = false
				if el.Name.Local != "schedule" {
					return nil, nil, fmt.Errorf("line %d: XML with root <%s>, not a pentabarf/frab <schedule>", line, el.Name.Local)
				}
				depth++
				continue
			}
			switch el.Name.Local {
			case "conference":
				var c xmlConference
				if err := d.DecodeElement(&c, &el); err != nil {
					return nil, warns, errAt(err)
				}
				conf = conferenceOf(c.Acronym, c.Title, file)
				if dc := strings.TrimSpace(c.DayChange); dc != "" {
					if m, ok := clockMinutes(dc); ok {
						dayChange = m
					} else {
						warns = append(warns, Warning{File: file, Line: line, Msg: fmt.Sprintf("day_change %q is not HH:MM: ignored", dc)})
					}
				}
				if name := strings.TrimSpace(c.TimeZoneName); name != "" {
					l, err := time.LoadLocation(name)
					if err != nil {
						warns = append(warns, Warning{File: file, Line: line, Msg: fmt.Sprintf("unknown time zone %q", name)})
					} else {
						loc = l
					}
				}
			case "day":
				day = attr(el, "date")
				depth++
			case "room":
				depth++
			case "event":
				var ev xmlEvent
				if err := d.DecodeElement(&ev, &el); err != nil {
					return nil, warns, errAt(err)
				}
				if conf.ID == "" {
					conf = conferenceFromName(file)
				}
				t, w := ev.talk(file, line, day, dayChange, conf, loc, zone)
				warns = append(warns, w...)
				if t != nil {
					talks = append(talks, *t)
					lines = append(lines, line)
				}
			default:
				// <tracks>, <version>, unknown additions: not talks.
				if err := d.Skip(); err != nil {
					return nil, warns, errAt(err)
				}
			}
			if depth > maxXMLDepth {
				return nil, warns, fmt.Errorf("line %d: elements nested deeper than %d", line, maxXMLDepth)
			}
		case xml.EndElement:
			depth--
		}
	}
	if root {
		return nil, nil, errors.New("no XML element")
	}
	talks, w := assignIDs(file, talks, lines)
	return talks, append(warns, w...), nil
}

func attr(el xml.StartElement, name string) string {
	for _, a := range el.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// frabEvent is what frab's XML and JSON both say of an event, its texts as
// the file has them (HTML, Markdown, entities, quotes: see cleanText).
type frabEvent struct {
	id, title, abstract, description, track, room, language, url, kind string
}

// talk is the event's Talk without speakers and slot; nil for an event
// without a title, which cannot be one.
func (e frabEvent) talk(file string, conf index.Conference) *index.Talk {
	title := cleanField(e.title)
	if title == "" {
		return nil
	}
	return &index.Talk{
		Conference:  conf,
		SourceID:    strings.TrimSpace(e.id),
		Title:       title,
		Abstract:    cleanText(e.abstract),
		Description: cleanText(e.description),
		Track:       cleanField(e.track),
		Room:        cleanField(e.room),
		Language:    cleanLine(e.language),
		URL:         strings.TrimSpace(e.url),
		Kind:        KindOf(e.kind),
		Sources:     []string{file},
	}
}

// talk makes the event a Talk; nil (with a warning) for an event that
// cannot be one.
func (ev *xmlEvent) talk(file string, line int, day string, dayChange int, conf index.Conference, loc *time.Location, zone *fileZone) (*index.Talk, []Warning) {
	var warns []Warning
	warn := func(format string, args ...any) {
		warns = append(warns, Warning{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	id := ev.ID
	if strings.TrimSpace(id) == "" {
		id = ev.GUID
	}
	t := frabEvent{id: id, title: ev.Title, abstract: ev.Abstract, description: ev.Description,
		track: ev.Track, room: ev.Room, language: ev.Language, url: ev.URL, kind: ev.Type}.talk(file, conf)
	if t == nil {
		warn("event %q without a title: skipped", strings.TrimSpace(id))
		warns[len(warns)-1].Dropped = 1
		return nil, warns
	}
	title := t.Title
	for _, p := range ev.Persons {
		if name := cleanField(p.Name); name != "" {
			t.Speakers = append(t.Speakers, index.Speaker{Name: name, SourceID: strings.TrimSpace(p.ID)})
		}
	}
	dur, err := parseDuration(ev.Duration)
	if err != nil {
		warn("event %q: %v", title, err)
	}
	switch date, start := strings.TrimSpace(ev.Date), strings.TrimSpace(ev.Start); {
	case date != "":
		at, err := time.Parse(time.RFC3339, date)
		if err != nil {
			warn("event %q: date %q is not RFC 3339: left unscheduled", title, date)
			break
		}
		if loc == nil && zone.opt != nil {
			loc = zone.opt
		}
		slot(t, at, dur, loc)
	case start != "" && day != "":
		l := loc
		if l == nil {
			l = zone.loc(line, "the schedule (no <time_zone_name>, no <date> with an offset)", &warns)
		}
		at, err := time.ParseInLocation("2006-01-02 15:04", day+" "+start, l)
		if err != nil {
			warn("event %q: start %q on day %q is not HH:MM on YYYY-MM-DD: left unscheduled", title, start, day)
			break
		}
		if m := at.Hour()*60 + at.Minute(); m < dayChange {
			// The night's events belong to the day before, as frab and
			// Pentabarf write them (<date> says the next day).
			at = time.Date(at.Year(), at.Month(), at.Day()+1, at.Hour(), at.Minute(), 0, 0, l)
		}
		slot(t, at, dur, l)
	}
	return t, warns
}

// assignIDs gives every talk of one file its id (see structuredID). A
// source id repeated within the file is one warning naming both lines; the
// later event is kept as a talk of its own (its title and start join its
// identity), unless it repeats the first exactly, when it is dropped.
func assignIDs(file string, talks []index.Talk, lines []int) ([]index.Talk, []Warning) {
	var warns []Warning
	reps := newRepeatedIDs(file, "event id", "same title and start")
	bySource := map[string]int{}
	byID := map[string]int{}
	out := talks[:0]
	for i := range talks {
		t := talks[i]
		t.ID = structuredID(&t)
		if first, dup := bySource[t.SourceID]; dup && t.SourceID != "" {
			t.ID = TalkID(t.Title, t.Conference.ID+"|id:"+t.SourceID+"|"+ScheduledIdentity(t.Title, t.Start))
			_, same := byID[t.ID]
			// One object with several slots (pretalx) is several sessions,
			// not a duplicate.
			if same || first != lines[i] {
				reps.add(t.SourceID, first, lines[i], same)
			}
			if same {
				continue
			}
		} else if t.SourceID != "" {
			bySource[t.SourceID] = lines[i]
		}
		if first, dup := byID[t.ID]; dup {
			warns = append(warns, Warning{File: file, Line: lines[i], Msg: fmt.Sprintf("event %q repeats line %d (same title and start, no id): dropped", t.Title, first), Dropped: 1})
			continue
		}
		byID[t.ID] = lines[i]
		out = append(out, t)
	}
	return out, append(warns, reps.warnings()...)
}

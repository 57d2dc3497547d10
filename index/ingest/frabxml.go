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
	// State is Pentabarf's and frab's event state where an export keeps
	// it ("canceled").
	State       string    `xml:"state"`
	Links       []xmlLink `xml:"links>link"`
	Attachments []xmlLink `xml:"attachments>attachment"`
}

// xmlLink is a <link href> or an <attachment type href>; its text is its
// title.
type xmlLink struct {
	Href  string `xml:"href,attr"`
	Type  string `xml:"type,attr"`
	Title string `xml:",chardata"`
}

// sourceLinks are the event's attachments, then its links.
func (ev *xmlEvent) sourceLinks() []sourceLink {
	var out []sourceLink
	for _, l := range append(append([]xmlLink{}, ev.Attachments...), ev.Links...) {
		out = append(out, sourceLink{href: l.Href, title: l.Title, kind: l.Type})
	}
	return out
}

func (frabXML) Read(file string, data []byte, opt Options) ([]index.Talk, []Warning, error) {
	d := xml.NewDecoder(ctxReader{bytes.NewReader(data), opt.Context})
	// Encodings other than UTF-8 are read when the document declares them
	// (<?xml encoding="ISO-8859-1"?>); undeclared bytes that are not UTF-8
	// stay an error with their line.
	d.CharsetReader = xmlCharset
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
			case "day", "room":
				if depth >= maxXMLDepth {
					// <room> in <room> … : no schedule nests so.
					if _, err := skipElement(d); err != nil {
						return nil, warns, errAt(err)
					}
					end, _ := d.InputPos()
					warns = append(warns, deepWarning(file, line, end))
					continue
				}
				if el.Name.Local == "day" {
					day = attr(el, "date")
				}
				depth++
			case "event":
				var ev xmlEvent
				if err := d.DecodeElement(&ev, &el); err != nil {
					return nil, warns, errAt(err)
				}
				if conf.ID == "" {
					conf = conferenceFromName(file)
				}
				t, w := ev.talk(file, line, day, dayChange, conf, loc, zone, opt.markdown)
				warns = append(warns, w...)
				if t != nil {
					talks = append(talks, *t)
					lines = append(lines, line)
				}
			default:
				// <tracks>, <version>, unknown additions: not talks.
				end, err := skipElement(d)
				if err != nil {
					return nil, warns, errAt(err)
				}
				if end > 0 {
					warns = append(warns, deepWarning(file, line, end))
				}
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

// skipElement reads past the element just started, as Decoder.Skip does;
// deep is the line where it ends if it nests more than maxXMLDepth
// elements (nothing of a schedule does: the caller warns), else 0.
func skipElement(d *xml.Decoder) (deep int, err error) {
	depth, deepest := 1, 1
	for depth > 0 {
		tok, err := d.Token()
		if err != nil {
			return 0, err
		}
		switch tok.(type) {
		case xml.StartElement:
			depth++
			deepest = max(deepest, depth)
		case xml.EndElement:
			depth--
		}
	}
	if deepest > maxXMLDepth {
		line, _ := d.InputPos()
		return line, nil
	}
	return 0, nil
}

func deepWarning(file string, line, end int) Warning {
	return Warning{File: file, Line: line, Msg: fmt.Sprintf("elements nested deeper than %d (to line %d): skipped, the rest of the file read", maxXMLDepth, end)}
}

// xmlCharset decodes a document in the encoding it declares. A document
// that declares UTF-16 has been decoded from it already (fromUTF16, by
// its byte order mark): its bytes are UTF-8 now.
func xmlCharset(label string, r io.Reader) (io.Reader, error) {
	switch strings.ToLower(strings.TrimSpace(label)) {
	case "utf-16", "utf-16le", "utf-16be", "unicode":
		return r, nil
	}
	return charset.NewReaderLabel(label, r)
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
	id, title, abstract, description, track, room, language, url, kind, state string
	links                                                                     []sourceLink
}

// talk is the event's Talk without speakers and slot; nil for an event
// without a title, which cannot be one.
func (e frabEvent) talk(file string, conf index.Conference, md *markdownBudget) *index.Talk {
	title := cleanField(e.title)
	if title == "" {
		return nil
	}
	t := &index.Talk{
		Conference:  conf,
		SourceID:    strings.TrimSpace(e.id),
		Title:       title,
		Abstract:    cleanTextIn(e.abstract, md),
		Description: cleanTextIn(e.description, md),
		Track:       cleanField(e.track),
		Room:        cleanField(e.room),
		Language:    cleanLine(e.language),
		URL:         strings.TrimSpace(e.url),
		Kind:        KindOf(e.kind),
		Cancelled:   cancelledState(e.state),
		Sources:     []string{file},
	}
	links(t, e.links)
	return t
}

// talk makes the event a Talk; nil (with a warning) for an event that
// cannot be one.
func (ev *xmlEvent) talk(file string, line int, day string, dayChange int, conf index.Conference, loc *time.Location, zone *fileZone, md *markdownBudget) (*index.Talk, []Warning) {
	var warns []Warning
	warn := func(format string, args ...any) {
		warns = append(warns, Warning{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	id := ev.ID
	if strings.TrimSpace(id) == "" {
		id = ev.GUID
	}
	t := frabEvent{id: id, title: ev.Title, abstract: ev.Abstract, description: ev.Description,
		track: ev.Track, room: ev.Room, language: ev.Language, url: ev.URL, kind: ev.Type,
		state: ev.State, links: ev.sourceLinks()}.talk(file, conf, md)
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

package ingest

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
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

// Read reads the schedule. encoding/xml stops at a syntax error (an
// unescaped "&" or "<" in an abstract, a file cut short) and cannot read
// past it, so the reader reads on from the next <event>, or <day> or
// <room> with attributes, start tag after it, with a new decoder given the <day>
// and <room> still open there (the day's date carried): a broken event
// costs that event, with a warning naming the error and where reading
// resumed. Where no such tag follows, the rest of the file is not read:
// the talks before are kept and the warning says so (Warning.Cut). A file
// that gives no talk at all, or breaks before its <schedule>, is an error
// as before. A document in a declared encoding other than UTF-8 does not
// resume: decoded offsets are not the file's there.
func (frabXML) Read(file string, data []byte, opt Options) ([]index.Talk, []Warning, error) {
	x := &xmlSchedule{file: file, data: data, opt: opt, zone: &fileZone{file: file, opt: opt.TimeZone}}
	from, prefix := 0, ""
	var first *xmlBreak
	for {
		b, err := x.decode(from, prefix)
		if err != nil {
			return nil, x.warns, err
		}
		if b == nil {
			break
		}
		if first == nil {
			first = b
		}
		next, kind := -1, ""
		if resumable(data) {
			// Strictly forward: each read starts past the last one's.
			next, kind = resumeAt(data, max(b.off, int64(from)+1))
		}
		w := Warning{File: file, Line: b.line}
		if b.event {
			w.Dropped = 1
		}
		if next < 0 {
			w.Cut = true
			w.Msg = fmt.Sprintf("XML syntax error: %s: the rest of the file not read (no <event>, <day> or <room> after it to read on from); the events before kept", b.err.Msg)
			if b.off >= int64(len(data)) {
				w.Msg = fmt.Sprintf("XML syntax error: %s: the file ends before its elements close (cut short?); the events before kept", b.err.Msg)
			}
			x.warns = append(x.warns, w)
			break
		}
		what := "what follows"
		if b.event {
			what = "that event"
		}
		w.Msg = fmt.Sprintf("XML syntax error: %s: %s not read; read on from line %d (the next <%s>)", b.err.Msg, what, lineAt(data, int64(next)), kind)
		x.warns = append(x.warns, w)
		from, prefix = next, x.ancestors(kind)
	}
	if first != nil && len(x.talks) == 0 {
		// Nothing read: the file is the error, as a file broken
		// everywhere always was.
		return nil, nil, fmt.Errorf("line %d: %w", first.line, first.err)
	}
	if !x.scheduled {
		return nil, nil, errors.New("no XML element")
	}
	talks, w := assignIDs(file, x.talks, x.lines)
	return talks, append(x.warns, w...), nil
}

// xmlSchedule is the state of one frab XML file's read, carried over the
// syntax errors read past (frabXML.Read).
type xmlSchedule struct {
	file  string
	data  []byte
	opt   Options
	talks []index.Talk
	lines []int
	warns []Warning
	conf  index.Conference
	loc   *time.Location
	zone  *fileZone
	// dayChange is the time of day (in minutes) before which a
	// start-only event is the next calendar day.
	dayChange     int
	day           string // the date of the last <day>
	inDay, inRoom bool   // a <day>, a <room> is open
	scheduled     bool   // the <schedule> root was read
}

// xmlBreak is a syntax error met reading: its line and offset in the
// file, and whether it broke an event.
type xmlBreak struct {
	err   *xml.SyntaxError
	line  int
	off   int64
	event bool
}

// decode reads data from offset from on, after prefix, the start tags of
// the elements open there; it returns the syntax error it stops at, nil
// at the end of the file, or the error that ends the file's read.
func (x *xmlSchedule) decode(from int, prefix string) (*xmlBreak, error) {
	d := xml.NewDecoder(ctxReader{io.MultiReader(strings.NewReader(prefix), bytes.NewReader(x.data[from:])), x.opt.Context})
	// Encodings other than UTF-8 are read when the document declares them
	// (<?xml encoding="ISO-8859-1"?>); undeclared bytes that are not UTF-8
	// stay an error with their line.
	d.CharsetReader = xmlCharset
	// Strict mode knows only the five XML entities and numeric ones: a
	// custom entity (&lol9;) is an error, never an expansion.
	lineBase := lineAt(x.data, int64(from)) - 1 - strings.Count(prefix, "\n")
	lineOf := func() int {
		line, _ := d.InputPos()
		return line + lineBase
	}
	failed := func(err error, event bool) (*xmlBreak, error) {
		var se *xml.SyntaxError
		if errors.As(err, &se) && x.scheduled {
			return &xmlBreak{err: se, line: lineOf(), off: int64(from) + d.InputOffset() - int64(len(prefix)), event: event}, nil
		}
		return nil, fmt.Errorf("line %d: %w", lineOf(), err)
	}
	depth, root := 0, true
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		if err != nil {
			return failed(err, false)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			line := lineOf()
			if root {
				root = false
				if el.Name.Local != "schedule" {
					return nil, fmt.Errorf("line %d: XML with root <%s>, not a pentabarf/frab <schedule>", line, el.Name.Local)
				}
				x.scheduled = true
				depth++
				continue
			}
			switch el.Name.Local {
			case "conference":
				var c xmlConference
				if err := d.DecodeElement(&c, &el); err != nil {
					return failed(err, false)
				}
				x.conference(c, line)
			case "day", "room":
				if depth >= maxXMLDepth {
					// <room> in <room> … : no schedule nests so.
					if _, err := skipElement(d); err != nil {
						return failed(err, false)
					}
					x.warns = append(x.warns, deepWarning(x.file, line, lineOf()))
					continue
				}
				if el.Name.Local == "day" {
					x.day, x.inDay = attr(el, "date"), true
				} else {
					x.inRoom = true
				}
				depth++
			case "event":
				if err := x.opt.cancelledAt(len(x.talks)); err != nil {
					return nil, err
				}
				var ev xmlEvent
				if err := d.DecodeElement(&ev, &el); err != nil {
					return failed(err, true)
				}
				if x.conf.ID == "" {
					x.conf = conferenceFromName(x.file)
				}
				t, w := ev.talk(x.file, line, x.day, x.dayChange, x.conf, x.loc, x.zone, x.opt.markdown)
				x.warns = append(x.warns, w...)
				if t != nil {
					x.talks = append(x.talks, *t)
					x.lines = append(x.lines, line)
				}
			default:
				// <tracks>, <version>, unknown additions: not talks.
				deep, err := skipElement(d)
				if err != nil {
					return failed(err, false)
				}
				if deep > 0 {
					x.warns = append(x.warns, deepWarning(x.file, line, deep+lineBase))
				}
			}
		case xml.EndElement:
			switch el.Name.Local {
			case "day":
				x.inDay = false
			case "room":
				x.inRoom = false
			}
			depth--
		}
	}
}

// conference reads the schedule's <conference>, at line.
func (x *xmlSchedule) conference(c xmlConference, line int) {
	x.conf = conferenceOf(c.Acronym, c.Title, x.file)
	if dc := strings.TrimSpace(c.DayChange); dc != "" {
		if m, ok := clockMinutes(dc); ok {
			x.dayChange = m
		} else {
			x.warns = append(x.warns, Warning{File: x.file, Line: line, Msg: fmt.Sprintf("day_change %q is not HH:MM: ignored", dc)})
		}
	}
	if name := strings.TrimSpace(c.TimeZoneName); name != "" {
		l, err := time.LoadLocation(name)
		if err != nil {
			x.warns = append(x.warns, Warning{File: x.file, Line: line, Msg: fmt.Sprintf("unknown time zone %q", name)})
		} else {
			x.loc = l
		}
	}
}

// ancestors are the start tags a read resumed at a <kind> needs before
// it: the <schedule>, and the <day> and <room> open where reading broke
// that hold such an element (the day's date, which start-only events
// need, carried).
func (x *xmlSchedule) ancestors(kind string) string {
	prefix := "<schedule>"
	if x.inDay && kind != "day" {
		var date strings.Builder
		_ = xml.EscapeText(&date, []byte(x.day))
		prefix += `<day date="` + date.String() + `">`
	}
	if x.inRoom && kind == "event" {
		prefix += "<room>"
	}
	return prefix
}

// resumeRE finds where a schedule's read may resume: an <event>, or a
// <day> or <room> with attributes (an event's own <room>Janson</room> has
// none, and is no place to resume).
var resumeRE = regexp.MustCompile(`<(event)[\s>/]|<(day|room)\s`)

// resumeAt is the offset in data, after off, of the next start tag
// reading may resume at, and its name; -1 for none.
func resumeAt(data []byte, off int64) (int, string) {
	if off < 0 || off >= int64(len(data)) {
		return -1, ""
	}
	m := resumeRE.FindSubmatchIndex(data[off:])
	if m == nil {
		return -1, ""
	}
	kind := "event"
	if m[4] >= 0 {
		kind = string(data[int(off)+m[4] : int(off)+m[5]])
	}
	return int(off) + m[0], kind
}

// xmlEncodingRE is the encoding an XML declaration states.
var xmlEncodingRE = regexp.MustCompile(`^\s*<\?xml[^>]*?encoding\s*=\s*["']([^"']*)["']`)

// resumable reports whether offsets in a decoded document are offsets in
// data: its encoding is UTF-8 (or UTF-16, converted to UTF-8 before).
func resumable(data []byte) bool {
	m := xmlEncodingRE.FindSubmatch(data[:min(len(data), 256)])
	if m == nil {
		return true
	}
	switch strings.ToLower(strings.TrimSpace(string(m[1]))) {
	case "utf-8", "utf8", "utf-16", "utf-16le", "utf-16be", "unicode":
		return true
	}
	return false
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

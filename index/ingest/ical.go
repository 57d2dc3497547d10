package ingest

import (
	"bytes"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	ics "github.com/arran4/golang-ical"

	"github.com/talksearch/talksearch/index"
)

// iCalendar reads RFC 5545 calendars as schedule tools export them,
// Pentabarf's quirks included: floating DTSTART/DTEND with the zone in
// X-WR-TIMEZONE, a non-standard TZID property in each VEVENT, blank lines
// between events, speakers as ATTENDEE;CN=, HTML in DESCRIPTION.
type iCalendar struct{}

func (iCalendar) Name() string { return "ical" }

func (iCalendar) Detect(head []byte) bool { return hasPrefixFold(head, "BEGIN:VCALENDAR") }

func (iCalendar) Read(file string, data []byte, opt Options) ([]index.Talk, []Warning, error) {
	if err := checkUTF8(data); err != nil {
		return nil, nil, err
	}
	data = withoutBOM(data)
	// The library's cost grows faster than a line's parameters: such
	// lines are dropped before it sees them.
	data, warns := capICalLines(file, data, opt.maxLine())
	// A calendar cut short (a download that stopped) still reads up to
	// its last whole event; the file-wide warning lets a fetched copy be
	// refused rather than replace a whole one.
	cut := !bytes.HasSuffix(bytes.TrimRight(data, " \t\r\n"), []byte("END:VCALENDAR"))
	cutShort := Warning{File: file, Msg: "the calendar does not end with END:VCALENDAR: the file may be cut short"}
	// The library keeps no lines: each event's is that of its BEGIN:VEVENT,
	// the events being in the order of the text.
	evLines := veventLines(data)
	cal, err := ics.ParseCalendar(bytes.NewReader(data))
	if err == nil && len(cal.Events()) != len(evLines) {
		// Events the text does not show where they begin: read block
		// by block, each with its line, if that can be done.
		evLines = nil
		if c, l, w, e := parseByEvent(file, data, nil); e == nil && c != nil {
			cal, evLines, warns = c, l, append(warns, w...)
		}
	}
	if err != nil {
		var w []Warning
		cal, evLines, w, err = parseByEvent(file, data, err)
		warns = append(warns, w...)
		if err != nil {
			return nil, warns, err
		}
	}
	var (
		talks []index.Talk
		lines []int
		conf  = conferenceFromName(file)
		zone  = &fileZone{file: file, opt: opt.TimeZone}
		named *time.Location // the zone the calendar names
	)
	for _, p := range cal.CalendarProperties {
		switch strings.ToUpper(p.IANAToken) {
		case "X-WR-TIMEZONE":
			named = loadZone(p.Value)
		case "NAME", "X-WR-CALNAME":
			if name := calendarName(p.Value); name != "" && conf.Name == conferenceFromName(file).Name {
				conf = ConferenceNamed(name)
				if conf.ID == "" { // a name without a letter of ASCII
					conf = index.Conference{ID: conferenceFromName(file).ID, Name: name}
				}
			}
		}
	}
	if named == nil {
		for _, tz := range cal.Timezones() {
			if p := tz.GetProperty(ics.ComponentPropertyTzid); p != nil {
				if l := loadZone(p.Value); l != nil {
					named = l
					break
				}
			}
		}
	}
	for i, ev := range cal.Events() {
		if err := opt.cancelled(); err != nil {
			return nil, warns, err
		}
		get := func(p ics.ComponentProperty) string {
			if v := ev.GetProperty(p); v != nil {
				return v.Value
			}
			return ""
		}
		uid := strings.TrimSpace(get(ics.ComponentPropertyUniqueId))
		line := 0
		if i < len(evLines) {
			line = evLines[i]
		}
		warn := func(format string, args ...any) {
			warns = append(warns, Warning{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
		}
		title := cleanField(get(ics.ComponentPropertySummary))
		if title == "" {
			warn("event %q without a SUMMARY (title): skipped", uid)
			warns[len(warns)-1].Dropped = 1
			continue
		}
		t := index.Talk{
			Conference: conf,
			SourceID:   uid,
			Title:      title,
			Abstract:   cleanTextIn(get(ics.ComponentPropertyDescription), opt.markdown),
			Track:      cleanField(get(ics.ComponentPropertyCategories)),
			Room:       cleanField(get(ics.ComponentPropertyLocation)),
			URL:        strings.TrimSpace(get(ics.ComponentPropertyUrl)),
			Language:   icalLanguage(ev),
			Kind:       KindOf(""),
			Cancelled:  strings.EqualFold(strings.TrimSpace(get(ics.ComponentPropertyStatus)), "CANCELLED"),
			Sources:    []string{file},
		}
		links(&t, icalAttachments(ev))
		for _, a := range ev.Attendees() {
			if cn := a.ICalParameters["CN"]; len(cn) > 0 {
				if name := cleanField(strings.Trim(cn[0], `"`)); name != "" {
					t.Speakers = append(t.Speakers, index.Speaker{Name: name})
				}
			}
		}
		if p := ev.GetProperty(ics.ComponentPropertyDtStart); p != nil {
			own := named
			if own == nil {
				// Pentabarf's "TZID:Europe-Brussels" property.
				own = loadZone(strings.Replace(get(ics.ComponentProperty("TZID")), "-", "/", 1))
			}
			start, loc, err := icalTime(p, own, zone, line, &warns)
			if err != nil {
				warn("event %q: DTSTART: %v: left unscheduled", title, err)
			} else {
				var dur time.Duration
				if e := ev.GetProperty(ics.ComponentPropertyDtEnd); e != nil {
					if end, _, err := icalTime(e, own, zone, line, &warns); err == nil && !end.Before(start) {
						dur = end.Sub(start)
					}
				}
				slot(&t, start, dur, loc)
			}
		}
		talks = append(talks, t)
		lines = append(lines, line)
	}
	talks, w := assignIDs(file, talks, lines)
	if cut {
		w = append(w, cutShort)
	}
	return talks, append(warns, w...), nil
}

// icalAttachments are the event's ATTACH properties given as addresses
// (an inline binary one is no link): a video or audio FMTTYPE is a
// recording.
func icalAttachments(ev *ics.VEvent) []sourceLink {
	var out []sourceLink
	for _, p := range ev.Properties {
		if p.IANAToken != string(ics.ComponentPropertyAttach) || len(p.ICalParameters["ENCODING"]) > 0 {
			continue
		}
		l := sourceLink{href: p.Value}
		if ft := p.ICalParameters["FMTTYPE"]; len(ft) > 0 {
			l.mime = ft[0]
			if media, _, _ := strings.Cut(ft[0], "/"); media == "video" || media == "audio" {
				l.kind = "recording"
			}
		}
		out = append(out, l)
	}
	return out
}

// maxICalParams bounds the parameters of one property: a real ATTENDEE
// has three or four (CN, ROLE, PARTSTAT, RSVP).
const maxICalParams = 32

// dropped stands in for a content line not given to the library: an
// extension property every reader ignores, so the lines keep their
// numbers.
var dropped = []byte("X-TALKSEARCH-DROPPED:")

// capICalLines replaces each property (a content line with the lines
// that continue it) longer than maxLine bytes or with more than
// maxICalParams parameters by lines the library ignores, with a warning
// naming it. data is copied only if a line is replaced.
func capICalLines(file string, data []byte, maxLine int) ([]byte, []Warning) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	var warns []Warning
	changed := false
	for i := 0; i < len(lines); {
		j, size := i+1, len(lines[i])
		for j < len(lines) && len(lines[j]) > 0 && (lines[j][0] == ' ' || lines[j][0] == '\t') {
			size += len(lines[j])
			j++
		}
		msg := ""
		if size > maxLine {
			msg = fmt.Sprintf("property of %d bytes, longer than the %s limit of a line (--max-line-bytes): dropped", size, sizeText(int64(maxLine)))
		} else if n := icalParams(bytes.Join(lines[i:j], nil)); n > maxICalParams {
			msg = fmt.Sprintf("property with %d parameters, more than %d: dropped", n, maxICalParams)
		}
		if msg != "" {
			name, _, _ := bytes.Cut(lines[i], []byte(";"))
			name, _, _ = bytes.Cut(name, []byte(":"))
			if len(name) > 40 || !utf8.Valid(name) {
				name = name[:0]
			}
			warns = append(warns, Warning{File: file, Line: i + 1, Msg: strings.TrimSpace(string(name) + " " + msg)})
			lines[i] = append(append([]byte{}, dropped...), "\r\n"...)
			for k := i + 1; k < j; k++ {
				lines[k] = []byte(" \r\n")
			}
			changed = true
		}
		i = j
	}
	if !changed {
		return data, nil
	}
	return bytes.Join(lines, nil), warns
}

// icalParams counts the parameters of a property: the ";" before its
// value's ":", quoted parameter values read past.
func icalParams(prop []byte) int {
	n, quoted := 0, false
	for _, c := range prop {
		switch {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == ';':
			n++
		case c == ':':
			return n
		}
	}
	return n
}

// icalLanguage is the LANGUAGE parameter (RFC 5545 3.2.10) of the
// event's SUMMARY, else of its DESCRIPTION.
func icalLanguage(ev *ics.VEvent) string {
	for _, p := range []ics.ComponentProperty{ics.ComponentPropertySummary, ics.ComponentPropertyDescription} {
		if v := ev.GetProperty(p); v != nil {
			if l := v.ICalParameters["LANGUAGE"]; len(l) > 0 {
				return Languages(strings.Join(l, ","))
			}
		}
	}
	return ""
}

// veventLines are the lines of the BEGIN:VEVENT lines of data, in order.
func veventLines(data []byte) []int {
	var out []int
	for i, l := range bytes.SplitAfter(data, []byte("\n")) {
		if isICalLine(l, "BEGIN:VEVENT") {
			out = append(out, i+1)
		}
	}
	return out
}

// isICalLine: l is the content line s; a line beginning with a blank
// continues the line before it.
func isICalLine(l []byte, s string) bool {
	return strings.EqualFold(string(bytes.TrimRight(l, " \t\r\n")), s)
}

// calendarName is the conference a calendar's NAME or X-WR-CALNAME names:
// without the words that name only the file ("PyCon UK 2015 Schedule" is
// PyCon UK 2015); "" for a name of such words only (Pentabarf's "iCal").
func calendarName(v string) string {
	words := strings.Fields(cleanLine(strings.NewReplacer(`\,`, ",", `\;`, ";", `\n`, " ", `\N`, " ").Replace(v)))
	generic := func(w string) bool {
		w = strings.ToLower(strings.Trim(w, "-–—:|/,.()[]"))
		return w == "" || genericNames[w] || calendarWords[w]
	}
	for len(words) > 0 && generic(words[0]) {
		words = words[1:]
	}
	for len(words) > 0 && generic(words[len(words)-1]) {
		words = words[:len(words)-1]
	}
	return strings.Join(words, " ")
}

// calendarWords, with genericNames, are the words of a calendar's name
// that say it is a calendar, not which conference it is.
var calendarWords = map[string]bool{"icalendar": true, "ics": true, "feed": true, "timetable": true, "full": true}

func loadZone(name string) *time.Location {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil
	}
	l, err := time.LoadLocation(name)
	if err != nil {
		return nil
	}
	return l
}

// icalTime reads a DATE-TIME (or DATE) value: UTC ("…Z"), with a TZID
// parameter, or floating, in the zone the calendar names (own), else the
// command line's, else UTC with a warning.
func icalTime(p *ics.IANAProperty, own *time.Location, zone *fileZone, line int, warns *[]Warning) (time.Time, *time.Location, error) {
	v := strings.TrimSpace(p.Value)
	if strings.HasSuffix(v, "Z") {
		at, err := time.Parse("20060102T150405Z", v)
		loc := own
		if loc == nil {
			loc = zone.opt
		}
		return at, loc, err
	}
	loc := own
	if tz := p.ICalParameters["TZID"]; len(tz) > 0 {
		if l := loadZone(tz[0]); l != nil {
			loc = l
		}
	}
	if loc == nil {
		loc = zone.loc(line, "the calendar (floating times, no X-WR-TIMEZONE, VTIMEZONE or TZID)", warns)
	}
	layout := "20060102T150405"
	if len(v) == len("20060102") {
		layout = "20060102"
	}
	at, err := time.ParseInLocation(layout, v, loc)
	if err != nil {
		return at, loc, fmt.Errorf("%q is not an iCalendar date-time", v)
	}
	return at, loc, nil
}

// parseByEvent reads a calendar that the library refuses as a whole (one
// bad line stops it) event by event, so that the other events are still
// read: the calendar's header (its properties and time zones) with each
// VEVENT in turn. An event still refused is a warning with its line; one
// whose only fault is Pentabarf's quotes inside a quoted CN parameter
// (CN="David "Blackmagic" Elahee") is read with those quotes made single.
//
// It returns, with the calendar, the line of each event it holds.
func parseByEvent(file string, data []byte, whole error) (*ics.Calendar, []int, []Warning, error) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	isLine := isICalLine
	first := -1
	for i, l := range lines {
		if isLine(l, "BEGIN:VEVENT") {
			first = i
			break
		}
	}
	if first < 0 {
		return nil, nil, nil, whole
	}
	header := bytes.Join(lines[:first], nil)
	cal, err := ics.ParseCalendar(bytes.NewReader(append(append([]byte{}, header...), "END:VCALENDAR\r\n"...)))
	if err != nil {
		return nil, nil, nil, whole
	}
	// Calendar properties may follow the events (vobject writes
	// X-WR-CALNAME last): the header with what follows the last event.
	last := len(lines)
	for k := len(lines) - 1; k >= first; k-- {
		if isLine(lines[k], "END:VEVENT") {
			last = k + 1
			break
		}
	}
	if last < len(lines) {
		if withTail, err := ics.ParseCalendar(bytes.NewReader(append(append([]byte{}, header...), bytes.Join(lines[last:], nil)...))); err == nil {
			cal = withTail
		}
	}
	var warns []Warning
	var evLines []int
	for i := first; i < len(lines); i++ {
		if !isLine(lines[i], "BEGIN:VEVENT") {
			continue
		}
		j := i
		for j < len(lines) && !isLine(lines[j], "END:VEVENT") {
			j++
		}
		if j == len(lines) {
			warns = append(warns, Warning{File: file, Line: i + 1, Msg: "event without END:VEVENT (truncated file?): skipped", Dropped: 1})
			break
		}
		block := bytes.Join(lines[i:j+1], nil)
		ev, err := parseEvent(header, block)
		if err != nil {
			repaired, n := repairQuotedCN(lines[i : j+1])
			if n > 0 {
				if ev, err = parseEvent(header, repaired); err == nil {
					warns = append(warns, Warning{File: file, Line: i + 1, Msg: "quotes inside a quoted CN parameter (not RFC 5545) read as single quotes"})
				}
			}
		}
		if err != nil {
			warns = append(warns, Warning{File: file, Line: i + 1, Msg: fmt.Sprintf("event not read: %v", err), Dropped: 1})
		} else {
			cal.Components = append(cal.Components, ev)
			evLines = append(evLines, i+1)
		}
		i = j
	}
	return cal, evLines, warns, nil
}

func parseEvent(header, block []byte) (*ics.VEvent, error) {
	doc := append(append(append([]byte{}, header...), block...), "END:VCALENDAR\r\n"...)
	c, err := ics.ParseCalendar(bytes.NewReader(doc))
	if err != nil {
		return nil, err
	}
	evs := c.Events()
	if len(evs) != 1 {
		return nil, fmt.Errorf("%d events in one VEVENT block", len(evs))
	}
	return evs[0], nil
}

// repairQuotedCN replaces the double quotes inside a quoted CN="…" value,
// up to the quote before the property's ":" value, by single quotes; n
// counts the lines changed.
func repairQuotedCN(lines [][]byte) ([]byte, int) {
	var out []byte
	n := 0
	for _, l := range lines {
		s := string(l)
		if at := strings.Index(s, `CN="`); at >= 0 {
			open := at + len(`CN="`)
			if end := strings.LastIndex(s, `":`); end > open {
				inner := s[open:end]
				if strings.Contains(inner, `"`) {
					s = s[:open] + strings.ReplaceAll(inner, `"`, "'") + s[end:]
					n++
				}
			}
		}
		out = append(out, s...)
	}
	return out, n
}

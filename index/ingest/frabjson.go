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

// frabJSON reads the frab / pretalx schedule.json of the c3voc schema:
// {"schedule": {"conference": {…, "days": [{"rooms": {ROOM: [event]}}]}}}.
type frabJSON struct{}

func (frabJSON) Name() string { return "frab-json" }

func (frabJSON) Detect(head []byte) bool {
	return len(head) > 0 && head[0] == '{' && hasTopKey(head, "schedule")
}

// hasTopKey reports whether the JSON object that head starts reads key at
// its top level, looking only as far as head goes.
func hasTopKey(head []byte, key string) bool {
	found := false
	_ = walkObject(json.NewDecoder(bytes.NewReader(head)), func(dec *json.Decoder, k string) error {
		if k == key {
			found = true
			return errStop
		}
		return skipValue(dec)
	})
	return found
}

var errStop = errors.New("stop")

// walkObject reads the JSON object at the decoder's position, calling each
// for every key with the decoder at the key's value, which each must
// consume (decode or skipValue). Reading objects token by token keeps the
// order of keys (frab's rooms) and the offset of every event for warnings.
func walkObject(dec *json.Decoder, each func(dec *json.Decoder, key string) error) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		return fmt.Errorf("expected an object, found %v", tokenName(tok))
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		if err := each(dec, key); err != nil {
			return err
		}
	}
	_, err = dec.Token() // '}'
	return err
}

// walkArray is walkObject for an array; each is called at every element.
func walkArray(dec *json.Decoder, each func(dec *json.Decoder) error) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('[') {
		return fmt.Errorf("expected an array, found %v", tokenName(tok))
	}
	for dec.More() {
		if err := each(dec); err != nil {
			return err
		}
	}
	_, err = dec.Token() // ']'
	return err
}

func skipValue(dec *json.Decoder) error {
	var v json.RawMessage
	return dec.Decode(&v)
}

// flexID is an id that exporters write as a number or as a string.
type flexID string

func (f *flexID) UnmarshalJSON(b []byte) error {
	switch {
	case bytes.Equal(b, []byte("null")):
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*f = flexID(strings.TrimSpace(s))
		return nil
	case len(b) > 0 && (b[0] == '-' || (b[0] >= '0' && b[0] <= '9')):
		*f = flexID(b)
		return nil
	}
	return &fieldError{fmt.Sprintf("id must be a string or a number, not %s", b)}
}

func tokenName(tok json.Token) string {
	switch v := tok.(type) {
	case json.Delim:
		return string(v)
	case string:
		return "a string"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%v", tok)
}

// jsonError names the line of a JSON error.
func jsonError(data []byte, dec *json.Decoder, err error) error {
	off := dec.InputOffset()
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		off = te.Offset
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		err = errors.New("truncated JSON (unexpected end of file)")
	}
	return fmt.Errorf("line %d: %w", lineAt(data, off), err)
}

// atEnd is nil when dec has read all of data, else the error: a cancel
// met reading on (opt.Context), or data after the document, what.
func atEnd(data []byte, dec *json.Decoder, what string, opt Options) error {
	_, err := dec.Token()
	if errors.Is(err, io.EOF) {
		return nil
	}
	if c := opt.cancelled(); c != nil {
		return c
	}
	return fmt.Errorf("line %d: data after %s", valueLine(data, dec), what)
}

// valueLine is the line of the value that the decoder reads next.
// nextByte is the first byte of the value dec is at in data (0 at the end).
func nextByte(data []byte, dec *json.Decoder) byte {
	off := dec.InputOffset()
	for off < int64(len(data)) && strings.ContainsRune(" \t\r\n,:", rune(data[off])) {
		off++
	}
	if off < int64(len(data)) {
		return data[off]
	}
	return 0
}

func valueLine(data []byte, dec *json.Decoder) int {
	off := dec.InputOffset()
	for off < int64(len(data)) && strings.ContainsRune(" \t\r\n,:", rune(data[off])) {
		off++
	}
	return lineAt(data, off)
}

type frabJSONPerson struct {
	ID         flexID `json:"id"`
	Code       string `json:"code"`
	PublicName string `json:"public_name"`
	// FullPublicName is frab 0.8's (2013) name of the speaker.
	FullPublicName string `json:"full_public_name"`
	Name           string `json:"name"`
}

type frabJSONEvent struct {
	ID          flexID           `json:"id"`
	GUID        string           `json:"guid"`
	URL         string           `json:"url"`
	Date        string           `json:"date"`
	Start       string           `json:"start"`
	Duration    string           `json:"duration"`
	Room        string           `json:"room"`
	Title       string           `json:"title"`
	Track       string           `json:"track"`
	Type        string           `json:"type"`
	Language    string           `json:"language"`
	Abstract    string           `json:"abstract"`
	Description string           `json:"description"`
	Persons     []frabJSONPerson `json:"persons"`
	State       string           `json:"state"`
	// Links are the event's "attachments", then its "links".
	Links []sourceLink `json:"-"`
}

// decodeFrabEvent reads one event object field by field: a field of a
// shape the schedule never has (an array title, an object start) costs
// that field, with a warning, never the event or the file. ok is false
// for a value that is no object at all.
func decodeFrabEvent(file string, line int, raw json.RawMessage) (ev frabJSONEvent, warns []Warning, ok bool) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return ev, []Warning{{File: file, Line: line, Msg: fmt.Sprintf("event is %s, not an object: skipped", shapeOf(raw)), Dropped: 1}}, false
	}
	name := func() string {
		if t := jsonText(fields["title"]); t != "" {
			return t
		}
		return jsonText(fields["id"])
	}
	bad := func(key string, v json.RawMessage, want string) {
		warns = append(warns, Warning{File: file, Line: line,
			Msg: fmt.Sprintf("event %q: %s is %s, not %s: ignored", name(), key, shapeOf(v), want)})
	}
	text := func(key string, dst *string) {
		v, present := fields[key]
		if !present {
			return
		}
		if t, ok := jsonScalar(v); ok {
			*dst = t
			return
		}
		bad(key, v, "a string")
	}
	if v, present := fields["id"]; present {
		if err := ev.ID.UnmarshalJSON(v); err != nil {
			bad("id", v, "a string or a number")
		}
	}
	for key, dst := range map[string]*string{
		"guid": &ev.GUID, "url": &ev.URL, "date": &ev.Date, "start": &ev.Start, "duration": &ev.Duration,
		"room": &ev.Room, "title": &ev.Title, "track": &ev.Track, "type": &ev.Type, "language": &ev.Language,
		"abstract": &ev.Abstract, "description": &ev.Description, "state": &ev.State,
	} {
		text(key, dst)
	}
	for _, key := range []string{"attachments", "links"} {
		ls, ok := jsonLinks(fields[key])
		if !ok {
			bad(key, fields[key], "a list of {url, title}")
		}
		ev.Links = append(ev.Links, ls...)
	}
	if v, present := fields["persons"]; present && !bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		var persons []json.RawMessage
		if err := json.Unmarshal(v, &persons); err != nil {
			bad("persons", v, "an array")
		}
		for _, pv := range persons {
			var pf map[string]json.RawMessage
			if err := json.Unmarshal(pv, &pf); err != nil || pf == nil {
				bad("a person", pv, "an object")
				continue
			}
			var p frabJSONPerson
			if err := p.ID.UnmarshalJSON(pf["id"]); err != nil && pf["id"] != nil {
				bad("a person's id", pf["id"], "a string or a number")
			}
			for key, dst := range map[string]*string{"code": &p.Code, "public_name": &p.PublicName,
				"full_public_name": &p.FullPublicName, "name": &p.Name} {
				if v, present := pf[key]; present {
					if t, ok := jsonScalar(v); ok {
						*dst = t
					} else {
						bad("a person's "+key, v, "a string")
					}
				}
			}
			ev.Persons = append(ev.Persons, p)
		}
	}
	sort.SliceStable(warns, func(i, j int) bool { return warns[i].Msg < warns[j].Msg })
	return ev, warns, true
}

// jsonLinks reads a list of links as frab and pretalx write them: objects
// {url, title} (frab also types attachments: type), or addresses alone.
// Absent or null is none; ok is false for a value of another shape, whose
// good elements are still read.
func jsonLinks(raw json.RawMessage) (out []sourceLink, ok bool) {
	if raw == nil || jsonKind(raw) == 'n' {
		return nil, true
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return nil, false
	}
	ok = true
	for _, v := range list {
		if s, isText := scalarString(v); isText && jsonKind(v) == '"' {
			out = append(out, sourceLink{href: s})
			continue
		}
		m := asObject(v)
		if m == nil {
			ok = false
			continue
		}
		var l sourceLink
		for key, dst := range map[string]*string{"url": &l.href, "title": &l.title, "type": &l.kind} {
			if s, isText := jsonScalar(m[key]); isText {
				*dst = s
			}
		}
		if l.href == "" {
			l.href = jsonText(m["href"])
		}
		out = append(out, l)
	}
	return out, ok
}

// jsonScalar is the text of a string, number or boolean ("" for null);
// ok is false for an array or an object.
func jsonScalar(v json.RawMessage) (string, bool) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || bytes.Equal(v, []byte("null")) {
		return "", true
	}
	switch v[0] {
	case '"':
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return "", false
		}
		return s, true
	case '[', '{':
		return "", false
	}
	return string(v), true
}

// jsonText is jsonScalar's text, "" for anything else.
func jsonText(v json.RawMessage) string {
	s, _ := jsonScalar(v)
	return strings.TrimSpace(s)
}

// frabJSONDay is a day of the schedule with its events in file order.
type frabJSONDay struct {
	date, dayStart string
	line           int
	events         []frabJSONEvent
	lines          []int
}

func (frabJSON) Read(file string, data []byte, opt Options) ([]index.Talk, []Warning, error) {
	if err := checkUTF8(data); err != nil {
		return nil, nil, err
	}
	var (
		warns                     []Warning
		days                      []*frabJSONDay
		acronym, title, dayChange string
		dayChangeLine             int
		loc                       = opt.TimeZone
	)
	dec := json.NewDecoder(ctxReader{bytes.NewReader(data), opt.Context})
	// shaped says whether the value dec is at starts with first; else the
	// value is skipped with a warning naming the field: a day's field of
	// a wrong shape costs that field, never the file.
	shaped := func(dec *json.Decoder, field string, first byte, want string) (bool, error) {
		line := valueLine(data, dec)
		if c := nextByte(data, dec); c == first {
			return true, nil
		}
		warns = append(warns, Warning{File: file, Line: line, Msg: fmt.Sprintf("%s is not %s: not read", field, want)})
		return false, skipValue(dec)
	}
	day := func(dec *json.Decoder) error {
		d := &frabJSONDay{line: valueLine(data, dec)}
		days = append(days, d)
		return walkObject(dec, func(dec *json.Decoder, key string) error {
			switch key {
			case "date", "day_start":
				ok, err := shaped(dec, "the day's "+key, '"', "a text")
				if !ok || err != nil {
					return err
				}
				if key == "date" {
					return dec.Decode(&d.date)
				}
				return dec.Decode(&d.dayStart)
			case "rooms":
				if ok, err := shaped(dec, "the day's rooms", '{', "an object of rooms"); !ok || err != nil {
					return err
				}
				return walkObject(dec, func(dec *json.Decoder, room string) error {
					if ok, err := shaped(dec, fmt.Sprintf("room %q", room), '[', "a list of events"); !ok || err != nil {
						return err
					}
					return walkArray(dec, func(dec *json.Decoder) error {
						line := valueLine(data, dec)
						var raw json.RawMessage
						if err := dec.Decode(&raw); err != nil {
							return err
						}
						ev, w, ok := decodeFrabEvent(file, line, raw)
						warns = append(warns, w...)
						if !ok {
							return nil
						}
						d.events = append(d.events, ev)
						d.lines = append(d.lines, line)
						return nil
					})
				})
			}
			return skipValue(dec)
		})
	}
	conference := func(dec *json.Decoder, key string) error {
		switch key {
		case "acronym":
			return dec.Decode(&acronym)
		case "title":
			return dec.Decode(&title)
		case "day_change":
			dayChangeLine = valueLine(data, dec)
			return dec.Decode(&dayChange)
		case "time_zone_name":
			var name string
			line := valueLine(data, dec)
			if err := dec.Decode(&name); err != nil {
				return err
			}
			if l, err := time.LoadLocation(strings.TrimSpace(name)); err == nil && name != "" {
				loc = l
			} else if name != "" {
				warns = append(warns, Warning{File: file, Line: line, Msg: fmt.Sprintf("unknown time zone %q", name)})
			}
			return nil
		case "days":
			return walkArray(dec, day)
		}
		return skipValue(dec)
	}
	err := walkObject(dec, func(dec *json.Decoder, key string) error {
		if key != "schedule" {
			return skipValue(dec)
		}
		return walkObject(dec, func(dec *json.Decoder, key string) error {
			if key != "conference" {
				return skipValue(dec)
			}
			return walkObject(dec, conference)
		})
	})
	if err != nil {
		return nil, warns, jsonError(data, dec, err)
	}
	if err := atEnd(data, dec, "the schedule object", opt); err != nil {
		return nil, warns, err
	}
	conf := conferenceOf(acronym, title, file)
	change, hasChange := -1, false
	if s := strings.TrimSpace(dayChange); s != "" {
		if m, ok := clockMinutes(s); ok {
			change, hasChange = m, true
		} else {
			warns = append(warns, Warning{File: file, Line: dayChangeLine, Msg: fmt.Sprintf("day_change %q is not HH:MM: the day change is taken from each day's events", dayChange)})
		}
	}
	var (
		talks []index.Talk
		lines []int
		zone  = &fileZone{file: file, opt: loc}
	)
	n := 0
	for _, d := range days {
		dc := frabJSONDayChange{date: strings.TrimSpace(d.date), change: change}
		if !hasChange {
			dc.change = dayStartClock(d.dayStart)
			if dc.change < 0 {
				dc.change = inferDayChange(d.events)
			}
		}
		for i := range d.events {
			if err := opt.cancelledAt(n); err != nil {
				return nil, warns, err
			}
			n++
			t, w := d.events[i].talk(file, d.lines[i], conf, loc, dc, zone, opt.markdown)
			warns = append(warns, w...)
			if t != nil {
				talks = append(talks, *t)
				lines = append(lines, d.lines[i])
			}
		}
	}
	talks, w := assignIDs(file, talks, lines)
	return talks, append(warns, w...), nil
}

// frabJSONDayChange is what a start-only event needs of its day: the day's
// date and the time of day ("04:00", in minutes) before which a start is
// already the next calendar day, as frab writes the night's events under
// the day they belong to.
type frabJSONDayChange struct {
	date   string
	change int
}

// clockMinutes reads "HH:MM" or "HH:MM:SS" as minutes after midnight.
func clockMinutes(s string) (int, bool) {
	t, err := time.Parse("15:04", strings.TrimSpace(s))
	if err != nil {
		t, err = time.Parse("15:04:05", strings.TrimSpace(s))
	}
	if err != nil {
		return 0, false
	}
	return t.Hour()*60 + t.Minute(), true
}

// dayStartClock is the clock time of a day's day_start (c3voc schema), in
// minutes; -1 where there is none.
func dayStartClock(s string) int {
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(s))
	if err != nil {
		return -1
	}
	return t.Hour()*60 + t.Minute()
}

// inferDayChange finds a day's change where the schedule states none (frab
// 0.8): the night's events are the day's first starts in clock order,
// before noon and followed by the longest pause of the day, longer than
// the pause from the day's last start to its first. It returns the start
// after that pause, or 0 (no start is the next day).
func inferDayChange(events []frabJSONEvent) int {
	var starts []int
	for _, ev := range events {
		if strings.TrimSpace(ev.Date) != "" {
			continue
		}
		if m, ok := clockMinutes(ev.Start); ok {
			starts = append(starts, m)
		}
	}
	if len(starts) < 2 {
		return 0
	}
	sort.Ints(starts)
	wrap := starts[0] + 24*60 - starts[len(starts)-1]
	best, at := wrap, -1
	for i := 0; i+1 < len(starts) && starts[i] < 12*60; i++ {
		if gap := starts[i+1] - starts[i]; gap > best {
			best, at = gap, i
		}
	}
	if at < 0 {
		return 0
	}
	return starts[at+1]
}

func (ev *frabJSONEvent) talk(file string, line int, conf index.Conference, loc *time.Location, day frabJSONDayChange, zone *fileZone, md *markdownBudget) (*index.Talk, []Warning) {
	var warns []Warning
	warn := func(format string, args ...any) {
		warns = append(warns, Warning{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	id := string(ev.ID)
	if id == "" {
		id = ev.GUID
	}
	t := frabEvent{id: id, title: ev.Title, abstract: ev.Abstract, description: ev.Description,
		track: ev.Track, room: ev.Room, language: ev.Language, url: ev.URL, kind: ev.Type,
		state: ev.State, links: ev.Links}.talk(file, conf, md)
	if t == nil {
		warn("event %q without a title: skipped", strings.TrimSpace(id))
		warns[len(warns)-1].Dropped = 1
		return nil, warns
	}
	title := t.Title
	for _, p := range ev.Persons {
		name := cleanField(p.PublicName)
		if name == "" {
			name = cleanField(p.FullPublicName)
		}
		if name == "" {
			name = cleanField(p.Name)
		}
		pid := string(p.ID)
		if pid == "" {
			pid = p.Code
		}
		if name != "" {
			t.Speakers = append(t.Speakers, index.Speaker{Name: name, SourceID: pid})
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
			warn("event %q: date %q is not RFC 3339 with an offset: left unscheduled", title, date)
			break
		}
		slot(t, at, dur, loc)
	case start != "":
		m, ok := clockMinutes(start)
		if !ok {
			warn("event %q: start %q is not HH:MM: left unscheduled", title, start)
			break
		}
		d, err := time.Parse("2006-01-02", day.date)
		if err != nil {
			warn("event %q: start %q on a day without a date (YYYY-MM-DD): left unscheduled", title, start)
			break
		}
		l := zone.loc(line, "the schedule (no time_zone_name, no per-event date with an offset)", &warns)
		if m < day.change {
			d = d.AddDate(0, 0, 1)
		}
		at := time.Date(d.Year(), d.Month(), d.Day(), m/60, m%60, 0, 0, l)
		slot(t, at, dur, l)
	}
	return t, warns
}

package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// valueLine is the line of the value that the decoder reads next.
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
	Name       string `json:"name"`
}

type frabJSONEvent struct {
	ID          flexID           `json:"id"`
	GUID        string           `json:"guid"`
	URL         string           `json:"url"`
	Date        string           `json:"date"`
	Duration    string           `json:"duration"`
	Room        string           `json:"room"`
	Title       string           `json:"title"`
	Track       string           `json:"track"`
	Type        string           `json:"type"`
	Language    string           `json:"language"`
	Abstract    string           `json:"abstract"`
	Description string           `json:"description"`
	Persons     []frabJSONPerson `json:"persons"`
}

func (frabJSON) Read(file string, data []byte, opt Options) ([]index.Talk, []Warning, error) {
	if err := checkUTF8(data); err != nil {
		return nil, nil, err
	}
	var (
		talks []index.Talk
		lines []int
		warns []Warning
		conf  index.Conference
		loc   = opt.TimeZone
	)
	dec := json.NewDecoder(bytes.NewReader(data))
	event := func(dec *json.Decoder) error {
		line := valueLine(data, dec)
		var ev frabJSONEvent
		if err := dec.Decode(&ev); err != nil {
			return err
		}
		if conf.ID == "" {
			conf = conferenceFromName(file)
		}
		t, w := ev.talk(file, line, conf, loc)
		warns = append(warns, w...)
		if t != nil {
			talks = append(talks, *t)
			lines = append(lines, line)
		}
		return nil
	}
	day := func(dec *json.Decoder) error {
		return walkObject(dec, func(dec *json.Decoder, key string) error {
			if key != "rooms" {
				return skipValue(dec)
			}
			return walkObject(dec, func(dec *json.Decoder, _ string) error {
				return walkArray(dec, event)
			})
		})
	}
	var acronym, title string
	conference := func(dec *json.Decoder, key string) error {
		switch key {
		case "acronym":
			return dec.Decode(&acronym)
		case "title":
			return dec.Decode(&title)
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
			// acronym and title come first in every exporter we know.
			conf = conferenceOf(acronym, title, file)
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
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, warns, fmt.Errorf("line %d: data after the schedule object", valueLine(data, dec))
	}
	talks, w := assignIDs(file, talks, lines)
	return talks, append(warns, w...), nil
}

func (ev *frabJSONEvent) talk(file string, line int, conf index.Conference, loc *time.Location) (*index.Talk, []Warning) {
	var warns []Warning
	warn := func(format string, args ...any) {
		warns = append(warns, Warning{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	id := string(ev.ID)
	if id == "" {
		id = ev.GUID
	}
	t := frabEvent{id: id, title: ev.Title, abstract: markdownText(ev.Abstract), description: markdownText(ev.Description),
		track: ev.Track, room: ev.Room, language: ev.Language, url: ev.URL, kind: ev.Type}.talk(file, conf)
	if t == nil {
		warn("event %q without a title: skipped", strings.TrimSpace(id))
		return nil, warns
	}
	title := t.Title
	for _, p := range ev.Persons {
		name := cleanLine(p.PublicName)
		if name == "" {
			name = cleanLine(p.Name)
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
	if date := strings.TrimSpace(ev.Date); date != "" {
		at, err := time.Parse(time.RFC3339, date)
		if err != nil {
			warn("event %q: date %q is not RFC 3339 with an offset: left unscheduled", title, date)
		} else {
			slot(t, at, dur, loc)
		}
	}
	return t, warns
}

package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"
	_ "time/tzdata"
	"unicode/utf8" // conference zones must not depend on the host's tz database

	"github.com/talksearch/talksearch/index"
)

// MaxFileSize is the default bound of one source file (Options.MaxFileBytes).
// The largest real export we know (FOSDEM 2025, 1,105 talks) is 2.5 MB;
// 64 MiB is twenty times the largest conference and keeps a mistaken path
// (a video, a dump of a database) from being read into memory. JSON Lines,
// read a line at a time, may be larger (MaxJSONLinesSize).
const MaxFileSize = 64 << 20

// DefaultMaxParseTime is the default bound of the time one file's reader
// may take (Options.MaxParseTime). The FOSDEM archive, nineteen years,
// reads in seconds: a minute for one file is a reader gone wrong (a
// pathological input no size bound caught), not a large conference.
const DefaultMaxParseTime = time.Minute

// detectBytes is how much of a file Detect sees.
const detectBytes = 64 << 10

// Options are what the command line adds to the sources.
type Options struct {
	// TimeZone is the conference's zone for sources that name none
	// (pentabarf XML without <time_zone_name>, floating iCalendar times,
	// a Sched page whose header zone is not defined on the page). When it
	// is set, it is also the zone a Sched page's times are read in.
	TimeZone *time.Location
	// MaxFileBytes bounds a file read whole; 0 means MaxFileSize.
	MaxFileBytes int64
	// MaxLineBytes bounds a line of a text file, a JSON line or a CSV
	// record; a longer one is a warning and the rest of the file is read.
	// 0 means MaxLineSize.
	MaxLineBytes int
	// Context ends a load early (SIGTERM, SIGINT): the load returns its
	// cause as an error. nil: the load runs to its end.
	Context context.Context
	// MaxParseTime bounds the reading of one file: a reader still at
	// work past it stops at its next look at the context (a read, a
	// chunk of records), the file is a warning and the others are read.
	// 0 means DefaultMaxParseTime.
	MaxParseTime time.Duration

	// markdown is the budget of the file being read (readFormat); nil:
	// a reader called directly has none.
	markdown *markdownBudget
}

// Format reads one kind of structured source file.
type Format interface {
	Name() string
	// Detect reports whether head, the first bytes of a file (BOM and
	// leading blanks removed), is this format. Detection is by content,
	// never by file name.
	Detect(head []byte) bool
	// Read returns the talks of one file. name is the file's name as
	// reported; the error is for a file that cannot be read at all, the
	// warnings for parts of it (with file and line).
	Read(name string, data []byte, opt Options) ([]index.Talk, []Warning, error)
}

// Formats are the structured formats in detection order: the JSON formats
// look at the keys of one document, so the JSON Lines check (a whole
// object on the first line with a "title") comes first; a CSV header is
// any line with a title and an abstract column, so it comes last. Seed
// files and the organizers' submissions (Importer) are read by the same
// formats.
var Formats = []Format{frabXML{}, jsonLines{}, frabJSON{}, pretalxAPI{}, sessionize{}, iCalendar{}, csvFormat{}}

// ErrUnknownFormat is returned by ReadFile for data that no reader knows.
var ErrUnknownFormat = errors.New("unknown format")

// ErrTooLarge is returned for a file over Options.MaxFileBytes.
var ErrTooLarge = errors.New("too large")

// Detect returns the structured format of data, or nil for text (a Sched
// page, an abstract dump) and for anything unknown.
func Detect(data []byte) Format {
	head := trimHead(data)
	for _, f := range Formats {
		if f.Detect(head) {
			return f
		}
	}
	return nil
}

// trimHead is the start of data without a UTF-8 BOM and leading blanks,
// at most detectBytes long.
func trimHead(data []byte) []byte {
	head := data[:min(len(data), detectBytes)]
	return bytes.TrimLeft(withoutBOM(head), " \t\r\n")
}

// ReadFile reads one structured source file (or a Sched schedule page)
// into talks, each with name as its source. A file that is no known format
// gives ErrUnknownFormat; abstract dumps need the other files of a
// conference to be cut into talks, so they are read by Load only. A read
// past Options.MaxParseTime is an error wrapping a ParseTimeError.
func ReadFile(name string, data []byte, opt Options) ([]index.Talk, []Warning, error) {
	opt, stop := opt.withParseBudget()
	defer stop()
	if int64(len(data)) > opt.maxFile() {
		return nil, nil, fmt.Errorf("%s: %w", name, tooLarge(opt.maxFile()))
	}
	data, utf16, err := fromUTF16(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	var pre []Warning
	if utf16 {
		pre = append(pre, utf16Warning(name))
	}
	if f := Detect(data); f != nil {
		talks, warns, err := readFormat(f, name, withoutBOM(data), opt)
		warns = append(pre, warns...)
		if err != nil {
			return nil, warns, fmt.Errorf("%s: %s: %w", name, f.Name(), err)
		}
		return talks, warns, nil
	}
	if unusable(data) == "" && looksLikeSchedule(data) {
		data, long := dropLongLines(name, data, opt.maxLine())
		s := ParseSchedIn(name, data, opt)
		if s.stopped != nil {
			return nil, nil, fmt.Errorf("%s: %s: %w", name, FileSchedule, s.stopped)
		}
		return s.Talks, append(append(pre, long...), s.Warnings...), nil
	}
	return nil, nil, fmt.Errorf("%s: %w", name, ErrUnknownFormat)
}

// looksStructured reports what a file that no reader accepted seems to be
// ("XML", "JSON", "iCalendar"), or "": such a file is an error, not a text
// dump to cut into abstract paragraphs.
func looksStructured(data []byte) string {
	head := trimHead(data)
	switch {
	case len(head) == 0:
		return ""
	case head[0] == '<':
		return "XML"
	case head[0] == '{' || head[0] == '[':
		return "JSON"
	case hasPrefixFold(head, "BEGIN:VCALENDAR"), hasPrefixFold(head, "BEGIN:VEVENT"):
		return "iCalendar"
	}
	return ""
}

// withoutBOM drops a UTF-8 byte order mark, which Windows editors write
// and JSON decoders refuse.
func withoutBOM(data []byte) []byte { return bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) }

func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && strings.EqualFold(string(b[:len(prefix)]), prefix)
}

// checkUTF8 is the error for text that is not UTF-8 (JSON and iCalendar
// must be; a JSON decoder would turn the bytes into U+FFFD unseen).
func checkUTF8(data []byte) error {
	if utf8.Valid(data) {
		return nil
	}
	for off := 0; off < len(data); {
		r, size := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && size <= 1 {
			return fmt.Errorf("line %d: not UTF-8 (byte 0x%02x); convert the file to UTF-8", lineAt(data, int64(off)), data[off])
		}
		off += size
	}
	return nil
}

// lineAt is the 1-based line of byte offset off in data.
func lineAt(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// conferenceFromName names the conference of a source that names none by
// its file ("fosdem-2015.ical" is fosdem-2015), or by its folder when the
// file has a generic name ("camp2019/schedule.json").
func conferenceFromName(name string) index.Conference {
	base := filepath.Base(name)
	base = strings.TrimSuffix(base, filepath.Ext(base))
	if genericNames[strings.ToLower(base)] {
		if dir := filepath.Base(filepath.Dir(name)); dir != "." && dir != ".." && dir != string(filepath.Separator) {
			base = dir
		}
	}
	return ConferenceNamed(base)
}

// genericNames are file names that say nothing of their conference.
var genericNames = map[string]bool{
	"schedule": true, "fahrplan": true, "export": true, "calendar": true, "talks": true, "submissions": true,
	"events": true, "ical": true, "index": true, "data": true, "program": true, "programme": true, "agenda": true,
}

// conferenceOf is the conference a schedule names by acronym and title;
// the acronym, a short slug ("fosdem-2025"), is the id where there is one.
func conferenceOf(acronym, title, file string) index.Conference {
	acronym, title = cleanField(acronym), cleanField(title)
	switch {
	case acronym != "" && title != "":
		c := ConferenceNamed(acronym)
		if c.ID != "" {
			c.Name = title
			return c
		}
		return ConferenceNamed(title)
	case title != "":
		return ConferenceNamed(title)
	case acronym != "":
		return ConferenceNamed(acronym)
	}
	return conferenceFromName(file)
}

// structuredID is the id of a talk from a structured source: its source
// id within its conference, so ids stay stable when titles or times move
// and never collide across conferences; the folded title and start stand
// in for a source without ids.
func structuredID(t *index.Talk) string {
	identity := t.Conference.ID + "|"
	if t.SourceID != "" {
		identity += "id:" + t.SourceID
	} else {
		identity += ScheduledIdentity(t.Title, t.Start)
	}
	return TalkID(t.Title, identity)
}

// zoneWarning is the warning for a source whose times name no zone.
func zoneWarning(file string, line int, what string) Warning {
	return Warning{File: file, Line: line, Msg: what + " names no time zone: times read as UTC; pass --time-zone (e.g. Europe/Brussels)"}
}

// fileZone is the zone for a file's zone-less times: the command line's,
// else UTC with the warning (once per file) that says so.
type fileZone struct {
	file   string
	opt    *time.Location
	warned bool
}

func (z *fileZone) loc(line int, what string, warns *[]Warning) *time.Location {
	if z.opt != nil {
		return z.opt
	}
	if !z.warned {
		z.warned = true
		*warns = append(*warns, zoneWarning(z.file, line, what))
	}
	return time.UTC
}

// zoneName is the IANA name of loc for Talk.TimeZone, "" for UTC read
// by default and for fixed offsets.
func zoneName(loc *time.Location) string {
	if loc == nil || loc == time.UTC {
		return ""
	}
	name := loc.String()
	known, ok := ianaZones.Load(name)
	if !ok {
		_, err := time.LoadLocation(name)
		known, _ = ianaZones.LoadOrStore(name, err == nil)
	}
	if !known.(bool) {
		return ""
	}
	return name
}

// ianaZones caches, by name, whether time.LoadLocation knows a zone: it
// reads and parses the zone's file at every call, once per talk here (a
// twentieth of ingesting the FOSDEM archive).
var ianaZones sync.Map

// slot fills the talk's start, end and zone and marks it scheduled.
func slot(t *index.Talk, start time.Time, dur time.Duration, loc *time.Location) {
	if loc != nil {
		start = start.In(loc)
	}
	t.Start = &start
	if dur > 0 {
		end := start.Add(dur)
		t.End = &end
	}
	t.TimeZone = zoneName(loc)
	t.Scheduled = true
}

// parseDuration reads frab's "HH:MM" or "HH:MM:SS" (also "D:HH:MM" is not
// used by any exporter we know).
func parseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, fmt.Errorf("duration %q is not HH:MM", s)
	}
	var d time.Duration
	units := []time.Duration{time.Hour, time.Minute, time.Second}
	for i, p := range parts {
		var n int
		if _, err := fmt.Sscanf(p, "%d", &n); err != nil || n < 0 || (i > 0 && n > 59) || n > 240 {
			return 0, fmt.Errorf("duration %q is not HH:MM", s)
		}
		d += time.Duration(n) * units[i]
	}
	return d, nil
}

package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/talksearch/talksearch/index"
)

// rowFormat is a Format whose files are read a record at a time (CSV, JSON
// Lines), so that a file is never held whole: memory is bounded by the
// longest record. Read gives the index the talks of such a file
// (indexRows); the submissions importer streams the same records and
// accounts for every one (Importer).
type rowFormat interface {
	Format
	// readRows reads r, handing rows every record with the line it starts
	// on, and every record that cannot be read with why. A record longer
	// than maxRow bytes is read past, never held. The error is for a file
	// that cannot be read at all (a CSV file without its header row, an
	// I/O failure).
	readRows(r *bufio.Reader, maxRow int, rows rowSink) error
}

// rowSink takes the records of one file as they are read.
type rowSink interface {
	record(line int, rec *record)
	bad(line int, err error)
}

// record is one record as it is written, before the index or the importer
// decides what becomes of it. talk holds the fields that need no reading
// (ids, texts, speakers, conference, sources, as written); times, zone and
// kind are kept as text, which each decides how to read.
type record struct {
	talk             index.Talk
	start, end, zone string
	kind             string
	scheduled        *bool // JSON Lines' "scheduled"; nil where the record does not say
	// fixes say what was changed in the record's bytes to read it (NUL
	// removed, invalid UTF-8 replaced): a warning each where it is kept.
	fixes []string
}

// cleanBytes removes NUL bytes from a record's text and replaces byte
// sequences that are not UTF-8 by U+FFFD, saying what it did: neither
// may reach the index or a file written from it unseen.
func cleanBytes(b []byte) ([]byte, []string) {
	var fixes []string
	if n := bytes.Count(b, []byte{0}); n > 0 {
		b = bytes.ReplaceAll(b, []byte{0}, nil)
		fixes = append(fixes, fmt.Sprintf("%d NUL bytes removed", n))
	}
	if !utf8.Valid(b) {
		b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
		fixes = append(fixes, "bytes that are not UTF-8 replaced by U+FFFD")
	}
	return b, fixes
}

// stripNULs removes the NUL characters that JSON escapes (\u0000) put
// into a record's fields.
func (r *record) stripNULs() {
	t := &r.talk
	fields := []*string{&t.ID, &t.SourceID, &t.Title, &t.Abstract, &t.Description, &t.Track, &t.Level, &t.Room,
		&t.Language, &t.URL, &t.TimeZone, &t.Conference.ID, &t.Conference.Name, &r.start, &r.end, &r.zone, &r.kind}
	for i := range t.Speakers {
		fields = append(fields, &t.Speakers[i].Name, &t.Speakers[i].Affiliation, &t.Speakers[i].SourceID)
	}
	for i := range t.Sources {
		fields = append(fields, &t.Sources[i])
	}
	n := 0
	for _, f := range fields {
		if strings.IndexByte(*f, 0) >= 0 {
			n += strings.Count(*f, "\x00")
			*f = strings.ReplaceAll(*f, "\x00", "")
		}
	}
	if n > 0 {
		r.fixes = append(r.fixes, fmt.Sprintf("%d NUL characters (\\u0000) removed", n))
	}
}

// longRowError is a record over the row limit: read past, never held.
type longRowError struct {
	line      bool // a JSON line (else a CSV record)
	size, max int
}

func (e *longRowError) Error() string {
	if e.line {
		return fmt.Sprintf("line is %d bytes, longer than the %s limit of a row", e.size, sizeText(int64(e.max)))
	}
	return fmt.Sprintf("row is longer than the %s limit of a row", sizeText(int64(e.max)))
}

// lineReader reads physical lines, each at most max bytes kept: the rest of
// a longer line is read and dropped, so a 17 MiB line costs max bytes of
// memory, not 17 MiB. The first line loses its byte order mark.
type lineReader struct {
	br   *bufio.Reader
	max  int
	line int // number of the line last returned, 1-based
	buf  []byte
}

// physLine is one physical line: its text with its end of line (empty when
// long), whether it was longer than max, its length and its quote count.
type physLine struct {
	text   []byte
	long   bool
	total  int
	quotes int
}

// next returns the next line, and io.EOF after the last.
func (lr *lineReader) next() (physLine, error) {
	lr.buf = lr.buf[:0]
	var pl physLine
	for {
		chunk, err := lr.br.ReadSlice('\n')
		pl.total += len(chunk)
		if !pl.long {
			if len(lr.buf)+len(chunk) > lr.max {
				pl.long = true
				lr.buf = lr.buf[:0]
			} else {
				lr.buf = append(lr.buf, chunk...)
			}
		}
		pl.quotes += bytes.Count(chunk, []byte{'"'})
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if pl.total == 0 {
				return pl, io.EOF
			}
		case err != nil:
			return pl, err
		}
		lr.line++
		pl.text = lr.buf
		if lr.line == 1 && !pl.long {
			pl.text = withoutBOM(pl.text)
		}
		return pl, nil
	}
}

// Times of CSV and JSON Lines records: zoned layouts first. A time
// written without a zone is naive, read in the zone its reader chooses.
var (
	zonedLayouts = []string{time.RFC3339, "2006-01-02T15:04Z07:00", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04Z07:00"}
	naiveLayouts = []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04"}
)

// parseTime reads a start or end. A time with an offset (or Z) is returned
// as written; a naive one is read in the zone naiveIn returns (called only
// for a naive time, so a reader can warn once that it had to choose one).
func parseTime(s string, naiveIn func() *time.Location) (t time.Time, naive bool, err error) {
	if hasZone(s) {
		for _, layout := range zonedLayouts {
			if v, err := time.Parse(layout, s); err == nil {
				return v, false, nil
			}
		}
	}
	for _, layout := range naiveLayouts {
		if v, err := time.Parse(layout, s); err == nil {
			y, mo, d := v.Date()
			h, mi, sec := v.Clock()
			return time.Date(y, mo, d, h, mi, sec, v.Nanosecond(), naiveIn()), true, nil
		}
	}
	return time.Time{}, false, fmt.Errorf("%q is not a time like 2026-04-08T10:05:00+02:00 or 2026-04-08 10:05", s)
}

// hasZone tells a time with an offset or Z from a naive one without
// parsing it (failed parses allocate: a million rows have two times each).
func hasZone(s string) bool {
	if len(s) < 11 {
		return false
	}
	return strings.ContainsAny(s[10:], "Z+-")
}

// parseSpeakerList reads "Name (Affiliation); Name; …".
func parseSpeakerList(s string) []index.Speaker {
	var out []index.Speaker
	for _, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		sp := index.Speaker{Name: part}
		if strings.HasSuffix(part, ")") {
			if open := strings.Index(part, "("); open > 0 {
				sp.Name = strings.TrimSpace(part[:open])
				sp.Affiliation = strings.TrimSpace(part[open+1 : len(part)-1])
			}
		}
		out = append(out, sp)
	}
	return out
}

// indexRows makes the talks of a file read a record at a time for the
// index, as every reader does: a title is required; the conference is the
// record's, else the file's; a kind that is not one of index.Kinds is
// read as the nearest (KindOf); times are read in the record's time_zone,
// else --time-zone, else UTC with a warning; a missing or unsafe id is
// made (structuredID) and a repeated one dropped. Records that cannot be
// read, a record over the row limit among them, are warnings.
type indexRows struct {
	file     string
	zone     fileZone
	talks    []index.Talk
	warns    []Warning
	seen     map[string]int
	reps     *repeatedIDs
	fileConf index.Conference
	fail     error
}

// readIndexRows reads a whole file of a row format for the index.
func readIndexRows(f rowFormat, file string, r io.Reader, maxRow int, opt Options) ([]index.Talk, []Warning, error) {
	s := &indexRows{file: file, zone: fileZone{file: file, opt: opt.TimeZone}, seen: map[string]int{}, reps: newRepeatedIDs(file, "id", "")}
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(ctxReader{r, opt.Context}, 64<<10)
	}
	err := f.readRows(br, maxRow, s)
	if c := opt.cancelled(); c != nil {
		return nil, s.warns, c
	}
	// Each repeated id at the line of its first repeat, among the others.
	s.warns = append(s.warns, s.reps.warnings()...)
	sort.SliceStable(s.warns, func(i, j int) bool { return s.warns[i].Line < s.warns[j].Line })
	if err != nil {
		return nil, s.warns, err
	}
	if s.fail != nil {
		return nil, s.warns, s.fail
	}
	return s.talks, s.warns, nil
}

func (s *indexRows) warn(line int, format string, args ...any) {
	s.warns = append(s.warns, Warning{File: s.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (s *indexRows) bad(line int, err error) {
	var long *longRowError
	var js *jsonLineError
	switch {
	case s.fail != nil:
	case errors.As(err, &long):
		s.warn(line, "%v (--max-line-bytes): skipped", long)
	case errors.As(err, &js):
		s.warn(line, "not a talk object: %v", js.err)
	default:
		s.warn(line, "%v: skipped", err)
	}
}

func (s *indexRows) record(line int, rec *record) {
	if s.fail != nil {
		return
	}
	for _, fix := range rec.fixes {
		s.warn(line, "%s", fix)
	}
	t := rec.talk
	if t.Title = strings.TrimSpace(t.Title); t.Title == "" {
		s.warn(line, "talk %q without a title: skipped", t.ID)
		return
	}
	// Links as every reader makes them: each address once, kinds in
	// talksearch's set, recordings first.
	stated := t.Links
	t.Links = nil
	sls := make([]sourceLink, len(stated))
	for i, l := range stated {
		sls[i] = sourceLink{href: l.URL, title: l.Title, kind: string(l.Kind), mime: l.MIMEType}
	}
	links(&t, sls)
	if t.Conference.ID == "" {
		if s.fileConf.ID == "" { // once per file: it folds the name's text
			s.fileConf = conferenceFromName(s.file)
		}
		t.Conference = s.fileConf
	}
	t.Kind = index.Kind(strings.ToLower(strings.TrimSpace(rec.kind)))
	if !isKind(t.Kind) {
		k := KindOf(rec.kind)
		if rec.kind != "" {
			s.warn(line, "kind %q is not one of talksearch's kinds: read as %q", rec.kind, k)
		}
		t.Kind = k
	}
	// loc is the zone the record names: its times are shown in it.
	var loc *time.Location
	if rec.zone != "" {
		t.TimeZone = rec.zone
		if l, err := time.LoadLocation(rec.zone); err != nil {
			s.warn(line, "unknown time zone %q", rec.zone)
		} else {
			loc = l
		}
	}
	naiveIn := func() *time.Location {
		if loc != nil {
			return loc
		}
		l := s.zone.loc(line, "the file (a time without an offset, no time_zone)", &s.warns)
		if t.TimeZone == "" {
			t.TimeZone = zoneName(l)
		}
		return l
	}
	for _, tm := range []struct {
		text string
		dst  **time.Time
		name string
	}{{rec.start, &t.Start, "start"}, {rec.end, &t.End, "end"}} {
		if tm.text == "" {
			continue
		}
		at, _, err := parseTime(tm.text, naiveIn)
		if err != nil {
			s.warn(line, "talk %q: %s: %v: skipped", t.Title, tm.name, err)
			return
		}
		if loc != nil {
			at = at.In(loc)
		}
		*tm.dst = &at
	}
	if t.Start != nil && t.End != nil && t.End.Before(*t.Start) {
		s.warn(line, "talk %q ends before it starts: end dropped", t.Title)
		t.End = nil
	}
	if rec.scheduled != nil {
		t.Scheduled = *rec.scheduled
	} else {
		t.Scheduled = t.Start != nil
	}
	if len(t.Sources) == 0 {
		t.Sources = []string{s.file}
	}
	if t.ID == "" || !urlSafe(t.ID) {
		id := structuredID(&t)
		if t.ID != "" {
			s.warn(line, "id %q is not URL-safe: replaced by %q", t.ID, id)
		}
		t.ID = id
	}
	if first, dup := s.seen[t.ID]; dup {
		s.reps.add(t.ID, first, line, true)
		return
	}
	s.seen[t.ID] = line
	s.talks = append(s.talks, t)
}

func isKind(k index.Kind) bool {
	for _, known := range index.Kinds {
		if k == known {
			return true
		}
	}
	return false
}

// urlSafe: the characters an id may have in a URL path unescaped.
func urlSafe(id string) bool {
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return id != ""
}

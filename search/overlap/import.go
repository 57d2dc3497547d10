package overlap

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // zone names resolve whatever the host has installed

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
)

// Submission file formats read row by row here; formats.go lists the rest.
const (
	FormatCSV   = "csv"
	FormatJSONL = "jsonl"
)

// Row actions: what the importer did with a row it did not keep as written.
const (
	ActionSkipped  = "skipped"  // not used: the reason says why
	ActionRepaired = "repaired" // kept, changed as the reason says
	ActionMerged   = "merged"   // the same submission as an earlier row, folded into it
)

const (
	// DefaultMaxRowBytes bounds one row (a CSV record, a JSON line, one
	// submission of a document). A longer row is one skipped row, and is
	// never held in memory whole: memory stays bounded by the largest row
	// accepted, whatever the file.
	DefaultMaxRowBytes = 1 << 20
	// DefaultZone is the zone of times written without one
	// ("2026-04-08 10:00") when neither the row (time_zone) nor the caller
	// (ReadOptions.Location, --time-zone) names one: the zone of the
	// conference this project serves, the PyTorch Conference Europe in
	// Paris. The summary counts the rows read that way.
	DefaultZone = "Europe/Paris"
)

// timeLayouts are the accepted start/end formats; zoned ones first.
var (
	zonedLayouts = []string{time.RFC3339, "2006-01-02T15:04Z07:00", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04Z07:00"}
	naiveLayouts = []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04"}
)

// ReadOptions tune reading.
type ReadOptions struct {
	// Location is the zone of naive times, for rows that do not name
	// their own in a time_zone field; nil means DefaultZone.
	Location *time.Location
	// MaxRowBytes bounds one row; 0 means DefaultMaxRowBytes.
	MaxRowBytes int
	// Conference is given to rows that name none (see ReadSubmissions).
	Conference index.Conference
}

// Summary counts what became of the rows of one file. Rows = Kept +
// Merged + Skipped: every row is accounted for; Repaired rows are among
// the Kept.
type Summary struct {
	File     string
	Format   string
	Rows     int // data rows: CSV records after the header, non-blank JSON lines
	Kept     int
	Repaired int
	Merged   int
	Skipped  int
	// NaiveTimes is how many kept rows had times without a zone, read in
	// Zone.
	NaiveTimes int
	Zone       string
}

// Import is one file read whole: its talks, the rows not kept as written,
// and the counts.
type Import struct {
	Talks   []index.Talk
	Notes   []RowError
	Summary Summary
}

// ReadSubmissions reads one submissions file; see Importer.Read.
func ReadSubmissions(name string, r io.Reader, opt ReadOptions) (*Import, error) {
	imp := &Import{}
	in := NewImporter(opt, func(t index.Talk) { imp.Talks = append(imp.Talks, t) })
	sum, err := in.Read(name, r)
	if err != nil {
		return nil, err
	}
	imp.Notes, imp.Summary = in.Notes(), sum
	return imp, nil
}

// Importer reads submissions from one or more files into one set of
// talks: ids stay unique across the files.
type Importer struct {
	opt   ReadOptions
	zone  *time.Location
	keep  func(index.Talk)
	notes []RowError
	// ids maps the hash of each id kept to where it was and a hash of its
	// text, so a repeated row is told from a clash of ids. Hashes, not the
	// ids, keep a million rows in some 30 MiB; two ids of a million
	// colliding (odds about 3e-8) would be reported as a reused id, never
	// pass silently.
	ids   map[uint64]seenID
	files []string
	// file and sum are the file being read.
	file    string
	sources []string
	sum     *Summary
}

type seenID struct {
	text uint64
	line int32
	file int32 // index into files
}

func hashString(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// NewImporter returns an importer that hands each talk kept to keep, as
// it is read: a caller that does not hold the talks (counting, writing
// them out) reads any number of rows in bounded memory.
func NewImporter(opt ReadOptions, keep func(index.Talk)) *Importer {
	if opt.MaxRowBytes <= 0 {
		opt.MaxRowBytes = DefaultMaxRowBytes
	}
	zone := opt.Location
	if zone == nil {
		var err error
		if zone, err = time.LoadLocation(DefaultZone); err != nil {
			panic(err) // time/tzdata is linked in: cannot happen
		}
	}
	return &Importer{opt: opt, zone: zone, keep: keep, ids: map[uint64]seenID{}}
}

// Notes are the rows of every file read so far that were skipped, merged
// or repaired, in file and line order.
func (in *Importer) Notes() []RowError { return in.notes }

// Read reads one file. The format comes from name's extension, else from
// the content (see formats.go); CSV and JSON Lines stream row by row:
//
//   - CSV: a header row naming the columns (any order, any case, unknown
//     ones ignored), then one submission per record. Only title and
//     abstract are required.
//   - JSON Lines: one object per line, with the same fields; speakers
//     may also be a list of {"name", "affiliation", "source_id"}, id a
//     number, conference a name or {"id", "name"}. `talksearch export`'s
//     output reads back.
//
// Fields: id, title, abstract, description, speakers ("Name
// (Affiliation); Name"), track, level, room, start, end, time_zone (IANA
// name of the zone of naive times), kind (index.Kinds; default talk),
// conference. A missing id is derived from title and abstract. A row
// without a conference takes ReadOptions.Conference, else the part of its
// id before a "/" ("fosdem-2024/3023").
//
// Every row is kept, merged, repaired or skipped, and the Summary counts
// each; Notes gives each row not kept as written, with its file, line and
// reason. The error is for a file that cannot be read at all (no title or
// abstract column, an I/O failure, a format with no reader); the rows kept
// before it stay kept.
func (in *Importer) Read(name string, r io.Reader) (Summary, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(512)
	head = bytes.TrimPrefix(head, []byte("\ufeff"))
	f, err := formatOf(name, head)
	if err != nil {
		return Summary{}, fmt.Errorf("read %s: %w", name, err)
	}
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte("\ufeff")) {
		br.Discard(3)
	}
	in.file = filepath.Base(name)
	in.files = append(in.files, in.file)
	in.sources = []string{in.file} // shared by the file's talks: nothing appends to it
	sum := Summary{File: in.file, Format: f.Name, Zone: in.zone.String()}
	in.sum = &sum
	defer func() { in.sum = nil }()
	switch {
	case f.stream != nil:
		err = f.stream(in, br)
	case f.Whole != nil:
		err = in.readWhole(f, name, br)
	default:
		err = fmt.Errorf("%s files have no reader in this build", f.Name)
	}
	if err != nil {
		return sum, fmt.Errorf("read %s: %w", name, err)
	}
	return sum, nil
}

func (in *Importer) note(line int, action, format string, args ...any) {
	in.notes = append(in.notes, RowError{File: in.file, Line: line, Action: action, Reason: fmt.Sprintf(format, args...)})
	switch action {
	case ActionSkipped:
		in.sum.Skipped++
	case ActionMerged:
		in.sum.Merged++
	case ActionRepaired:
		in.sum.Repaired++
	}
}

// skip records a row that was not used.
func (in *Importer) skip(line int, format string, args ...any) {
	in.sum.Rows++
	in.note(line, ActionSkipped, format, args...)
}

// lineReader reads physical lines, each at most max bytes kept: the rest of
// a longer line is read and dropped, so a 17 MiB line costs max bytes of
// memory, not 17 MiB.
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
		pl.quotes += bytes.Count(chunk, []byte{'"'})
		if !pl.long {
			if len(lr.buf)+len(chunk) > lr.max {
				pl.long = true
				lr.buf = lr.buf[:0]
			} else {
				lr.buf = append(lr.buf, chunk...)
			}
		}
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
		return pl, nil
	}
}

// submission is one row before validation, whatever the format.
type submission struct {
	id, title, abstract, description, track, level, room, start, end, zone, kind string
	conference                                                                   index.Conference
	speakers                                                                     []index.Speaker
}

var csvColumns = []string{"id", "title", "abstract", "speakers", "track", "level", "room", "start", "end", "time_zone", "kind", "conference", "description"}

// readCSV reads CSV record by record. encoding/csv cannot resume after a
// malformed record: a quote left open swallows every line up to the next
// quote, valid rows included. So records are cut here and each is parsed by
// a csv.Reader of its own: physical lines are joined while the count of
// quote characters is odd (inside a quoted field, "" counts twice and keeps
// the parity). While a quoted field is open, a line that on its own is a
// whole record of the header's width ends the open record, which is skipped
// as malformed, and starts the next: an abstract line of exactly the
// header's width of fields with balanced quotes would be taken for a row,
// which is the rarer mistake than losing every row after a typo.
func readCSV(in *Importer, br *bufio.Reader) error {
	lr := &lineReader{br: br, max: in.opt.MaxRowBytes}
	var (
		header []string
		col    map[string]int
		rec    []byte // the record being assembled
		start  int    // its first line
		lines  int    // its physical lines
		open   bool   // inside a quoted field
		long   bool   // over MaxRowBytes: being dropped
	)
	parse := func(b []byte) ([]string, error) {
		cr := csv.NewReader(bytes.NewReader(b))
		cr.FieldsPerRecord = -1
		fields, err := cr.Read()
		if err != nil {
			return nil, err
		}
		if _, err := cr.Read(); !errors.Is(err, io.EOF) {
			return nil, errors.New("more than one record on the line")
		}
		return fields, nil
	}
	finish := func() error {
		defer func() { rec, lines, open, long = rec[:0], 0, false, false }()
		if lines == 0 {
			return nil
		}
		if long {
			in.skip(start, "row is longer than %d bytes", in.opt.MaxRowBytes)
			return nil
		}
		if header == nil {
			if len(bytes.TrimSpace(rec)) == 0 {
				return nil
			}
			h, err := parse(rec)
			if err != nil {
				return fmt.Errorf("csv header (line %d): %w", start, err)
			}
			header, col = h, map[string]int{}
			for k, name := range h {
				col[strings.ToLower(strings.TrimSpace(name))] = k
			}
			for _, need := range []string{"title", "abstract"} {
				if _, ok := col[need]; !ok {
					return fmt.Errorf("csv header has no %q column (columns: %s)", need, strings.Join(csvColumns, ","))
				}
			}
			return nil
		}
		if len(bytes.TrimSpace(rec)) == 0 {
			return nil // blank lines are no rows, as for encoding/csv
		}
		if open {
			in.skip(start, "malformed csv: a quoted field opened on line %d is not closed (lines %d-%d skipped)", start, start, start+lines-1)
			return nil
		}
		fields, err := parse(rec)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			in.skip(start, "malformed csv: %v", err)
			return nil
		}
		if len(fields) != len(header) {
			in.skip(start, "has %d fields, the header has %d", len(fields), len(header))
			return nil
		}
		get := func(name string) string {
			if k, ok := col[name]; ok {
				return strings.TrimSpace(fields[k])
			}
			return ""
		}
		s := submission{
			id: get("id"), title: get("title"), abstract: get("abstract"), description: get("description"),
			track: get("track"), level: get("level"), room: get("room"),
			start: get("start"), end: get("end"), zone: get("time_zone"), kind: get("kind"),
			speakers: parseSpeakers(get("speakers")),
		}
		if c := get("conference"); c != "" {
			s.conference = ingest.ConferenceNamed(c)
		}
		in.add(start, s)
		return nil
	}
	for {
		pl, err := lr.next()
		if errors.Is(err, io.EOF) {
			if err := finish(); err != nil {
				return err
			}
			if header == nil {
				return errors.New("the file has no header row")
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("line %d: %w", lr.line+1, err)
		}
		odd := pl.quotes%2 == 1
		if open && !pl.long && !odd && header != nil && bytes.Count(pl.text, []byte{','}) >= len(header)-1 {
			if f, err := parse(pl.text); err == nil && len(f) == len(header) && len(header) > 1 {
				if err := finish(); err != nil {
					return err
				}
			}
		}
		if lines == 0 {
			start = lr.line
		}
		lines++
		if pl.long || len(rec)+len(pl.text) > in.opt.MaxRowBytes {
			long, rec = true, rec[:0]
		}
		if !long {
			rec = append(rec, pl.text...)
		}
		if odd {
			open = !open
		}
		if !open {
			if err := finish(); err != nil {
				return err
			}
		}
	}
}

// jsonSubmission is one JSON Lines object; id may be a string or a number,
// speakers a string or a list, conference a name or an object.
type jsonSubmission struct {
	ID          json.RawMessage `json:"id"`
	Conference  json.RawMessage `json:"conference"`
	Title       string          `json:"title"`
	Abstract    string          `json:"abstract"`
	Description string          `json:"description"`
	Speakers    json.RawMessage `json:"speakers"`
	Track       string          `json:"track"`
	Level       string          `json:"level"`
	Room        string          `json:"room"`
	Start       string          `json:"start"`
	End         string          `json:"end"`
	TimeZone    string          `json:"time_zone"`
	Kind        string          `json:"kind"`
}

func readJSONL(in *Importer, br *bufio.Reader) error {
	lr := &lineReader{br: br, max: in.opt.MaxRowBytes}
	for {
		pl, err := lr.next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("line %d: %w", lr.line+1, err)
		}
		if pl.long {
			in.skip(lr.line, "line is %d bytes, longer than the %d-byte limit of a row", pl.total, in.opt.MaxRowBytes)
			continue
		}
		text := bytes.TrimSpace(pl.text)
		if len(text) == 0 {
			continue
		}
		var js jsonSubmission
		if err := json.Unmarshal(text, &js); err != nil {
			in.skip(lr.line, "invalid JSON: %v", err)
			continue
		}
		id, err := jsonID(js.ID)
		if err != nil {
			in.skip(lr.line, "%v", err)
			continue
		}
		speakers, err := jsonSpeakers(js.Speakers)
		if err != nil {
			in.skip(lr.line, "%v", err)
			continue
		}
		conf, err := jsonConference(js.Conference)
		if err != nil {
			in.skip(lr.line, "%v", err)
			continue
		}
		in.add(lr.line, submission{
			id: id, title: strings.TrimSpace(js.Title), abstract: strings.TrimSpace(js.Abstract),
			description: strings.TrimSpace(js.Description),
			track:       strings.TrimSpace(js.Track), level: strings.TrimSpace(js.Level), room: strings.TrimSpace(js.Room),
			start: strings.TrimSpace(js.Start), end: strings.TrimSpace(js.End), zone: strings.TrimSpace(js.TimeZone),
			kind: strings.TrimSpace(js.Kind), conference: conf, speakers: speakers,
		})
	}
}

func jsonID(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return strings.TrimSpace(s), nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		return n.String(), nil
	}
	return "", fmt.Errorf("id must be a string or a number, not %s", raw)
}

func jsonConference(raw json.RawMessage) (index.Conference, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return index.Conference{}, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		if s = strings.TrimSpace(s); s == "" {
			return index.Conference{}, nil
		}
		return ingest.ConferenceNamed(s), nil
	}
	var c index.Conference
	if err := json.Unmarshal(raw, &c); err != nil {
		return c, fmt.Errorf("conference must be a name or {id, name}: %v", err)
	}
	c.ID, c.Name = strings.TrimSpace(c.ID), strings.TrimSpace(c.Name)
	if c.ID == "" && c.Name != "" {
		c = ingest.ConferenceNamed(c.Name)
	}
	return c, nil
}

func jsonSpeakers(raw json.RawMessage) ([]index.Speaker, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return parseSpeakers(s), nil
	}
	var list []index.Speaker
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("speakers must be a string or a list of {name, affiliation}: %v", err)
	}
	out := list[:0]
	for _, sp := range list {
		sp.Name, sp.Affiliation, sp.SourceID = strings.TrimSpace(sp.Name), strings.TrimSpace(sp.Affiliation), strings.TrimSpace(sp.SourceID)
		if sp.Name != "" {
			out = append(out, sp)
		}
	}
	return out, nil
}

// parseSpeakers reads "Name (Affiliation); Name; …".
func parseSpeakers(s string) []index.Speaker {
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

var kinds = map[string]index.Kind{}

func init() {
	for _, k := range index.Kinds {
		kinds[string(k)] = k
	}
}

// add validates one row and keeps it as a talk, or notes why not.
func (in *Importer) add(line int, s submission) {
	if s.title == "" {
		in.skip(line, "title is empty")
		return
	}
	if s.abstract == "" {
		in.skip(line, "abstract is empty")
		return
	}
	t := index.Talk{
		ID: s.id, Conference: s.conference, Title: s.title, Abstract: s.abstract, Description: s.description,
		Speakers: s.speakers, Track: s.track, Level: s.level, Room: s.room, Kind: index.KindTalk,
	}
	if s.kind != "" {
		k, ok := kinds[strings.ToLower(s.kind)]
		if !ok {
			in.skip(line, "unknown kind %q (kinds: %s)", s.kind, kindList())
			return
		}
		t.Kind = k
	}
	zone := in.zone
	if s.zone != "" {
		z, err := time.LoadLocation(s.zone)
		if err != nil {
			in.skip(line, "time_zone %q is not an IANA zone name like Europe/Paris", s.zone)
			return
		}
		zone = z
	}
	var naive [2]bool
	var err error
	if t.Start, naive[0], err = parseTime(s.start, zone); err != nil {
		in.skip(line, "start: %v", err)
		return
	}
	if t.End, naive[1], err = parseTime(s.end, zone); err != nil {
		in.skip(line, "end: %v", err)
		return
	}
	if t.Start != nil && t.End != nil && t.End.Before(*t.Start) {
		in.skip(line, "end %s is before start %s", s.end, s.start)
		return
	}
	if t.Start != nil || t.End != nil {
		t.TimeZone = zone.String()
	}
	t.Scheduled = t.Start != nil
	in.keepRow(line, t, naive[0] || naive[1])
}

// keepRow gives a valid talk its conference and a unique id, and keeps it;
// readers of whole documents call it too.
func (in *Importer) keepRow(line int, t index.Talk, naive bool) {
	in.sum.Rows++
	if t.Conference.ID == "" {
		t.Conference = in.opt.Conference
		if prefix, _, ok := strings.Cut(t.ID, "/"); ok && t.Conference.ID == "" && prefix != "" {
			t.Conference = index.Conference{ID: prefix, Name: prefix}
		}
	}
	if len(t.Sources) == 0 {
		t.Sources = in.sources
	}
	text := hashString(t.Title + "\x00" + t.Abstract)
	file := int32(len(in.files) - 1)
	if t.ID == "" {
		t.ID = ingest.TalkID(t.Title, ingest.AbstractIdentity(t.Title+"\n"+t.Abstract))
		if first, taken := in.ids[hashString(t.ID)]; taken {
			// The same text twice without ids: keep both, they are the
			// duplicate the organizers want to see. A row may already
			// carry that id explicitly, so count on until one is free.
			base := t.ID + "-l" + strconv.Itoa(line)
			t.ID = base
			for k := 2; ; k++ {
				if _, taken := in.ids[hashString(t.ID)]; !taken {
					break
				}
				t.ID = base + "-" + strconv.Itoa(k)
			}
			in.note(line, ActionRepaired, "same text as %s line %d without an id: given id %s", in.files[first.file], first.line, t.ID)
		}
	} else if first, taken := in.ids[hashString(t.ID)]; taken {
		switch {
		case first.text == text && first.file == file:
			in.note(line, ActionMerged, "id %q and text repeat line %d", t.ID, first.line)
			return
		case first.file == file:
			in.note(line, ActionSkipped, "id %q is already used on line %d", t.ID, first.line)
			return
		default:
			// Two files may number their submissions alike (two years'
			// exports): qualify the later one.
			qualified := strings.TrimSuffix(in.file, filepath.Ext(in.file)) + "/" + t.ID
			if _, again := in.ids[hashString(qualified)]; again {
				in.note(line, ActionSkipped, "id %q is already used in %s line %d", t.ID, in.files[first.file], first.line)
				return
			}
			in.note(line, ActionRepaired, "id %q is already used in %s line %d: given id %s", t.ID, in.files[first.file], first.line, qualified)
			t.ID = qualified
		}
	}
	in.ids[hashString(t.ID)] = seenID{text: text, line: int32(line), file: file}
	in.sum.Kept++
	if naive {
		in.sum.NaiveTimes++
	}
	in.keep(t)
}

func kindList() string {
	names := make([]string, len(index.Kinds))
	for k, kind := range index.Kinds {
		names[k] = string(kind)
	}
	return strings.Join(names, ", ")
}

// parseTime reads a start or end; naive says it had no zone and was read
// in zone.
func parseTime(s string, zone *time.Location) (t *time.Time, naive bool, err error) {
	if s == "" {
		return nil, false, nil
	}
	for _, layout := range zonedLayouts {
		if !hasZone(s) {
			break
		}
		if v, err := time.Parse(layout, s); err == nil {
			v = v.In(zone)
			return &v, false, nil
		}
	}
	for _, layout := range naiveLayouts {
		if v, err := time.ParseInLocation(layout, s, zone); err == nil {
			return &v, true, nil
		}
	}
	return nil, false, fmt.Errorf("%q is not a time like 2026-04-08T10:05:00+02:00 or 2026-04-08 10:05", s)
}

// hasZone tells a time with an offset or Z from a naive one without
// parsing it (failed parses allocate: a million rows have two times each).
func hasZone(s string) bool {
	if len(s) < 11 {
		return false
	}
	return strings.ContainsAny(s[10:], "Z+-")
}

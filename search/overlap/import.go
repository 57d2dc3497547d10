package overlap

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
)

// Submission file formats.
const (
	FormatCSV   = "csv"
	FormatJSONL = "jsonl"
)

// timeLayouts are the accepted start/end formats; a time without a zone is UTC.
var timeLayouts = []string{time.RFC3339, "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04"}

// ReadSubmissions reads submissions from outside the seeds: a CSV file with
// a header row, or JSON Lines, with the fields id, title, abstract,
// speakers, track, level, room, start, end and kind. Only title and abstract
// are required. The format comes from name's extension (.csv, .jsonl,
// .ndjson), else from the first byte ('{' is JSON Lines).
//
//   - speakers: in CSV "Name (Affiliation); Name; …"; in JSON Lines the
//     same string, or a list of {"name", "affiliation"}.
//   - start, end: RFC 3339, or "2006-01-02 15:04" (UTC).
//   - kind: one of the talk kinds (talk, keynote, lightning, bof, meet,
//     poster, sponsor, break); default talk. Breaks are never paired.
//   - id: a missing id is derived from the title and abstract (the same
//     text gives the same id; a repeated text gets its line appended).
//   - unknown columns or fields are ignored.
//
// A row that cannot be used is returned as a RowError with its line and
// reason, and the other rows are still read. The error is for a file that
// cannot be read at all (no title or abstract column, an I/O failure).
func ReadSubmissions(name string, r io.Reader) ([]index.Talk, []RowError, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", name, err)
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	imp := &importer{source: filepath.Base(name), ids: map[string]int{}}
	switch detectFormat(name, data) {
	case FormatJSONL:
		err = imp.readJSONL(data)
	default:
		err = imp.readCSV(data)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", name, err)
	}
	return imp.talks, imp.bad, nil
}

func detectFormat(name string, data []byte) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".csv":
		return FormatCSV
	case ".jsonl", ".ndjson":
		return FormatJSONL
	}
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		return FormatJSONL
	}
	return FormatCSV
}

// submission is one row before validation, whatever the format.
type submission struct {
	id, title, abstract, track, level, room, start, end, kind string
	speakers                                                  []index.Speaker
}

type importer struct {
	source string
	talks  []index.Talk
	bad    []RowError
	ids    map[string]int // id -> line it was first seen on
}

func (imp *importer) reject(line int, format string, args ...any) {
	imp.bad = append(imp.bad, RowError{Line: line, Reason: fmt.Sprintf(format, args...)})
}

var csvColumns = []string{"id", "title", "abstract", "speakers", "track", "level", "room", "start", "end", "kind"}

func (imp *importer) readCSV(data []byte) error {
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = -1 // a short row is the row's problem, not the file's
	header, err := cr.Read()
	if err != nil {
		return fmt.Errorf("csv header: %w", err)
	}
	col := map[string]int{}
	for k, h := range header {
		col[strings.ToLower(strings.TrimSpace(h))] = k
	}
	for _, need := range []string{"title", "abstract"} {
		if _, ok := col[need]; !ok {
			return fmt.Errorf("csv header has no %q column (columns: %s)", need, strings.Join(csvColumns, ","))
		}
	}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			imp.reject(pe.StartLine, "malformed csv: %v", pe.Err)
			continue
		}
		if err != nil {
			return fmt.Errorf("csv: %w", err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(header) {
			imp.reject(line, "has %d fields, the header has %d", len(rec), len(header))
			continue
		}
		get := func(name string) string {
			if k, ok := col[name]; ok {
				return strings.TrimSpace(rec[k])
			}
			return ""
		}
		imp.add(line, submission{
			id: get("id"), title: get("title"), abstract: get("abstract"),
			track: get("track"), level: get("level"), room: get("room"),
			start: get("start"), end: get("end"), kind: get("kind"),
			speakers: parseSpeakers(get("speakers")),
		})
	}
}

// jsonSubmission is one JSON Lines object; id may be a string or a number,
// speakers a string or a list.
type jsonSubmission struct {
	ID       json.RawMessage `json:"id"`
	Title    string          `json:"title"`
	Abstract string          `json:"abstract"`
	Speakers json.RawMessage `json:"speakers"`
	Track    string          `json:"track"`
	Level    string          `json:"level"`
	Room     string          `json:"room"`
	Start    string          `json:"start"`
	End      string          `json:"end"`
	Kind     string          `json:"kind"`
}

func (imp *importer) readJSONL(data []byte) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		var js jsonSubmission
		if err := json.Unmarshal(text, &js); err != nil {
			imp.reject(line, "invalid JSON: %v", err)
			continue
		}
		id, err := jsonID(js.ID)
		if err != nil {
			imp.reject(line, "%v", err)
			continue
		}
		speakers, err := jsonSpeakers(js.Speakers)
		if err != nil {
			imp.reject(line, "%v", err)
			continue
		}
		imp.add(line, submission{
			id: id, title: strings.TrimSpace(js.Title), abstract: strings.TrimSpace(js.Abstract),
			track: strings.TrimSpace(js.Track), level: strings.TrimSpace(js.Level), room: strings.TrimSpace(js.Room),
			start: strings.TrimSpace(js.Start), end: strings.TrimSpace(js.End), kind: strings.TrimSpace(js.Kind),
			speakers: speakers,
		})
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("line %d: %w", line+1, err)
	}
	return nil
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
		sp.Name, sp.Affiliation = strings.TrimSpace(sp.Name), strings.TrimSpace(sp.Affiliation)
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
	for _, k := range []index.Kind{index.KindKeynote, index.KindTalk, index.KindLightning, index.KindBOF,
		index.KindMeet, index.KindPoster, index.KindSponsor, index.KindBreak} {
		kinds[string(k)] = k
	}
}

// add validates one row and keeps it as a talk, or rejects it.
func (imp *importer) add(line int, s submission) {
	if s.title == "" {
		imp.reject(line, "title is empty")
		return
	}
	if s.abstract == "" {
		imp.reject(line, "abstract is empty")
		return
	}
	t := index.Talk{
		ID: s.id, Title: s.title, Abstract: s.abstract, Speakers: s.speakers,
		Track: s.track, Level: s.level, Room: s.room, Kind: index.KindTalk,
		Sources: []string{imp.source},
	}
	if s.kind != "" {
		k, ok := kinds[strings.ToLower(s.kind)]
		if !ok {
			imp.reject(line, "unknown kind %q", s.kind)
			return
		}
		t.Kind = k
	}
	var err error
	if t.Start, err = parseTime(s.start); err != nil {
		imp.reject(line, "start: %v", err)
		return
	}
	if t.End, err = parseTime(s.end); err != nil {
		imp.reject(line, "end: %v", err)
		return
	}
	if t.Start != nil && t.End != nil && t.End.Before(*t.Start) {
		imp.reject(line, "end %s is before start %s", s.end, s.start)
		return
	}
	t.Scheduled = t.Start != nil
	if t.ID == "" {
		t.ID = ingest.TalkID(t.Title, ingest.AbstractIdentity(t.Title+"\n"+t.Abstract))
		if _, taken := imp.ids[t.ID]; taken {
			// The same text twice without ids: keep both, they are the
			// duplicate the organizers want to see. A row may already
			// carry that id explicitly, so count on until one is free.
			base := t.ID + "-l" + strconv.Itoa(line)
			t.ID = base
			for k := 2; ; k++ {
				if _, taken := imp.ids[t.ID]; !taken {
					break
				}
				t.ID = base + "-" + strconv.Itoa(k)
			}
		}
	} else if first, taken := imp.ids[t.ID]; taken {
		imp.reject(line, "id %q is already used on line %d", t.ID, first)
		return
	}
	imp.ids[t.ID] = line
	imp.talks = append(imp.talks, t)
}

func parseTime(s string) (*time.Time, error) {
	if s == "" {
		return nil, nil
	}
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return &t, nil
		}
	}
	return nil, fmt.Errorf("%q is not a time like 2026-04-08T10:05:00+02:00 or 2026-04-08 10:05", s)
}

package ingest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/transform"

	"github.com/talksearch/talksearch/index"
)

// A call for papers is checked before it becomes a schedule (`talksearch
// overlaps --from`, the organizers' upload page): its files are read by the
// formats of this package, as seed files are, and every record is
// accounted for. A record is kept, merged (the same submission as an
// earlier one), repaired (kept, changed as the reason says) or skipped,
// and each file's counts add up to its records.

// Row actions: what the importer did with a record it did not keep as
// written.
const (
	ActionSkipped  = "skipped"  // not used: the reason says why
	ActionRepaired = "repaired" // kept, changed as the reason says
	ActionMerged   = "merged"   // the same submission as an earlier row, folded into it
)

const (
	// DefaultMaxRowBytes bounds one row (a CSV record, a JSON line). A
	// longer row is one skipped row, and is never held in memory whole:
	// memory stays bounded by the largest row accepted, whatever the file.
	DefaultMaxRowBytes = 1 << 20
	// DefaultZone is the zone of times written without one
	// ("2026-04-08 10:00") when neither the row (time_zone) nor the caller
	// (ImportOptions.Location, --time-zone) names one: the zone of the
	// conference this project serves, the PyTorch Conference Europe in
	// Paris. The summary counts the rows read that way.
	DefaultZone = "Europe/Paris"
)

// ImportOptions tune the importer.
type ImportOptions struct {
	// Location is the zone of naive times, for rows that do not name
	// their own in a time_zone field; nil means DefaultZone.
	Location *time.Location
	// MaxRowBytes bounds one row; 0 means DefaultMaxRowBytes.
	MaxRowBytes int
	// Conference is given to rows that name none (see Importer.Read).
	Conference index.Conference
	// MaxFileBytes bounds a document read whole; 0 means MaxFileSize.
	MaxFileBytes int64
	// Context ends a read early (SIGTERM, SIGINT); nil: never.
	Context context.Context
	// MaxParseTime bounds the reading of one file, as Options.MaxParseTime
	// bounds a seed file's: past it the file is an error wrapping a
	// ParseTimeError (its rows kept before stay kept). 0 means
	// DefaultMaxParseTime.
	MaxParseTime time.Duration
}

// FileSummary counts what became of the rows of one file. Rows = Kept +
// Merged + Skipped: every row is accounted for; Repaired rows are among
// the Kept.
type FileSummary struct {
	File     string
	Format   string
	Rows     int // data rows: CSV records after the header, non-blank JSON lines, talks of a document
	Kept     int
	Repaired int
	Merged   int
	Skipped  int
	// NaiveTimes is how many kept rows had times without a zone, read in
	// Zone.
	NaiveTimes int
	Zone       string
}

// RowError is one row of a submissions file that was skipped, merged or
// repaired, and why.
type RowError struct {
	File string
	// Line is the 1-based line of the file where the row starts; for a
	// document read whole, the submission's position in it.
	Line   int
	Action string // ActionSkipped, ActionRepaired or ActionMerged
	Reason string
}

func (e RowError) Error() string {
	return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Action, e.Reason)
}

// Import is one file read whole: its talks, the rows not kept as written,
// and the counts.
type Import struct {
	Talks   []index.Talk
	Notes   []RowError
	Summary FileSummary
}

// ReadSubmissions reads one submissions file; see Importer.Read.
func ReadSubmissions(name string, r io.Reader, opt ImportOptions) (*Import, error) {
	imp := &Import{}
	in := NewImporter(opt, func(t index.Talk) { imp.Talks = append(imp.Talks, t) })
	sum, err := in.Read(name, r)
	if err != nil {
		return nil, err
	}
	imp.Notes, imp.Summary = in.Notes(), sum
	return imp, nil
}

// FormatNames names the formats that are read, sorted, for messages and
// the upload form.
func FormatNames() []string {
	out := make([]string, len(Formats))
	for i, f := range Formats {
		out[i] = f.Name()
	}
	slices.Sort(out)
	return out
}

// Importer reads submissions from one or more files into one set of
// talks: ids stay unique across the files.
type Importer struct {
	opt   ImportOptions
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
	sum     *FileSummary
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
func NewImporter(opt ImportOptions, keep func(index.Talk)) *Importer {
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

// Read reads one file. The format comes from name's extension (.csv,
// .jsonl, .ndjson), else from the content, as Detect finds it; a file of
// no format is read as CSV, whose header check says what is missing. CSV
// and JSON Lines stream row by row (see csvFormat and jsonLines for their
// fields); the other formats are read whole, up to MaxFileSize.
//
// A row without an id gets one derived from its title and abstract; a row
// without a conference takes ImportOptions.Conference, else the part of its
// id before a "/" ("fosdem-2024/3023"). A talk of a document (a pretalx
// submission, a frab event) is known by its source's id (the pretalx code).
//
// Every row is kept, merged, repaired or skipped, and the summary counts
// each; Notes gives each row not kept as written, with its file, line and
// reason. The error is for a file that cannot be read at all (no title or
// abstract column, an I/O failure, a document its reader refuses); the
// rows kept before it stay kept.
func (in *Importer) Read(name string, r io.Reader) (FileSummary, error) {
	budget, stop := Options{Context: in.opt.Context, MaxParseTime: in.opt.MaxParseTime}.withParseBudget()
	defer stop()
	caller := in.opt.Context
	in.opt.Context = budget.Context // this file's reads, rows and document
	defer func() { in.opt.Context = caller }()
	r = ctxReader{r, in.opt.Context}
	br := bufio.NewReaderSize(r, detectBytes)
	if bom, _ := br.Peek(2); utf16Decoder(bom) != nil {
		// Windows' "Unicode" text: decoded as it streams.
		br = bufio.NewReaderSize(transform.NewReader(br, utf16Decoder(bom)), detectBytes)
	}
	head, _ := br.Peek(detectBytes)
	f, err := submissionsFormat(name, head)
	if err != nil {
		return FileSummary{}, fmt.Errorf("read %s: %w", name, err)
	}
	in.file = filepath.Base(name)
	in.files = append(in.files, in.file)
	in.sources = []string{in.file} // shared by the file's talks: nothing appends to it
	sum := FileSummary{File: in.file, Format: f.Name(), Zone: in.zone.String()}
	in.sum = &sum
	defer func() { in.sum = nil }()
	if rf, ok := f.(rowFormat); ok {
		err = rf.readRows(br, in.opt.MaxRowBytes, in)
	} else {
		err = in.readWhole(f, name, br)
	}
	if c := cancelled(in.opt.Context); c != nil {
		err = c
	}
	if err != nil {
		return sum, fmt.Errorf("read %s: %w", name, err)
	}
	return sum, nil
}

// submissionsFormat chooses the format of a file: by its extension for
// the formats whose content says little (a CSV header is any line), else
// by its content.
func submissionsFormat(name string, head []byte) (Format, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".csv":
		return csvFormat{}, nil
	case ".jsonl", ".ndjson":
		return jsonLines{}, nil
	}
	if f := Detect(head); f != nil {
		return f, nil
	}
	if what := looksStructured(head); what != "" {
		return nil, fmt.Errorf("the file looks like %s but is no format talksearch reads (formats read: %s)", what, strings.Join(FormatNames(), ", "))
	}
	return csvFormat{}, nil
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

// bad is a row the format could not read.
func (in *Importer) bad(line int, err error) {
	var field *fieldError
	var js *jsonLineError
	switch {
	case errors.As(err, &field):
		in.skip(line, "%v", field)
	case errors.As(err, &js):
		in.skip(line, "invalid JSON: %v", js.err)
	default:
		in.skip(line, "%v", err)
	}
}

var kinds = map[string]index.Kind{}

func init() {
	for _, k := range index.Kinds {
		kinds[string(k)] = k
	}
}

// record validates one row and keeps it as a talk, or notes why not.
func (in *Importer) record(line int, rec *record) {
	r := &rec.talk
	t := index.Talk{
		ID: strings.TrimSpace(r.ID), Conference: r.Conference,
		Title: strings.TrimSpace(r.Title), Abstract: strings.TrimSpace(r.Abstract), Description: strings.TrimSpace(r.Description),
		Speakers: cleanSpeakers(r.Speakers),
		Track:    strings.TrimSpace(r.Track), Level: strings.TrimSpace(r.Level), Room: strings.TrimSpace(r.Room),
		Kind: index.KindTalk,
	}
	if t.Title == "" {
		in.skip(line, "title is empty")
		return
	}
	if t.Abstract == "" {
		in.skip(line, "abstract is empty")
		return
	}
	if kind := strings.TrimSpace(rec.kind); kind != "" {
		k, ok := kinds[strings.ToLower(kind)]
		if !ok {
			in.skip(line, "unknown kind %q (kinds: %s)", kind, kindList())
			return
		}
		t.Kind = k
	}
	zone := in.zone
	if name := strings.TrimSpace(rec.zone); name != "" {
		z, err := time.LoadLocation(name)
		if err != nil {
			in.skip(line, "time_zone %q is not an IANA zone name like Europe/Paris", name)
			return
		}
		zone = z
	}
	naiveIn := func() *time.Location { return zone }
	naive := false
	start, end := strings.TrimSpace(rec.start), strings.TrimSpace(rec.end)
	for _, tm := range []struct {
		text, name string
		dst        **time.Time
	}{{start, "start", &t.Start}, {end, "end", &t.End}} {
		if tm.text == "" {
			continue
		}
		at, n, err := parseTime(tm.text, naiveIn)
		if err != nil {
			in.skip(line, "%s: %v", tm.name, err)
			return
		}
		at = at.In(zone)
		*tm.dst, naive = &at, naive || n
	}
	if t.Start != nil && t.End != nil && t.End.Before(*t.Start) {
		in.skip(line, "end %s is before start %s", end, start)
		return
	}
	if t.Start != nil || t.End != nil {
		t.TimeZone = zone.String()
	}
	t.Scheduled = t.Start != nil
	if in.keepRow(line, t, naive) && len(rec.fixes) > 0 {
		in.note(line, ActionRepaired, "%s", strings.Join(rec.fixes, "; "))
	}
}

// cleanSpeakers trims the speakers' fields and drops those without a name.
func cleanSpeakers(list []index.Speaker) []index.Speaker {
	var out []index.Speaker
	for _, sp := range list {
		sp.Name, sp.Affiliation, sp.SourceID = strings.TrimSpace(sp.Name), strings.TrimSpace(sp.Affiliation), strings.TrimSpace(sp.SourceID)
		if sp.Name != "" {
			out = append(out, sp)
		}
	}
	return out
}

// keepRow gives a valid talk its conference and a unique id, and keeps it;
// readers of whole documents call it too.
func (in *Importer) keepRow(line int, t index.Talk, naive bool) (kept bool) {
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
		t.ID = TalkID(t.Title, AbstractIdentity(t.Title+"\n"+t.Abstract))
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
			return false
		case first.file == file:
			in.note(line, ActionSkipped, "id %q is already used on line %d", t.ID, first.line)
			return false
		default:
			// Two files may number their submissions alike (two years'
			// exports): qualify the later one.
			qualified := strings.TrimSuffix(in.file, filepath.Ext(in.file)) + "/" + t.ID
			if _, again := in.ids[hashString(qualified)]; again {
				in.note(line, ActionSkipped, "id %q is already used in %s line %d", t.ID, in.files[first.file], first.line)
				return false
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
	return true
}

func kindList() string {
	names := make([]string, len(index.Kinds))
	for k, kind := range index.Kinds {
		names[k] = string(kind)
	}
	return strings.Join(names, ", ")
}

// readWhole reads a document into memory (bounded) and hands its talks to
// the importer, which checks and counts them like streamed rows. The
// reader's warnings are noted as repairs, its talks numbered in order.
func (in *Importer) readWhole(f Format, name string, r io.Reader) error {
	opt := Options{MaxFileBytes: in.opt.MaxFileBytes, MaxLineBytes: in.opt.MaxRowBytes, Context: in.opt.Context, markdown: newMarkdownBudget()}
	data, err := io.ReadAll(io.LimitReader(r, opt.maxFile()+1))
	if err != nil {
		return err
	}
	if int64(len(data)) > opt.maxFile() {
		return fmt.Errorf("%s document: %w", f.Name(), tooLarge(opt.maxFile()))
	}
	// The caller's zone (--time-zone) is the document's where it names
	// none, as for seed files; without one the reader says it read UTC.
	opt.TimeZone = in.opt.Location
	talks, warns, err := f.Read(name, withoutBOM(data), opt)
	warns = append(warns, opt.markdown.warnings(name)...)
	if err != nil {
		return fmt.Errorf("%s: %w", f.Name(), err)
	}
	for _, w := range warns {
		if w.Dropped > 0 {
			// Records the reader left out are rows of the file, skipped.
			in.sum.Rows += w.Dropped - 1
			in.sum.Skipped += w.Dropped - 1
			in.skip(w.Line, "%s", w.Msg)
			continue
		}
		in.note(w.Line, ActionRepaired, "%s", w.Msg)
	}
	for k, t := range talks {
		line := k + 1 // a document's rows are numbered in order
		switch {
		case strings.TrimSpace(t.Title) == "":
			in.skip(line, "submission %d (%s) has no title", line, t.SourceID)
		case strings.TrimSpace(t.Abstract) == "" && strings.TrimSpace(t.Description) == "":
			in.skip(line, "submission %d (%s) has no abstract", line, t.SourceID)
		default:
			if strings.TrimSpace(t.Abstract) == "" {
				t.Abstract = t.Description
			}
			if t.SourceID != "" {
				t.ID = t.SourceID // the committee knows a submission by its code
			}
			in.keepRow(line, t, false)
		}
	}
	return nil
}

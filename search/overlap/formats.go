package overlap

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/talksearch/talksearch/index"
)

// WholeReader reads a submissions document that must be parsed whole (a
// JSON document, XML, iCalendar): any reader returning talks plugs in with
// RegisterFormat. Its RowErrors are rows it could not use (Line may be 0
// where the format has no lines); their Action defaults to skipped.
type WholeReader func(name string, data []byte) ([]index.Talk, []RowError, error)

// Format is one kind of submissions file.
type Format struct {
	Name string   // "pretalx", "frab-xml", …
	Exts []string // extensions, lower case with the dot (".json")
	// Sniff reports whether the start of a file is of this format, for
	// names whose extension says nothing (or several formats share one).
	Sniff func(head []byte) bool
	// Whole reads a document; the file is read into memory first, up to
	// MaxDocumentBytes.
	Whole WholeReader
	// stream reads row by row (CSV, JSON Lines).
	stream func(*Importer, *bufio.Reader) error
}

// MaxDocumentBytes bounds a file read whole (not CSV or JSON Lines).
const MaxDocumentBytes = 64 << 20

var (
	formatsMu sync.RWMutex
	// formats are tried in order: by extension first, then by sniffing.
	// JSON Lines sniffs only after the formats of whole JSON documents.
	formats = []Format{
		{Name: FormatCSV, Exts: []string{".csv"}, stream: readCSV},
		{Name: FormatJSONL, Exts: []string{".jsonl", ".ndjson"}, stream: readJSONL, Sniff: sniffJSONL},
	}
	// knownWithoutReader names the formats of the formats issue that other
	// packages read (index/ingest), so a file of one is refused by name
	// until its reader is registered.
	knownWithoutReader = map[string]string{
		".json": "JSON document (pretalx API export, frab schedule.json)",
		".xml":  "XML schedule (frab, pentabarf)",
		".ics":  "iCalendar", ".ical": "iCalendar",
	}
)

// RegisterFormat adds a reader of whole documents: cmd/ or this package's
// init registers the readers of index/ingest (pretalx, frab XML/JSON,
// iCal). A format registered later is tried before the earlier ones of the
// same extension, so a specific reader can take over a shared extension.
// A reader returning talks plugs in with one call, e.g.
//
//	RegisterFormat(Format{Name: "pretalx", Exts: []string{".json"},
//		Whole: func(name string, data []byte) ([]index.Talk, []RowError, error) {
//			talks, warnings, err := ingest.ReadFile(name, data, ingest.Options{})
//			return talks, rowErrors(warnings), err // Line, Msg → Line, Reason
//		}})
//
// Its talks are then checked, counted and given unique ids like streamed
// rows; the source's id (pretalx code) becomes the talk's id.
func RegisterFormat(f Format) {
	formatsMu.Lock()
	defer formatsMu.Unlock()
	formats = append([]Format{f}, formats...)
}

// Formats names the formats that can be read, for messages and the upload
// form.
func Formats() []string {
	formatsMu.RLock()
	defer formatsMu.RUnlock()
	var out []string
	for _, f := range formats {
		out = append(out, f.Name)
	}
	slices.Sort(out)
	return out
}

// formatOf chooses the format of a file from its name, then its start.
func formatOf(name string, head []byte) (Format, error) {
	formatsMu.RLock()
	defer formatsMu.RUnlock()
	ext := strings.ToLower(filepath.Ext(name))
	var byExt []Format
	for _, f := range formats {
		if slices.Contains(f.Exts, ext) {
			byExt = append(byExt, f)
		}
	}
	for _, f := range byExt {
		if f.Sniff == nil || f.Sniff(head) || len(byExt) == 1 {
			return f, nil
		}
	}
	for _, f := range formats {
		if f.Sniff != nil && f.Sniff(head) {
			return f, nil
		}
	}
	if what, ok := knownWithoutReader[ext]; ok {
		return Format{}, fmt.Errorf("%s: no reader for this format in this build (formats read: %s)", what, strings.Join(Formats(), ", "))
	}
	t := bytes.TrimSpace(head)
	if len(t) > 0 && (t[0] == '{' || t[0] == '[' || t[0] == '<' || bytes.HasPrefix(t, []byte("BEGIN:VCALENDAR"))) {
		return Format{}, fmt.Errorf("the file looks like a JSON, XML or iCalendar document, which no reader in this build reads (formats read: %s)", strings.Join(Formats(), ", "))
	}
	for _, f := range formats {
		if f.Name == FormatCSV {
			return f, nil
		}
	}
	return Format{}, fmt.Errorf("unknown format")
}

// sniffJSONL: the file starts with an object that ends on its first line.
// A pretalx export ({"count": …, "results": [ … spread over lines) does not.
func sniffJSONL(head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n")
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	first, _, found := bytes.Cut(t, []byte("\n"))
	if !found && len(t) == len(head) && len(head) == 512 {
		return true // a first line longer than the peek: rows are long, not a document
	}
	first = bytes.TrimSpace(first)
	return len(first) > 1 && first[len(first)-1] == '}'
}

// readWhole reads a document into memory (bounded) and hands its talks to
// the importer, which checks and counts them like streamed rows.
func (in *Importer) readWhole(f Format, name string, r io.Reader) error {
	data, err := io.ReadAll(io.LimitReader(r, MaxDocumentBytes+1))
	if err != nil {
		return err
	}
	if len(data) > MaxDocumentBytes {
		return fmt.Errorf("%s document is larger than %d MiB", f.Name, MaxDocumentBytes>>20)
	}
	talks, bad, err := f.Whole(name, data)
	if err != nil {
		return err
	}
	for _, b := range bad {
		action := b.Action
		if action == "" {
			action = ActionSkipped
		}
		if action == ActionSkipped || action == ActionMerged {
			in.sum.Rows++
		}
		in.note(b.Line, action, "%s", b.Reason)
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

package ingest

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/talksearch/talksearch/index"
)

// csvFormat reads a spreadsheet of talks, as a call for papers is exported:
// a header row naming the columns (any order, any case, unknown ones
// ignored), then one talk per record. Columns: id, title, abstract,
// description, speakers ("Name (Affiliation); Name"), track, level, room,
// start, end (RFC 3339, or "2026-04-08 10:00" read in time_zone), time_zone
// (IANA name), kind (index.Kinds), conference (its name).
type csvFormat struct{}

func (csvFormat) Name() string { return "csv" }

// csvColumns are the columns read; title and abstract are required.
var csvColumns = []string{"id", "title", "abstract", "speakers", "track", "level", "room", "start", "end", "time_zone", "kind", "conference", "description"}

// Detect: the first line is a CSV header with a title and an abstract
// column.
func (csvFormat) Detect(head []byte) bool {
	first, _, _ := bytes.Cut(head, []byte("\n"))
	cr := csv.NewReader(bytes.NewReader(first))
	cr.FieldsPerRecord = -1
	fields, err := cr.Read()
	if err != nil {
		return false
	}
	title, abstract := false, false
	for _, f := range fields {
		switch strings.ToLower(strings.TrimSpace(f)) {
		case "title":
			title = true
		case "abstract":
			abstract = true
		}
	}
	return title && abstract
}

func (c csvFormat) Read(file string, data []byte, opt Options) ([]index.Talk, []Warning, error) {
	return readIndexRows(c, file, bytes.NewReader(data), opt.maxLine(), opt)
}

// readRows reads CSV record by record. encoding/csv cannot resume after a
// malformed record: a quote left open swallows every line up to the next
// quote, valid rows included. So records are cut here and each is parsed by
// a csv.Reader of its own: physical lines are joined while the count of
// quote characters is odd (inside a quoted field, "" counts twice and keeps
// the parity). While a quoted field is open, a line that on its own is a
// whole record of the header's width ends the open record, which is
// reported as malformed, and starts the next: an abstract line of exactly
// the header's width of fields with balanced quotes would be taken for a
// row, which is the rarer mistake than losing every row after a typo.
func (csvFormat) readRows(br *bufio.Reader, maxRow int, rows rowSink) error {
	lr := &lineReader{br: br, max: maxRow}
	var (
		header []string
		col    map[string]int
		rec    []byte // the record being assembled
		start  int    // its first line
		lines  int    // its physical lines
		open   bool   // inside a quoted field
		long   bool   // over maxRow: being dropped
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
			rows.bad(start, &longRowError{max: maxRow})
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
			rows.bad(start, fmt.Errorf("malformed csv: a quoted field opened on line %d is not closed (lines %d-%d skipped)", start, start, start+lines-1))
			return nil
		}
		clean, fixes := cleanBytes(rec)
		fields, err := parse(clean)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			rows.bad(start, fmt.Errorf("malformed csv: %w", err))
			return nil
		}
		if len(fields) != len(header) {
			rows.bad(start, fmt.Errorf("has %d fields, the header has %d", len(fields), len(header)))
			return nil
		}
		get := func(name string) string {
			if k, ok := col[name]; ok {
				return strings.TrimSpace(fields[k])
			}
			return ""
		}
		r := record{
			talk: index.Talk{
				ID: get("id"), Title: get("title"), Abstract: get("abstract"), Description: get("description"),
				Track: get("track"), Level: get("level"), Room: get("room"), Speakers: parseSpeakerList(get("speakers")),
			},
			start: get("start"), end: get("end"), zone: get("time_zone"), kind: get("kind"), fixes: fixes,
		}
		if c := get("conference"); c != "" {
			r.talk.Conference = ConferenceNamed(c)
		}
		rows.record(start, &r)
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
		if pl.long || len(rec)+len(pl.text) > maxRow {
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

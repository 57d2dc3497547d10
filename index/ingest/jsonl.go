package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/talksearch/talksearch/index"
)

// jsonLines reads JSON Lines, one talk per line: talksearch's own export
// (`talksearch export`), which reads back byte for byte; what the
// benchmark generator writes (../shared/peers/gen_synth.py: id, title,
// speakers, abstract, track, level, room, start, end, kind, sources; no
// conference, no scheduled); and submissions written by hand or by a
// script, whose fields may be spelled more loosely: an id that is a
// number, speakers as "Name (Affiliation); Name", a conference by its
// name, times without an offset (read in time_zone, else the zone the
// reader is given).
type jsonLines struct{}

func (jsonLines) Name() string { return "jsonl" }

// Detect: the first line is a whole JSON object with a "title" (a
// schedule.json or an API page on one line has "schedule" or "results").
func (jsonLines) Detect(head []byte) bool {
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	first, _, ok := bytes.Cut(head, []byte("\n"))
	if !ok && len(head) == detectBytes {
		return false // the first line goes on past what Detect sees
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(first, &keys) != nil {
		return false
	}
	_, title := keys["title"]
	_, sched := keys["schedule"]
	_, results := keys["results"]
	return title && !sched && !results
}

// MaxLineSize is the default bound of one line of a seed file
// (Options.MaxLineBytes): a JSON line of a talk with a long abstract is a
// few KiB.
const MaxLineSize = 4 << 20

// MaxJSONLinesSize bounds a JSON Lines file, read a line at a time: ten
// times the 100k-talk benchmark corpus.
const MaxJSONLinesSize = 2 << 30

func (j jsonLines) Read(file string, data []byte, opt Options) ([]index.Talk, []Warning, error) {
	return readIndexRows(j, file, bytes.NewReader(data), opt.maxLine(), opt)
}

// streamJSONLines reads a file over MaxFileSize if it is JSON Lines; ok is
// false when it is not (the caller refuses it).
func streamJSONLines(in input, opt Options) (talks []index.Talk, warns []Warning, ok bool, err error) {
	if in.open == nil || in.size > MaxJSONLinesSize {
		return nil, nil, false, nil
	}
	f, err := in.open()
	if err != nil {
		return nil, nil, false, fmt.Errorf("read seed %s: %w", in.name, err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(ctxReader{f, opt.Context}, detectBytes)
	head, _ := br.Peek(detectBytes)
	if err := opt.cancelled(); err != nil {
		return nil, nil, true, err
	}
	if !(jsonLines{}).Detect(trimHead(head)) {
		return nil, nil, false, nil
	}
	talks, warns, err = readIndexRows(jsonLines{}, in.name, br, opt.maxLine(), opt)
	if err := opt.cancelled(); err != nil {
		return nil, nil, true, err
	}
	if err != nil {
		warns = append(warns, fileError(in.name, "jsonl", err))
		return nil, warns, true, nil
	}
	return talks, warns, true, nil
}

// jsonlLine is one line: an index.Talk, with the fields that may be
// spelled more loosely read by hand.
type jsonlLine struct {
	index.Talk
	ID         flexID          `json:"id"`
	Conference jsonlConference `json:"conference"`
	Speakers   jsonlSpeakers   `json:"speakers"`
	Start      string          `json:"start"`
	End        string          `json:"end"`
	TimeZone   string          `json:"time_zone"`
	Kind       string          `json:"kind"`
	Scheduled  *bool           `json:"scheduled"`
}

// jsonLineError is a line that is no JSON object of a talk.
type jsonLineError struct{ err error }

func (e *jsonLineError) Error() string { return e.err.Error() }
func (e *jsonLineError) Unwrap() error { return e.err }

// fieldError is a field of a JSON object with a shape no reader takes: the
// message names the field and what it may be.
type fieldError struct{ msg string }

func (e *fieldError) Error() string { return e.msg }

// jsonlConference is a conference object {"id", "name"} or its name.
type jsonlConference index.Conference

func (c *jsonlConference) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		if s = strings.TrimSpace(s); s != "" {
			*c = jsonlConference(ConferenceNamed(s))
		}
		return nil
	}
	var o index.Conference
	if err := json.Unmarshal(b, &o); err != nil {
		return &fieldError{fmt.Sprintf("conference must be a name or {id, name}: %v", err)}
	}
	o.ID, o.Name = strings.TrimSpace(o.ID), strings.TrimSpace(o.Name)
	if o.ID == "" && o.Name != "" {
		o = ConferenceNamed(o.Name)
	}
	*c = jsonlConference(o)
	return nil
}

// jsonlSpeakers is a list of speaker objects or "Name (Affiliation); Name".
type jsonlSpeakers []index.Speaker

func (sp *jsonlSpeakers) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*sp = parseSpeakerList(s)
		return nil
	}
	var list []index.Speaker
	if err := json.Unmarshal(b, &list); err != nil {
		return &fieldError{fmt.Sprintf("speakers must be a string or a list of {name, affiliation}: %v", err)}
	}
	*sp = list
	return nil
}

func (jsonLines) readRows(r *bufio.Reader, maxRow int, rows rowSink) error {
	lr := &lineReader{br: r, max: maxRow}
	for {
		pl, err := lr.next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("line %d: %w", lr.line+1, err)
		}
		if pl.long {
			rows.bad(lr.line, &longRowError{line: true, size: pl.total, max: maxRow})
			continue
		}
		text := bytes.TrimSpace(pl.text)
		if len(text) == 0 {
			continue
		}
		text, fixes := cleanBytes(text)
		var l jsonlLine
		if err := json.Unmarshal(text, &l); err != nil {
			rows.bad(lr.line, &jsonLineError{err})
			continue
		}
		rec := record{talk: l.Talk, start: l.Start, end: l.End, zone: l.TimeZone, kind: l.Kind, scheduled: l.Scheduled, fixes: fixes}
		rec.talk.ID, rec.talk.Conference, rec.talk.Speakers = string(l.ID), index.Conference(l.Conference), l.Speakers
		rec.stripNULs()
		rows.record(lr.line, &rec)
	}
}

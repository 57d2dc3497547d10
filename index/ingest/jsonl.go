package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/talksearch/talksearch/index"
)

// jsonLines reads talksearch's own export (`talksearch export`): one
// index.Talk per line. Read back, an export exports again byte for byte.
// It also reads what the benchmark generator writes (../shared/peers/
// gen_synth.py: id, title, speakers, abstract, track, level, room, start,
// end, kind, sources; no conference, no scheduled).
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

// jsonlTalk is a line: Scheduled is a pointer to tell "false" from absent.
type jsonlTalk struct {
	index.Talk
	Scheduled *bool `json:"scheduled"`
}

// MaxLineSize bounds one line of a JSON Lines file: a talk with a long
// abstract is a few KiB.
const MaxLineSize = 4 << 20

// MaxJSONLinesSize bounds a JSON Lines file, read a line at a time: ten
// times the 100k-talk benchmark corpus.
const MaxJSONLinesSize = 2 << 30

func (j jsonLines) Read(file string, data []byte, opt Options) ([]index.Talk, []Warning, error) {
	return j.readFrom(file, bytes.NewReader(data), opt)
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
	br := bufio.NewReaderSize(f, detectBytes)
	head, _ := br.Peek(detectBytes)
	if !(jsonLines{}).Detect(trimHead(head)) {
		return nil, nil, false, nil
	}
	talks, warns, err = jsonLines{}.readFrom(in.name, br, opt)
	if err != nil {
		warns = append(warns, fileError(in.name, "jsonl", err))
		return nil, warns, true, nil
	}
	return talks, warns, true, nil
}

func (jsonLines) readFrom(file string, r io.Reader, opt Options) ([]index.Talk, []Warning, error) {
	var (
		talks []index.Talk
		warns []Warning
		seen  = map[string]int{}
		// fileConf is the conference the file's name gives a talk that
		// names none.
		fileConf index.Conference
	)
	warn := func(line int, format string, args ...any) {
		warns = append(warns, Warning{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineSize)
	line := 0
	for sc.Scan() {
		line++
		raw := bytes.TrimSpace(sc.Bytes())
		if line == 1 {
			raw = withoutBOM(raw)
		}
		if len(raw) == 0 {
			continue
		}
		if err := checkUTF8(raw); err != nil {
			warn(line, "%v", strings.TrimPrefix(err.Error(), "line 1: "))
			continue
		}
		var jt jsonlTalk
		if err := json.Unmarshal(raw, &jt); err != nil {
			warn(line, "not a talk object: %v", err)
			continue
		}
		t := jt.Talk
		if t.Title = strings.TrimSpace(t.Title); t.Title == "" {
			warn(line, "talk %q without a title: skipped", t.ID)
			continue
		}
		if t.Conference.ID == "" {
			if t.Conference.Name != "" {
				t.Conference = ConferenceNamed(t.Conference.Name)
			} else {
				if fileConf.ID == "" { // once per file: it folds the name's text
					fileConf = conferenceFromName(file)
				}
				t.Conference = fileConf
			}
		}
		if !slices.Contains(index.Kinds, t.Kind) {
			k := KindOf(string(t.Kind))
			if t.Kind != "" {
				warn(line, "kind %q is not one of talksearch's kinds: read as %q", t.Kind, k)
			}
			t.Kind = k
		}
		if jt.Scheduled != nil {
			t.Scheduled = *jt.Scheduled
		} else {
			t.Scheduled = t.Start != nil
		}
		if t.TimeZone != "" {
			if loc, err := time.LoadLocation(t.TimeZone); err != nil {
				warn(line, "unknown time zone %q", t.TimeZone)
			} else {
				inZone(&t, loc)
			}
		}
		if len(t.Sources) == 0 {
			t.Sources = []string{file}
		}
		if t.ID == "" || !urlSafe(t.ID) {
			id := structuredID(&t)
			if t.ID != "" {
				warn(line, "id %q is not URL-safe: replaced by %q", t.ID, id)
			}
			t.ID = id
		}
		if first, dup := seen[t.ID]; dup {
			warn(line, "duplicate id %q (first at line %d): dropped", t.ID, first)
			continue
		}
		seen[t.ID] = line
		talks = append(talks, t)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("a line longer than %d MiB", MaxLineSize>>20)
		}
		return nil, warns, fmt.Errorf("line %d: %w", line+1, err)
	}
	return talks, warns, nil
}

func inZone(t *index.Talk, loc *time.Location) {
	if t.Start != nil {
		s := t.Start.In(loc)
		t.Start = &s
	}
	if t.End != nil {
		e := t.End.In(loc)
		t.End = &e
	}
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

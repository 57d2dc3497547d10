package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/talksearch/talksearch/index"
)

// Corpus is the clean, deduplicated result of ingesting a seeds directory.
type Corpus struct {
	Talks  []index.Talk
	Report Report
}

// Report says what ingestion read, merged and warned about.
type Report struct {
	Files    int       // seed files read
	Blocks   int       // session blocks of the schedule dump
	Merged   int       // duplicate abstracts merged into an existing talk
	Warnings []Warning // problems found; ingestion went on

	Unscheduled int         // talks known only from the abstract dumps
	Merges      []Merge     // what was merged, from which file, in file order
	PerFile     []FileStats // one per seed file, sorted by name
}

// What Load made of a seed file.
const (
	FileSchedule  = "schedule"  // a Sched schedule page
	FileAbstracts = "abstracts" // a bare abstract dump
	FileSkipped   = "skipped"   // unusable, see the warnings
)

// FileStats describes one seed file.
type FileStats struct {
	File       string
	Kind       string // FileSchedule, FileAbstracts or FileSkipped
	Paragraphs int    // abstract paragraphs read (abstract dumps)
	Talks      int    // talks whose Sources list the file
	New        int    // talks first seen in this file
}

// Warning is a problem in one seed file, at one line (1-based; 0 = whole file).
type Warning struct {
	File string
	Line int
	Msg  string
}

func (w Warning) String() string {
	return fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Msg)
}

// ErrNoSeeds is returned by Load for a directory without *.txt seeds.
var ErrNoSeeds = errors.New("no seed files (*.txt)")

// Load ingests every *.txt seed of fsys: parse, then dedup. Schedule pages
// are read first, whatever their names, so that abstract dumps can be
// matched against them; abstract dumps follow in name order. A file that
// cannot be read as either becomes a warning and the others still ingest.
func Load(fsys fs.FS) (*Corpus, error) {
	names, err := fs.Glob(fsys, "*.txt")
	if err != nil {
		return nil, fmt.Errorf("list seeds: %w", err)
	}
	if len(names) == 0 {
		return nil, ErrNoSeeds
	}
	sort.Strings(names)

	c := &Corpus{}
	r := &c.Report
	r.PerFile = make([]FileStats, len(names))
	stats := map[string]*FileStats{}
	var scheds []*Schedule
	var dumps []*AbstractDump
	var dumpNames []string
	for i, name := range names {
		st := &r.PerFile[i]
		*st = FileStats{File: name, Kind: FileSkipped}
		stats[name] = st
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("read seed %s: %w", name, err)
		}
		r.Files++
		if msg := unusable(data); msg != "" {
			r.Warnings = append(r.Warnings, Warning{File: name, Msg: msg})
			continue
		}
		switch {
		case looksLikeSchedule(data):
			st.Kind = FileSchedule
			s := ParseSched(name, data)
			r.Blocks += s.Blocks
			r.Warnings = append(r.Warnings, s.Warnings...)
			scheds = append(scheds, s)
		default:
			d := ParseAbstracts(name, data)
			if !hasProse(d) {
				r.Warnings = append(r.Warnings, Warning{File: name,
					Msg: "no recognisable structure: neither a schedule page nor abstract paragraphs"})
				continue
			}
			st.Kind = FileAbstracts
			st.Paragraphs = len(d.Paragraphs)
			r.Warnings = append(r.Warnings, d.Warnings...)
			dumps = append(dumps, d)
			dumpNames = append(dumpNames, name)
		}
	}

	m := newMerger()
	var all []string
	for _, s := range scheds {
		for _, t := range s.Talks {
			all = append(all, splitParagraphs(t.Abstract)...)
			m.addScheduled(t)
		}
	}
	for _, d := range dumps {
		for _, p := range d.Paragraphs {
			all = append(all, p.Text)
		}
	}
	m.idf = computeIDF(all)
	for i, d := range dumps {
		m.addDump(d, dumpNames[i])
	}

	// The dumps name no conference: their talks belong to the schedule's.
	var conf index.Conference
	for _, s := range scheds {
		if s.Conference.ID != "" {
			conf = s.Conference
			break
		}
	}
	for _, k := range m.talks {
		t := k.talk
		if t.Conference.ID == "" {
			t.Conference = conf
		}
		sort.Strings(t.Sources)
		c.Talks = append(c.Talks, t)
		if !t.Scheduled {
			r.Unscheduled++
		}
		for _, s := range t.Sources {
			stats[s].Talks++
		}
	}
	for _, k := range m.talks {
		if len(k.firstFile) > 0 {
			stats[k.firstFile].New++
		}
	}
	SortTalks(c.Talks)
	r.Merges = m.merges
	r.Merged = len(m.merges)
	return c, nil
}

// unusable says why data is no text seed, or "" if it is one.
func unusable(data []byte) string {
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		return "empty file"
	case bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data):
		return "binary file (NUL bytes or invalid UTF-8), not a text dump"
	}
	return ""
}

// looksLikeSchedule: a schedule page has session blocks, a time header
// followed by a title and a date line.
func looksLikeSchedule(data []byte) bool {
	lines := splitLines(data)
	for i := 0; i+3 < len(lines); i++ {
		if timeHeaderRE.MatchString(lines[i]) && (dateLineRE.MatchString(lines[i+2]) || dateLineRE.MatchString(lines[i+3])) {
			return true
		}
	}
	return false
}

// hasProse reports whether an abstract dump has at least one paragraph that
// reads like abstract text: a sentence of several words.
func hasProse(d *AbstractDump) bool {
	for _, p := range d.Paragraphs {
		letters := 0
		for _, r := range p.Text {
			if ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || r > 127 {
				letters++
			}
		}
		if len(strings.Fields(p.Text)) >= 8 && letters*2 > len(p.Text) {
			return true
		}
	}
	return false
}

// SortTalks puts talks in the stable export order: scheduled talks by start
// time, then title, then id; then unscheduled talks by title, then id.
func SortTalks(ts []index.Talk) {
	sort.SliceStable(ts, func(i, j int) bool {
		a, b := ts[i], ts[j]
		if a.Scheduled != b.Scheduled {
			return a.Scheduled
		}
		if a.Scheduled && a.Start != nil && b.Start != nil && !a.Start.Equal(*b.Start) {
			return a.Start.Before(*b.Start)
		}
		if a.Title != b.Title {
			return a.Title < b.Title
		}
		return a.ID < b.ID
	})
}

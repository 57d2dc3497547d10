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
	// NoTalks are the seed files that gave no talk (refused, unreadable,
	// or read without one), sorted; documentation beside the seeds is
	// none of them. The warnings say why.
	NoTalks []string
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
	Talks      int    // talks read from the file (Talk.ReadFrom)
	Read       int    // talks the file held, before dedup (structured files, schedule pages)
	New        int    // talks first seen in this file
}

// Warning is a problem in one seed file, at one line (1-based; 0 = whole file).
type Warning struct {
	File string
	Line int
	Msg  string
	// Dropped is how many records of the file the warning leaves out (a
	// submission without a title, a rejected one); 0 when it only notes
	// a repair. The organizers' importer counts those records as skipped.
	Dropped int
	// Cut says the rest of the file from Line was not read (an XML syntax
	// error nothing after could be read past, as in a file cut short); the
	// talks before it were kept.
	Cut bool
}

// Unread says the file, or the rest of it, was not read: a warning of the
// whole file (Line 0) or a Cut. A reload refuses a seed file so read that
// was read before.
func (w Warning) Unread() bool { return w.Line == 0 || w.Cut }

func (w Warning) String() string {
	return fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Msg)
}

// ErrNoSeeds is returned by Load for a directory without seed files.
var ErrNoSeeds = errors.New("no seed files")

// Load ingests every seed file of fsys (see LoadFS), as the embedded seeds
// are read.
func Load(fsys fs.FS) (*Corpus, error) { return LoadFS(fsys, Options{}) }

// load parses every input, then dedups. Structured files (XML, JSON,
// iCalendar, JSON Lines) are read by their Format; Sched schedule pages are
// read first, whatever their names, so that abstract dumps can be matched
// against them; abstract dumps follow in name order. A file that cannot be
// read as any of these becomes a warning and the others still ingest.
// pre are warnings found while listing the inputs (refused symlinks).
func load(inputs []input, opt Options, pre []Warning) (*Corpus, error) {
	sort.SliceStable(inputs, func(i, j int) bool { return inputs[i].name < inputs[j].name })
	readable := 0
	for _, in := range inputs {
		if !in.skip {
			readable++
		}
	}
	if readable == 0 && len(pre) == 0 {
		return nil, ErrNoSeeds
	}
	c := &Corpus{}
	r := &c.Report
	r.Warnings = pre
	r.PerFile = make([]FileStats, len(inputs))
	stats := map[string]*FileStats{}
	var scheds []*Schedule
	var dumps []*AbstractDump
	var dumpNames []string
	st := newStructured()
	var read []fileTalks
	// Each file is read within its own time budget (withParseBudget),
	// released before the next file's.
	endFile := func() {}
	defer func() { endFile() }()
	for i, in := range inputs {
		endFile()
		if err := opt.cancelled(); err != nil {
			return nil, err
		}
		opt := in.options(opt)
		opt, endFile = opt.withParseBudget()
		fst := &r.PerFile[i]
		*fst = FileStats{File: in.name, Kind: FileSkipped}
		stats[in.name] = fst
		if in.skip {
			continue
		}
		if in.size > opt.maxFile() {
			// JSON Lines are read a line at a time, so a benchmark corpus
			// of 100k talks (130 MB) need not fit the limit; nothing else
			// is read past it.
			talks, warns, ok, err := streamJSONLines(in, opt)
			if w, over := overTime(in.name, jsonLines{}.Name(), err); over {
				r.Warnings = append(r.Warnings, append(warns, w)...)
				continue
			}
			if err != nil {
				return nil, err
			}
			if !ok {
				r.Warnings = append(r.Warnings, Warning{File: in.name, Msg: fmt.Sprintf("%d bytes: over the %s limit of a seed file (--max-file-bytes), not read", in.size, sizeText(opt.maxFile()))})
				continue
			}
			for i := range talks {
				gathered(jsonLines{}.Name(), &talks[i])
			}
			r.Files++
			r.Warnings = append(r.Warnings, warns...)
			fst.Kind, fst.Read = jsonLines{}.Name(), len(talks)
			read = append(read, fileTalks{jsonLines{}.Name(), in.name, talks})
			continue
		}
		data, err := in.read(opt.maxFile())
		if errors.Is(err, ErrTooLarge) {
			// Grown since it was listed, or a file that states no size.
			r.Warnings = append(r.Warnings, Warning{File: in.name, Msg: fmt.Sprintf("over the %s limit of a seed file (--max-file-bytes), not read", sizeText(opt.maxFile()))})
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read seed %s: %w", in.name, err)
		}
		r.Files++
		data, utf16, err := fromUTF16(data)
		if err != nil {
			r.Warnings = append(r.Warnings, Warning{File: in.name, Msg: err.Error() + "; not read"})
			continue
		}
		if utf16 {
			r.Warnings = append(r.Warnings, utf16Warning(in.name))
		}
		if f := Detect(data); f != nil {
			talks, warns, err := readFormat(f, in.name, withoutBOM(data), opt)
			r.Warnings = append(r.Warnings, warns...)
			if w, over := overTime(in.name, f.Name(), err); over {
				r.Warnings = append(r.Warnings, w)
				continue
			}
			if err != nil {
				r.Warnings = append(r.Warnings, fileError(in.name, f.Name(), err))
				continue
			}
			fst.Kind = f.Name()
			fst.Read = len(talks)
			read = append(read, fileTalks{f.Name(), in.name, talks})
			continue
		}
		if what := looksStructured(data); what != "" {
			r.Warnings = append(r.Warnings, Warning{File: in.name, Msg: "looks like " + what + " but is no format talksearch reads (pentabarf/frab XML, frab or pretalx JSON, talksearch JSON Lines, iCalendar)"})
			continue
		}
		if msg := unusable(data); msg != "" {
			r.Warnings = append(r.Warnings, Warning{File: in.name, Msg: msg})
			continue
		}
		data, long := dropLongLines(in.name, data, opt.maxLine())
		r.Warnings = append(r.Warnings, long...)
		switch {
		case looksLikeSchedule(data):
			s := ParseSchedIn(in.name, data, opt)
			if w, over := overTime(in.name, FileSchedule, s.stopped); over {
				r.Warnings = append(r.Warnings, w)
				continue
			} else if s.stopped != nil {
				return nil, s.stopped
			}
			fst.Kind = FileSchedule
			r.Blocks += s.Blocks
			r.Warnings = append(r.Warnings, s.Warnings...)
			fst.Read = len(s.Talks)
			scheds = append(scheds, s)
		default:
			d := ParseAbstracts(in.name, data)
			if !hasProse(d) {
				r.Warnings = append(r.Warnings, Warning{File: in.name,
					Msg: "no recognisable structure: neither a schedule page nor abstract paragraphs"})
				continue
			}
			fst.Kind = FileAbstracts
			fst.Paragraphs = len(d.Paragraphs)
			r.Warnings = append(r.Warnings, d.Warnings...)
			dumps = append(dumps, d)
			dumpNames = append(dumpNames, in.name)
		}
	}
	if err := opt.cancelled(); err != nil {
		return nil, err
	}
	for i, in := range inputs {
		if fst := r.PerFile[i]; !in.skip && fst.Read == 0 && fst.Paragraphs == 0 {
			r.NoTalks = append(r.NoTalks, in.name)
		}
	}
	// The file a merged session is first read from gives its id and
	// fields: a schedule before an API page, an iCalendar export or a JSON
	// Lines copy, whatever the names of the files.
	sort.SliceStable(read, func(i, j int) bool { return formatRank[read[i].format] < formatRank[read[j].format] })
	for _, f := range read {
		for _, t := range f.talks {
			st.add(t, f.file)
		}
	}

	m := newMerger()
	if len(dumps) > 0 {
		var all []string
		for _, s := range scheds {
			for _, t := range s.Talks {
				all = append(all, splitParagraphs(t.Abstract)...)
				m.addScheduled(t)
			}
		}
		// Dumps are matched against the talks of structured files too;
		// without dumps these need no shingles (12,000 FOSDEM talks).
		for _, k := range st.talks {
			all = append(all, splitParagraphs(k.talk.Abstract)...)
			k.merged = m.add(k.talk, k.firstFile)
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
	} else {
		for _, s := range scheds {
			for _, t := range s.Talks {
				m.addScheduled(t)
			}
		}
		for _, k := range st.talks {
			k.merged = -1
		}
	}

	// The dumps name no conference: their talks belong to the schedule's,
	// else to the one conference of the structured files, else to the
	// conference their file name says.
	var conf index.Conference
	for _, s := range scheds {
		if s.Conference.ID != "" {
			conf = s.Conference
			break
		}
	}
	if conf.ID == "" && len(st.conferences) == 1 {
		for _, cf := range st.conferences {
			conf = cf
		}
	}
	firstFile := map[string]string{}
	c.Talks = make([]index.Talk, 0, len(m.talks)+len(st.talks))
	add := func(t index.Talk, first string) {
		if t.Conference.ID == "" {
			t.Conference = conf
			if conf.ID == "" && len(t.Sources) > 0 {
				t.Conference = conferenceFromName(t.Sources[0])
			}
		}
		sort.Strings(t.Sources)
		sort.Strings(t.ReadFrom)
		c.Talks = append(c.Talks, t)
		firstFile[t.ID] = first
	}
	for _, k := range m.talks {
		add(k.talk, k.firstFile)
	}
	for _, k := range st.talks {
		if k.merged < 0 {
			add(k.talk, k.firstFile)
		}
	}
	c.Talks, r.Warnings = uniqueIDs(c.Talks, r.Warnings)
	nameConferences(c.Talks)
	shareStrings(c.Talks)
	for _, t := range c.Talks {
		if !t.Scheduled {
			r.Unscheduled++
		}
		for _, f := range t.ReadFrom {
			if fst := stats[f]; fst != nil {
				fst.Talks++
			}
		}
		if fst := stats[firstFile[t.ID]]; fst != nil {
			fst.New++
		}
	}
	SortTalks(c.Talks)
	r.Merges = append(m.merges, st.merges...)
	r.Merged = len(r.Merges)
	return c, nil
}

// fileTalks are the talks read from one structured file.
type fileTalks struct {
	format, file string
	talks        []index.Talk
}

// formatRank orders the formats a session may be read from twice.
var formatRank = map[string]int{"frab-xml": 0, "frab-json": 0, "pretalx": 1, "ical": 2, "jsonl": 3, "csv": 3}

// nameConferences gives every talk of a conference the same name: the one
// a source states ("FOSDEM 2015" from the XML) rather than one made from a
// file name ("fosdem-2015" from fosdem-2015.ical), else the first.
func nameConferences(talks []index.Talk) {
	best := map[string]string{}
	for _, t := range talks {
		id, name := t.Conference.ID, t.Conference.Name
		if cur, ok := best[id]; !ok || (cur == id && name != id) {
			best[id] = name
		}
	}
	for i := range talks {
		talks[i].Conference.Name = best[talks[i].Conference.ID]
	}
}

// fileError is the warning for a file that a reader could not read at all.
// Its line is 0, the whole file, as for every file Load takes nothing from
// (a reload refuses seeds that newly lose a file this way); the line where
// the file breaks is in the message ("frab-xml: line 812: …").
func fileError(file, format string, err error) Warning {
	return Warning{File: file, Msg: fmt.Sprintf("%s: %v; no talks read from this file", format, err)}
}

// uniqueIDs drops (with a warning) a talk whose id another talk already
// has: ids are hashes of identities that differ for different talks, so
// this happens only when a JSON Lines file repeats the id of a talk of
// another file.
func uniqueIDs(talks []index.Talk, warns []Warning) ([]index.Talk, []Warning) {
	seen := make(map[string]int, len(talks))
	out := talks[:0]
	for _, t := range talks {
		if i, dup := seen[t.ID]; dup {
			warns = append(warns, Warning{File: strings.Join(t.ReadFrom, ","), Msg: fmt.Sprintf("talk id %q of %q is already the id of %q (%s): dropped", t.ID, t.Title, out[i].Title, strings.Join(out[i].ReadFrom, ","))})
			continue
		}
		seen[t.ID] = len(out)
		out = append(out, t)
	}
	return out, warns
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
		if isTimeHeader(lines[i]) && (dateLineRE.MatchString(lines[i+2]) || dateLineRE.MatchString(lines[i+3])) {
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

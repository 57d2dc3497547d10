package ingest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/analysis"
)

// CEST is the zone of the PyTorch Conference Europe 2026 page, which
// says "This schedule is automatically displayed in CEST (UTC/GMT +2)".
var CEST = time.FixedZone("CEST", 2*3600)

// zoneAbbrevs are the zones a Sched page may show times in without saying
// their offset; an abbreviation is ambiguous in general (IST), so only
// these are taken, and --time-zone settles any other.
var zoneAbbrevs = map[string]*time.Location{
	"UTC": time.UTC, "GMT": time.UTC, "WET": time.FixedZone("WET", 0), "WEST": time.FixedZone("WEST", 3600),
	"BST": time.FixedZone("BST", 3600), "CET": time.FixedZone("CET", 3600), "CEST": CEST,
	"EET": time.FixedZone("EET", 2*3600), "EEST": time.FixedZone("EEST", 3*3600),
	"EST": time.FixedZone("EST", -5*3600), "EDT": time.FixedZone("EDT", -4*3600),
	"CDT": time.FixedZone("CDT", -5*3600), "MST": time.FixedZone("MST", -7*3600),
	"MDT": time.FixedZone("MDT", -6*3600), "PST": time.FixedZone("PST", -8*3600),
	"PDT": time.FixedZone("PDT", -7*3600), "JST": time.FixedZone("JST", 9*3600),
	"KST": time.FixedZone("KST", 9*3600), "AEST": time.FixedZone("AEST", 10*3600),
	"AEDT": time.FixedZone("AEDT", 11*3600), "NZST": time.FixedZone("NZST", 12*3600),
	"NZDT": time.FixedZone("NZDT", 13*3600),
}

// Schedule is what ParseSched found in a Sched schedule page.
type Schedule struct {
	// Conference is the event the page names ("You must be registered for
	// PyTorch Conference Europe 2026 to participate"); zero if it names none.
	Conference index.Conference
	Talks      []index.Talk // one per session block, in page order
	Blocks     int          // session blocks seen, including ones skipped with a warning
	Warnings   []Warning    // problems found; parsing went on

	// stopped is why the parse ended before the page's end (a cancel,
	// the file's time budget: Options.Context); nil when it read it all.
	stopped error
}

var (
	// conferenceRE finds the event's name in Sched's registration notice.
	conferenceRE = regexp.MustCompile(`registered for (.+?) to participate`)
	// timeHeaderRE is the line that opens each session block ("10:35 CEST",
	// "09:00 PDT": the zone the page shows times in).
	timeHeaderRE = regexp.MustCompile(`^(\d{1,2}):(\d{2}) ([A-Z]{2,5})$`)
	// displayedInRE is Sched's statement of the page's zone and offset:
	// "This schedule is automatically displayed in CEST (UTC/GMT +2)".
	displayedInRE = regexp.MustCompile(`displayed in ([A-Z]{2,5}) \(UTC/GMT ([+-])(\d{1,2})(?::(\d{2}))?\)`)
	// dateLineRE is the session's date and time range, shown twice per block:
	// after the title and again after the speakers.
	dateLineRE = regexp.MustCompile(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) ` +
		`(January|February|March|April|May|June|July|August|September|October|November|December) ` +
		`(\d{1,2}), (\d{4}) (\d{1,2}):(\d{2}) - (\d{1,2}):(\d{2}) ([A-Z]{2,5})$`)
	// initialsRE is the stand-in Sched shows for a speaker without a photo.
	initialsRE = regexp.MustCompile(`^[A-Z]{1,4}$`)
)

// sponsorBoilerplate opens the data-sharing notice Sched appends to every
// sponsor activity; it is the venue's text, not the session's.
const sponsorBoilerplate = "In order to facilitate networking and business relationships"

// sidebarStart is the first line of the filter sidebar that ends the page.
const sidebarStart = "• Filter By"

// ParseSched parses the text dump of a Sched.com schedule page into one
// scheduled index.Talk per session block. A block is:
//
//	HH:MM CEST
//	TITLE - SPEAKERS
//	<date line> / ROOM
//	abstract paragraphs
//	Speakers / per speaker: avatar or initials, name, role, bio (optional)
//	slide-file lines
//	<date line> / ROOM / track / • Audience Level X / • Slides Attached Yes
//
// Bios, slide files, sponsor notices and the sidebar never reach a index.Talk.
// A block that cannot be read is skipped or kept partially, with a warning
// naming the file and line; the other blocks still parse.
func ParseSched(file string, data []byte) *Schedule {
	return ParseSchedIn(file, data, Options{})
}

// ParseSchedIn is ParseSched with the command line's options: times are
// read in opt.TimeZone when it is set, else in the zone the page states
// ("displayed in CEST (UTC/GMT +2)"), else in the zone its time headers
// name if that is a well-known abbreviation (zoneAbbrevs); otherwise they
// are read as UTC with a warning. A cancel of opt.Context ends it between
// time blocks, with the blocks read so far.
func ParseSchedIn(file string, data []byte, opt Options) *Schedule {
	lines := splitLines(data)
	s := &Schedule{}
	if m := conferenceRE.FindSubmatch(data); m != nil {
		s.Conference = ConferenceNamed(cleanLine(string(m[1])))
	}
	z := &schedZones{file: file, opt: opt.TimeZone}
	if m := displayedInRE.FindSubmatch(data); m != nil {
		h, _ := strconv.Atoi(string(m[3]))
		mins, _ := strconv.Atoi(string(m[4]))
		off := h*3600 + mins*60
		if m[2][0] == '-' {
			off = -off
		}
		z.page, z.pageLoc = string(m[1]), time.FixedZone(string(m[1]), off)
	}
	var headers []int
	for i, l := range lines {
		if isTimeHeader(l) {
			headers = append(headers, i)
		}
	}
	for k, h := range headers {
		if s.stopped = opt.cancelledAt(k); s.stopped != nil {
			break
		}
		end := len(lines)
		if k+1 < len(headers) {
			end = headers[k+1]
		}
		// Normally one session per time header; parallel sessions may also
		// follow each other under one header, so read on after the first.
		for i, first := h+1, true; ; first = false {
			t, next, warns, ok := parseSession(file, lines, i, end, first, z)
			s.Warnings = append(s.Warnings, warns...)
			if ok || first {
				s.Blocks++
			}
			if t != nil {
				t.Conference = s.Conference
				s.Talks = append(s.Talks, *t)
			}
			if !ok || next <= i {
				break
			}
			i = next
		}
	}
	if len(headers) == 0 {
		s.Warnings = append(s.Warnings, Warning{File: file, Msg: "no session blocks (no \"HH:MM ZONE\" lines)"})
	}
	return s
}

// isTimeHeader: "10:35 CEST", but not a 12-hour "10:35 AM".
func isTimeHeader(l string) bool {
	m := timeHeaderRE.FindStringSubmatch(l)
	return m != nil && m[3] != "AM" && m[3] != "PM"
}

// schedZones resolves the zone abbreviations of one page (see ParseSchedIn).
type schedZones struct {
	file    string
	opt     *time.Location
	page    string // the abbreviation the page states the offset of
	pageLoc *time.Location
	warned  map[string]bool
}

func (z *schedZones) loc(abbrev string, line int, warns *[]Warning) *time.Location {
	switch {
	case z.opt != nil:
		return z.opt
	case abbrev == z.page:
		return z.pageLoc
	case zoneAbbrevs[abbrev] != nil:
		return zoneAbbrevs[abbrev]
	}
	if !z.warned[abbrev] {
		if z.warned == nil {
			z.warned = map[string]bool{}
		}
		z.warned[abbrev] = true
		*warns = append(*warns, Warning{File: z.file, Line: line,
			Msg: fmt.Sprintf("time zone %q is not defined on the page: times read as UTC; pass --time-zone", abbrev)})
	}
	return time.UTC
}

// splitLines splits text into cleaned lines (see cleanLine), accepting
// "\n" and "\r\n" line ends.
func splitLines(data []byte) []string {
	raw := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	for i, l := range raw {
		raw[i] = cleanLine(l)
	}
	return raw
}

// parseSession reads the session that starts at or after line from, in
// the block of lines up to end. first is set for the first session after a
// time header: only then is a missing title or date line worth a warning
// (later, it is the end of the block). ok reports whether a session block
// was found; next is the line after it. Line numbers in warnings are 1-based.
func parseSession(file string, lines []string, from, end int, first bool, z *schedZones) (t *index.Talk, next int, warns []Warning, ok bool) {
	warn := func(i int, format string, args ...any) {
		warns = append(warns, Warning{File: file, Line: i + 1, Msg: fmt.Sprintf(format, args...)})
	}
	i := from
	for i < end && lines[i] == "" {
		i++
	}
	if i >= end {
		if first {
			warn(from-1, "truncated session block: time header without a title")
		}
		return nil, end, warns, first
	}
	titleLine, titleAt := lines[i], i
	i++
	if i >= end || !dateLineRE.MatchString(lines[i]) {
		if first {
			warn(titleAt, "truncated session block %q: no date line after the title", titleLine)
		}
		return nil, end, warns, first
	}
	var loc *time.Location
	if m := dateLineRE.FindStringSubmatch(lines[i]); m != nil {
		loc = z.loc(m[len(m)-1], i+1, &warns)
	}
	start, stop, err := parseDateLine(lines[i], loc)
	if err != nil {
		warn(i, "session block %q: %v", titleLine, err)
		return nil, i + 1, warns, true
	}
	dateLine := lines[i]
	i++
	room := ""
	if i < end && lines[i] != "" && !dateLineRE.MatchString(lines[i]) {
		room = lines[i]
		i++
	}

	// The body runs to the closing date line: the date line repeated and
	// followed by the same room. Without it the block was cut short: keep
	// what is there, up to the next session or the sidebar, and say so.
	closing := findClosing(lines, i, end, dateLine, room)
	bodyEnd := closing
	if closing < 0 {
		warn(titleAt, "truncated session block %q: no closing date, room and track lines", titleLine)
		bodyEnd = end
		for j := i; j < end; j++ {
			if strings.HasPrefix(lines[j], sidebarStart) || (j > i && lines[j] != "" && j+1 < end && dateLineRE.MatchString(lines[j+1])) {
				bodyEnd = j
				break
			}
		}
		next = bodyEnd
	} else if lines[closing] != dateLine {
		warn(closing, "session block %q: closing date line %q differs from %q", titleLine, lines[closing], dateLine)
	}
	body := lines[i:bodyEnd]

	t = &index.Talk{Start: &start, End: &stop, Room: room, Scheduled: true, Sources: []string{file}, ReadFrom: []string{file}}
	t.TimeZone = zoneName(z.opt) // "" for the fixed zones a page states
	abstract := body
	var people []sectionSpeaker
	for j, l := range body {
		if l == "Speakers" {
			abstract = body[:j]
			people = parseSpeakerSection(body[j+1:])
			break
		}
	}
	t.Abstract = joinParagraphs(abstractParagraphs(abstract))
	if closing >= 0 {
		var n int
		t.Track, t.Level, n = parseTrailer(lines[closing+1 : end])
		if t.Room == "" && closing+1 < end {
			t.Room = lines[closing+1]
		}
		next = closing + 1 + n
	}

	var problem string
	t.Title, t.Speakers, problem = titleAndSpeakers(titleLine, people, closing < 0)
	if problem != "" {
		warn(titleAt, "session block %q: %s", titleLine, problem)
	}
	t.Kind = sessionKind(t.Title, t.Track)
	t.ID = TalkID(t.Title, ScheduledIdentity(t.Title, t.Start))
	return t, next, warns, true
}

// titleAndSpeakers separates the title line into title and speakers with
// the help of the speakers of the Speakers section (people). problem says
// what went wrong, if anything; the whole line is then the title.
func titleAndSpeakers(line string, people []sectionSpeaker, truncated bool) (title string, speakers []index.Speaker, problem string) {
	if len(people) == 0 {
		if truncated {
			// The Speakers section may be lost with the end of the block:
			// guess from the last " - " followed by "Name, Affiliation".
			if title, speakers, ok := splitTitleGuess(line); ok {
				return title, speakers, "speakers guessed from the title line"
			}
		}
		return line, nil, ""
	}
	if title, speakers, ok := splitTitleLine(line, people); ok {
		return title, speakers, ""
	}
	// The Speakers section is all there is to go by: for "Meet the vLLM
	// Maintainers", whose title names no one, and for a title line whose
	// names match no speaker (then the line is cut at its last " - " if
	// that looks like "Name, Affiliation").
	for _, p := range people {
		speakers = append(speakers, index.Speaker{Name: p.Name, Affiliation: p.Role})
	}
	if !strings.Contains(line, " - ") {
		return line, speakers, ""
	}
	if guess, _, ok := splitTitleGuess(line); ok {
		title = guess
	} else {
		title = line
	}
	return title, speakers, "no speaker of the Speakers section found after a \" - \" in the title line; speakers taken from the section"
}

// findClosing returns the index of the closing date line of a session
// whose body starts at i, or -1. The closing line repeats the opening one
// and is followed by the room; a date line followed by the room but with
// other times is taken too (the caller warns).
func findClosing(lines []string, i, end int, dateLine, room string) int {
	sameRoom := func(j int) bool { return room == "" || (j+1 < end && lines[j+1] == room) }
	for j := i; j < end; j++ {
		if lines[j] == dateLine && sameRoom(j) {
			return j
		}
	}
	if room == "" {
		return -1
	}
	for j := i; j < end; j++ {
		if dateLineRE.MatchString(lines[j]) && sameRoom(j) {
			return j
		}
	}
	return -1
}

// parseDateLine reads "Wednesday April 8, 2026 08:00 - 15:25 CEST".
func parseDateLine(l string, loc *time.Location) (start, end time.Time, err error) {
	m := dateLineRE.FindStringSubmatch(l)
	if m == nil {
		return start, end, fmt.Errorf("not a date line: %q", l)
	}
	month, err := time.Parse("January", m[1])
	if err != nil {
		return start, end, fmt.Errorf("month %q: %w", m[1], err)
	}
	n := make([]int, 0, 6)
	for _, s := range m[2 : len(m)-1] {
		v, _ := strconv.Atoi(s) // the pattern admits digits only
		n = append(n, v)
	}
	day, year := n[0], n[1]
	if day < 1 || day > 31 || n[2] > 23 || n[3] > 59 || n[4] > 24 || n[5] > 59 {
		return start, end, fmt.Errorf("impossible time in %q", l)
	}
	start = time.Date(year, month.Month(), day, n[2], n[3], 0, 0, loc)
	end = time.Date(year, month.Month(), day, n[4], n[5], 0, 0, loc)
	if end.Before(start) {
		return start, end, fmt.Errorf("session ends before it starts: %q", l)
	}
	return start, end, nil
}

// parseTrailer reads the lines after the closing date line: the room again,
// then indented lines with the track and "• Audience Level X". It stops at
// the first blank line, which keeps the page's sidebar out, and returns how
// many lines it read.
func parseTrailer(lines []string) (track, level string, n int) {
	for k, l := range lines {
		if l == "" {
			return track, level, k
		}
		if k == 0 {
			continue // the room, already known from the top of the block
		}
		if rest, ok := strings.CutPrefix(l, "•"); ok {
			rest = strings.TrimSpace(rest)
			if lv, ok := strings.CutPrefix(rest, "Audience Level "); ok {
				level = strings.TrimSpace(lv)
			}
			continue
		}
		if track == "" {
			track = l
		}
	}
	return track, level, len(lines)
}

// abstractParagraphs turns the abstract lines of a block into paragraphs,
// without the sponsor lines and the data-sharing notice of sponsor
// activities.
func abstractParagraphs(lines []string) []string {
	var paras []string
	for _, p := range paragraphs(lines) {
		if strings.HasPrefix(p.text, sponsorBoilerplate) {
			continue
		}
		var keep []string
		for _, l := range strings.Split(p.text, "\n") {
			if strings.HasPrefix(l, "Sponsor:") || strings.HasPrefix(l, "Location:") {
				continue
			}
			keep = append(keep, l)
		}
		if len(keep) > 0 {
			paras = append(paras, strings.Join(keep, "\n"))
		}
	}
	return paras
}

// sectionSpeaker is one entry of a block's Speakers section.
type sectionSpeaker struct {
	Name string
	Role string // "Role, Organisation" as the section shows it
}

// parseSpeakerSection finds the speakers of a Speakers section. Each entry
// is "avatar for NAME" (or the initials of a speaker without a photo), a
// blank line, the name, a blank line and the role; whatever follows (bio,
// "Read More →", slide files) is skipped until the next entry.
func parseSpeakerSection(lines []string) []sectionSpeaker {
	var out []sectionSpeaker
	for i := 0; i+2 < len(lines); i++ {
		l := lines[i]
		if lines[i+1] != "" || lines[i+2] == "" {
			continue
		}
		name := lines[i+2]
		isAvatar := strings.HasPrefix(l, "avatar for ")
		if !isAvatar && !(initialsRE.MatchString(l) && initialsOf(l, name)) {
			continue
		}
		sp := sectionSpeaker{Name: strings.TrimSpace(strings.TrimSuffix(name, " -"))}
		if i+4 < len(lines) && lines[i+3] == "" {
			sp.Role = lines[i+4]
		}
		out = append(out, sp)
		i += 2
	}
	return out
}

// initialsOf reports whether every letter of initials starts a word of name,
// so that a bio line "AI" is not taken for a speaker without a photo.
func initialsOf(initials, name string) bool {
	starts := map[rune]bool{}
	for _, w := range strings.Fields(name) {
		r := []rune(w)[0]
		starts[unicode.ToUpper(r)] = true
	}
	for _, r := range initials {
		if !starts[r] {
			return false
		}
	}
	return true
}

// splitTitleLine separates "TITLE - SPEAKERS". Titles and affiliations both
// contain " - ", so neither the first nor the last one is the split: the
// split is the first " - " followed by the name of a speaker listed in the
// Speakers section. ok is false when no such split exists; the whole line
// is then the title.
func splitTitleLine(line string, people []sectionSpeaker) (title string, speakers []index.Speaker, ok bool) {
	for off := 0; ; {
		k := strings.Index(line[off:], " - ")
		if k < 0 {
			return line, nil, false
		}
		at := off + k
		rest := line[at+3:]
		first, _, _ := strings.Cut(rest, ",")
		if k := strings.IndexAny(first, "&;"); k >= 0 {
			first = first[:k]
		}
		if matchesSpeaker(strings.TrimSpace(first), people, true) {
			return strings.TrimSpace(line[:at]), parseSpeakers(speakerSegments(rest), people), true
		}
		off = at + 3
	}
}

// splitTitleGuess splits a title line without the help of a Speakers
// section: at the last " - " followed by a name and an affiliation.
func splitTitleGuess(line string) (title string, speakers []index.Speaker, ok bool) {
	at := strings.LastIndex(line, " - ")
	if at < 0 {
		return line, nil, false
	}
	segs := speakerSegments(line[at+3:])
	if len(segs) < 2 || !looksLikeName(segs[0].text) {
		return line, nil, false
	}
	return strings.TrimSpace(line[:at]), parseSpeakers(segs, nil), true
}

// segment is a piece of a speaker list between separators; sep is the
// separator before it (0 for the first).
type segment struct {
	text string
	sep  rune
}

func speakerSegments(s string) []segment {
	var out []segment
	var sep rune
	start := 0
	emit := func(end int, next rune) {
		if t := strings.TrimSpace(s[start:end]); t != "" {
			out = append(out, segment{text: t, sep: sep})
		}
		sep = next
	}
	for i, r := range s {
		if r == ',' || r == '&' || r == ';' {
			emit(i, r)
			start = i + 1
		}
	}
	emit(len(s), 0)
	return out
}

// parseSpeakers reads a speaker list: "A & B, Org", "A, B & C, Org",
// groups separated by ";", keynotes as "Name, Role, Org". A segment naming
// a speaker of the Speakers section starts a speaker; the segments after it
// up to the next name are its affiliation. Speakers listed together before
// one affiliation ("A & B, Org") share it.
func parseSpeakers(segs []segment, people []sectionSpeaker) []index.Speaker {
	var out []index.Speaker
	var affs [][]segment
	for k, sg := range segs {
		// Without a match in the Speakers section, a name is still likely
		// after ";" (it starts a group) or "&", as long as the section lists
		// more speakers than found so far.
		unmatched := len(people) == 0 || len(out) < len(people)
		isName := k == 0 || matchesSpeaker(sg.text, people, false) ||
			(unmatched && (sg.sep == '&' || sg.sep == ';') && looksLikeName(sg.text))
		if isName {
			out = append(out, index.Speaker{Name: sg.text})
			affs = append(affs, nil)
			continue
		}
		affs[len(affs)-1] = append(affs[len(affs)-1], sg)
	}
	for k := range out {
		for j := k; j < len(out); j++ {
			if len(affs[j]) > 0 {
				out[k].Affiliation = joinSegments(affs[j])
				break
			}
		}
	}
	return out
}

// joinSegments puts an affiliation back together with its own separators
// ("Babbage & Co" stays so), normalising the spacing around commas.
func joinSegments(segs []segment) string {
	var b strings.Builder
	for k, sg := range segs {
		if k > 0 {
			switch sg.sep {
			case '&':
				b.WriteString(" & ")
			case ';':
				b.WriteString("; ")
			default:
				b.WriteString(", ")
			}
		}
		b.WriteString(sg.text)
	}
	return b.String()
}

// matchesSpeaker reports whether s names one of people. Names are spelled
// differently in the title line and the Speakers section (accents, case,
// "David"/"Dave", typos), so folded names match within a small edit
// distance; unless strict, a shared first or last name is enough.
func matchesSpeaker(s string, people []sectionSpeaker, strict bool) bool {
	a := analysis.MatchWords(s)
	if len(a) == 0 || len(a) > 6 {
		return false
	}
	as := strings.Join(a, " ")
	for _, p := range people {
		b := analysis.MatchWords(p.Name)
		if len(b) == 0 {
			continue
		}
		bs := strings.Join(b, " ")
		if as == bs || editDistance(as, bs) <= max(1, len(bs)/6) {
			return true
		}
		if !strict && len(a) >= 2 && (a[0] == b[0] || a[len(a)-1] == b[len(b)-1]) {
			return true
		}
		// Strict: a shortened first name ("David"/"Dave") with the same surname.
		if strict && len(a) >= 2 && len(a) == len(b) && a[len(a)-1] == b[len(b)-1] && a[0][:1] == b[0][:1] {
			return true
		}
	}
	return false
}

// looksLikeName: two to four words, each starting with an upper-case letter
// or a lower-case particle (de, van, le).
func looksLikeName(s string) bool {
	w := strings.Fields(s)
	if len(w) < 2 || len(w) > 4 {
		return false
	}
	for _, x := range w {
		r := []rune(x)[0]
		if !unicode.IsUpper(r) && !unicode.IsLower(r) {
			return false
		}
	}
	return true
}

// editDistance is the Levenshtein distance of a and b in bytes; names are
// short, so the quadratic cost does not matter.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// sessionKind classifies a session by its title prefix and track.
func sessionKind(title, track string) index.Kind {
	switch {
	case strings.HasPrefix(title, "Keynote:"), strings.HasPrefix(title, "Sponsored Keynote:"):
		return index.KindKeynote
	case strings.HasPrefix(title, "Lightning Talk:"):
		return index.KindLightning
	case strings.HasPrefix(title, "Birds of A Feather"), strings.EqualFold(track, "Birds of A Feather"):
		return index.KindBOF
	case strings.HasPrefix(title, "Meet the "), track == "Meet the Developers":
		return index.KindMeet
	case strings.HasPrefix(title, "Poster"), track == "Poster Presentations":
		return index.KindPoster
	case strings.HasPrefix(title, "Sponsor Activity"), strings.HasPrefix(title, "Sponsored Session:"):
		return index.KindSponsor
	case track == "Breaks/Exhibits/Special Events":
		return index.KindBreak
	}
	return index.KindTalk
}

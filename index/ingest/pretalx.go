package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/talksearch/talksearch/index"
)

// pretalxAPI reads a page of the pretalx REST API, /api/events/<event>/
// submissions/ or /talks/: {"count", "next", "previous", "results": [object]}.
// Versions and queries answer differently: submission_type, track, rooms
// and speakers come as ids or codes, as expanded objects ({"id": 19,
// "name": {"en": …}} with ?expand=), as {language: text} objects or as
// plain strings; a submission has "slots" (current) or "slot" (older).
// Every field is decoded on its own, so a shape no version wrote costs
// that field with a warning, never the submission or the page.
type pretalxAPI struct{}

func (pretalxAPI) Name() string { return "pretalx" }

func (pretalxAPI) Detect(head []byte) bool {
	return len(head) > 0 && head[0] == '{' && hasTopKey(head, "results")
}

// i18n is a pretalx text field: a string, or {"en": …, "de": …}.
type i18n struct {
	text  string
	langs map[string]string
}

// parseI18n reads a string or a {language: text} object; ok is false for
// any other shape. null is no text.
func parseI18n(raw json.RawMessage) (i18n, bool) {
	var t i18n
	switch jsonKind(raw) {
	case 'n':
		return t, true
	case '"':
		return t, json.Unmarshal(raw, &t.text) == nil
	case '{':
		var m map[string]*string
		if json.Unmarshal(raw, &m) != nil {
			return t, false
		}
		t.langs = make(map[string]string, len(m))
		for k, v := range m {
			if v != nil {
				t.langs[k] = *v
			}
		}
		return t, true
	}
	return t, false
}

func (t i18n) empty() bool { return t.in("") == "" }

// in is the text in the talk's own language, else English, else the first
// language in alphabetical order.
func (t i18n) in(locale string) string {
	if t.langs == nil {
		return t.text
	}
	for _, l := range []string{locale, "en"} {
		if s, ok := t.langs[l]; ok && s != "" {
			return s
		}
	}
	keys := make([]string, 0, len(t.langs))
	for k := range t.langs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if t.langs[k] != "" {
			return t.langs[k]
		}
	}
	return ""
}

// jsonKind is the first byte of a JSON value, which tells its shape: '"',
// '{', '[', 't'/'f', 'n' (null, also for an absent value) or '0' for a
// number.
func jsonKind(raw json.RawMessage) byte {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return 'n'
	}
	switch c := raw[0]; c {
	case '"', '{', '[', 't', 'f', 'n':
		return c
	}
	return '0'
}

// shapeOf names the shape of a value for a warning.
func shapeOf(raw json.RawMessage) string {
	switch jsonKind(raw) {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "true/false"
	case 'n':
		return "null"
	}
	return "a number"
}

// jsonObject is one object of a source with its fields kept raw: each is
// decoded when asked for, and one of an unexpected shape is a warning
// naming the object and the field, read as absent.
type jsonObject struct {
	fields map[string]json.RawMessage
	file   string
	line   int
	what   string // "submission", "session"
	id     string
	title  string
	warns  *[]Warning
}

// asObject is raw's fields, or nil when raw is no object.
func asObject(raw json.RawMessage) map[string]json.RawMessage {
	if jsonKind(raw) != '{' {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

// name is how warnings name the object: by its id and title as far as
// they are known.
func (o *jsonObject) name() string {
	switch {
	case o.id != "" && o.title != "":
		return fmt.Sprintf("%s %q (%q)", o.what, o.id, o.title)
	case o.id != "":
		return fmt.Sprintf("%s %q", o.what, o.id)
	case o.title != "":
		return fmt.Sprintf("%s %q", o.what, o.title)
	}
	return o.what
}

func (o *jsonObject) warn(format string, args ...any) {
	*o.warns = append(*o.warns, Warning{File: o.file, Line: o.line, Msg: o.name() + ": " + fmt.Sprintf(format, args...)})
}

// drop is the warning for a field of an unexpected shape.
func (o *jsonObject) drop(key string, raw json.RawMessage, want string) {
	o.warn("%s is %s, not %s: %s not read", key, shapeOf(raw), want, key)
}

// get is the field's raw value, nil when it is absent or null.
func (o *jsonObject) get(key string) json.RawMessage {
	raw, ok := o.fields[key]
	if !ok || jsonKind(raw) == 'n' {
		return nil
	}
	return raw
}

// str reads a string field; a number is read as written (ids).
func (o *jsonObject) str(key string) string {
	raw := o.get(key)
	if raw == nil {
		return ""
	}
	if s, ok := scalarString(raw); ok {
		return s
	}
	o.drop(key, raw, "a string")
	return ""
}

// scalarString is a string's text or a number as written.
func scalarString(raw json.RawMessage) (string, bool) {
	switch jsonKind(raw) {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return strings.TrimSpace(s), true
	case '0':
		return string(bytes.TrimSpace(raw)), true
	}
	return "", false
}

// text reads a string or {language: text} field.
func (o *jsonObject) text(key string) i18n {
	raw := o.get(key)
	if raw == nil {
		return i18n{}
	}
	t, ok := parseI18n(raw)
	if !ok {
		o.drop(key, raw, "a text or a {language: text} object")
	}
	return t
}

// array reads an array field.
func (o *jsonObject) array(key string) []json.RawMessage {
	raw := o.get(key)
	if raw == nil {
		return nil
	}
	var a []json.RawMessage
	if jsonKind(raw) != '[' || json.Unmarshal(raw, &a) != nil {
		o.drop(key, raw, "an array")
		return nil
	}
	return a
}

// flag reads a true/false field.
func (o *jsonObject) flag(key string) bool {
	raw := o.get(key)
	if raw == nil {
		return false
	}
	var b bool
	if json.Unmarshal(raw, &b) != nil {
		o.drop(key, raw, "true or false")
		return false
	}
	return b
}

// minutes reads a duration in minutes, a number or a numeric string.
func (o *jsonObject) minutes(key string) int {
	raw := o.get(key)
	if raw == nil {
		return 0
	}
	s, ok := scalarString(raw)
	var n float64
	if ok {
		_, err := fmt.Sscanf(s, "%g", &n)
		ok = err == nil && n >= 0 && n < 100000
	}
	if !ok {
		o.drop(key, raw, "a number of minutes")
		return 0
	}
	return int(n)
}

// pretalxNamed reads a field that names something (a submission type, a
// track, a room) in any of its shapes: a plain name, a {language: name}
// object, an id, or an expanded {"id", "name"} object. ok is false for any
// other shape.
func pretalxNamed(raw json.RawMessage) (id string, name i18n, ok bool) {
	switch jsonKind(raw) {
	case 'n':
		return "", name, true
	case '0':
		id, _ = scalarString(raw)
		return id, name, true
	case '"':
		name, ok = parseI18n(raw)
		return "", name, ok
	case '{':
		m := asObject(raw)
		if m == nil {
			return "", name, false
		}
		n, expanded := m["name"]
		if !expanded {
			if name, ok = parseI18n(raw); ok {
				return "", name, true
			}
			id, ok = scalarString(m["id"])
			return id, i18n{}, ok
		}
		if rawID, has := m["id"]; has {
			id, _ = scalarString(rawID)
		}
		name, ok = parseI18n(n)
		return id, name, ok
	}
	return "", name, false
}

// pretalxLookup are the names a page gives with expanded objects, by id,
// for the fields that elsewhere on the page give the id only.
type pretalxLookup struct {
	named    map[string]map[string]i18n // field → id → name
	speakers map[string]string          // code → name
}

func (l *pretalxLookup) learn(field string, raw json.RawMessage) {
	id, name, ok := pretalxNamed(raw)
	if !ok || id == "" || name.empty() {
		return
	}
	if l.named[field] == nil {
		l.named[field] = map[string]i18n{}
	}
	l.named[field][id] = name
}

// learnObject gathers the names an object gives in expanded form.
func (l *pretalxLookup) learnObject(m map[string]json.RawMessage) {
	l.learn("submission_type", m["submission_type"])
	l.learn("track", m["track"])
	var slots []json.RawMessage
	_ = json.Unmarshal(m["slots"], &slots)
	if jsonKind(m["slot"]) == '{' {
		slots = append(slots, m["slot"])
	}
	for _, s := range slots {
		if sm := asObject(s); sm != nil {
			l.learn("room", sm["room"])
		}
	}
	var speakers []json.RawMessage
	_ = json.Unmarshal(m["speakers"], &speakers)
	for _, s := range speakers {
		sm := asObject(s)
		if sm == nil {
			continue
		}
		code, _ := scalarString(sm["code"])
		name, _ := scalarString(sm["name"])
		if code != "" && name != "" {
			l.speakers[code] = name
		}
	}
}

// idOnly counts, per field, the submissions that give it as an id no
// object of the page names, for one warning per field and page.
type idOnly struct {
	n    int
	line int
	name string
}

// pretalxResult is one element of "results" and its line.
type pretalxResult struct {
	line int
	raw  json.RawMessage
}

// droppedStates are submissions no programme will hold: counted in one
// warning per file rather than indexed. Submitted and accepted ones stay
// (a programme committee searches its whole call for papers), and so do
// canceled ones, marked: they were on the programme.
var droppedStates = map[string]bool{"rejected": true, "withdrawn": true, "deleted": true}

// pretalxReader is the state of reading one page.
type pretalxReader struct {
	file    string
	conf    index.Conference
	loc     *time.Location
	lookup  pretalxLookup
	warns   []Warning
	missing map[string]*idOnly
	// levelQuestions are the ids of questions whose answers read as
	// audience levels, for pages that give questions as ids only.
	levelQuestions map[string]bool
	markdown       *markdownBudget
}

func (r *pretalxReader) idOnly(field string, line int, name string) {
	m := r.missing[field]
	if m == nil {
		m = &idOnly{line: line, name: name}
		r.missing[field] = m
	}
	m.n++
}

func (pretalxAPI) Read(file string, data []byte, opt Options) ([]index.Talk, []Warning, error) {
	if err := checkUTF8(data); err != nil {
		return nil, nil, err
	}
	var (
		results    []pretalxResult
		next, prev string
	)
	dec := json.NewDecoder(ctxReader{bytes.NewReader(data), opt.Context})
	err := walkObject(dec, func(dec *json.Decoder, key string) error {
		switch key {
		case "next", "previous":
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return err
			}
			s, _ := scalarString(raw)
			if key == "next" {
				next = s
			} else {
				prev = s
			}
			return nil
		case "results":
			return walkArray(dec, func(dec *json.Decoder) error {
				line := valueLine(data, dec)
				var raw json.RawMessage
				if err := dec.Decode(&raw); err != nil {
					return err
				}
				results = append(results, pretalxResult{line, raw})
				return nil
			})
		}
		return skipValue(dec)
	})
	if err != nil {
		return nil, nil, jsonError(data, dec, err)
	}
	if err := atEnd(data, dec, "the API object", opt); err != nil {
		return nil, nil, err
	}

	r := &pretalxReader{
		file: file, loc: opt.TimeZone, missing: map[string]*idOnly{}, markdown: opt.markdown,
		lookup: pretalxLookup{named: map[string]map[string]i18n{}, speakers: map[string]string{}},
		conf:   pretalxConference(file, next, prev),
	}
	objects := make([]map[string]json.RawMessage, len(results))
	for i, res := range results {
		if err := opt.cancelledAt(i); err != nil {
			return nil, nil, err
		}
		objects[i] = asObject(res.raw)
		if objects[i] == nil {
			r.warns = append(r.warns, Warning{File: file, Line: res.line, Msg: fmt.Sprintf("a result that is %s, not a submission object: skipped", shapeOf(res.raw)), Dropped: 1})
			continue
		}
		r.lookup.learnObject(objects[i])
	}
	r.levelQuestions = levelQuestions(objects)

	var (
		talks   []index.Talk
		lines   []int
		dropped = map[string]int{}
		codes   int
		// lines of the first dropped object and of the first speaker
		// without a name, for the summary warnings
		droppedAt, codesAt int
	)
	for i, m := range objects {
		if err := opt.cancelledAt(i); err != nil {
			return nil, nil, err
		}
		if m == nil {
			continue
		}
		line := results[i].line
		o := &jsonObject{fields: m, file: file, line: line, what: "submission", warns: &r.warns}
		o.id = o.str("code")
		if state := strings.ToLower(o.str("state")); droppedStates[state] {
			dropped[state]++
			if droppedAt == 0 {
				droppedAt = line
			}
			continue
		}
		ts, c := r.talks(o)
		codes += c
		if c > 0 && codesAt == 0 {
			codesAt = line
		}
		for _, t := range ts {
			talks = append(talks, t)
			lines = append(lines, line)
		}
	}
	warns := r.warns
	if len(dropped) > 0 {
		var parts []string
		total := 0
		for _, s := range []string{"rejected", "withdrawn", "deleted"} {
			if n := dropped[s]; n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", n, s))
				total += n
			}
		}
		warns = append(warns, Warning{File: file, Line: droppedAt, Msg: "submissions not indexed: " + strings.Join(parts, ", ") + " (the first here)", Dropped: total})
	}
	if codes > 0 {
		warns = append(warns, Warning{File: file, Line: codesAt, Msg: fmt.Sprintf("%d speakers given as codes only, without names (ask the API with ?expand=speakers)", codes)})
	}
	for _, f := range []struct{ field, what, expand string }{
		{"submission_type", "submission type", "submission_type"},
		{"track", "track", "track"},
		{"slots", "slots (talks left unscheduled)", "slots,slots.room"},
		{"room", "room", "slots.room"},
		{"resources", "resources (slides, links)", "resources"},
	} {
		if m := r.missing[f.field]; m != nil {
			warns = append(warns, Warning{File: file, Line: m.line, Msg: fmt.Sprintf(
				"%s given as ids only, which no object of this page names, in %d submissions (the first here, %s): not read (ask the API with ?expand=%s)",
				f.what, m.n, m.name, f.expand)})
		}
	}
	talks, w := assignIDs(file, talks, lines)
	return talks, append(warns, w...), nil
}

// pretalxConference is the conference of a page: the event of the API
// address its "next" or "previous" link names (/api/events/<event>/…), so
// that the pages of one export, whatever their file names, are one
// conference and a submission repeated on two of them is one talk; else
// the file's name.
func pretalxConference(file string, links ...string) index.Conference {
	for _, l := range links {
		u, err := url.Parse(l)
		if err != nil || l == "" {
			continue
		}
		parts := strings.Split(strings.Trim(u.Path, "/"), "/")
		for i := 0; i+1 < len(parts); i++ {
			if parts[i] == "events" && parts[i+1] != "" {
				if c := ConferenceNamed(parts[i+1]); c.ID != "" {
					return c
				}
			}
		}
	}
	return conferenceFromName(file)
}

// talks makes one talk per slot of the object (one unscheduled talk when
// it has none): a workshop held twice is two sessions. codesOnly counts
// speakers without a name.
func (r *pretalxReader) talks(o *jsonObject) ([]index.Talk, int) {
	lang := o.str("content_locale")
	title := cleanField(o.text("title").in(lang))
	if title == "" {
		*o.warns = append(*o.warns, Warning{File: o.file, Line: o.line, Msg: o.name() + " without a title: skipped", Dropped: 1})
		return nil, 0
	}
	o.title = title
	base := index.Talk{
		Conference:  r.conf,
		SourceID:    o.id,
		Title:       title,
		Abstract:    cleanTextIn(o.text("abstract").in(lang), r.markdown),
		Description: cleanTextIn(o.text("description").in(lang), r.markdown),
		Language:    lang,
		Cancelled:   cancelledState(o.str("state")),
		Sources:     []string{r.file},
	}
	links(&base, r.resources(o, lang))
	base.Track = cleanField(r.named(o, "track", o.get("track")).in(lang))
	// Types are matched by their English name where there is one.
	base.Kind = KindOf(r.named(o, "submission_type", o.get("submission_type")).in("en"))

	codesOnly := 0
	for _, s := range o.array("speakers") {
		var code, name string
		switch jsonKind(s) {
		case '"', '0':
			code, _ = scalarString(s)
			name = r.lookup.speakers[code]
		case '{':
			sm := asObject(s)
			code, _ = scalarString(sm["code"])
			if n, ok := scalarString(sm["name"]); ok {
				name = n
			} else if sm["name"] != nil && jsonKind(sm["name"]) != 'n' {
				o.warn("a speaker's name is %s, not a string: speaker not read", shapeOf(sm["name"]))
				continue
			}
			if name == "" {
				name = r.lookup.speakers[code]
			}
		case 'n':
			continue
		default:
			o.warn("a speaker is %s, not a code or an object: speaker not read", shapeOf(s))
			continue
		}
		if name = cleanField(name); name != "" {
			base.Speakers = append(base.Speakers, index.Speaker{Name: name, SourceID: code})
		} else {
			codesOnly++
		}
	}
	base.Level = r.level(o, lang)

	var slots []json.RawMessage
	if _, has := o.fields["slots"]; has {
		slots = o.array("slots")
	}
	if len(slots) == 0 {
		if s := o.get("slot"); s != nil {
			slots = []json.RawMessage{s}
		}
	}
	duration := time.Duration(o.minutes("duration")) * time.Minute
	var out []index.Talk
	idsOnly := false
	for _, raw := range slots {
		if k := jsonKind(raw); k == '0' || k == '"' {
			idsOnly = true
			continue
		}
		sm := asObject(raw)
		if sm == nil {
			o.warn("a slot is %s, not an object: slot not read", shapeOf(raw))
			continue
		}
		so := &jsonObject{fields: sm, file: o.file, line: o.line, what: o.what, id: o.id, title: o.title, warns: o.warns}
		start := so.str("start")
		if start == "" {
			continue // a slot not yet placed in the schedule
		}
		t := base
		t.Room = cleanField(r.named(so, "room", so.get("room")).in(lang))
		at, err := time.Parse(time.RFC3339, start)
		if err != nil {
			o.warn("slot start %q is not RFC 3339 with an offset: slot not read", start)
			continue
		}
		var dur time.Duration
		if end, err := time.Parse(time.RFC3339, so.str("end")); err == nil && !end.Before(at) {
			dur = end.Sub(at)
		} else if duration > 0 {
			dur = duration
		}
		slot(&t, at, dur, r.loc)
		out = append(out, t)
	}
	if idsOnly && len(out) == 0 {
		r.idOnly("slots", o.line, o.name())
	}
	if len(out) == 0 {
		out = append(out, base)
	}
	return out, codesOnly
}

// resources are the submission's resources (pretalx's uploads and links:
// slides, papers, code) where the page expands them, {resource,
// description}; resources given as ids only are counted for the page's
// warning. pretalx's API keeps no recordings.
func (r *pretalxReader) resources(o *jsonObject, lang string) []sourceLink {
	var out []sourceLink
	idsOnly := false
	for _, raw := range o.array("resources") {
		m := asObject(raw)
		if m == nil {
			if k := jsonKind(raw); k == '0' || k == '"' {
				idsOnly = true
			} else {
				o.warn("a resource is %s, not an object: resource not read", shapeOf(raw))
			}
			continue
		}
		ro := &jsonObject{fields: m, file: o.file, line: o.line, what: o.what, id: o.id, title: o.title, warns: o.warns}
		href := ro.str("resource")
		if href == "" {
			href = ro.str("link")
		}
		out = append(out, sourceLink{href: href, title: ro.text("description").in(lang)})
	}
	if idsOnly && len(out) == 0 {
		r.idOnly("resources", o.line, o.name())
	}
	return out
}

// named reads a field that names something: its name as given, or the
// name an expanded object elsewhere on the page gives its id. An id no
// object names is counted for the page's warning; a value of another
// shape is a warning of its own.
func (r *pretalxReader) named(o *jsonObject, field string, raw json.RawMessage) i18n {
	if raw == nil {
		return i18n{}
	}
	id, name, ok := pretalxNamed(raw)
	if !ok {
		o.drop(field, raw, "a name, an id or an {\"id\", \"name\"} object")
		return i18n{}
	}
	if name.empty() && id != "" {
		if n, ok := r.lookup.named[field][id]; ok {
			return n
		}
		r.idOnly(field, o.line, o.name())
	}
	return name
}

// levelWords are the answers that say an audience level.
var levelWords = []string{"beginner", "intermediate", "advanced", "expert", "junior", "senior", "novice",
	"introduct", "all audience", "all level", "everyone", "no prior knowledge"}

func isLevelWord(s string) bool {
	s = strings.ToLower(s)
	for _, w := range levelWords {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// levelQuestions are the ids of the questions that ask for an audience
// level, where questions are ids only (pretalx's current API): a question
// most of whose answers, in English, are levels.
func levelQuestions(objects []map[string]json.RawMessage) map[string]bool {
	total, levels := map[string]int{}, map[string]int{}
	for _, m := range objects {
		var answers []json.RawMessage
		_ = json.Unmarshal(m["answers"], &answers)
		for _, a := range answers {
			am := asObject(a)
			if am == nil {
				continue
			}
			q, ok := scalarString(am["question"])
			if !ok || q == "" {
				continue
			}
			total[q]++
			if isLevelWord(answerText(am)) {
				levels[q]++
			}
		}
	}
	out := map[string]bool{}
	for q, n := range total {
		if levels[q]*2 > n {
			out[q] = true
		}
	}
	return out
}

// answerText is an answer in English: the chosen option's English text
// where the answer is a choice, else the answer as written.
func answerText(am map[string]json.RawMessage) string {
	var options []json.RawMessage
	_ = json.Unmarshal(am["options"], &options)
	var parts []string
	for _, op := range options {
		if om := asObject(op); om != nil {
			if t, ok := parseI18n(om["answer"]); ok && !t.empty() {
				parts = append(parts, t.in("en"))
			}
		}
	}
	if len(parts) > 0 {
		return strings.Join(parts, ", ")
	}
	s, _ := scalarString(am["answer"])
	return s
}

// level is the answer to the question that asks for the audience level:
// one whose text says "level" (expanded questions), else one whose answers
// read as levels.
func (r *pretalxReader) level(o *jsonObject, lang string) string {
	for _, a := range o.array("answers") {
		am := asObject(a)
		if am == nil {
			continue // an answer given as its id
		}
		q := am["question"]
		isLevel := false
		if qm := asObject(q); qm != nil {
			t, _ := parseI18n(qm["question"])
			text := strings.ToLower(t.in(lang) + " " + t.in("en"))
			isLevel = strings.Contains(text, "level") || strings.Contains(text, "niveau") || strings.Contains(text, "nivel")
		} else if id, ok := scalarString(q); ok {
			isLevel = r.levelQuestions[id]
		}
		if isLevel {
			if s := cleanField(answerText(am)); s != "" {
				return s
			}
		}
	}
	return ""
}

package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/talksearch/talksearch/index"
)

// sessionize reads the JSON of Sessionize's API, in its three views of a
// programme:
//
//   - "All data": {"sessions", "speakers", "questions", "categories",
//     "rooms"}, sessions naming speakers by id, categories (Level, Track,
//     Session format, …) by the ids of their items, rooms by id;
//   - "GridSmart": [day {"date", "rooms": [{"id", "name", "sessions"}],
//     "timeSlots": [{"slotStart", "rooms": [{"session"}]}]}], sessions
//     carrying their speakers as {"id", "name"} and their categories as
//     {"name", "categoryItems": [{"name"}]};
//   - "Sessions": [group {"groupId", "groupName", "sessions"}], sessions as
//     in GridSmart.
//
// startsAt and endsAt are local times without an offset, read in
// --time-zone (UTC, with a warning, without it). Every field is decoded on
// its own: one of an unexpected shape costs that field with a warning.
type sessionize struct{}

func (sessionize) Name() string { return "sessionize" }

// Detect looks at the keys of the first session (All data) or of the
// first day or group: a large programme's first array runs past what
// Detect sees, so the decision never waits for a later key.
func (sessionize) Detect(head []byte) bool {
	if len(head) == 0 {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(head))
	found := false
	sessionKeys := func(dec *json.Decoder, k string) error {
		switch k {
		case "startsAt", "isServiceSession", "isPlenumSession", "categoryItems", "roomId":
			found = true
			return errStop
		}
		return skipValue(dec)
	}
	switch head[0] {
	case '{':
		_ = walkObject(dec, func(dec *json.Decoder, k string) error {
			if k != "sessions" {
				return skipValue(dec)
			}
			_ = walkArray(dec, func(dec *json.Decoder) error {
				_ = walkObject(dec, sessionKeys)
				return errStop
			})
			return errStop
		})
	case '[':
		_ = walkArray(dec, func(dec *json.Decoder) error {
			date := false
			_ = walkObject(dec, func(dec *json.Decoder, k string) error {
				switch {
				case k == "timeSlots", k == "rooms" && date, k == "groupId":
					found = true
					return errStop
				case k == "date":
					date = true
				}
				return skipValue(dec)
			})
			return errStop
		})
	}
	return found
}

// sessionizeSession is one session of the file and its line.
type sessionizeSession struct {
	line int
	raw  json.RawMessage
	room string // the room of the grid it was found in
}

// sessionizeItem is an item of a category: "Advanced" of "Level".
type sessionizeItem struct {
	category, name string
}

// sessionizeFile is what one file gives.
type sessionizeFile struct {
	file     string
	sessions []sessionizeSession
	speakers map[string]string         // id → full name (All data)
	items    map[string]sessionizeItem // category item id → item (All data)
	rooms    map[string]string         // id → name
	warns    []Warning
	grid     bool // sessions repeat by design (time slots, plenary rooms)
	markdown *markdownBudget
}

func (sessionize) Read(file string, data []byte, opt Options) ([]index.Talk, []Warning, error) {
	if err := checkUTF8(data); err != nil {
		return nil, nil, err
	}
	f := &sessionizeFile{file: file, speakers: map[string]string{}, items: map[string]sessionizeItem{}, rooms: map[string]string{}, markdown: opt.markdown}
	dec := json.NewDecoder(ctxReader{bytes.NewReader(data), opt.Context})
	head := bytes.TrimLeft(data, " \t\r\n")
	var err error
	if len(head) > 0 && head[0] == '[' {
		f.grid = true
		err = f.readGrid(data, dec)
	} else {
		err = f.readAllData(data, dec)
	}
	if err != nil {
		return nil, nil, jsonError(data, dec, err)
	}
	if err := atEnd(data, dec, "the Sessionize document", opt); err != nil {
		return nil, nil, err
	}
	return f.talks(opt)
}

// collect reads the sessions array at the decoder, keeping each session's
// line.
func (f *sessionizeFile) collect(data []byte, dec *json.Decoder) error {
	if c, err := peekDelim(data, dec); err == nil && c != '[' && c != 'n' {
		f.warns = append(f.warns, Warning{File: f.file, Line: valueLine(data, dec), Msg: "sessions that are no array: not read"})
	}
	return f.gridArray(data, dec, func(dec *json.Decoder) error {
		return f.gridOne(data, dec)
	})
}

func (f *sessionizeFile) readAllData(data []byte, dec *json.Decoder) error {
	return walkObject(dec, func(dec *json.Decoder, key string) error {
		switch key {
		case "sessions":
			return f.collect(data, dec)
		case "speakers":
			return f.eachObject(data, dec, "speaker", func(o *jsonObject) {
				id := o.str("id")
				name := o.str("fullName")
				if name == "" {
					name = strings.TrimSpace(o.str("firstName") + " " + o.str("lastName"))
				}
				if id != "" && name != "" {
					f.speakers[id] = name
				}
			})
		case "categories":
			return f.eachObject(data, dec, "category", func(o *jsonObject) {
				title := o.str("title")
				if title == "" {
					title = o.str("name")
				}
				o.title = title
				items := o.fields["items"]
				key := "items"
				if items == nil {
					key = "categoryItems"
				}
				for _, it := range o.array(key) {
					im := asObject(it)
					if im == nil {
						o.warn("an item is %s, not an object: item not read", shapeOf(it))
						continue
					}
					id, _ := scalarString(im["id"])
					name, _ := scalarString(im["name"])
					if id != "" {
						f.items[id] = sessionizeItem{category: title, name: name}
					}
				}
			})
		case "rooms":
			return f.eachObject(data, dec, "room", func(o *jsonObject) {
				if id, name := o.str("id"), o.str("name"); id != "" {
					f.rooms[id] = name
				}
			})
		}
		return skipValue(dec)
	})
}

// eachObject calls each for every object of the array at the decoder; an
// element that is no object is a warning.
func (f *sessionizeFile) eachObject(data []byte, dec *json.Decoder, what string, each func(o *jsonObject)) error {
	if t, err := peekDelim(data, dec); err != nil || t != '[' {
		if err != nil {
			return err
		}
		line := valueLine(data, dec)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		if jsonKind(raw) != 'n' {
			f.warns = append(f.warns, Warning{File: f.file, Line: line, Msg: fmt.Sprintf("the %ss are %s, not an array: not read", what, shapeOf(raw))})
		}
		return nil
	}
	return walkArray(dec, func(dec *json.Decoder) error {
		line := valueLine(data, dec)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		m := asObject(raw)
		if m == nil {
			f.warns = append(f.warns, Warning{File: f.file, Line: line, Msg: fmt.Sprintf("a %s that is %s, not an object: skipped", what, shapeOf(raw))})
			return nil
		}
		each(&jsonObject{fields: m, file: f.file, line: line, what: what, warns: &f.warns})
		return nil
	})
}

// peekDelim is the first byte of the value the decoder reads next.
func peekDelim(data []byte, dec *json.Decoder) (byte, error) {
	off := dec.InputOffset()
	for off < int64(len(data)) && strings.ContainsRune(" \t\r\n,:", rune(data[off])) {
		off++
	}
	if off >= int64(len(data)) {
		return 0, io.ErrUnexpectedEOF
	}
	return data[off], nil
}

// readGrid reads GridSmart days and Sessions groups: the sessions of
// each room and of each time slot, and each group's.
func (f *sessionizeFile) readGrid(data []byte, dec *json.Decoder) error {
	return walkArray(dec, func(dec *json.Decoder) error {
		if c, err := peekDelim(data, dec); err != nil || c != '{' {
			if err != nil {
				return err
			}
			line := valueLine(data, dec)
			f.warns = append(f.warns, Warning{File: f.file, Line: line, Msg: "an element of the top array that is no day or group object: skipped"})
			return skipValue(dec)
		}
		return walkObject(dec, func(dec *json.Decoder, key string) error {
			switch key {
			case "sessions": // a group of the Sessions view
				return f.collect(data, dec)
			case "rooms":
				return f.gridRooms(data, dec, "sessions")
			case "timeSlots":
				return f.gridArray(data, dec, func(dec *json.Decoder) error {
					return f.gridObject(data, dec, func(dec *json.Decoder, key string) error {
						if key == "rooms" {
							return f.gridRooms(data, dec, "session")
						}
						return skipValue(dec)
					})
				})
			}
			return skipValue(dec)
		})
	})
}

// gridArray walks an array of the grid, skipping a value of another shape
// (null where a day has no time slots).
func (f *sessionizeFile) gridArray(data []byte, dec *json.Decoder, each func(dec *json.Decoder) error) error {
	if c, err := peekDelim(data, dec); err != nil || c != '[' {
		if err != nil {
			return err
		}
		return skipValue(dec)
	}
	return walkArray(dec, each)
}

func (f *sessionizeFile) gridObject(data []byte, dec *json.Decoder, each func(dec *json.Decoder, key string) error) error {
	if c, err := peekDelim(data, dec); err != nil || c != '{' {
		if err != nil {
			return err
		}
		return skipValue(dec)
	}
	return walkObject(dec, each)
}

// gridRooms reads the rooms of a day (their "sessions") or of a time slot
// (their one "session"), giving each session its room's name, which may
// come before or after the sessions.
func (f *sessionizeFile) gridRooms(data []byte, dec *json.Decoder, sessionsKey string) error {
	return f.gridArray(data, dec, func(dec *json.Decoder) error {
		first := len(f.sessions)
		var name string
		err := f.gridObject(data, dec, func(dec *json.Decoder, key string) error {
			switch key {
			case "name":
				var raw json.RawMessage
				if err := dec.Decode(&raw); err != nil {
					return err
				}
				name, _ = scalarString(raw)
				return nil
			case sessionsKey:
				if sessionsKey == "session" {
					return f.gridOne(data, dec)
				}
				return f.collect(data, dec)
			}
			return skipValue(dec)
		})
		for i := first; i < len(f.sessions); i++ {
			if f.sessions[i].room == "" {
				f.sessions[i].room = name
			}
		}
		return err
	})
}

// gridOne reads one session (null where a time slot's room is empty).
func (f *sessionizeFile) gridOne(data []byte, dec *json.Decoder) error {
	line := valueLine(data, dec)
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return err
	}
	if jsonKind(raw) != 'n' {
		f.sessions = append(f.sessions, sessionizeSession{line: line, raw: raw})
	}
	return nil
}

// droppedStatus are the statuses of sessions no programme holds: counted
// in one warning, not indexed. A cancelled session was on it: it stays,
// marked.
var droppedStatus = map[string]bool{"declined": true, "decline_queue": true, "rejected": true, "withdrawn": true}

func (f *sessionizeFile) talks(opt Options) ([]index.Talk, []Warning, error) {
	conf := conferenceFromName(f.file)
	zone := &fileZone{file: f.file, opt: opt.TimeZone}
	var (
		talks     []index.Talk
		lines     []int
		seen      = map[string]bool{}
		dropped   int
		droppedAt int
	)
	for i, s := range f.sessions {
		if err := opt.cancelledAt(i); err != nil {
			return nil, nil, err
		}
		m := asObject(s.raw)
		if m == nil {
			f.warns = append(f.warns, Warning{File: f.file, Line: s.line, Msg: fmt.Sprintf("a session that is %s, not an object: skipped", shapeOf(s.raw)), Dropped: 1})
			continue
		}
		o := &jsonObject{fields: m, file: f.file, line: s.line, what: "session", warns: &f.warns}
		o.id = o.str("id")
		if f.grid {
			// The grid shows a session in its room and again in its time
			// slot, a plenary one in every room: one session.
			key := o.id + "|" + string(m["startsAt"])
			if o.id != "" && seen[key] {
				continue
			}
			seen[key] = true
		}
		if status := strings.ToLower(o.str("status")); droppedStatus[status] {
			dropped++
			if droppedAt == 0 {
				droppedAt = s.line
			}
			continue
		}
		t, ok := f.talk(o, s.room, conf, zone)
		if ok {
			talks = append(talks, t)
			lines = append(lines, s.line)
		}
	}
	if dropped > 0 {
		f.warns = append(f.warns, Warning{File: f.file, Line: droppedAt, Msg: fmt.Sprintf("%d declined or withdrawn sessions not indexed (the first here)", dropped), Dropped: dropped})
	}
	talks, w := assignIDs(f.file, talks, lines)
	return talks, append(f.warns, w...), nil
}

func (f *sessionizeFile) talk(o *jsonObject, gridRoom string, conf index.Conference, zone *fileZone) (index.Talk, bool) {
	title := cleanField(o.str("title"))
	if title == "" {
		*o.warns = append(*o.warns, Warning{File: o.file, Line: o.line, Msg: o.name() + " without a title: skipped", Dropped: 1})
		return index.Talk{}, false
	}
	o.title = title
	t := index.Talk{
		Conference: conf,
		SourceID:   o.id,
		Title:      title,
		// Sessionize's descriptions are plain text; speakers write
		// Markdown into them all the same.
		Abstract:  cleanTextIn(o.str("description"), f.markdown),
		Cancelled: cancelledState(o.str("status")),
		Sources:   []string{f.file},
	}
	links(&t, []sourceLink{{href: o.str("recordingUrl"), kind: "recording"}, {href: o.str("liveUrl"), kind: "live"}})

	// Speakers: ids of the file's speakers (All data), or {id, name}.
	for _, raw := range o.array("speakers") {
		var id, name string
		switch jsonKind(raw) {
		case '"', '0':
			id, _ = scalarString(raw)
			name = f.speakers[id]
			if name == "" {
				o.warn("speaker id %q is none of the file's speakers: speaker not read", id)
				continue
			}
		case '{':
			sm := asObject(raw)
			id, _ = scalarString(sm["id"])
			name, _ = scalarString(sm["name"])
			if name == "" {
				name = f.speakers[id]
			}
		default:
			o.warn("a speaker is %s, not an id or an object: speaker not read", shapeOf(raw))
			continue
		}
		if name = cleanField(name); name != "" {
			t.Speakers = append(t.Speakers, index.Speaker{Name: name, SourceID: id})
		}
	}

	// Categories: item ids (All data), or {name, categoryItems: [{name}]}.
	values := map[string][]string{} // category title → item names
	var order []string
	add := func(category, item string) {
		category, item = cleanField(category), cleanField(item)
		if item == "" {
			return
		}
		if _, ok := values[category]; !ok {
			order = append(order, category)
		}
		values[category] = append(values[category], item)
	}
	for _, raw := range o.array("categoryItems") {
		id, ok := scalarString(raw)
		if !ok {
			o.warn("a category item is %s, not an id: item not read", shapeOf(raw))
			continue
		}
		it, known := f.items[id]
		if !known {
			o.warn("category item %s is in none of the file's categories: item not read", id)
			continue
		}
		add(it.category, it.name)
	}
	for _, raw := range o.array("categories") {
		cm := asObject(raw)
		if cm == nil {
			o.warn("a category is %s, not an object: category not read", shapeOf(raw))
			continue
		}
		co := &jsonObject{fields: cm, file: o.file, line: o.line, what: o.what, id: o.id, title: o.title, warns: o.warns}
		name := co.str("name")
		if name == "" {
			name = co.str("title")
		}
		for _, it := range co.array("categoryItems") {
			if im := asObject(it); im != nil {
				s, _ := scalarString(im["name"])
				add(name, s)
			} else if s, ok := scalarString(it); ok && jsonKind(it) == '"' {
				add(name, s)
			}
		}
	}
	kind := ""
	for _, c := range order {
		v := strings.Join(values[c], ", ")
		lc := strings.ToLower(c)
		switch {
		case strings.Contains(lc, "level"):
			t.Level = firstNonEmpty(t.Level, v)
		case strings.Contains(lc, "track"):
			t.Track = v // a track category wins over a topic
		case strings.Contains(lc, "topic"), strings.Contains(lc, "theme"):
			t.Track = firstNonEmpty(t.Track, v)
		case strings.Contains(lc, "format"), strings.Contains(lc, "type"):
			kind = firstNonEmpty(kind, values[c][0])
		case strings.Contains(lc, "language"):
			t.Language = firstNonEmpty(t.Language, v)
		}
	}
	t.Kind = KindOf(kind)
	if o.flag("isServiceSession") {
		// Sessionize's own marker of registration, breaks and meals.
		if k := KindOf(title); k != index.KindOther && k != index.KindTalk {
			t.Kind = k
		} else {
			t.Kind = index.KindBreak
		}
	}

	// Room: the file's room of the id (All data), else the session's own
	// name, else the grid's.
	roomID := o.str("roomId")
	if name, ok := f.rooms[roomID]; ok && roomID != "" {
		t.Room = cleanField(name)
	}
	if t.Room == "" {
		t.Room = cleanField(o.str("room"))
	}
	if t.Room == "" {
		t.Room = cleanField(gridRoom)
	}
	if t.Room == "" && roomID != "" && !f.grid {
		o.warn("room id %s is none of the file's rooms: room not read", roomID)
	}

	if s := o.str("startsAt"); s != "" {
		naive := func() *time.Location { return zone.loc(o.line, "Sessionize's startsAt", o.warns) }
		start, _, err := parseTime(s, naive)
		if err != nil {
			o.warn("startsAt %q is not a time: left unscheduled", s)
			return t, true
		}
		var dur time.Duration
		if e := o.str("endsAt"); e != "" {
			end, _, err := parseTime(e, func() *time.Location { return start.Location() })
			switch {
			case err != nil:
				o.warn("endsAt %q is not a time: end not read", e)
			case end.Before(start):
				o.warn("endsAt %s is before startsAt %s: end not read", e, s)
			default:
				dur = end.Sub(start)
			}
		}
		slot(&t, start, dur, zone.opt)
	}
	return t, true
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

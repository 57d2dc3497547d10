package web

import (
	"context"
	"fmt"
	"html/template"
	"net/url"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search"
)

// The attendee's views: now and next, the schedule of a day, a personal
// agenda and speaker pages. They read the catalog (catalog.go), not the
// search index: they list talks by time, room and id.

// talkJSON is a talk as the attendee endpoints of the API list it: times
// in the conference's own zone, and the path of its page.
type talkJSON struct {
	ID         string           `json:"id"`
	Title      string           `json:"title"`
	Conference index.Conference `json:"conference"`
	Speakers   []index.Speaker  `json:"speakers"`
	Room       *string          `json:"room"`
	Track      *string          `json:"track"`
	Start      *time.Time       `json:"start"`
	End        *time.Time       `json:"end"`
	Kind       index.Kind       `json:"kind"`
	Cancelled  bool             `json:"cancelled"`
	Path       string           `json:"path"`
}

func toJSON(t *index.Talk) talkJSON {
	out := talkJSON{ID: t.ID, Title: t.Title, Conference: t.Conference, Speakers: nonNil(t.Speakers),
		Room: nullableString(t.Room), Track: nullableString(t.Track), Kind: t.Kind, Cancelled: t.Cancelled, Path: "/talks/" + t.ID}
	if t.Start != nil {
		st := t.Local(*t.Start)
		out.Start = &st
	}
	if t.End != nil {
		en := t.Local(*t.End)
		out.End = &en
	}
	return out
}

func toJSONs(ts []*index.Talk) []talkJSON {
	out := make([]talkJSON, len(ts))
	for i, t := range ts {
		out[i] = toJSON(t)
	}
	return out
}

func nullableString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// local is tm in the talk's own zone: its TimeZone where the data names
// one, else the zone its times carry (the conference's offset), else, for a
// time in UTC, which names no conference's zone, the site's
// (Options.Location, --time-zone).
func (s *server) local(t *index.Talk, tm time.Time) time.Time {
	if t.TimeZone != "" {
		if l := t.Local(tm); l.Location().String() == t.TimeZone {
			return l
		}
	}
	return shownIn(tm, s.opts.Location)
}

// zoneAt is the zone a page shows instant at in when it lists talks of
// any conference: the zone of the conference on at that moment, else of
// the one whose dates (in its own zone) include at's, else of the next to
// start, else of the one that ended last; with no scheduled talk, the
// site's. Conferences of one date in different zones are rare: the one
// that started first wins.
func (s *server) zoneAt(cat *catalog, at time.Time) *time.Location {
	confs := cat.conferences
	for _, z := range confs {
		if z.scheduled() && !at.Before(z.Start) && at.Before(z.End) {
			return z.Loc
		}
	}
	for _, z := range confs {
		if z.scheduled() {
			if d := at.In(z.Loc).Format(time.DateOnly); z.First <= d && d <= z.Last {
				return z.Loc
			}
		}
	}
	if z := defaultConference(confs, at); z != nil {
		return z.Loc
	}
	if s.opts.Location != nil {
		return s.opts.Location
	}
	return time.UTC
}

// naiveLayouts are the forms of a time without an offset: a form's
// datetime-local, with or without seconds.
var naiveLayouts = []string{"2006-01-02T15:04", "2006-01-02T15:04:05"}

// parseNaive reads a wall-clock time in the zone of the conference that
// runs on its date (the first to start of several), else in the zone
// zoneAt gives that date: the next conference's, else the latest's.
func (s *server) parseNaive(cat *catalog, layout, a string) (time.Time, error) {
	if z := conferenceOnDay(cat.conferences, a[:len(time.DateOnly)]); z != nil {
		return time.ParseInLocation(layout, a, z.Loc)
	}
	u, err := time.ParseInLocation(layout, a, time.UTC)
	if err != nil {
		return time.Time{}, err
	}
	return time.ParseInLocation(layout, a, s.zoneAt(cat, u))
}

// parseAt reads the instant of now and next: at, RFC 3339, defaulting to
// the server's clock. A form's datetime-local ("2026-04-08T14:00") is read
// in the zone of the conference running that day (parseNaive); a "+" of an
// offset that arrived unescaped (a space) is taken back.
func (s *server) parseAt(cat *catalog, v url.Values) (time.Time, error) {
	a := strings.TrimSpace(v.Get("at"))
	if a == "" {
		return s.opts.Now(), nil
	}
	for _, cand := range []string{a, strings.ReplaceAll(a, " ", "+")} {
		if t, err := time.Parse(time.RFC3339, cand); err == nil {
			return inRange(t, a)
		}
	}
	for _, layout := range naiveLayouts {
		if _, err := time.Parse(layout, a); err != nil {
			continue
		}
		t, err := s.parseNaive(cat, layout, a)
		if err == nil {
			return inRange(t, a)
		}
	}
	return time.Time{}, invalidf("at must be an RFC 3339 time such as 2026-04-08T14:00:00+02:00, not %.40q", a)
}

// maxZoneName bounds tz: the longest IANA name is about 30 bytes.
const maxZoneName = 64

// parseTZ reads tz, the visitor's own zone, to show times in as well as
// the conference's: an IANA name ("America/New_York"); nil without one.
func parseTZ(v url.Values) (*time.Location, error) {
	name := strings.TrimSpace(v.Get("tz"))
	if name == "" {
		return nil, nil
	}
	// "Local" would be the server's zone, not the visitor's.
	if len(name) <= maxZoneName && name != "Local" {
		if loc, err := time.LoadLocation(name); err == nil {
			return loc, nil
		}
	}
	return nil, invalidf("tz must be an IANA time zone name such as America/New_York, not %.40q", name)
}

// tzName is the visitor's zone as tz= names it, "" for none.
func tzName(loc *time.Location) string {
	if loc == nil {
		return ""
	}
	return loc.String()
}

// inRange refuses an instant whose year, in some zone, leaves the years
// RFC 3339 can write (0000-9999): the answer shows it in the site's and
// the talks' zones, and encoding a year past 9999 fails.
func inRange(t time.Time, a string) (time.Time, error) {
	if y := t.UTC().Year(); y < 1 || y > 9998 {
		return time.Time{}, invalidf("at %.40q is out of range: a year from 0001 to 9998", a)
	}
	return t, nil
}

// atKey names an instant to the minute for the response cache: now and
// next change only when a talk starts or ends, on whole minutes.
func atKey(at time.Time) string { return at.UTC().Truncate(time.Minute).Format(time.RFC3339) }

// nowJSON is the answer of GET /api/now.
type nowJSON struct {
	At   time.Time  `json:"at"`
	Now  []talkJSON `json:"now"`
	Next []talkJSON `json:"next"`
}

func (s *server) apiNow(c *gin.Context) {
	q := c.Request.URL.Query()
	cat := s.catalogNow()
	// conference= keeps one conference's talks; without it, every
	// conference's.
	id := q.Get("conference")
	if id != "" {
		conf := cat.conference(id)
		if conf == nil {
			s.fail(c, fmt.Errorf("%w: no conference has the id %.80q", search.ErrNotFound, id))
			return
		}
		cat = cat.scope(conf)
	}
	at, err := s.parseAt(cat, q)
	if err != nil {
		s.fail(c, err)
		return
	}
	s.answerGzip(c, "api now "+id+" "+atKey(at), typeJSON, func(ctx context.Context) ([]byte, int, error) {
		now, next := cat.nowAndNext(at)
		body, err := encodeJSON(nowJSON{At: at.In(s.zoneAt(cat, at)), Now: toJSONs(now), Next: toJSONs(next)})
		return body, len(now) + len(next), err
	})
}

// nowRefreshSeconds is how often the live now-and-next page reloads: a
// minute, the clock's resolution on the page.
const nowRefreshSeconds = 60

// nowPage is the view of GET /now.
type nowPage struct {
	page
	At      string // "Wed 8 Apr, 10:40"
	AtTZ    string // the same instant in the visitor's zone, where it differs
	AtValue string // for the form's datetime-local
	Zone    zoneSwitch
	Now     []hitView
	Next    []hitView
	// Ended says the conference shown is over, on a page with nothing on.
	Ended string
}

// zoneSwitch is what the pages of times say about zones: the zone they
// are shown in, and the visitor's own (tz=), which the switch sets.
type zoneSwitch struct {
	// Name is the conference's zone: "Europe/Brussels (CET)", or "CEST"
	// for a source that gives only an abbreviation.
	Name string
	// TZ is the visitor's zone as tz= names it, "" for none.
	TZ string
	// Action and Keep are the page and the parameters the switch's form
	// keeps (at, day); OffURL is the page without tz.
	Action string
	Keep   []keptParam
	OffURL template.URL
}

type keptParam struct{ Name, Value string }

func newZoneSwitch(conf *time.Location, at time.Time, visitor *time.Location) zoneSwitch {
	name := conf.String()
	if abbr := at.In(conf).Format("MST"); abbr != name {
		name += " (" + abbr + ")"
	}
	return zoneSwitch{Name: name, TZ: tzName(visitor)}
}

// on sets the page the switch is on and the parameters it keeps, in order;
// empty ones are left out.
func (z *zoneSwitch) on(path string, params ...keptParam) {
	z.Action = path
	var keys []string
	for _, p := range params {
		if p.Value != "" {
			z.Keep = append(z.Keep, p)
			keys = append(keys, p.Name+"="+url.QueryEscape(p.Value))
		}
	}
	z.OffURL = template.URL(path)
	if len(keys) > 0 {
		z.OffURL = template.URL(path + "?" + strings.Join(keys, "&"))
	}
}

func (s *server) nowPage(c *gin.Context) {
	q := c.Request.URL.Query()
	cat, conf, err := s.scopeOf(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	at, err := s.parseAt(cat, q)
	if err != nil {
		s.fail(c, err)
		return
	}
	visitor, err := parseTZ(q)
	if err != nil {
		s.fail(c, err)
		return
	}
	if conf == nil && s.toDefaultEdition(c, cat, "now", defaultConference(cat.conferences, at)) {
		return
	}
	// Only the clock's now and next moves on: a page asked for one instant
	// (?at=) is left still, and is cached apart from the live one.
	live := c.Query("at") == ""
	key := "now " + c.Param("conference") + " " + atKey(at) + " tz " + tzName(visitor)
	if live {
		key = "now live " + c.Param("conference") + " " + atKey(at) + " tz " + tzName(visitor)
	}
	s.answerGzip(c, key, typeHTML, func(ctx context.Context) ([]byte, int, error) {
		now, next := cat.nowAndNext(at)
		zone := s.zoneAt(cat, at)
		local := at.In(zone)
		v := nowPage{page: s.newPage("Now and next"), At: local.Format(cat.dates().layout()), AtValue: local.Format("2006-01-02T15:04"),
			Zone: newZoneSwitch(zone, at, visitor)}
		v.inScope(cat, conf)
		path := v.Nav.Now
		if !live {
			v.Zone.on(path, keptParam{"at", local.Format(time.RFC3339)})
		} else {
			v.Zone.on(path)
		}
		if conf != nil && conf.scheduled() && len(now) == 0 && len(next) == 0 && !at.Before(conf.End) {
			v.Ended = "This conference ended on " + conf.End.In(conf.Loc).Format("Monday 2 January 2006") + "."
		}
		if alt := visitorTime(local, visitor); alt != "" {
			v.At += " " + local.Format("MST")
			v.AtTZ = alt
		}
		if live {
			v.RefreshSeconds = nowRefreshSeconds
		}
		for _, t := range now {
			v.Now = append(v.Now, s.itemViewIn(cat, t, visitor))
		}
		for _, t := range next {
			v.Next = append(v.Next, s.itemViewIn(cat, t, visitor))
		}
		body, err := s.renderBytes("now", "layout", v)
		return body, len(now) + len(next), err
	})
}

// itemView shows a talk in a list as a search hit is shown, unhighlighted,
// with its conference where cat lists several.
func (s *server) itemView(cat *catalog, t *index.Talk) hitView { return s.itemViewIn(cat, t, nil) }

// itemViewIn is itemView with the talk's time also in the visitor's zone
// where it reads differently there.
func (s *server) itemViewIn(cat *catalog, t *index.Talk, visitor *time.Location) hitView {
	var when string
	if t.Start != nil {
		start := s.local(t, *t.Start)
		var end *time.Time
		if t.End != nil {
			e := s.local(t, *t.End)
			end = &e
		}
		when = formatWhenFor(&start, end, s.opts.Location, visitor, cat.dates())
	}
	v := hitView{
		ID:         t.ID,
		URL:        "/talks/" + t.ID,
		Title:      template.HTML(template.HTMLEscapeString(t.Title)),
		Speakers:   t.Speakers,
		When:       when,
		Conference: cat.conferenceName(t.ID),
		Room:       t.Room,
		Track:      t.Track,
		Level:      t.Level,
		Kind:       kindLabel(t.Kind),
	}
	v.Cancelled = t.Cancelled
	return v
}

// parseIDs reads an agenda: ids=ID,ID (also repeated), in the order given,
// without blanks and repeats, at most search.MaxAgenda.
func parseIDs(v url.Values) ([]string, error) {
	var ids []string
	seen := map[string]bool{}
	for _, raw := range v["ids"] {
		for _, id := range strings.Split(raw, ",") {
			id = strings.TrimSpace(id)
			if id == "" || seen[id] {
				continue
			}
			if len(id) > maxIDLen {
				return nil, invalidf("ids: a talk id must be 1 to %d bytes", maxIDLen)
			}
			seen[id] = true
			ids = append(ids, id)
		}
	}
	if len(ids) > search.MaxAgenda {
		return nil, invalidf("ids: %d talks, an agenda holds at most %d", len(ids), search.MaxAgenda)
	}
	return ids, nil
}

// agenda is an agenda's talks looked up: the known ones in schedule order,
// the unknown ids as given, and the pairs that overlap in time.
type agenda struct {
	talks    []*index.Talk
	unknown  []string
	overlaps [][2]*index.Talk
}

func (c *catalog) agenda(ids []string) agenda {
	var a agenda
	in := map[string]bool{}
	for _, id := range ids {
		if _, ok := c.byID[id]; ok {
			in[id] = true
		} else {
			a.unknown = append(a.unknown, id)
		}
	}
	for _, t := range c.talks {
		if in[t.ID] {
			a.talks = append(a.talks, t)
		}
	}
	for i, x := range a.talks {
		for _, y := range a.talks[i+1:] {
			if overlapping(x, y) {
				a.overlaps = append(a.overlaps, [2]*index.Talk{x, y})
			}
		}
	}
	return a
}

func (a agenda) ids() []string {
	out := make([]string, len(a.talks))
	for i, t := range a.talks {
		out[i] = t.ID
	}
	return out
}

// agendaQuery is the ids parameter of an agenda's URLs; ids are URL-safe,
// unknown ones are escaped.
func agendaQuery(ids []string) string {
	esc := make([]string, len(ids))
	for i, id := range ids {
		esc[i] = url.QueryEscape(id)
	}
	return "?ids=" + strings.Join(esc, ",")
}

// agendaJSON is the answer of GET /api/agenda.
type agendaJSON struct {
	Talks    []talkJSON   `json:"talks"`
	Unknown  []string     `json:"unknown"`
	Overlaps [][2]string  `json:"overlaps"`
	Related  []RelatedDoc `json:"related"`
}

func (s *server) apiAgenda(c *gin.Context) {
	ids, err := parseIDs(c.Request.URL.Query())
	if err != nil {
		s.fail(c, err)
		return
	}
	s.answerGzip(c, "api agenda "+agendaQuery(ids), typeJSON, func(ctx context.Context) ([]byte, int, error) {
		a := s.catalogNow().agenda(ids)
		rel, err := s.s.RelatedToAll(ctx, a.ids())
		if err != nil {
			return nil, 0, err
		}
		out := agendaJSON{Talks: toJSONs(a.talks), Unknown: nonNil(a.unknown), Overlaps: [][2]string{}, Related: newRelatedDocs(rel)}
		for _, p := range a.overlaps {
			out.Overlaps = append(out.Overlaps, [2]string{p[0].ID, p[1].ID})
		}
		body, err := encodeJSON(out)
		return body, len(a.talks), err
	})
}

// agendaPage is the view of GET /agenda.
type agendaPage struct {
	page
	Days        []agendaDay
	Unscheduled []hitView
	Unknown     []string
	Overlaps    []overlapView
	Related     []relatedView
	// IDs are the agenda's known talks, for the script.
	IDs         string
	Count       int
	ShareURL    template.URL
	CalendarURL template.URL
}

type agendaDay struct {
	Label string
	Items []hitView
}

type overlapView struct {
	A, B talkRef
	When string // the time both take
}

func (s *server) agendaPage(c *gin.Context) {
	ids, err := parseIDs(c.Request.URL.Query())
	if err != nil {
		s.fail(c, err)
		return
	}
	s.answerGzip(c, "agenda "+agendaQuery(ids), typeHTML, func(ctx context.Context) ([]byte, int, error) {
		cat := s.catalogNow()
		a := cat.agenda(ids)
		rel, err := s.s.RelatedToAll(ctx, a.ids())
		if err != nil {
			return nil, 0, err
		}
		body, err := s.renderBytes("agenda", "layout", s.agendaView(cat, a, rel))
		return body, len(a.talks), err
	})
}

func (s *server) agendaView(cat *catalog, a agenda, rel []search.Related) agendaPage {
	v := agendaPage{page: s.newPage("My agenda"), Unknown: a.unknown, Count: len(a.talks), IDs: strings.Join(a.ids(), ",")}
	if len(a.talks) > 0 {
		q := agendaQuery(a.ids())
		v.ShareURL = template.URL("/agenda" + q)
		v.CalendarURL = template.URL("/agenda.ics" + q)
	}
	for _, t := range a.talks {
		item := s.itemView(cat, t)
		if t.Start == nil {
			v.Unscheduled = append(v.Unscheduled, item)
			continue
		}
		label := s.local(t, *t.Start).Format(cat.dates().dayLayout())
		if len(v.Days) == 0 || v.Days[len(v.Days)-1].Label != label {
			v.Days = append(v.Days, agendaDay{Label: label})
		}
		day := &v.Days[len(v.Days)-1]
		day.Items = append(day.Items, item)
	}
	for _, p := range a.overlaps {
		start, end := *p[0].Start, *p[0].End
		if p[1].Start.After(start) {
			start = *p[1].Start
		}
		if p[1].End.Before(end) {
			end = *p[1].End
		}
		v.Overlaps = append(v.Overlaps, overlapView{
			A: ref(p[0].ID, p[0].Title, p[0].Room), B: ref(p[1].ID, p[1].Title, p[1].Room),
			When: formatWhen(&start, &end, s.opts.Location, cat.dates()),
		})
	}
	for _, r := range rel {
		v.Related = append(v.Related, relatedView{
			URL: "/talks/" + r.ID, Title: r.Title, SharedTerms: r.SharedTerms, Conference: cat.conferenceName(r.ID),
			When: formatWhen(r.Start, r.End, s.opts.Location, cat.dates()), Room: r.Room, Clash: r.Clash,
		})
	}
	return v
}

// speakerPage is the view of GET /speakers/:slug.
type speakerPage struct {
	page
	Name         string
	Affiliations []string
	Talks        []hitView
	// AllURL is the speaker's page across conferences, from one
	// conference's page of them.
	AllURL string
}

func (s *server) speakerPage(c *gin.Context) {
	slug := c.Param("slug")
	if slug == "" || len(slug) > maxIDLen {
		s.fail(c, invalidf("speaker must be 1 to %d bytes", maxIDLen))
		return
	}
	cat, conf, err := s.scopeOf(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	e, ok := cat.speakers[slug]
	if !ok {
		s.fail(c, fmt.Errorf("%w: no speaker is called %q", search.ErrNotFound, slug))
		return
	}
	s.answerGzip(c, "speaker "+c.Param("conference")+" "+slug, typeHTML, func(ctx context.Context) ([]byte, int, error) {
		v := speakerPage{page: s.newPage(e.Name), Name: e.Name, Affiliations: e.Affiliations}
		v.inScope(cat, conf)
		if conf != nil && cat.multi() {
			// The speaker's talks at every conference are one link away.
			v.AllURL = "/speakers/" + slug
		}
		for _, t := range e.Talks {
			v.Talks = append(v.Talks, s.itemView(cat, t))
		}
		body, err := s.renderBytes("speaker", "layout", v)
		return body, len(e.Talks), err
	})
}

// speakerLinks are the speaker pages of a talk's speakers.
type speakerLink struct {
	index.Speaker
	URL string
}

func speakerLinks(sps []index.Speaker) []speakerLink {
	out := make([]speakerLink, len(sps))
	for i, sp := range sps {
		out[i] = speakerLink{Speaker: sp, URL: "/speakers/" + speakerSlug(sp.Name)}
	}
	return out
}

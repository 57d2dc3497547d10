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
	Path       string           `json:"path"`
}

func toJSON(t *index.Talk) talkJSON {
	out := talkJSON{ID: t.ID, Title: t.Title, Conference: t.Conference, Speakers: nonNil(t.Speakers),
		Room: nullableString(t.Room), Track: nullableString(t.Track), Kind: t.Kind, Path: "/talks/" + t.ID}
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

// local is tm in the talk's own zone where the data names one, else in the
// site's (Options.Location), as every other time on the pages.
func (s *server) local(t *index.Talk, tm time.Time) time.Time {
	if t.TimeZone != "" {
		if l := t.Local(tm); l.Location() != tm.Location() {
			return l
		}
	}
	return tm.In(s.opts.Location)
}

// parseAt reads the instant of now and next: at, RFC 3339, defaulting to
// the server's clock. A form's datetime-local ("2026-04-08T14:00") is read
// in the site's zone; a "+" of an offset that arrived unescaped (a space)
// is taken back.
func (s *server) parseAt(v url.Values) (time.Time, error) {
	a := strings.TrimSpace(v.Get("at"))
	if a == "" {
		return s.opts.Now(), nil
	}
	for _, cand := range []string{a, strings.ReplaceAll(a, " ", "+")} {
		if t, err := time.Parse(time.RFC3339, cand); err == nil {
			return inRange(t, a)
		}
	}
	if t, err := time.ParseInLocation("2006-01-02T15:04", a, s.opts.Location); err == nil {
		return inRange(t, a)
	}
	return time.Time{}, invalidf("at must be an RFC 3339 time such as 2026-04-08T14:00:00+02:00, not %.40q", a)
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
	at, err := s.parseAt(c.Request.URL.Query())
	if err != nil {
		s.fail(c, err)
		return
	}
	s.answerGzip(c, "api now "+atKey(at), typeJSON, func(ctx context.Context) ([]byte, int, error) {
		now, next := s.catalogNow().nowAndNext(at)
		body, err := encodeJSON(nowJSON{At: at.In(s.opts.Location), Now: toJSONs(now), Next: toJSONs(next)})
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
	AtValue string // for the form's datetime-local
	Now     []hitView
	Next    []hitView
}

func (s *server) nowPage(c *gin.Context) {
	at, err := s.parseAt(c.Request.URL.Query())
	if err != nil {
		s.fail(c, err)
		return
	}
	// Only the clock's now and next moves on: a page asked for one instant
	// (?at=) is left still, and is cached apart from the live one.
	live := c.Query("at") == ""
	key := "now " + atKey(at)
	if live {
		key = "now live " + atKey(at)
	}
	s.answerGzip(c, key, typeHTML, func(ctx context.Context) ([]byte, int, error) {
		now, next := s.catalogNow().nowAndNext(at)
		local := at.In(s.opts.Location)
		v := nowPage{page: s.newPage("Now and next"), At: local.Format("Mon 2 Jan, 15:04"), AtValue: local.Format("2006-01-02T15:04")}
		if live {
			v.RefreshSeconds = nowRefreshSeconds
		}
		for _, t := range now {
			v.Now = append(v.Now, s.itemView(t))
		}
		for _, t := range next {
			v.Next = append(v.Next, s.itemView(t))
		}
		body, err := s.renderBytes("now", "layout", v)
		return body, len(now) + len(next), err
	})
}

// itemView shows a talk in a list as a search hit is shown, unhighlighted.
func (s *server) itemView(t *index.Talk) hitView {
	return hitView{
		ID:       t.ID,
		URL:      "/talks/" + t.ID,
		Title:    template.HTML(template.HTMLEscapeString(t.Title)),
		Speakers: t.Speakers,
		When:     formatWhen(t.Start, t.End, s.opts.Location),
		Room:     t.Room,
		Track:    t.Track,
		Level:    t.Level,
		Kind:     kindLabel(t.Kind),
	}
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
	for i := range c.talks {
		if in[c.talks[i].ID] {
			a.talks = append(a.talks, &c.talks[i])
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
	Talks    []talkJSON       `json:"talks"`
	Unknown  []string         `json:"unknown"`
	Overlaps [][2]string      `json:"overlaps"`
	Related  []search.Related `json:"related"`
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
		out := agendaJSON{Talks: toJSONs(a.talks), Unknown: nonNil(a.unknown), Overlaps: [][2]string{}, Related: nonNil(rel)}
		for _, p := range a.overlaps {
			out.Overlaps = append(out.Overlaps, [2]string{p[0].ID, p[1].ID})
		}
		for i := range out.Related {
			out.Related[i].SharedTerms = nonNil(out.Related[i].SharedTerms)
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
		a := s.catalogNow().agenda(ids)
		rel, err := s.s.RelatedToAll(ctx, a.ids())
		if err != nil {
			return nil, 0, err
		}
		body, err := s.renderBytes("agenda", "layout", s.agendaView(a, rel))
		return body, len(a.talks), err
	})
}

func (s *server) agendaView(a agenda, rel []search.Related) agendaPage {
	v := agendaPage{page: s.newPage("My agenda"), Unknown: a.unknown, Count: len(a.talks), IDs: strings.Join(a.ids(), ",")}
	if len(a.talks) > 0 {
		q := agendaQuery(a.ids())
		v.ShareURL = template.URL("/agenda" + q)
		v.CalendarURL = template.URL("/agenda.ics" + q)
	}
	for _, t := range a.talks {
		item := s.itemView(t)
		if t.Start == nil {
			v.Unscheduled = append(v.Unscheduled, item)
			continue
		}
		label := s.local(t, *t.Start).Format("Monday 2 January")
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
			When: formatWhen(&start, &end, s.opts.Location),
		})
	}
	for _, r := range rel {
		v.Related = append(v.Related, relatedView{
			URL: "/talks/" + r.ID, Title: r.Title, SharedTerms: r.SharedTerms,
			When: formatWhen(r.Start, r.End, s.opts.Location), Room: r.Room, Clash: r.Clash,
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
}

func (s *server) speakerPage(c *gin.Context) {
	slug := c.Param("slug")
	if slug == "" || len(slug) > maxIDLen {
		s.fail(c, invalidf("speaker must be 1 to %d bytes", maxIDLen))
		return
	}
	e, ok := s.catalogNow().speakers[slug]
	if !ok {
		s.fail(c, fmt.Errorf("%w: no speaker is called %q", search.ErrNotFound, slug))
		return
	}
	s.answerGzip(c, "speaker "+slug, typeHTML, func(ctx context.Context) ([]byte, int, error) {
		v := speakerPage{page: s.newPage(e.Name), Name: e.Name, Affiliations: e.Affiliations}
		for _, t := range e.Talks {
			v.Talks = append(v.Talks, s.itemView(t))
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

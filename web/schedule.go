package web

import (
	"context"
	"html/template"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/talksearch/talksearch/index"
)

// allDayMin is the length from which a session (the expo, registration) is
// listed above the grid instead of filling a column all day.
const allDayMin = 3 * time.Hour

// schedulePage is the view of GET /schedule: one day as a table of rooms
// (columns) by the times sessions start or end (rows). A phone shows the
// same table as a list grouped by start time (app.css).
type schedulePage struct {
	page
	Day    string // YYYY-MM-DD
	Label  string // "Wednesday 8 April"
	Days   []dayLink
	AllDay []hitView
	Rooms  []string
	Rows   []gridRow
	// NowAt marks the current time when it falls on this day; NowTZ is
	// it in the visitor's zone, where it differs.
	NowAt, NowTZ string
	Zone         zoneSwitch
}

type dayLink struct {
	Label   string
	URL     template.URL
	Current bool
}

type gridRow struct {
	Time     string // "10:35"
	DateTime string // RFC 3339, for <time>
	// TZTime is Time in the visitor's zone, where it differs.
	TZTime string
	// Starts: some session starts at this time; rows that only end one are
	// folded away on a phone.
	Starts bool
	Now    bool
	Cells  []gridCell
}

// gridCell is one room's sessions from this row on, spanning Span rows;
// an Empty cell has none. Rows covered by a cell above have no cell.
type gridCell struct {
	Empty   bool
	Span    int
	Room    string
	Running bool
	Talks   []cellTalk
}

type cellTalk struct {
	ID        string
	URL       string
	Title     string
	When      string
	Kind      string
	Speakers  string
	Running   bool
	Cancelled bool
}

func (s *server) schedulePage(c *gin.Context) {
	v := c.Request.URL.Query()
	cat, conf, err := s.scopeOf(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	at, err := s.parseAt(cat, v)
	if err != nil {
		s.fail(c, err)
		return
	}
	visitor, err := parseTZ(v)
	if err != nil {
		s.fail(c, err)
		return
	}
	day := strings.TrimSpace(v.Get("day"))
	if day != "" {
		if _, err := time.Parse(time.DateOnly, day); err != nil {
			s.fail(c, invalidf("day must be a date YYYY-MM-DD, not %.20q", day))
			return
		}
	}
	if conf == nil {
		// Several conferences: the one of the day asked for, else the
		// edition on, next or latest.
		target := conferenceOnDay(cat.conferences, day)
		if target == nil {
			target = defaultConference(cat.conferences, at)
		}
		if s.toDefaultEdition(c, cat, "schedule", target) {
			return
		}
	}
	if day == "" {
		day = defaultDay(cat.days, at.In(s.zoneAt(cat, at)).Format(time.DateOnly))
	}
	atParam := strings.TrimSpace(v.Get("at"))
	if atParam != "" {
		// Links keep the instant asked for, as RFC 3339: a datetime-local
		// is read in the zone of its date, which another day may not share.
		atParam = at.Format(time.RFC3339)
	}
	key := "schedule " + c.Param("conference") + " " + day + " " + atKey(at) + " at " + atParam + " tz " + tzName(visitor)
	s.answerGzip(c, key, typeHTML, func(ctx context.Context) ([]byte, int, error) {
		view := s.scheduleView(cat, day, at, visitor)
		view.inScope(cat, conf)
		view.Zone.on(view.Nav.Schedule, keptParam{"day", day}, keptParam{"at", atParam})
		body, err := s.renderBytes("schedule", "layout", view)
		return body, len(view.Rows), err
	})
}

// defaultDay is today when the conference runs today, else its first day.
func defaultDay(days []string, today string) string {
	for _, d := range days {
		if d == today {
			return d
		}
	}
	if len(days) > 0 {
		return days[0]
	}
	return today
}

func (s *server) scheduleView(cat *catalog, day string, at time.Time, visitor *time.Location) schedulePage {
	label := day
	if t, err := time.Parse(time.DateOnly, day); err == nil {
		label = t.Format(cat.dates().dayLayout())
	}
	v := schedulePage{page: s.newPage("Schedule · " + label), Day: day, Label: label}
	base := "/schedule"
	if len(cat.conferences) == 1 && cat.multi() {
		base = cat.conferences[0].Base() + "/schedule"
	}
	for _, d := range cat.days {
		u := base + "?day=" + d
		if visitor != nil {
			u += "&tz=" + url.QueryEscape(tzName(visitor))
		}
		v.Days = append(v.Days, dayLink{Label: cat.dates().dayLabel(d), URL: template.URL(u), Current: d == day})
	}
	var talks []*index.Talk
	perRoom := map[string]int{}
	for _, t := range cat.talks {
		if t.Start == nil || t.End == nil || t.Day() != day {
			continue
		}
		if t.End.Sub(*t.Start) >= allDayMin {
			v.AllDay = append(v.AllDay, s.itemViewIn(cat, t, visitor))
			continue
		}
		talks = append(talks, t)
		perRoom[roomName(t)]++
	}
	if len(talks) == 0 {
		// The zone of the conference of that day, or of the one nearest.
		if d, err := time.Parse(time.DateOnly, day); err == nil {
			noon := d.Add(12 * time.Hour)
			v.Zone = newZoneSwitch(s.zoneAt(cat, noon), noon, visitor)
		}
		return v
	}
	// Rooms with the most sessions first: the main stages lead.
	for r := range perRoom {
		v.Rooms = append(v.Rooms, r)
	}
	sort.Slice(v.Rooms, func(i, j int) bool {
		if perRoom[v.Rooms[i]] != perRoom[v.Rooms[j]] {
			return perRoom[v.Rooms[i]] > perRoom[v.Rooms[j]]
		}
		return v.Rooms[i] < v.Rooms[j]
	})
	// Rows are the times anything starts or ends.
	var bounds []time.Time
	seen := map[int64]bool{}
	for _, t := range talks {
		for _, b := range []time.Time{*t.Start, *t.End} {
			if !seen[b.Unix()] {
				seen[b.Unix()] = true
				bounds = append(bounds, b)
			}
		}
	}
	sort.Slice(bounds, func(i, j int) bool { return bounds[i].Before(bounds[j]) })
	row := func(tm time.Time) int {
		return sort.Search(len(bounds), func(i int) bool { return !bounds[i].Before(tm) })
	}
	// A room's sessions that overlap share one cell (a coffee break and a
	// meetup in the same hall), spanning all of them.
	type block struct {
		from, to int
		talks    []*index.Talk
	}
	blocks := map[string][]*block{}
	for _, t := range talks {
		r := roomName(t)
		from, to := row(*t.Start), row(*t.End)
		bs := blocks[r]
		if n := len(bs); n > 0 && from < bs[n-1].to {
			bs[n-1].to = max(bs[n-1].to, to)
			bs[n-1].talks = append(bs[n-1].talks, t)
			continue
		}
		blocks[r] = append(bs, &block{from: from, to: to, talks: []*index.Talk{t}})
	}
	zone := s.local(talks[0], *talks[0].Start).Location()
	v.Zone = newZoneSwitch(zone, *talks[0].Start, visitor)
	for i := 0; i+1 < len(bounds); i++ {
		local := bounds[i].In(zone)
		gr := gridRow{Time: local.Format("15:04"), DateTime: local.Format(time.RFC3339),
			Now: !at.Before(bounds[i]) && at.Before(bounds[i+1])}
		if visitor != nil {
			if vt := local.In(visitor); vt.Format("15:04") != gr.Time || !sameDay(vt, local) {
				gr.TZTime = vt.Format("15:04")
				if !sameDay(vt, local) {
					gr.TZTime = vt.Format("Mon 15:04")
				}
			}
		}
		if gr.Now {
			v.NowAt = at.In(zone).Format("15:04")
			v.NowTZ = visitorTime(at.In(zone), visitor)
		}
		for _, r := range v.Rooms {
			var cell *gridCell
			covered := false
			for _, b := range blocks[r] {
				if b.from == i {
					cell = &gridCell{Span: b.to - b.from, Room: r}
					for _, t := range b.talks {
						st, en := s.local(t, *t.Start), s.local(t, *t.End)
						ct := cellTalk{ID: t.ID, URL: "/talks/" + t.ID, Title: t.Title, Kind: kindLabel(t.Kind),
							When: st.Format("15:04") + "–" + en.Format("15:04"), Running: running(t, at) && !t.Cancelled, Cancelled: t.Cancelled}
						if alt := visitorSlot(st, &en, visitor); alt != "" {
							ct.When += " " + st.Format("MST") + " · " + alt
						}
						names := make([]string, len(t.Speakers))
						for k, sp := range t.Speakers {
							names[k] = sp.Name
						}
						ct.Speakers = strings.Join(names, ", ")
						cell.Running = cell.Running || ct.Running
						cell.Talks = append(cell.Talks, ct)
					}
				} else if b.from < i && i < b.to {
					covered = true
				}
			}
			switch {
			case cell != nil:
				gr.Starts = true
				gr.Cells = append(gr.Cells, *cell)
			case !covered:
				gr.Cells = append(gr.Cells, gridCell{Empty: true, Span: 1, Room: r})
			}
		}
		v.Rows = append(v.Rows, gr)
	}
	return v
}

// roomName is the column of a talk; sessions without a room share one.
func roomName(t *index.Talk) string {
	if t.Room == "" {
		return "Elsewhere"
	}
	return t.Room
}

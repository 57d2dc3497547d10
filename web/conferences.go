package web

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search"
)

// A conference (one edition: FOSDEM 2025) is the unit people think in.
// Where several are loaded, /c/ID/ gives each its own search, schedule,
// now-and-next and speaker pages; the unscoped schedule and now pages send
// a visitor to the edition running, else the next, else the latest; every
// page that mixes editions names each talk's conference and year.

// conference is one conference of a catalog as its pages see it.
type conference struct {
	ID, Name string
	// Talks counts all its talks, on the schedule or not.
	Talks int
	// First and Last are the dates of its scheduled talks in its own zone
	// (YYYY-MM-DD); Start and End its first start and last end. All are
	// zero for a conference with nothing on the schedule.
	First, Last string
	Start, End  time.Time
	Loc         *time.Location
}

// scheduled says whether any talk of the conference has a slot.
func (c *conference) scheduled() bool { return !c.Start.IsZero() }

// Base is the path of the conference's pages, without the trailing slash.
func (c *conference) Base() string { return "/c/" + url.PathEscape(c.ID) }

// Dates are the conference's dates as a person writes them: "1–2 Feb
// 2025", "30 Sep – 2 Oct 2025", "" without a schedule.
func (c *conference) Dates() string {
	first, err1 := time.Parse(time.DateOnly, c.First)
	last, err2 := time.Parse(time.DateOnly, c.Last)
	switch {
	case err1 != nil || err2 != nil:
		return ""
	case c.First == c.Last:
		return first.Format("2 Jan 2006")
	case first.Year() != last.Year():
		return first.Format("2 Jan 2006") + " – " + last.Format("2 Jan 2006")
	case first.Month() != last.Month():
		return first.Format("2 Jan") + " – " + last.Format("2 Jan 2006")
	}
	return first.Format("2") + "–" + last.Format("2 Jan 2006")
}

// conferenceKey is how a talk's conference is told apart: its id, or its
// name for a source that gave none.
func conferenceKey(c index.Conference) string {
	if c.ID == "" {
		return "name:" + c.Name
	}
	return c.ID
}

// conferencesOf lists the conferences of talks in the order of their first
// start, those without a schedule last (by name); a talk that names no
// conference is of none. local reads a talk's times in its own zone
// (server.local).
func conferencesOf(talks []*index.Talk, local func(*index.Talk, time.Time) time.Time) []*conference {
	var out []*conference
	at := map[string]*conference{}
	for _, t := range talks {
		if t.Conference == (index.Conference{}) {
			continue
		}
		key := conferenceKey(t.Conference)
		c, ok := at[key]
		if !ok {
			c = &conference{ID: t.Conference.ID, Name: cmpOr(t.Conference.Name, t.Conference.ID)}
			at[key] = c
			out = append(out, c)
		}
		c.Talks++
		if t.Start == nil {
			continue
		}
		st := local(t, *t.Start)
		end := *t.Start
		if t.End != nil {
			end = *t.End
		}
		day := st.Format(time.DateOnly)
		if !c.scheduled() {
			c.First, c.Last, c.Start, c.End, c.Loc = day, day, *t.Start, end, st.Location()
			continue
		}
		c.First, c.Last = min(c.First, day), max(c.Last, day)
		if t.Start.Before(c.Start) {
			c.Start = *t.Start
		}
		if end.After(c.End) {
			c.End = end
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.scheduled() != b.scheduled() {
			return a.scheduled()
		}
		if !a.scheduled() {
			return a.Name < b.Name
		}
		return a.Start.Before(b.Start)
	})
	return out
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// newestFirst is the order the home page lists conferences in: the latest
// edition first, those without a schedule last.
func newestFirst(confs []*conference) []*conference {
	out := make([]*conference, 0, len(confs))
	for i := len(confs) - 1; i >= 0; i-- {
		if confs[i].scheduled() {
			out = append(out, confs[i])
		}
	}
	for _, c := range confs {
		if !c.scheduled() {
			out = append(out, c)
		}
	}
	return out
}

// defaultConference is the edition a page of times opens on at instant
// at: the one running (the first to start of several), else the next to
// start, else the one that ended last; nil without a scheduled conference.
func defaultConference(confs []*conference, at time.Time) *conference {
	var next, last *conference
	for _, c := range confs {
		if !c.scheduled() {
			continue
		}
		if !at.Before(c.Start) && at.Before(c.End) {
			return c
		}
		if c.Start.After(at) && (next == nil || c.Start.Before(next.Start)) {
			next = c
		}
		if last == nil || c.End.After(last.End) {
			last = c
		}
	}
	if next != nil {
		return next
	}
	return last
}

// conferenceOnDay is the conference whose dates include day (YYYY-MM-DD),
// the first to start of several; nil for none.
func conferenceOnDay(confs []*conference, day string) *conference {
	for _, c := range confs {
		if c.scheduled() && c.First <= day && day <= c.Last {
			return c
		}
	}
	return nil
}

// multi says whether the site holds more than one conference (a scope's
// catalog holds one of several): its pages then name each talk's
// conference and give dates their year.
func (c *catalog) multi() bool { return len(c.conferences) > 1 || c.siteMulti }

// dates is how the catalog's pages write dates (dates).
func (c *catalog) dates() dates { return dates(c.multi()) }

// scope is the catalog of one conference's talks, for its own pages; it
// is made once per catalog and conference.
func (c *catalog) scope(conf *conference) *catalog {
	c.scopesMu.Lock()
	defer c.scopesMu.Unlock()
	if sc, ok := c.scopes[conf.ID]; ok {
		return sc
	}
	var talks []*index.Talk
	for _, t := range c.talks {
		if t.Conference.ID == conf.ID {
			talks = append(talks, t)
		}
	}
	sc := newCatalog(c.gen, talks, c.local)
	// The scope's pages still write the year, as the site's do: a day
	// button reads "Sat 1 Feb 2025".
	sc.siteMulti = c.multi()
	if c.scopes == nil {
		c.scopes = map[string]*catalog{}
	}
	c.scopes[conf.ID] = sc
	return sc
}

// scopeOf is what a page under /c/:conference/ shows: that conference and
// its catalog; outside /c/ the whole catalog and nil. An unknown
// conference is ErrNotFound.
func (s *server) scopeOf(c *gin.Context) (*catalog, *conference, error) {
	cat := s.catalogNow()
	id := c.Param("conference")
	if id == "" {
		return cat, nil, nil
	}
	conf := cat.conference(id)
	if conf == nil {
		return nil, nil, fmt.Errorf("%w: no conference has the id %.80q", search.ErrNotFound, id)
	}
	return cat.scope(conf), conf, nil
}

// conference is the catalog's conference with id, nil for none.
func (c *catalog) conference(id string) *conference {
	if id == "" || len(id) > maxIDLen {
		return nil
	}
	for _, conf := range c.conferences {
		if conf.ID == id {
			return conf
		}
	}
	return nil
}

// toConferencePage sends /c/ID to /c/ID/, the conference's page.
func (s *server) toConferencePage(c *gin.Context) {
	if _, _, err := s.scopeOf(c); err != nil {
		s.fail(c, err)
		return
	}
	target := "/c/" + url.PathEscape(c.Param("conference")) + "/"
	if q := c.Request.URL.RawQuery; q != "" {
		target += "?" + q
	}
	c.Redirect(301, target)
}

// toDefaultEdition sends a visitor of an unscoped page of times (/now,
// /schedule) to the same page of the edition that page would open on,
// keeping the query: true when it did. With one conference loaded, the
// unscoped page is that conference's and nothing moves.
func (s *server) toDefaultEdition(c *gin.Context, cat *catalog, page string, conf *conference) bool {
	if !cat.multi() || conf == nil || conf.ID == "" {
		return false
	}
	target := conf.Base() + "/" + page
	if q := c.Request.URL.RawQuery; q != "" {
		target += "?" + q
	}
	// 302: which edition is the default changes with the clock.
	c.Redirect(302, target)
	return true
}

// conferenceRow is a conference as the home page lists it.
type conferenceRow struct {
	Name, Dates, URL string
	Talks            int
}

// conferenceRows lists the catalog's conferences for the home page,
// newest first; nil with one conference.
func (c *catalog) conferenceRows() []conferenceRow {
	if len(c.conferences) < 2 {
		return nil
	}
	var rows []conferenceRow
	for _, conf := range newestFirst(c.conferences) {
		if conf.ID == "" {
			continue
		}
		rows = append(rows, conferenceRow{Name: conf.Name, Dates: conf.Dates(), URL: conf.Base() + "/", Talks: conf.Talks})
	}
	return rows
}

// scopeView is what the layout says of a page's conference: its name and
// dates, and the site's navigation within it.
type scopeView struct {
	Name, Dates, Base string
	Talks             int
}

// navLinks are the header's links: the whole site's, or within one
// conference's pages when several are loaded.
type navLinks struct {
	Search, Now, Schedule string
}

var siteNav = navLinks{Search: "/", Now: "/now", Schedule: "/schedule"}

// inScope makes p a page of conf where the site holds several
// conferences: the header names it and its links stay within it.
func (p *page) inScope(cat *catalog, conf *conference) {
	if conf == nil || conf.ID == "" || !cat.multi() {
		return
	}
	p.Scope = &scopeView{Name: conf.Name, Dates: conf.Dates(), Base: conf.Base(), Talks: conf.Talks}
	p.Nav = navLinks{Search: conf.Base() + "/", Now: conf.Base() + "/now", Schedule: conf.Base() + "/schedule"}
	if !strings.Contains(p.Title, conf.Name) {
		p.Title += " · " + conf.Name
	}
}

// conferenceName is the name of talk id's conference where the catalog
// lists talks of several, "" elsewhere (and for an unknown id).
func (c *catalog) conferenceName(id string) string {
	if len(c.conferences) < 2 {
		return ""
	}
	if t, ok := c.byID[id]; ok {
		return cmpOr(t.Conference.Name, t.Conference.ID)
	}
	return ""
}

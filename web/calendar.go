package web

import (
	"context"
	"fmt"
	"mime"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	ics "github.com/arran4/golang-ical"
	"github.com/gin-gonic/gin"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search"
)

// Calendar files (RFC 5545), written by golang-ical. Times are in UTC (a
// "Z" suffix), which every calendar shows in its reader's zone, so no
// VTIMEZONE is needed; X-WR-TIMEZONE names the conference's zone where the
// data gives it, for the readers that show the event's own time. A talk's
// UID is its id "@talksearch": the same talk is the same event in
// every file and across re-indexing, so importing twice updates instead of
// duplicating, whatever host the file was fetched from.

const typeCalendar = "text/calendar; charset=utf-8"

// defaultMaxCalendarTalks bounds /search.ics (Options.MaxCalendarTalks): a
// search that finds more talks on the schedule (a browse of a whole
// archive) is refused with a message saying so, never cut.
const defaultMaxCalendarTalks = 500

// maxAlarmMinutes bounds a reminder (alarm=): a day before the talk.
const maxAlarmMinutes = 24 * 60

// calendarFile says what a calendar file is: its name, its description
// (how many talks it holds), and the reminder before each talk, in
// minutes (0: none).
type calendarFile struct {
	name, desc string
	alarm      int
}

// calendarStamp is DTSTAMP: when the file was made. Answers are kept per
// generation, so one generation's files share it.
func (s *server) calendarStamp() time.Time { return s.opts.Now().UTC().Truncate(time.Second) }

// writeCalendar is the calendar of talks (those not on the schedule are
// left out: an event needs a time), with their texts (withTexts). base is the site's URL for talks that
// have no page at their source.
func (s *server) writeCalendar(f calendarFile, talks []*index.Talk, base string) []byte {
	cal := ics.NewCalendarFor("talksearch")
	cal.SetMethod(ics.MethodPublish)
	cal.SetXWRCalName(calendarText(f.name))
	if f.desc != "" {
		cal.SetXWRCalDesc(calendarText(f.desc))
	}
	zones := map[string]bool{}
	stamp := s.calendarStamp()
	for _, t := range talks {
		if t.Start == nil {
			continue
		}
		if t.TimeZone != "" {
			zones[t.TimeZone] = true
		}
		e := cal.AddEvent(t.ID + "@talksearch")
		e.SetDtStampTime(stamp)
		e.SetStartAt(*t.Start)
		if t.End != nil {
			e.SetEndAt(*t.End)
		}
		e.SetSummary(calendarText(t.Title))
		if loc := calendarText(eventLocation(t)); loc != "" {
			e.SetLocation(loc)
		}
		e.SetDescription(calendarText(eventDescription(t)))
		link, ok := webURL(t.URL)
		if !ok {
			link = base + "/talks/" + url.PathEscape(t.ID)
		}
		e.SetURL(link)
		if track := calendarText(t.Track); track != "" {
			e.AddCategory(track)
		}
		if f.alarm > 0 {
			a := e.AddAlarm()
			a.SetAction(ics.ActionDisplay)
			a.SetTrigger(fmt.Sprintf("-PT%dM", f.alarm))
			a.SetProperty(ics.ComponentPropertyDescription, calendarText(t.Title))
		}
		if t.Cancelled {
			e.SetStatus(ics.ObjectStatusCancelled)
		}
		addAttachments(e, t.Links)
	}
	if len(zones) == 1 {
		for z := range zones {
			cal.SetXWRTimezone(z)
		}
	}
	// RFC 5545 ends lines with CRLF; the library's default is LF.
	return []byte(cal.Serialize(ics.WithNewLineWindows))
}

// addAttachments adds the talk's recordings and slides as ATTACH
// properties: web addresses only (webURL), with their media type where
// the data states a plain one (a parameter value from data could end the
// parameter otherwise).
func addAttachments(e *ics.VEvent, links []index.Link) {
	for _, l := range links {
		if l.Kind != index.LinkRecording && l.Kind != index.LinkSlides {
			continue
		}
		u, ok := webURL(l.URL)
		if !ok {
			continue
		}
		var params []ics.PropertyParameter
		if mt, ps, err := mime.ParseMediaType(l.MIMEType); err == nil && len(ps) == 0 && mt == l.MIMEType {
			params = append(params, ics.WithFmtType(mt))
		}
		e.AddAttachment(u, params...)
	}
}

// calendarText is text from a data set as a calendar may carry it. The
// library escapes line breaks, commas and semicolons of TEXT values, but
// a bare CR, a NUL or an escape would reach the file as they are, and a
// bidirectional override would reorder what the reader's calendar shows:
// line breaks become "\n", other control characters and overrides go.
func calendarText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r == '\r':
			return '\n'
		case unicode.IsControl(r), r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069', r == utf8.RuneError:
			return -1
		}
		return r
	}, s)
}

// webURL returns u when it is an absolute http or https URL with no
// control character or space: the only links a calendar file written
// from data carries (a URI value is written as it is, so a line break in
// it would start a property or an event of the data's choosing, and a
// javascript: or data: link would run in some readers).
func webURL(u string) (string, bool) {
	if u == "" || strings.IndexFunc(u, func(r rune) bool { return unicode.IsControl(r) || unicode.IsSpace(r) }) >= 0 {
		return "", false
	}
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return "", false
	}
	return u, true
}

func eventLocation(t *index.Talk) string {
	parts := []string{}
	for _, p := range []string{t.Room, t.Conference.Name} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ", ")
}

// eventDescription is the speakers, then the abstract.
func eventDescription(t *index.Talk) string {
	var b strings.Builder
	for i, sp := range t.Speakers {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(sp.Name)
		if sp.Affiliation != "" {
			b.WriteString(" (" + sp.Affiliation + ")")
		}
	}
	text := t.Abstract
	if text == "" {
		text = t.Description // a talk whose only text it is
	}
	if text != "" {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(text)
	}
	return b.String()
}

// siteBase is the site's URL as the client reached it, for the links in
// calendar files, which are read outside the site.
func siteBase(c *gin.Context) string {
	scheme := "http"
	if c.Request.TLS != nil || c.GetHeader("X-Forwarded-Proto") == "https" {
		scheme = "https"
	}
	host := c.Request.Host
	if host == "" || strings.ContainsAny(host, " /\\") {
		host = "localhost"
	}
	return scheme + "://" + host
}

// answerCalendar writes a calendar made by build, kept like any answer;
// its key names the site's URL too, which the file's links carry.
func (s *server) answerCalendar(c *gin.Context, key, filename string, build func(ctx context.Context, base string) ([]byte, int, error)) {
	base := siteBase(c)
	c.Header("Content-Disposition", fmt.Sprintf("inline; filename=%q", filename))
	s.answerGzip(c, key+" "+base, typeCalendar, func(ctx context.Context) ([]byte, int, error) {
		return build(ctx, base)
	})
}

// parseAlarm reads alarm, a reminder this many minutes before each talk of
// a calendar (0 or absent: none).
func parseAlarm(v url.Values) (int, error) {
	a := strings.TrimSpace(v.Get("alarm"))
	if a == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(a)
	if err != nil || n < 0 || n > maxAlarmMinutes {
		return 0, invalidf("alarm must be a number of minutes from 0 to %d, not %.20q", maxAlarmMinutes, a)
	}
	return n, nil
}

// talkCalendar answers /talks/ID.ics[?alarm=N].
func (s *server) talkCalendar(c *gin.Context, id string) {
	t, ok := s.catalogNow().byID[id]
	if !ok {
		s.fail(c, fmt.Errorf("%w: no talk has the id %q", search.ErrNotFound, id))
		return
	}
	if t.Start == nil {
		s.fail(c, fmt.Errorf("%w: the talk %q is not on the schedule, so it has no calendar entry", search.ErrNotFound, id))
		return
	}
	alarm, err := parseAlarm(c.Request.URL.Query())
	if err != nil {
		s.fail(c, err)
		return
	}
	s.answerCalendar(c, "ics talk "+id+" alarm "+strconv.Itoa(alarm), id+".ics", func(ctx context.Context, base string) ([]byte, int, error) {
		return s.writeCalendar(calendarFile{name: t.Title, alarm: alarm}, s.withTexts([]*index.Talk{t}), base), 1, nil
	})
}

// agendaCalendar answers /agenda.ics?ids=…[&alarm=N]; unknown ids are
// left out (the agenda page reports them).
func (s *server) agendaCalendar(c *gin.Context) {
	q := c.Request.URL.Query()
	ids, err := parseIDs(q)
	if err != nil {
		s.fail(c, err)
		return
	}
	alarm, err := parseAlarm(q)
	if err != nil {
		s.fail(c, err)
		return
	}
	key := "ics agenda " + agendaQuery(ids) + " alarm " + strconv.Itoa(alarm)
	s.answerCalendar(c, key, "agenda.ics", func(ctx context.Context, base string) ([]byte, int, error) {
		a := s.catalogNow().agenda(ids)
		f := calendarFile{name: "My agenda", desc: calendarCount(a.talks, len(a.talks)), alarm: alarm}
		return s.writeCalendar(f, s.withTexts(a.talks), base), len(a.talks), nil
	})
}

// calendarCount says how many of the talks found a calendar holds: those
// on the schedule.
func calendarCount(talks []*index.Talk, found int) string {
	n := 0
	for _, t := range talks {
		if t.Start != nil {
			n++
		}
	}
	out := fmt.Sprintf("%d of %d talks", n, found)
	if n < found {
		out += fmt.Sprintf(" (%d not on the schedule have no time)", found-n)
	}
	return out
}

// searchCalendar answers /search.ics?<a search>: every talk the search
// finds on the schedule (not only one page, which come MaxLimit at a
// time), in the search's order. A search that finds more than
// Options.MaxCalendarTalks of them is refused: a calendar cut at some talk
// would look whole.
func (s *server) searchCalendar(c *gin.Context) {
	req, _, err := s.parseSearch(c.Request.URL.Query(), false)
	if err != nil {
		s.fail(c, err)
		return
	}
	req.Limit, req.Offset = search.MaxLimit, 0
	s.answerCalendar(c, "ics "+searchKey(req, 0), "search.ics", func(ctx context.Context, base string) ([]byte, int, error) {
		cat := s.catalogNow()
		// One hit tells how many talks the search finds and how many are
		// on the schedule; the pages then read those only.
		first := req
		first.Limit = 1
		res, err := s.s.Search(ctx, first)
		if err != nil {
			return nil, 0, err
		}
		found := res.Total
		if n, most := scheduledOf(req, res), s.opts.MaxCalendarTalks; n > uint64(most) {
			return nil, 0, invalidf("this search finds %d talks on the schedule; a calendar holds at most %d: narrow it (a conference, a day, a track)", n, most)
		}
		req.Scheduled = true
		var talks []*index.Talk
		seen := map[string]bool{}
		for {
			res, err := s.s.Search(ctx, req)
			if err != nil {
				return nil, 0, err
			}
			for _, h := range res.Hits {
				// A re-index between two pages may repeat a talk.
				if t, ok := cat.byID[h.ID]; ok && !seen[h.ID] {
					seen[h.ID] = true
					talks = append(talks, t)
				}
			}
			req.Offset += len(res.Hits)
			if len(res.Hits) == 0 || uint64(req.Offset) >= res.Total || len(talks) >= s.opts.MaxCalendarTalks {
				break
			}
		}
		f := calendarFile{name: "Talks", desc: calendarCount(talks, int(found))}
		if req.Query != "" {
			f.name = "Talks for " + req.Query
		}
		return s.writeCalendar(f, s.withTexts(talks), base), len(talks), nil
	})
}

// scheduledOf is how many talks of a result are on the schedule: those
// with a day. The day facet's count of talks without one ignores the
// search's own day filter, which keeps scheduled talks only, as the
// schedule filters do.
func scheduledOf(r search.Request, res *search.Result) uint64 {
	missing := uint64(res.Facets.Missing["day"])
	if len(r.Days) > 0 || r.Scheduled || r.After != "" || r.Before != "" || missing > res.Total {
		return res.Total
	}
	return res.Total - missing
}

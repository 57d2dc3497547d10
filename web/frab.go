package web

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/binary"
	"encoding/xml"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/gin-gonic/gin"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search"
)

// A conference's schedule in frab's XML (the pentabarf form), which
// Giggity, ConfClerk and EventFahrplan load: /c/ID/schedule.xml. The writer
// lives in web, beside the calendars, because it shows talks the way the
// pages do (times in each conference's zone, s.local) and serves only this
// route; it reads index.Talk and nothing of the search.
//
// Every element follows the frab schema: a conference, then one day per
// date with talks (in the conference's zone), rooms in the order they first
// appear in the conference, events in start order. Text is written by
// encoding/xml, which escapes it, after xmlText has removed what XML 1.0
// cannot carry, so no data can break the file or add elements to it.

const typeXML = "application/xml; charset=utf-8"

type frabSchedule struct {
	XMLName    xml.Name       `xml:"schedule"`
	Conference frabConference `xml:"conference"`
	Days       []frabDay      `xml:"day"`
}

type frabConference struct {
	Title   string `xml:"title"`
	Acronym string `xml:"acronym"`
	Start   string `xml:"start"`
	End     string `xml:"end"`
	Days    int    `xml:"days"`
}

type frabDay struct {
	Index int        `xml:"index,attr"`
	Date  string     `xml:"date,attr"`
	Start string     `xml:"start,attr"`
	End   string     `xml:"end,attr"`
	Rooms []frabRoom `xml:"room"`
}

type frabRoom struct {
	Name   string      `xml:"name,attr"`
	Events []frabEvent `xml:"event"`
}

type frabEvent struct {
	ID          uint32       `xml:"id,attr"`
	GUID        string       `xml:"guid,attr"`
	Date        string       `xml:"date"`
	Start       string       `xml:"start"`
	Duration    string       `xml:"duration"`
	Room        string       `xml:"room"`
	Slug        string       `xml:"slug"`
	Title       string       `xml:"title"`
	Subtitle    string       `xml:"subtitle"`
	Track       string       `xml:"track"`
	Type        string       `xml:"type"`
	Language    string       `xml:"language"`
	Abstract    string       `xml:"abstract"`
	Description string       `xml:"description"`
	Persons     []frabPerson `xml:"persons>person"`
	Links       []frabLink   `xml:"links>link"`
}

type frabPerson struct {
	ID   string `xml:"id,attr,omitempty"`
	Name string `xml:",chardata"`
}

type frabLink struct {
	Href string `xml:"href,attr"`
	Text string `xml:",chardata"`
}

// xmlText is text from a data set as an XML 1.0 file may carry it: control
// characters but tab and line breaks go (XML 1.0 forbids U+0000–U+0008,
// U+000B, U+000C, U+000E–U+001F, U+FFFE and U+FFFF; C1 controls are
// allowed but no reader shows them), invalid UTF-8 goes, and CR LF or a
// lone CR becomes LF, as a parser would read it.
func xmlText(s string) string {
	s = strings.ToValidUTF8(s, "")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r == '\r':
			return '\n'
		case unicode.IsControl(r), r == '\uFFFE', r == '\uFFFF':
			return -1
		}
		return r
	}, s)
}

// frabID is the event id frab readers key talks by: they want a positive
// integer, so it is the first 31 bits of the SHA-1 of the talk id (stable
// across builds, as the talk id is). Readers keep bookmarks and reminders
// by it, hence no sequence number, which would shift when talks are added.
func frabID(talkID string) uint32 {
	sum := sha1.Sum([]byte(talkID))
	id := binary.BigEndian.Uint32(sum[:4]) & 0x7fffffff
	if id == 0 {
		id = 1
	}
	return id
}

// frabIDs gives every talk its id, unique within the file: on a collision
// of hashes the talk whose id sorts later takes the next free number.
func frabIDs(talks []*index.Talk) map[string]uint32 {
	ids := make([]string, 0, len(talks))
	for _, t := range talks {
		ids = append(ids, t.ID)
	}
	sort.Strings(ids)
	taken := make(map[uint32]bool, len(ids))
	out := make(map[string]uint32, len(ids))
	for _, id := range ids {
		n := frabID(id)
		for taken[n] {
			n = n%0x7fffffff + 1
		}
		taken[n] = true
		out[id] = n
	}
	return out
}

// frabNamespace is the namespace of the events' GUIDs (a name-based UUID,
// RFC 9562 version 5, of the talk id): the same talk has the same GUID in
// every file and on every host.
var frabNamespace = [16]byte{0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8}

func frabGUID(talkID string) string {
	h := sha1.New()
	h.Write(frabNamespace[:])
	h.Write([]byte("talksearch:talk:" + talkID))
	u := h.Sum(nil)[:16]
	u[6] = u[6]&0x0f | 0x50
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// frabDuration is d as frab's HH:MM; the schema allows two digits of hours.
func frabDuration(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	m := int(d / time.Minute)
	if m > 99*60+59 {
		m = 99*60 + 59
	}
	return fmt.Sprintf("%02d:%02d", m/60, m%60)
}

// writeFrab is the frab schedule of one conference's talks; talks not on
// the schedule are left out. local puts a time in the talk's zone; base is
// the site's URL, for the link to each talk's page here.
func writeFrab(conf index.Conference, talks []*index.Talk, local func(*index.Talk, time.Time) time.Time, base string) ([]byte, error) {
	var scheduled []*index.Talk
	for _, t := range talks {
		if t.Start != nil {
			scheduled = append(scheduled, t)
		}
	}
	sort.SliceStable(scheduled, func(i, j int) bool { return scheduled[i].Start.Before(*scheduled[j].Start) })
	ids := frabIDs(scheduled)

	roomOrder := map[string]int{}
	dayAt := map[string]int{}
	var days []frabDay
	var dayRooms []map[string]int // per day: room name → index in Rooms
	var dayStart, dayEnd []time.Time
	for _, t := range scheduled {
		start := local(t, *t.Start)
		end := start
		if t.End != nil && t.End.After(*t.Start) {
			end = local(t, *t.End)
		}
		date := start.Format(time.DateOnly)
		d, ok := dayAt[date]
		if !ok {
			d = len(days)
			dayAt[date] = d
			days = append(days, frabDay{Date: date})
			dayRooms = append(dayRooms, map[string]int{})
			dayStart = append(dayStart, start)
			dayEnd = append(dayEnd, end)
		}
		if end.After(dayEnd[d]) {
			dayEnd[d] = end
		}
		room := xmlText(t.Room)
		if _, ok := roomOrder[room]; !ok {
			roomOrder[room] = len(roomOrder)
		}
		r, ok := dayRooms[d][room]
		if !ok {
			r = len(days[d].Rooms)
			dayRooms[d][room] = r
			days[d].Rooms = append(days[d].Rooms, frabRoom{Name: room})
		}
		days[d].Rooms[r].Events = append(days[d].Rooms[r].Events, frabEvent{
			ID:          ids[t.ID],
			GUID:        frabGUID(t.ID),
			Date:        start.Format(time.RFC3339),
			Start:       start.Format("15:04"),
			Duration:    frabDuration(end.Sub(start)),
			Room:        room,
			Slug:        xmlText(t.ID),
			Title:       xmlText(frabTitle(t)),
			Track:       xmlText(t.Track),
			Type:        string(t.Kind),
			Language:    xmlText(t.Language),
			Abstract:    xmlText(t.Abstract),
			Description: xmlText(t.Description),
			Persons:     frabPersons(t.Speakers),
			Links:       frabLinks(t, base),
		})
	}
	// Days by date (schedule order is by instant, and conferences do not
	// straddle zones, so this only guards), rooms in the conference's order.
	sort.SliceStable(days, func(i, j int) bool { return days[i].Date < days[j].Date })
	for i := range days {
		d := &days[i]
		k := dayAt[d.Date]
		d.Index = i + 1
		d.Start, d.End = dayStart[k].Format(time.RFC3339), dayEnd[k].Format(time.RFC3339)
		sort.SliceStable(d.Rooms, func(a, b int) bool { return roomOrder[d.Rooms[a].Name] < roomOrder[d.Rooms[b].Name] })
	}

	doc := frabSchedule{Conference: frabConference{
		Title:   xmlText(conf.Name),
		Acronym: xmlText(conf.ID),
		Days:    len(days),
	}}
	if doc.Conference.Title == "" {
		doc.Conference.Title = doc.Conference.Acronym
	}
	if len(days) > 0 {
		doc.Conference.Start, doc.Conference.End = days[0].Date, days[len(days)-1].Date
	}
	doc.Days = days

	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// frabTitle is the talk's title as the apps show it: the schema has no
// state, so a cancelled talk's title says so, as FOSDEM's own do.
func frabTitle(t *index.Talk) string {
	if t.Cancelled {
		return "CANCELLED: " + t.Title
	}
	return t.Title
}

func frabPersons(sp []index.Speaker) []frabPerson {
	var out []frabPerson
	for _, s := range sp {
		p := frabPerson{Name: xmlText(s.Name)}
		// The schema's person id is a positive integer: frab's own ids
		// are kept, pretalx codes are not numbers and are left out.
		if n, err := strconv.ParseUint(s.SourceID, 10, 63); err == nil && n > 0 {
			p.ID = strconv.FormatUint(n, 10)
		}
		out = append(out, p)
	}
	return out
}

// frabLinks are the talk's page at its source, when it is a web link, its
// page here, and its recordings, slides and links that are web links.
func frabLinks(t *index.Talk, base string) []frabLink {
	var out []frabLink
	if u, ok := webURL(t.URL); ok {
		out = append(out, frabLink{Href: xmlText(u), Text: "Talk page"})
	}
	out = append(out, frabLink{Href: base + "/talks/" + url.PathEscape(t.ID), Text: "talksearch"})
	// The schema has no attachments: recordings and slides are links too.
	for _, l := range t.Links {
		if u, ok := webURL(l.URL); ok {
			text := l.Title
			if text == "" {
				text = linkKindLabels[l.Kind]
			}
			out = append(out, frabLink{Href: xmlText(u), Text: xmlText(text)})
		}
	}
	return out
}

// scheduleXML answers /c/ID/schedule.xml: the frab schedule of the
// conference with that id. An unknown conference, or one with no talk on
// the schedule (the schema wants at least one day), is a 404.
func (s *server) scheduleXML(c *gin.Context) {
	id := c.Param("conference")
	cat := s.catalogNow()
	var talks []*index.Talk
	var conf index.Conference
	scheduled := 0
	for _, t := range cat.talks {
		if t.Conference.ID != id {
			continue
		}
		if conf.ID == "" {
			conf = t.Conference
		}
		talks = append(talks, t)
		if t.Start != nil {
			scheduled++
		}
	}
	if len(talks) == 0 {
		s.fail(c, fmt.Errorf("%w: no conference has the id %q", search.ErrNotFound, id))
		return
	}
	if scheduled == 0 {
		s.fail(c, fmt.Errorf("%w: no talk of the conference %q is on the schedule", search.ErrNotFound, id))
		return
	}
	base := siteBase(c)
	c.Header("Content-Disposition", fmt.Sprintf("inline; filename=%q", id+".xml"))
	s.answerGzip(c, "frab "+id+" "+base, typeXML, func(ctx context.Context) ([]byte, int, error) {
		b, err := writeFrab(conf, s.withTexts(talks), s.local, base)
		return b, scheduled, err
	})
}

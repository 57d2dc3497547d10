package web

import (
	"html"
	"html/template"
	"strings"
	"time"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/search/highlight"
)

// safeHighlight turns an engine fragment (escaped text with <mark> around
// matched words) into HTML that can contain nothing but text and <mark>.
// It does not trust the engine: every stretch between marks is unescaped
// and escaped again, so a raw "<script>" or a stray tag becomes text, and
// marks are kept only when they pair up: an opening mark is kept only when
// a closing one follows, so the result never ends inside a mark.
func safeHighlight(fragment string) template.HTML {
	if canonicalHighlight(fragment) {
		return template.HTML(fragment)
	}
	return rebuildHighlight(fragment)
}

// canonicalHighlight reports whether rebuildHighlight would return the
// fragment unchanged: its marks pair up, and its text has no raw special
// character and no entity but the five HTMLEscapeString writes. The
// engine's fragments always are, so the common case is one scan without
// an allocation, where rebuilding cost a tenth of a cached API search.
func canonicalHighlight(f string) bool {
	open := false
	for i := 0; i < len(f); {
		// Plain text is most of a fragment: skip to its next special byte.
		j := strings.IndexAny(f[i:], "<>\"'&\x00")
		if j < 0 {
			break
		}
		i += j
		switch rest := f[i:]; f[i] {
		case '<':
			switch {
			case !open && strings.HasPrefix(rest, highlight.MarkOpen) && strings.Contains(rest[len(highlight.MarkOpen):], highlight.MarkClose):
				open, i = true, i+len(highlight.MarkOpen)
			case open && strings.HasPrefix(rest, highlight.MarkClose):
				open, i = false, i+len(highlight.MarkClose)
			default:
				return false
			}
		case '>', '"', '\'', 0:
			return false
		case '&':
			n := canonicalEntityLen(rest)
			if n == 0 {
				return false
			}
			i += n
		}
	}
	return !open
}

// canonicalEntityLen is the length of the entity s starts with if it is
// one HTMLEscapeString writes, else 0.
func canonicalEntityLen(s string) int {
	for _, e := range [...]string{"&lt;", "&gt;", "&amp;", "&#34;", "&#39;"} {
		if strings.HasPrefix(s, e) {
			return len(e)
		}
	}
	return 0
}

// rebuildHighlight is safeHighlight the slow way, for fragments that are
// not canonical.
func rebuildHighlight(fragment string) template.HTML {
	var b strings.Builder
	open := false
	for fragment != "" {
		i := strings.Index(fragment, "<")
		if i < 0 {
			b.WriteString(reescape(fragment))
			break
		}
		b.WriteString(reescape(fragment[:i]))
		rest := fragment[i:]
		switch {
		case !open && strings.HasPrefix(rest, highlight.MarkOpen) && strings.Contains(rest[len(highlight.MarkOpen):], highlight.MarkClose):
			b.WriteString(highlight.MarkOpen)
			open = true
			fragment = rest[len(highlight.MarkOpen):]
		case open && strings.HasPrefix(rest, highlight.MarkClose):
			b.WriteString(highlight.MarkClose)
			open = false
			fragment = rest[len(highlight.MarkClose):]
		default:
			b.WriteString("&lt;")
			fragment = rest[1:]
		}
	}
	return template.HTML(b.String())
}

// reescape normalises text that should already be escaped: "&lt;" stays
// "&lt;", a raw "<" or quote becomes an entity.
func reescape(s string) string {
	return template.HTMLEscapeString(html.UnescapeString(s))
}

// hasMark says whether a fragment highlights anything; the engine returns
// fragments for fields where nothing matched.
func hasMark(fragment string) bool {
	return strings.Contains(fragment, highlight.MarkOpen)
}

// dates says whether a page's dates carry their year: they do wherever
// talks of more than one conference are loaded, so that a slot of 2014
// never reads like one of 2025; one conference's pages read as its
// programme does, without it.
type dates bool

const (
	noYear   dates = false
	withYear dates = true
)

// layout is the date-and-time layout of a slot's start.
func (d dates) layout() string {
	if d {
		return "Mon 2 Jan 2006, 15:04"
	}
	return "Mon 2 Jan, 15:04"
}

// dayLayout is the layout of a day's heading: "Monday 2 January", with
// the year when d says so.
func (d dates) dayLayout() string {
	if d {
		return "Monday 2 January 2006"
	}
	return "Monday 2 January"
}

// formatWhen shows a time slot in its conference's zone: "Wed 8 Apr,
// 10:35–10:45", or "Sat 1 Feb 2025, 10:30–10:55" withYear. It is empty for
// a talk that is not on the schedule.
func formatWhen(start, end *time.Time, loc *time.Location, d dates) string {
	if start == nil {
		return ""
	}
	s := shownIn(*start, loc)
	out := s.Format(d.layout())
	if end == nil {
		return out
	}
	e := shownIn(*end, loc)
	if sameDay(e, s) {
		return out + "–" + e.Format("15:04")
	}
	return out + " – " + e.Format(d.layout())
}

// shownIn is t in the zone a page shows it in: its own, which ingestion
// gives every time (the conference's zone, so a FOSDEM talk reads in
// Brussels time and a PyTorch one in Paris time), or loc, the site's
// (--time-zone), for a time in UTC, which names no conference zone; with
// no site zone, UTC it stays.
func shownIn(t time.Time, loc *time.Location) time.Time {
	if t.Location() == time.UTC && loc != nil {
		return t.In(loc)
	}
	return t
}

// formatWhenFor is formatWhen with the slot also in the visitor's zone
// where it reads differently there: "Sat 1 Feb, 10:00–10:50 CET · 04:00–
// 04:50 EST in New York". Without a visitor's zone, or where both read
// alike, it is formatWhen.
func formatWhenFor(start, end *time.Time, loc, visitor *time.Location, d dates) string {
	out := formatWhen(start, end, loc, d)
	if start == nil || visitor == nil {
		return out
	}
	s := shownIn(*start, loc)
	var e *time.Time
	if end != nil {
		x := shownIn(*end, loc)
		e = &x
	}
	alt := visitorSlot(s, e, visitor)
	if alt == "" {
		return out
	}
	return out + " " + s.Format("MST") + " · " + alt
}

// visitorTime is an instant in the visitor's zone, "04:00 EST in New
// York" (with the date where it is another day there), or "" where it
// reads as it does in the zone t carries.
func visitorTime(t time.Time, visitor *time.Location) string {
	return visitorSlot(t, nil, visitor)
}

// visitorSlot is visitorTime for a slot from start to end (nil: an
// instant).
func visitorSlot(start time.Time, end *time.Time, visitor *time.Location) string {
	if visitor == nil {
		return ""
	}
	const wall = "2006-01-02 15:04"
	vs := start.In(visitor)
	if vs.Format(wall) == start.Format(wall) && (end == nil || end.In(visitor).Format(wall) == end.Format(wall)) {
		return ""
	}
	out := vs.Format("15:04")
	if !sameDay(vs, start) {
		out = vs.Format("Mon 2 Jan, 15:04")
	}
	if end != nil {
		if ve := end.In(visitor); sameDay(ve, vs) {
			out += "–" + ve.Format("15:04")
		} else {
			out += " – " + ve.Format("Mon 2 Jan, 15:04")
		}
	}
	abbr := vs.Format("MST")
	out += " " + abbr
	if p := place(visitor); p != abbr {
		out += " in " + p
	}
	return out
}

// sameDay says whether two times have the same date, each in its zone.
func sameDay(a, b time.Time) bool {
	return a.YearDay() == b.YearDay() && a.Year() == b.Year()
}

// place names a zone as a person would: the city of an IANA name
// ("America/New_York": "New York").
func place(loc *time.Location) string {
	name := loc.String()
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return strings.ReplaceAll(name, "_", " ")
}

// zoneName is the abbreviation of the zone a slot is shown in ("CEST").
func zoneName(start *time.Time, loc *time.Location) string {
	if start == nil {
		return ""
	}
	return shownIn(*start, loc).Format("MST")
}

// kindLabel names the sessions that are not plain talks; a plain talk gets
// no label.
func kindLabel(k index.Kind) string {
	switch k {
	case index.KindKeynote:
		return "Keynote"
	case index.KindLightning:
		return "Lightning talk"
	case index.KindWorkshop:
		return "Workshop"
	case index.KindPanel:
		return "Panel"
	case index.KindBOF:
		return "Birds of a feather"
	case index.KindMeet:
		return "Meet the developers"
	case index.KindPoster:
		return "Poster"
	case index.KindSponsor:
		return "Sponsored"
	case index.KindBreak:
		return "Break"
	default:
		return ""
	}
}

// paragraphs splits an abstract into paragraphs ("\n\n") of lines ("\n").
func paragraphs(abstract string) [][]string {
	var out [][]string
	for _, p := range strings.Split(strings.ReplaceAll(abstract, "\r\n", "\n"), "\n\n") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		out = append(out, strings.Split(p, "\n"))
	}
	return out
}

// ogDescription is a talk's link preview: who, when, and the abstract's
// start, as short as previews show.
func ogDescription(t *search.TalkDetail) string {
	var parts []string
	for _, sp := range t.Speakers {
		parts = append(parts, sp.Name)
	}
	out := strings.Join(parts, ", ")
	ps := paragraphs(t.Abstract)
	if len(ps) == 0 {
		ps = paragraphs(t.Description) // a talk whose only text it is
	}
	if len(ps) > 0 {
		text := strings.Join(ps[0], " ")
		if r := []rune(text); len(r) > 200 {
			text = strings.TrimSpace(string(r[:200])) + "…"
		}
		if out != "" {
			out += " · "
		}
		out += text
	}
	return out
}

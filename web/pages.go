package web

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search"
)

// HeaderFragment asks GET / for only the live part of the search page
// (facets, chips, results, pagination): what the script swaps in.
const HeaderFragment = "X-Talksearch-Fragment"

type errorPage struct {
	page
	Status  int
	Message string
}

// searchPage is the view of GET /.
type searchPage struct {
	page
	Req     search.Request
	Sort    string // the effective sort: relevance or time
	PageNum int
	Summary string // "12 talks for “monarch”", the results' heading
	Total   uint64
	From    int // 1-based range of the hits shown
	To      int
	TookMS  float64
	Hits    []hitView
	Groups  []facetGroup
	Chips   []chip
	// ClearURL keeps the query and drops every filter; empty without filters.
	ClearURL      template.URL
	DidYouMean    string
	DidYouMeanURL template.URL
	// Corrected: the results already use DidYouMean ("Showing results
	// for"), rather than propose it ("Did you mean").
	Corrected bool
	// Synonyms are the expansions the engine applied ("MoE → mixture of
	// experts"), so a reader sees why a talk matched.
	Synonyms []string
	// Named is the room or track the query names ("Room H.2215: 412
	// talks"), nil without one.
	Named   *namedScope
	Pages   []pageLink
	PrevURL template.URL
	NextURL template.URL
	// FirstPageURL leads back from a page past the last one.
	FirstPageURL template.URL
	// CalendarURL is /search.ics with the same search, empty when it
	// finds too many talks for one; CalendarNote says how many it holds.
	CalendarURL  template.URL
	CalendarNote string
	// Conferences lists the conferences loaded, newest first, on the
	// home page of a site that holds several.
	Conferences []conferenceRow
}

type hitView struct {
	ID       string
	URL      string
	Title    template.HTML // highlighted when the title matched
	Speakers []index.Speaker
	// SpeakerMarks are the speakers whose name or affiliation matched,
	// highlighted ("Name, Affiliation"); shown instead of Speakers.
	SpeakerMarks []template.HTML
	When         string
	// Conference names the talk's conference on pages that list talks of
	// several; empty elsewhere.
	Conference string
	Room       string
	Track      string
	Level      string
	Kind       string
	Cancelled  bool
	Fragments  []template.HTML
}

type facetGroup struct {
	Name    string // the URL parameter
	Label   string
	Options []facetOption
	Missing int
	// MissingText follows the count of talks without a value.
	MissingText string
}

type facetOption struct {
	Value string
	// Label shows the value to people where it is an id or a code
	// (conference id, kind, date); empty: the value itself.
	Label   string
	Count   int
	Checked bool
}

type chip struct {
	Label     string
	Value     string
	RemoveURL template.URL
}

type pageLink struct {
	Num     int
	URL     template.URL
	Current bool
	Gap     bool // an ellipsis between page numbers
}

func (s *server) searchPage(c *gin.Context) {
	req, pageNum, err := s.parseSearch(c.Request.URL.Query(), true)
	if err != nil {
		s.fail(c, err)
		return
	}
	s.answerSearchPage(c, req, pageNum)
}

// conferencePage is GET /c/:conference/: the search page of that
// conference, which is the search with it as the only conference filter
// (/?conference=ID shows the same).
func (s *server) conferencePage(c *gin.Context) {
	_, conf, err := s.scopeOf(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	req, pageNum, err := s.parseSearch(c.Request.URL.Query(), true)
	if err != nil {
		s.fail(c, err)
		return
	}
	req.Conferences = []string{conf.ID}
	s.answerSearchPage(c, req, pageNum)
}

func (s *server) answerSearchPage(c *gin.Context, req search.Request, pageNum int) {
	key, block := "page ", "layout"
	if c.GetHeader(HeaderFragment) != "" {
		key, block = "fragment ", "live"
	}
	c.Writer.Header().Add("Vary", HeaderFragment)
	s.answerGzip(c, key+searchKey(req, pageNum), typeHTML, func(ctx context.Context) ([]byte, int, error) {
		res, err := s.search(c, ctx, req)
		if err != nil {
			return nil, 0, err
		}
		body, err := s.renderBytes("search", block, s.searchView(s.catalogNow(), req, pageNum, res))
		return body, int(res.Total), err
	})
}

func (s *server) searchView(cat *catalog, req search.Request, pageNum int, res *search.Result) searchPage {
	title := "Search talks"
	if req.Query != "" {
		title = req.Query + " – search talks"
	}
	p := s.newPage(title)
	p.Query, p.OwnSearchBox = req.Query, true
	// A search of one conference is that conference's page.
	if len(req.Conferences) == 1 {
		p.inScope(cat, cat.conference(req.Conferences[0]))
	}
	v := searchPage{
		page:    p,
		Req:     req,
		Sort:    search.SortRelevance,
		PageNum: pageNum,
		Total:   res.Total,
		TookMS:  res.TookMS,
	}
	if req.Sort != "" {
		v.Sort = req.Sort
	}
	if isBrowse(req) && pageNum <= 1 {
		v.Conferences = cat.conferenceRows()
	}
	if len(res.Hits) > 0 {
		v.From = req.Offset + 1
		v.To = req.Offset + len(res.Hits)
	}
	cards := cat
	if p.Scope != nil {
		cards = cat.scope(cat.conference(req.Conferences[0]))
	}
	for _, h := range res.Hits {
		v.Hits = append(v.Hits, s.hitView(cards, h))
	}
	v.Groups = []facetGroup{
		labelled(facetOptions("day", "Day", res.Facets.Day, req.Days, res.Facets.Missing["day"]), cat.dates().dayLabel),
		labelled(facetOptions("kind", "Session type", res.Facets.Kind, req.Kinds, res.Facets.Missing["kind"]), kindName),
		facetOptions("track", "Track", res.Facets.Track, req.Tracks, res.Facets.Missing["track"]),
		facetOptions("level", "Level", res.Facets.Level, req.Levels, res.Facets.Missing["level"]),
		facetOptions("room", "Room", res.Facets.Room, req.Rooms, res.Facets.Missing["room"]),
		labelled(facetOptions("conference", "Conference", res.Facets.Conference, req.Conferences, res.Facets.Missing["conference"]), conferenceLabel(res.Facets.Conference)),
		labelled(facetOptions("language", "Language", res.Facets.Language, req.Languages, res.Facets.Missing["language"]), nil),
	}
	v.Chips = chips(req)
	if len(v.Chips) > 0 {
		v.ClearURL = searchURL(search.Request{Query: req.Query, Sort: req.Sort}, 1)
	}
	if res.DidYouMean != "" && res.DidYouMean != req.Query {
		v.DidYouMean = res.DidYouMean
		v.Corrected = res.Corrected
		dym := req
		dym.Query = res.DidYouMean
		v.DidYouMeanURL = searchURL(dym, 1)
	}
	v.Synonyms = res.Synonyms
	if sc := res.Scope; sc != nil {
		only := search.Request{}
		if sc.Facet == "room" {
			only.Rooms = []string{sc.Value}
		} else {
			only.Tracks = []string{sc.Value}
		}
		v.Named = &namedScope{Scope: *sc, URL: searchURL(only, 1)}
	}
	v.FirstPageURL = searchURL(req, 1)
	v.CalendarURL, v.CalendarNote = calendarLink(req, res, v.FirstPageURL, s.opts.MaxCalendarTalks)
	v.Pages, v.PrevURL, v.NextURL = s.pagination(req, pageNum, res.Total)
	v.Summary = summary(req, res.Total, v.From, v.To, len(v.Pages) > 0)
	return v
}

// namedScope is the room or track a query names, and the search of its
// talks in schedule order.
type namedScope struct {
	search.Scope
	URL template.URL
}

// calendarLink is the search's calendar and what the page says of it:
// how many talks it holds, or why there is none.
func calendarLink(req search.Request, res *search.Result, permalink template.URL, most int) (template.URL, string) {
	n := scheduledOf(req, res)
	switch {
	case n == 0:
		return "", ""
	case n > uint64(most):
		return "", fmt.Sprintf("%d of these talks are on the schedule: too many for one calendar (at most %d). Narrow the search to add them to yours.", n, most)
	}
	note := fmt.Sprintf("Add these %d talks to a calendar (.ics)", n)
	if n == 1 {
		note = "Add this talk to a calendar (.ics)"
	}
	if left := res.Total - n; left > 0 {
		note += fmt.Sprintf("; %d not on the schedule have no time and are left out", left)
	}
	return "/search.ics" + template.URL(strings.TrimPrefix(string(permalink), "/")), note
}

// isBrowse says whether a search asks for nothing: no words, no filter.
func isBrowse(r search.Request) bool {
	return r.Query == "" && len(r.Tracks)+len(r.Levels)+len(r.Rooms)+len(r.Days)+len(r.Kinds)+len(r.Conferences)+len(r.Languages) == 0 &&
		!r.Scheduled && r.Cancelled == "" && r.After == "" && r.Before == ""
}

func summary(req search.Request, total uint64, from, to int, paged bool) string {
	var out string
	switch {
	case total == 0:
		return "No talks found"
	case total == 1:
		out = "1 talk"
	default:
		out = fmt.Sprintf("%d talks", total)
	}
	if req.Query != "" {
		out += " for “" + req.Query + "”"
	}
	switch {
	case from == 0:
		out += ", none on this page"
	case paged:
		out += fmt.Sprintf(", %d–%d", from, to)
	}
	return out
}

func (s *server) hitView(cat *catalog, h search.Hit) hitView {
	v := hitView{
		ID:         h.ID,
		URL:        "/talks/" + h.ID,
		Title:      template.HTML(template.HTMLEscapeString(h.Title)),
		Speakers:   h.Speakers,
		When:       formatWhen(h.Start, h.End, s.opts.Location, cat.dates()),
		Conference: cat.conferenceName(h.ID),
		Room:       h.Room,
		Track:      h.Track,
		Level:      h.Level,
		Kind:       kindLabel(h.Kind),
	}
	v.Cancelled = h.Cancelled
	for _, f := range h.Highlights.Title {
		if hasMark(f) {
			v.Title = safeHighlight(f)
			break
		}
	}
	for _, f := range h.Highlights.Abstract {
		if hasMark(f) {
			v.Fragments = append(v.Fragments, safeHighlight(f))
		}
	}
	// The description's words show where the abstract has none of the
	// query's: a talk found by its description shows why.
	if len(v.Fragments) == 0 {
		for _, f := range h.Highlights.Description {
			if hasMark(f) {
				v.Fragments = append(v.Fragments, safeHighlight(f))
			}
		}
	}
	for _, f := range h.Highlights.Speakers {
		if hasMark(f) {
			v.SpeakerMarks = append(v.SpeakerMarks, safeHighlight(f))
		}
	}
	return v
}

// facetOptions lists a facet's values as checkboxes. The engine matches a
// selection regardless of case (?track=inference+%26+production selects
// "Inference & Production"), so a value is ticked when the engine says so or
// the URL names it in any case. A selected value the result no longer counts
// is kept (with 0), so it can still be unticked.
func facetOptions(name, label string, values []search.FacetValue, selected []string, missing int) facetGroup {
	g := facetGroup{Name: name, Label: label, Missing: missing, MissingText: "with no " + name}
	for _, fv := range values {
		checked := fv.Selected || slices.ContainsFunc(selected, func(sel string) bool { return strings.EqualFold(sel, fv.Value) })
		g.Options = append(g.Options, facetOption{Value: fv.Value, Count: fv.Count, Checked: checked})
	}
	for _, sel := range selected {
		if !slices.ContainsFunc(values, func(fv search.FacetValue) bool { return strings.EqualFold(fv.Value, sel) }) {
			g.Options = append(g.Options, facetOption{Value: sel, Checked: true})
		}
	}
	return g
}

// chips are the active filters, each with the URL of the search without it.
func chips(req search.Request) []chip {
	var out []chip
	add := func(label string, vals []string, without func(r *search.Request, rest []string)) {
		for _, v := range vals {
			r := req
			without(&r, slices.DeleteFunc(slices.Clone(vals), func(x string) bool { return x == v }))
			out = append(out, chip{Label: label, Value: v, RemoveURL: searchURL(r, 1)})
		}
	}
	add("Track", req.Tracks, func(r *search.Request, rest []string) { r.Tracks = rest })
	add("Level", req.Levels, func(r *search.Request, rest []string) { r.Levels = rest })
	add("Room", req.Rooms, func(r *search.Request, rest []string) { r.Rooms = rest })
	add("Day", req.Days, func(r *search.Request, rest []string) { r.Days = rest })
	add("Session type", req.Kinds, func(r *search.Request, rest []string) { r.Kinds = rest })
	add("Conference", req.Conferences, func(r *search.Request, rest []string) { r.Conferences = rest })
	add("Language", req.Languages, func(r *search.Request, rest []string) { r.Languages = rest })
	for i := range out {
		switch out[i].Label {
		case "Day":
			out[i].Value = dayLabel(out[i].Value)
		case "Session type":
			out[i].Value = kindName(out[i].Value)
		}
	}
	if req.Scheduled {
		r := req
		r.Scheduled = false
		out = append(out, chip{Label: "Only", Value: "on the schedule", RemoveURL: searchURL(r, 1)})
	}
	if req.Cancelled != "" {
		r := req
		r.Cancelled = ""
		value := "left out"
		if req.Cancelled == search.CancelledOnly {
			value = "only"
		}
		out = append(out, chip{Label: "Cancelled talks", Value: value, RemoveURL: searchURL(r, 1)})
	}
	if req.After != "" {
		r := req
		r.After = ""
		out = append(out, chip{Label: "Starts after", Value: req.After, RemoveURL: searchURL(r, 1)})
	}
	if req.Before != "" {
		r := req
		r.Before = ""
		out = append(out, chip{Label: "Starts before", Value: req.Before, RemoveURL: searchURL(r, 1)})
	}
	return out
}

// pagination links the first and last pages and two on either side of the
// current one, with gaps between.
func (s *server) pagination(req search.Request, current int, total uint64) (links []pageLink, prev, next template.URL) {
	last := int((total + uint64(s.opts.PageSize) - 1) / uint64(s.opts.PageSize))
	last = min(last, s.opts.MaxOffset/s.opts.PageSize+1)
	if last <= 1 {
		return nil, "", ""
	}
	shown := func(n int) bool { return n == 1 || n == last || (n >= current-2 && n <= current+2) }
	for n := 1; n <= last; n++ {
		// A gap would hide a single page: show that page instead.
		if !shown(n) && !(shown(n-1) && shown(n+1)) {
			if !links[len(links)-1].Gap {
				links = append(links, pageLink{Gap: true})
			}
			continue
		}
		links = append(links, pageLink{Num: n, URL: searchURL(req, n), Current: n == current})
	}
	if current > 1 {
		prev = searchURL(req, min(current-1, last))
	}
	if current < last {
		next = searchURL(req, current+1)
	}
	return links, prev, next
}

// talkPage is the view of GET /talks/:id.
type talkPage struct {
	page
	Talk     *search.TalkDetail
	Speakers []speakerLink
	// Calendar is the talk's .ics, for scheduled talks.
	Calendar string
	When     string
	// Zone abbreviates the zone When is in ("CEST", "CET").
	Zone       string
	Kind       string
	Paragraphs [][]string
	// Description is the description's paragraphs (index.Talk.
	// DescriptionText), shown under the abstract.
	Description [][]string
	Related     []relatedView
	Links       []linkView
}

// linkView is one of a talk's links: URL is empty for an address that is
// no absolute http(s) URL, which the page shows as text.
type linkView struct {
	Kind  string
	Title string
	URL   string
	Text  string
}

// linkKindLabels name a link's kind on the page.
var linkKindLabels = map[index.LinkKind]string{
	index.LinkRecording: "Recording", index.LinkSlides: "Slides", index.LinkLive: "Live stream", index.LinkOther: "Link",
}

// linkViews are the talk's links in its order (recordings first), titled
// by their text, else their address.
func linkViews(links []index.Link) []linkView {
	var out []linkView
	for _, l := range links {
		v := linkView{Kind: linkKindLabels[l.Kind], Title: l.Title, Text: l.URL}
		if v.Kind == "" {
			v.Kind = linkKindLabels[index.LinkOther]
		}
		if u, ok := webURL(l.URL); ok {
			v.URL = u
		}
		if v.Title == "" {
			v.Title = l.URL
		}
		out = append(out, v)
	}
	return out
}

type relatedView struct {
	URL         string
	Title       string
	SharedTerms []string
	When        string
	// Conference is as on a hitView.
	Conference string
	Room       string
	Clash      bool
}

func (s *server) talkPage(c *gin.Context) {
	id, err := talkID(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	// Talk ids never hold a dot: ID.ics is the talk's calendar file.
	if cal, ok := strings.CutSuffix(id, ".ics"); ok {
		s.talkCalendar(c, cal)
		return
	}
	s.answerGzip(c, "talk "+id, typeHTML, func(ctx context.Context) ([]byte, int, error) {
		t, err := s.s.Talk(ctx, id)
		if errors.Is(err, search.ErrNotFound) {
			err = fmt.Errorf("%w: no talk has the id %q", search.ErrNotFound, id)
		}
		if err != nil {
			return nil, 0, err
		}
		body, err := s.renderBytes("talk", "layout", s.talkView(s.catalogNow(), t))
		return body, -1, err
	})
}

func (s *server) talkView(cat *catalog, t *search.TalkDetail) talkPage {
	p := s.newPage(t.Title)
	p.inScope(cat, cat.conference(t.Conference.ID))
	p.OGTitle, p.OGDescription = t.Title, ogDescription(t)
	v := talkPage{
		page:       p,
		Talk:       t,
		Speakers:   speakerLinks(t.Speakers),
		When:       formatWhen(t.Start, t.End, s.opts.Location, cat.dates()),
		Zone:       zoneName(t.Start, s.opts.Location),
		Kind:       kindLabel(t.Kind),
		Paragraphs: paragraphs(t.Abstract),
		// A description that repeats the abstract is not shown twice.
		Description: paragraphs(t.DescriptionText()),
	}
	if t.Start != nil {
		v.Calendar = "/talks/" + t.ID + ".ics"
	}
	v.Links = linkViews(t.Links)
	for _, r := range t.Related {
		v.Related = append(v.Related, relatedView{
			URL:         "/talks/" + r.ID,
			Title:       r.Title,
			SharedTerms: r.SharedTerms,
			When:        formatWhen(r.Start, r.End, s.opts.Location, cat.dates()),
			Conference:  cat.conferenceName(r.ID),
			Room:        r.Room,
			Clash:       r.Clash,
		})
	}
	return v
}

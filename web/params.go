package web

import (
	"html/template"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/search/overlap"
)

// maxFilterLen bounds one facet value; real tracks and rooms are far shorter.
const maxFilterLen = 200

// parseSearch reads a search from URL parameters, shared by the page and the
// API so both accept and refuse exactly the same things. The page speaks in
// pages (page=N); the API in limit and offset.
func (s *server) parseSearch(v url.Values, paged bool) (r search.Request, page int, err error) {
	r.Query = strings.TrimSpace(v.Get("q"))
	if !utf8.ValidString(r.Query) {
		return r, 0, invalidf("the query is not valid UTF-8")
	}
	if n := utf8.RuneCountInString(r.Query); n > s.opts.MaxQueryLen {
		return r, 0, invalidf("the query is %d characters long; the limit is %d", n, s.opts.MaxQueryLen)
	}
	for _, f := range []struct {
		name string
		dst  *[]string
	}{{"track", &r.Tracks}, {"level", &r.Levels}, {"room", &r.Rooms},
		{"day", &r.Days}, {"kind", &r.Kinds}, {"conference", &r.Conferences}, {"language", &r.Languages}} {
		if *f.dst, err = s.filterValues(f.name, v[f.name]); err != nil {
			return r, 0, err
		}
	}
	if err := parseWhen(v, &r); err != nil {
		return r, 0, err
	}
	switch sort := v.Get("sort"); sort {
	case "", search.SortRelevance, search.SortTime, search.SortNewest:
		r.Sort = sort
	default:
		return r, 0, invalidf("sort must be %q, %q or %q", search.SortRelevance, search.SortTime, search.SortNewest)
	}
	if paged {
		page = 1
		if p := v.Get("page"); p != "" {
			n, err := strconv.Atoi(p)
			maxPage := s.opts.MaxOffset/s.opts.PageSize + 1
			if err != nil || n < 1 || n > maxPage {
				return r, 0, invalidf("page must be a whole number from 1 to %d", maxPage)
			}
			page = n
		}
		r.Limit = s.opts.PageSize
		r.Offset = (page - 1) * s.opts.PageSize
		return r, page, nil
	}
	switch x := v.Get("explain"); x {
	case "", "0", "false":
	case "1", "true":
		r.Explain = true
	default:
		return r, 0, invalidf("explain must be 1 or 0, not %.20q", x)
	}
	if l := v.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > s.opts.MaxLimit {
			return r, 0, invalidf("limit must be a whole number from 1 to %d", s.opts.MaxLimit)
		}
		r.Limit = n
	}
	if o := v.Get("offset"); o != "" {
		n, err := strconv.Atoi(o)
		if err != nil || n < 0 || n > s.opts.MaxOffset {
			return r, 0, invalidf("offset must be a whole number from 0 to %d", s.opts.MaxOffset)
		}
		r.Offset = n
	}
	return r, 0, nil
}

// filterValues drops empty and repeated values (a form sends both) and
// bounds the rest.
func (s *server) filterValues(name string, vals []string) ([]string, error) {
	var out []string
	seen := make(map[string]bool, len(vals))
	for _, v := range vals {
		v = strings.TrimSpace(v)
		if v == "" || seen[v] {
			continue
		}
		if len(v) > maxFilterLen || !utf8.ValidString(v) {
			return nil, invalidf("%s filter %.40q… is not a valid value", name, v)
		}
		seen[v] = true
		out = append(out, v)
	}
	if len(out) > s.opts.MaxFilterValues {
		return nil, invalidf("at most %d %s filters", s.opts.MaxFilterValues, name)
	}
	return out, nil
}

// parseMin reads the overlap threshold: empty or 0 means the detector's
// default. It is rounded to two decimals, as the engine applies it, so 0.5
// and 0.5001 are one threshold (and one kept answer), shown as it applies.
// Below overlap.Floor the served report has no pairs to show, so such a
// value is refused rather than quietly raised.
func parseMin(v url.Values) (float64, error) { return parseMinValue(v.Get("min")) }

// parseMinValue is parseMin of one value (a form field).
func parseMinValue(m string) (float64, error) {
	if m == "" {
		return 0, nil
	}
	f, err := strconv.ParseFloat(m, 64)
	if err == nil && f == 0 {
		return 0, nil
	}
	f = math.Round(f*100) / 100
	if err != nil || !(f >= overlap.Floor && f <= 1) {
		return 0, invalidf("min must be a number from %.2f to 1 (0 or empty: %.2f)", overlap.Floor, overlap.DefaultMin)
	}
	return f, nil
}

// searchURL is the permalink of a search page state, with its parameters in
// a fixed, readable order (q, filters, sort, page) and defaults left out;
// the script builds the same URLs. Every value is query-escaped here, so the
// result is a safe same-origin URL that templates need not normalise.
func searchURL(r search.Request, page int) template.URL {
	var b strings.Builder
	add := func(k, v string) {
		if b.Len() == 0 {
			b.WriteByte('?')
		} else {
			b.WriteByte('&')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(v))
	}
	if r.Query != "" {
		add("q", r.Query)
	}
	for _, t := range r.Tracks {
		add("track", t)
	}
	for _, l := range r.Levels {
		add("level", l)
	}
	for _, m := range r.Rooms {
		add("room", m)
	}
	for _, f := range []struct {
		name string
		vals []string
	}{{"day", r.Days}, {"kind", r.Kinds}, {"conference", r.Conferences}, {"language", r.Languages}} {
		for _, v := range f.vals {
			add(f.name, v)
		}
	}
	if r.Scheduled {
		add("scheduled", "true")
	}
	if r.After != "" {
		add("after", r.After)
	}
	if r.Before != "" {
		add("before", r.Before)
	}
	if r.Cancelled != "" {
		add("cancelled", r.Cancelled)
	}
	if r.Sort != "" && r.Sort != search.SortRelevance {
		add("sort", r.Sort)
	}
	if page > 1 {
		add("page", strconv.Itoa(page))
	}
	return template.URL("/" + b.String())
}

// formatMin writes an overlap threshold for the response cache's keys and
// the organizer page's form.
func formatMin(min float64) string {
	if min == 0 {
		return ""
	}
	return strconv.FormatFloat(min, 'g', -1, 64)
}

// searchKey names a search for the response cache: its permalink, which
// holds everything a page depends on, and the API's limit and offset.
func searchKey(r search.Request, page int) string {
	return string(searchURL(r, page)) + " limit=" + strconv.Itoa(r.Limit) + " offset=" + strconv.Itoa(r.Offset) +
		" explain=" + strconv.FormatBool(r.Explain)
}

// parseWhen reads the search's conditions that are not facets: scheduled
// (a checkbox: "true", or "on" as a browser sends a box without a value),
// cancelled ("exclude" or "only"; empty keeps cancelled talks) and the
// start-time window after/before, as HH:MM, which is what an <input
// type=time> sends.
func parseWhen(v url.Values, r *search.Request) error {
	switch sch := v.Get("scheduled"); sch {
	case "", "false":
	case "true", "on":
		r.Scheduled = true
	default:
		return invalidf("scheduled must be true or false, not %.20q", sch)
	}
	switch c := v.Get("cancelled"); c {
	case "", search.CancelledExclude, search.CancelledOnly:
		r.Cancelled = c
	default:
		return invalidf("cancelled must be %q or %q, not %.20q", search.CancelledExclude, search.CancelledOnly, c)
	}
	for _, b := range []struct {
		name string
		dst  *string
	}{{"after", &r.After}, {"before", &r.Before}} {
		t := strings.TrimSpace(v.Get(b.name))
		if t == "" {
			continue
		}
		if _, err := time.Parse("15:04", t); err != nil || len(t) != 5 {
			return invalidf("%s must be a time of day HH:MM (24-hour), not %.20q", b.name, t)
		}
		*b.dst = t
	}
	return nil
}

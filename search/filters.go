package search

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/talksearch/talksearch/index"
)

// facetValues are the request's selections in the order of facetNames.
func (r Request) facetValues() [nFacets][]string {
	return [nFacets][]string{r.Tracks, r.Levels, r.Rooms, r.Days, r.Kinds, r.Conferences, r.Languages}
}

// talkFacetValues are a talk's values in the order of facetNames; "" is
// none.
func talkFacetValues(t *index.Talk) [nFacets]string {
	var language string
	if ls := t.Languages(); len(ls) > 0 {
		language = ls[0]
	}
	return [nFacets]string{t.Track, t.Level, t.Room, t.Day(), string(t.Kind), t.Conference.ID, language}
}

// moreLanguages are a talk's languages after its first (languageFacet).
func moreLanguages(t *index.Talk) []string {
	if ls := t.Languages(); len(ls) > 1 {
		return ls[1:]
	}
	return nil
}

// startMinute is the talk's start as minutes into its own day, -1 when it
// is not on the schedule.
func startMinute(t *index.Talk) int {
	if t.Start == nil {
		return -1
	}
	l := t.Local(*t.Start)
	return l.Hour()*60 + l.Minute()
}

// timeFilter holds a request's conditions that are not facets; its zero
// value keeps every talk.
type timeFilter struct {
	scheduled bool
	// cancelled is Request.Cancelled.
	cancelled string
	// after and before are minutes into the day plus one; 0: no bound.
	after, before int
}

func newTimeFilter(r Request) timeFilter {
	f := timeFilter{scheduled: r.Scheduled, cancelled: r.Cancelled}
	// normalize has checked the clock times; most requests have none,
	// and reading "" as one would make an error to drop.
	if r.After != "" {
		if m, err := clockMinutes(r.After); err == nil {
			f.after = m + 1
		}
	}
	if r.Before != "" {
		if m, err := clockMinutes(r.Before); err == nil {
			f.before = m + 1
		}
	}
	return f
}

func (f timeFilter) passes(d *doc) bool {
	if f.scheduled && !d.talk.Scheduled {
		return false
	}
	if f.cancelled != "" && d.talk.Cancelled != (f.cancelled == CancelledOnly) {
		return false
	}
	if f.after > 0 && (d.startMin < 0 || int(d.startMin)+1 < f.after) {
		return false
	}
	if f.before > 0 && (d.startMin < 0 || int(d.startMin)+1 >= f.before) {
		return false
	}
	return true
}

// clockMinutes reads a time of day "15:04" as minutes since midnight.
func clockMinutes(s string) (int, error) {
	t, err := time.Parse("15:04", s)
	if err != nil || len(s) != 5 {
		return 0, fmt.Errorf("%q is not a time of day HH:MM", s)
	}
	return t.Hour()*60 + t.Minute(), nil
}

// normalizeFilters checks and cleans what normalize does not: the facets
// beyond track, level and room, and the time window.
func normalizeFilters(r Request) (Request, error) {
	var err error
	for _, f := range []struct {
		name string
		vs   *[]string
	}{{"day", &r.Days}, {"kind", &r.Kinds}, {"conference", &r.Conferences}, {"language", &r.Languages}} {
		if *f.vs, err = cleanValues(f.name, *f.vs); err != nil {
			return r, err
		}
	}
	for _, d := range r.Days {
		if _, err := time.Parse(time.DateOnly, d); err != nil {
			return r, fmt.Errorf("%w: day %q is not a date YYYY-MM-DD", ErrInvalid, d)
		}
	}
	for i, k := range r.Kinds {
		k = strings.ToLower(k)
		if !slices.Contains(index.Kinds, index.Kind(k)) {
			return r, fmt.Errorf("%w: kind %q is not one of %s", ErrInvalid, k, kindList())
		}
		r.Kinds[i] = k
	}
	slices.Sort(r.Kinds)
	r.Kinds = slices.Compact(r.Kinds)
	switch r.Cancelled = strings.ToLower(strings.TrimSpace(r.Cancelled)); r.Cancelled {
	case "", CancelledExclude, CancelledOnly:
	default:
		return r, fmt.Errorf("%w: cancelled %q is not %q or %q", ErrInvalid, r.Cancelled, CancelledExclude, CancelledOnly)
	}
	for _, b := range []struct {
		name string
		v    *string
	}{{"after", &r.After}, {"before", &r.Before}} {
		*b.v = strings.TrimSpace(*b.v)
		if *b.v == "" {
			continue
		}
		if _, err := clockMinutes(*b.v); err != nil {
			return r, fmt.Errorf("%w: %s: %w", ErrInvalid, b.name, err)
		}
	}
	return r, nil
}

func kindList() string {
	names := make([]string, len(index.Kinds))
	for i, k := range index.Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

// filtersKey extends Request.cacheKey with the filters of this file.
func (r Request) filtersKey(b *bytes.Buffer) {
	for _, vs := range [][]string{r.Days, r.Kinds, r.Conferences, r.Languages} {
		writeQuotedValues(b, vs)
	}
	b.WriteByte('|')
	b.WriteString(strconv.FormatBool(r.Scheduled))
	for _, v := range []string{r.After, r.Before, r.Cancelled} {
		b.WriteByte('|')
		b.WriteString(v)
	}
}

package web

import (
	"time"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search"
)

// labelled names a facet's values for people with name (nil: the values
// are shown as they are) and says what its talks without a value are.
func labelled(g facetGroup, name func(string) string) facetGroup {
	if name != nil {
		for i := range g.Options {
			if l := name(g.Options[i].Value); l != g.Options[i].Value {
				g.Options[i].Label = l
			}
		}
	}
	if g.Name == "day" {
		g.MissingText = "not on the schedule"
	}
	return g
}

// dayLabel shows a date of the day facet as "Wed 8 Apr"; a value that is
// not a date is shown as it is.
func dayLabel(day string) string { return noYear.dayLabel(day) }

// dayLabel is a date as a day button or facet value shows it: "Wed 8 Apr",
// or "Sat 1 Feb 2025" with the year.
func (d dates) dayLabel(day string) string {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return day
	}
	if d {
		return t.Format("Mon 2 Jan 2006")
	}
	return t.Format("Mon 2 Jan")
}

// kindName names every kind, plain talks included (kindLabel leaves those
// unlabelled on a result).
func kindName(k string) string {
	switch index.Kind(k) {
	case index.KindTalk:
		return "Talk"
	case index.KindOther:
		return "Other"
	}
	if l := kindLabel(index.Kind(k)); l != "" {
		return l
	}
	return k
}

// conferenceLabel names conference ids by the names the engine gave.
func conferenceLabel(values []search.FacetValue) func(string) string {
	return func(id string) string {
		for _, v := range values {
			if v.Value == id && v.Label != "" {
				return v.Label
			}
		}
		return id
	}
}

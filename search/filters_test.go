package search

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
)

// attendeeTalks are made by hand for the day, kind, conference, language
// and time filters: two conferences in two zones, two days, one talk that
// starts on 8 April in New York when it is already 9 April in Paris, and
// one that is not on the schedule.
func attendeeTalks() []index.Talk {
	paris := time.FixedZone("CEST", 2*60*60)
	newYork := time.FixedZone("EDT", -4*60*60)
	slot := func(loc *time.Location, day, hhmm string, minutes int) (*time.Time, *time.Time) {
		s, err := time.ParseInLocation("2006-01-02 15:04", day+" "+hhmm, loc)
		if err != nil {
			panic(err)
		}
		e := s.Add(time.Duration(minutes) * time.Minute)
		return &s, &e
	}
	a := index.Conference{ID: "conf-a", Name: "Conference A"}
	b := index.Conference{ID: "conf-b", Name: "Conference B"}
	talk := func(id string, c index.Conference, zone string, kind index.Kind, lang string, start, end *time.Time) index.Talk {
		return index.Talk{ID: id, Conference: c, TimeZone: zone, Title: "Tensor talk " + id,
			Abstract: "Tensors and compilers, " + id + ".", Kind: kind, Language: lang,
			Start: start, End: end, Scheduled: start != nil, Room: "Room " + c.ID, Sources: []string{"hand.json"}}
	}
	s1, e1 := slot(paris, "2026-04-08", "09:00", 30)
	s2, e2 := slot(paris, "2026-04-08", "14:30", 25)
	s3, e3 := slot(paris, "2026-04-09", "10:00", 90)
	s4, e4 := slot(newYork, "2026-04-08", "23:30", 25)
	return []index.Talk{
		talk("a1", a, "Europe/Paris", index.KindKeynote, "", s1, e1),
		talk("a2", a, "Europe/Paris", index.KindTalk, "fr", s2, e2),
		talk("a3", a, "Europe/Paris", index.KindWorkshop, "", s3, e3),
		talk("b1", b, "America/New_York", index.KindTalk, "en", s4, e4),
		talk("u1", a, "", index.KindTalk, "", nil, nil),
	}
}

func TestSearchAttendeeFilters(t *testing.T) {
	e, err := New(attendeeTalks())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	tests := []struct {
		name string
		req  Request
		want []string
	}{
		{"everything", Request{}, []string{"a1", "a2", "b1", "a3", "u1"}},
		{"day in the talk's own zone", Request{Days: []string{"2026-04-08"}}, []string{"a1", "a2", "b1"}},
		{"two days", Request{Days: []string{"2026-04-08", "2026-04-09"}}, []string{"a1", "a2", "b1", "a3"}},
		{"kind", Request{Kinds: []string{"keynote"}}, []string{"a1"}},
		{"kind in another case", Request{Kinds: []string{"Workshop"}}, []string{"a3"}},
		{"conference", Request{Conferences: []string{"conf-b"}}, []string{"b1"}},
		{"language", Request{Languages: []string{"fr"}}, []string{"a2"}},
		{"scheduled only", Request{Scheduled: true}, []string{"a1", "a2", "b1", "a3"}},
		{"starts after 14:00, local", Request{After: "14:00"}, []string{"a2", "b1"}},
		{"starts at the bound", Request{After: "14:30"}, []string{"a2", "b1"}},
		{"starts before 10:00", Request{Before: "10:00"}, []string{"a1"}},
		{"window", Request{After: "09:30", Before: "15:00"}, []string{"a2", "a3"}},
		{"with a query", Request{Query: "tensor", Kinds: []string{"talk"}, Sort: SortTime}, []string{"a2", "b1", "u1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := e.Search(context.Background(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, hitIDs(r)); diff != "" {
				t.Errorf("hits (-want +got):\n%s", diff)
			}
			if r.Total != uint64(len(tt.want)) {
				t.Errorf("total %d, want %d", r.Total, len(tt.want))
			}
		})
	}
}

func TestSearchAttendeeFacets(t *testing.T) {
	e, err := New(attendeeTalks())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	// The day facet ignores its own selection and lists days in date
	// order; the others count the selected day's talks only.
	r, err := e.Search(context.Background(), Request{Days: []string{"2026-04-09"}})
	if err != nil {
		t.Fatal(err)
	}
	want := Facets{
		Track:      []FacetValue{},
		Level:      []FacetValue{},
		Room:       []FacetValue{{Value: "Room conf-a", Count: 1}},
		Day:        []FacetValue{{Value: "2026-04-08", Count: 3}, {Value: "2026-04-09", Count: 1, Selected: true}},
		Kind:       []FacetValue{{Value: "workshop", Count: 1}},
		Conference: []FacetValue{{Value: "conf-a", Label: "Conference A", Count: 1}},
		Language:   []FacetValue{},
		Missing:    map[string]int{"track": 1, "level": 1, "room": 0, "day": 1, "kind": 0, "conference": 0, "language": 1},
	}
	if diff := cmp.Diff(want, r.Facets); diff != "" {
		t.Errorf("facets (-want +got):\n%s", diff)
	}
	// "On the schedule only" and the time window count in no facet.
	r, err = e.Search(context.Background(), Request{Scheduled: true, After: "12:00"})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Facets.Missing["day"]; got != 0 {
		t.Errorf("unscheduled talks counted under a window: missing day %d", got)
	}
	if diff := cmp.Diff([]FacetValue{{Value: "conf-a", Label: "Conference A", Count: 1}, {Value: "conf-b", Label: "Conference B", Count: 1}}, r.Facets.Conference); diff != "" {
		t.Errorf("conference facet (-want +got):\n%s", diff)
	}
}

func TestSearchAttendeeFiltersInvalid(t *testing.T) {
	e, err := New(attendeeTalks())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, tt := range []struct {
		req  Request
		want string
	}{
		{Request{Days: []string{"2026-13-01"}}, `day "2026-13-01" is not a date YYYY-MM-DD`},
		{Request{Days: []string{"8 April"}}, `day "8 April" is not a date`},
		{Request{Kinds: []string{"seminar"}}, `kind "seminar" is not one of keynote, talk, lightning`},
		{Request{After: "25:00"}, `after: "25:00" is not a time of day HH:MM`},
		{Request{Before: "9:00"}, `before: "9:00" is not a time of day HH:MM`},
	} {
		_, err := e.Search(context.Background(), tt.req)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: error %v, want ErrInvalid with %q", tt.req, err, tt.want)
		}
	}
}

func TestRelatedToAll(t *testing.T) {
	e := fixtureEngine(t)
	ctx := context.Background()
	got, err := e.RelatedToAll(ctx, []string{"monarch-api", "no-such-talk", "kv-cache", "monarch-api"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range got {
		ids = append(ids, r.ID)
		if r.ID == "monarch-api" || r.ID == "kv-cache" || r.ID == "coffee-1" {
			t.Errorf("suggested %s: in the agenda or a break", r.ID)
		}
	}
	// The KV cache talk's MoE neighbour, the other Monarch talk, and the
	// RL talk both relate to.
	if want := []string{"moe-inference", "monarch-amd", "async-rl"}; !slices.Equal(ids, want) {
		t.Errorf("suggestions %v, want %v", ids, want)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Score > got[i-1].Score {
			t.Errorf("not ordered by score: %v", got)
		}
	}
	// The sum of the agenda's links: the same as one talk's own list when
	// the agenda is that talk alone.
	one, err := e.RelatedToAll(ctx, []string{"monarch-api"})
	if err != nil {
		t.Fatal(err)
	}
	d, err := e.Talk(ctx, "monarch-api")
	if err != nil {
		t.Fatal(err)
	}
	var wantOne, gotOne []string
	for _, r := range d.Related {
		wantOne = append(wantOne, r.ID)
	}
	for _, r := range one {
		gotOne = append(gotOne, r.ID)
	}
	if !slices.Equal(wantOne, gotOne) {
		t.Errorf("agenda of one: %v, want the talk's related %v", gotOne, wantOne)
	}
	if _, err := e.RelatedToAll(ctx, make([]string, MaxAgenda+1)); !errors.Is(err, ErrInvalid) {
		t.Errorf("%d ids: error %v, want ErrInvalid", MaxAgenda+1, err)
	}
}

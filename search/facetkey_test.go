package search

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
)

// TestFoldTrack: spellings of one track fold to one key by case,
// punctuation, spaces, accents, "&" for "and" and a "devroom", "dev room"
// or "track" suffix; different names do not.
func TestFoldTrack(t *testing.T) {
	same := [][]string{
		{"MySQL and Friends", "MySQL & friends devroom", "MySQL and Friends Devroom", "mysql and friends", "MySQL&Friends"},
		{"Rust", "Rust devroom", "Rust dev room", "Rust dev-room", "Rust Track", "RUST"},
		{"Python", "Python Devroom devroom"},
		{"Cross desktop", "CrossDesktop", "Cross-Desktop devroom"},
		{"Électronique libre", "electronique libre", "ÉLECTRONIQUE LIBRE devroom"},
		{"Opening/Closing Talks", "Opening / closing talks"},
		{"BSD + PostgreSQL", "BSD+PostgreSQL"},
		{"C++", "C++ devroom"},
	}
	for _, spellings := range same {
		for _, s := range spellings[1:] {
			if foldTrack(s) != foldTrack(spellings[0]) {
				t.Errorf("foldTrack(%q) = %q, foldTrack(%q) = %q: want equal", s, foldTrack(s), spellings[0], foldTrack(spellings[0]))
			}
		}
	}
	apart := [][2]string{
		{"MySQL and Friends", "MySQL, MariaDB and Friends"},
		{"MySQL and Friends", "MySQL"},
		{"C++", "C"},
		{"C#", "C"},
		{"Main Track - Janson", "Main"},
		{"BOF - Track A", "BOF - Track B"},
	}
	for _, p := range apart {
		if foldTrack(p[0]) == foldTrack(p[1]) {
			t.Errorf("foldTrack(%q) = foldTrack(%q) = %q: want apart", p[0], p[1], foldTrack(p[0]))
		}
	}
	// A suffix that is the whole name is the name.
	for s, want := range map[string]string{"Devroom": "devroom", "Track": "track", "Dev room": "devroom", "": ""} {
		if got := foldTrack(s); got != want {
			t.Errorf("foldTrack(%q) = %q, want %q", s, got, want)
		}
	}
	for _, p := range [][2]string{{"H.2215", "h 2215"}, {"J.1.106", "J1.106"}, {"Salle Émile", "salle emile"}} {
		if foldRoom(p[0]) != foldRoom(p[1]) {
			t.Errorf("foldRoom(%q) = %q, foldRoom(%q) = %q: want equal", p[0], foldRoom(p[0]), p[1], foldRoom(p[1]))
		}
	}
	// A room keeps its suffixes: "Track" may name a room.
	if foldRoom("Track A") == foldRoom("A") {
		t.Errorf("foldRoom folds a suffix")
	}
}

// foldedTalks are one conference's talks over five editions, its tracks
// and rooms spelt as its schedules spelt them.
func foldedTalks() []index.Talk {
	at := func(y int) *time.Time {
		t := time.Date(y, 2, 1, 10, 0, 0, 0, time.UTC)
		return &t
	}
	talk := func(id string, y int, track, room string) index.Talk {
		return index.Talk{ID: id, Title: "Databases " + id, Abstract: "About databases.", Track: track, Room: room, Start: at(y), Kind: index.KindTalk}
	}
	return []index.Talk{
		talk("m2019", 2019, "MySQL & friends devroom", "H.2214"),
		talk("m2020", 2020, "mysql and friends", "h 2214"),
		talk("m2024", 2024, "MySQL and Friends", "H2214"),
		talk("mm2022", 2022, "MySQL, MariaDB and Friends", "K.3.201"),
		talk("r2019", 2019, "Rust devroom", "K.3.201"),
		talk("r2025", 2025, "Rust", "k.3.201"),
		// Unscheduled: its spelling names the track only if no talk of
		// the track has a start.
		{ID: "r-none", Title: "Databases in Rust", Abstract: "About databases.", Track: "RUST DEVROOM", Kind: index.KindTalk},
	}
}

// TestFoldedFacets: the track and room facets show one value per track
// and room, named as the latest edition names it and counting every
// spelling; a selection or a track: clause of any spelling selects them
// all; each talk keeps its own spelling.
func TestFoldedFacets(t *testing.T) {
	talks := foldedTalks()
	for _, onePass := range []int{0, -1} {
		e, err := NewWithOptions(talks, Options{OnePassMax: onePass, CacheSize: -1})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		search := func(r Request) *Result {
			t.Helper()
			r.Sort = SortTime
			res, err := e.Search(ctx, r)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		ids := func(r *Result) []string {
			var out []string
			for _, h := range r.Hits {
				out = append(out, h.ID)
			}
			slices.Sort(out)
			return out
		}
		for _, r := range []Request{{}, {Query: "databases"}} {
			res := search(r)
			wantTracks := []FacetValue{{Value: "MySQL and Friends", Count: 3}, {Value: "Rust", Count: 3}, {Value: "MySQL, MariaDB and Friends", Count: 1}}
			if diff := cmp.Diff(wantTracks, res.Facets.Track); diff != "" {
				t.Errorf("OnePassMax %d, %q: tracks (-want +got):\n%s", onePass, r.Query, diff)
			}
			wantRooms := []FacetValue{{Value: "H2214", Count: 3}, {Value: "k.3.201", Count: 3}}
			if diff := cmp.Diff(wantRooms, res.Facets.Room); diff != "" {
				t.Errorf("OnePassMax %d, %q: rooms (-want +got):\n%s", onePass, r.Query, diff)
			}
		}
		mysql := []string{"m2019", "m2020", "m2024"}
		rust := []string{"r-none", "r2019", "r2025"}
		for _, c := range []struct {
			r    Request
			want []string
		}{
			{Request{Tracks: []string{"MySQL & friends devroom"}}, mysql},
			{Request{Tracks: []string{"mysql and friends"}}, mysql},
			{Request{Tracks: []string{"MySQL and Friends"}}, mysql},
			{Request{Query: "databases", Tracks: []string{"MYSQL AND FRIENDS DEVROOM"}}, mysql},
			{Request{Tracks: []string{"MySQL, MariaDB and Friends"}}, []string{"mm2022"}},
			{Request{Tracks: []string{"rust devroom"}}, rust},
			{Request{Tracks: []string{"Rust dev room"}}, rust},
			{Request{Query: `track:"mysql & friends"`}, mysql},
			{Request{Query: `databases track:"rust devroom"`}, rust},
			{Request{Rooms: []string{"H.2214"}}, mysql},
			{Request{Rooms: []string{"K.3.201"}}, []string{"mm2022", "r2019", "r2025"}},
			{Request{Tracks: []string{"MySQL"}}, nil},
		} {
			res := search(c.r)
			if got := ids(res); !slices.Equal(got, c.want) || res.Total != uint64(len(c.want)) {
				t.Errorf("OnePassMax %d, %+v: %v (total %d), want %v", onePass, c.r, got, res.Total, c.want)
			}
		}
		// The selected value is the one shown, marked.
		res := search(Request{Tracks: []string{"rust devroom"}})
		if diff := cmp.Diff([]FacetValue{{Value: "MySQL and Friends", Count: 3}, {Value: "Rust", Count: 3, Selected: true}, {Value: "MySQL, MariaDB and Friends", Count: 1}}, res.Facets.Track); diff != "" {
			t.Errorf("OnePassMax %d: tracks with Rust selected (-want +got):\n%s", onePass, diff)
		}
		// Hits and talk pages keep their source's spelling.
		for _, h := range search(Request{Tracks: []string{"MySQL and Friends"}}).Hits {
			want := map[string]string{"m2019": "MySQL & friends devroom", "m2020": "mysql and friends", "m2024": "MySQL and Friends"}[h.ID]
			if h.Track != want {
				t.Errorf("OnePassMax %d: hit %s has track %q, want %q", onePass, h.ID, h.Track, want)
			}
		}
		for _, id := range []string{"m2019", "r-none"} {
			d, err := e.Talk(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if want := map[string]string{"m2019": "MySQL & friends devroom", "r-none": "RUST DEVROOM"}[id]; d.Track != want || d.Room != map[string]string{"m2019": "H.2214", "r-none": ""}[id] {
				t.Errorf("OnePassMax %d: talk %s has track %q room %q", onePass, id, d.Track, d.Room)
			}
		}
		e.Close()
	}
}

// TestFoldedTrackNamesDoNotDependOnOrder: the name shown for a track is
// the latest edition's whatever the order of the talks, and between two
// spellings of the same start the smaller.
func TestFoldedTrackNamesDoNotDependOnOrder(t *testing.T) {
	talks := foldedTalks()
	start := *talks[2].Start
	talks = append(talks, index.Talk{ID: "m2024b", Title: "Databases again", Abstract: "About databases.", Track: "MySQL & Friends", Start: &start, Kind: index.KindTalk})
	for _, reversed := range []bool{false, true} {
		ts := slices.Clone(talks)
		if reversed {
			slices.Reverse(ts)
		}
		e, err := NewWithOptions(ts, Options{CacheSize: -1})
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Search(context.Background(), Request{})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Facets.Track[0]; got.Value != "MySQL & Friends" || got.Count != 4 {
			t.Errorf("reversed %t: first track %+v, want MySQL & Friends counted 4", reversed, got)
		}
		e.Close()
	}
}

// TestArchiveTracksFolded: the FOSDEM archive's tracks and rooms, counted
// in a browse's facets, before folding (distinct spellings) and after.
func TestArchiveTracksFolded(t *testing.T) {
	e := archiveEngine(t)
	tracks, rooms := map[string]bool{}, map[string]bool{}
	for _, tk := range e.Talks() {
		if tk.Track != "" {
			tracks[tk.Track] = true
		}
		if tk.Room != "" {
			rooms[tk.Room] = true
		}
	}
	res, err := e.Search(context.Background(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("tracks: %d spellings, %d facet values; rooms: %d spellings, %d facet values",
		len(tracks), len(res.Facets.Track), len(rooms), len(res.Facets.Room))
	if len(tracks) != 513 || len(res.Facets.Track) != 401 {
		t.Errorf("tracks: %d spellings, %d facet values; want 513, 401", len(tracks), len(res.Facets.Track))
	}
	if len(rooms) != 195 || len(res.Facets.Room) != 191 {
		t.Errorf("rooms: %d spellings, %d facet values; want 195, 191", len(rooms), len(res.Facets.Room))
	}
	count := func(vs []FacetValue, v string) int {
		for _, fv := range vs {
			if fv.Value == v {
				return fv.Count
			}
		}
		return -1
	}
	for _, c := range []struct {
		selected, shown string
		n               int
	}{
		{"MySQL & friends devroom", "MySQL and Friends", 115},
		{"MySQL, MariaDB and Friends", "MySQL, MariaDB and Friends", 36},
		{"Rust devroom", "Rust", 84},
	} {
		r, err := e.Search(context.Background(), Request{Tracks: []string{c.selected}})
		if err != nil {
			t.Fatal(err)
		}
		var sel FacetValue
		for _, fv := range r.Facets.Track {
			if fv.Selected {
				sel = fv
			}
		}
		if n := count(r.Facets.Track, sel.Value); sel.Value != c.shown || int(r.Total) != c.n || n != c.n {
			t.Errorf("%q selects %q, %d talks (facet %d); want %q, %d", c.selected, sel.Value, r.Total, n, c.shown, c.n)
		}
	}
}

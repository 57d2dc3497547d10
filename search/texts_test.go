package search

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/talksearch/talksearch/index"
)

// TestTextsOffTheDocs: the docs keep no abstract or description; the talk
// page, the corpus and highlights read them from the store's file, and
// what they return stays whole once the engine is closed.
func TestTextsOffTheDocs(t *testing.T) {
	defer func(n int) { index.FileTextMin = n }(index.FileTextMin)
	index.FileTextMin = 1 // the seeds' texts are in a file like a large corpus's
	_, c := seedEngine(t)
	// The seeds have no description: two talks get one, so that the
	// store's second text of a talk is read back too.
	corpus := slices.Clone(c.Talks)
	corpus[0].Description = "A longer text than the abstract, about replication lag."
	corpus[len(corpus)-1].Description = "Notes for the room: café, 東京."
	e, err := NewWithOptions(corpus, Options{CacheSize: -1})
	if err != nil {
		t.Fatal(err)
	}
	s := e.snap.Load()
	for _, d := range s.byTime {
		if d.talk.Abstract != "" || d.talk.Description != "" {
			t.Fatalf("doc %s keeps its texts", d.talk.ID)
		}
	}
	want := map[string]index.Talk{}
	for _, tk := range corpus {
		want[tk.ID] = tk
	}
	ctx := context.Background()
	var details []*TalkDetail
	for id, w := range want {
		d, err := e.Talk(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if d.Abstract != w.Abstract || d.Description != w.Description {
			t.Errorf("Talk(%s): abstract %q, description %q; want %q, %q", id, d.Abstract, d.Description, w.Abstract, w.Description)
		}
		details = append(details, d)
	}
	_, talks := e.Corpus()
	if len(talks) != len(corpus) {
		t.Fatalf("Corpus: %d talks, want %d", len(talks), len(corpus))
	}
	for _, tk := range talks {
		if w := want[tk.ID]; tk.Abstract != w.Abstract || tk.Description != w.Description {
			t.Errorf("Corpus %s: abstract %q, description %q; want %q, %q", tk.ID, tk.Abstract, tk.Description, w.Abstract, w.Description)
		}
	}
	res, err := e.Search(ctx, Request{Query: "replication"})
	if err != nil {
		t.Fatal(err)
	}
	highlighted := 0
	for _, h := range res.Hits {
		highlighted += len(h.Highlights.Abstract)
	}
	if highlighted == 0 {
		t.Errorf("%d hits of %q, none with an abstract fragment", len(res.Hits), "replication")
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	for _, d := range details {
		if d.Abstract != want[d.ID].Abstract {
			t.Fatalf("Talk(%s)'s abstract changed once the engine was closed", d.ID)
		}
	}
}

// TestListingIsTheDocsTalks: Listing is every talk in Talks's order with
// the same fields but no texts, the very talks the docs point to (one
// copy, whoever lists them), and Texts reads each talk's texts by id.
func TestListingIsTheDocsTalks(t *testing.T) {
	_, c := seedEngine(t)
	corpus := slices.Clone(c.Talks)
	corpus[1].Description = "A description only this talk has."
	e, err := NewWithOptions(corpus, Options{CacheSize: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	whole, listed := e.Talks(), e.Listing()
	if len(listed) != len(corpus) || len(whole) != len(corpus) {
		t.Fatalf("Listing %d talks, Talks %d, want %d", len(listed), len(whole), len(corpus))
	}
	if again := e.Listing(); &again[0] != &listed[0] {
		t.Error("a second Listing is another copy of the talks")
	}
	given := map[string]index.Talk{}
	for _, tk := range corpus {
		given[tk.ID] = tk
	}
	s := e.snap.Load()
	ids := make([]string, len(listed))
	for i := range listed {
		tk := &listed[i]
		ids[i] = tk.ID
		if s.byTime[i].talk != tk {
			t.Fatalf("listed talk %d (%s) is not the doc's talk", i, tk.ID)
		}
		if tk.Abstract != "" || tk.Description != "" {
			t.Fatalf("listed talk %s keeps its texts", tk.ID)
		}
		if whole[i].ID != tk.ID {
			t.Fatalf("listed talk %d is %s, Talks's %s", i, tk.ID, whole[i].ID)
		}
		w := given[tk.ID]
		w.Abstract, w.Description = "", ""
		if !reflect.DeepEqual(*tk, w) {
			t.Fatalf("listed talk %d: %+v, want the talk given %+v", i, *tk, w)
		}
	}
	texts := e.Texts(append(ids, "no-such-talk"))
	if len(texts) != len(ids)+1 || texts[len(ids)] != (Texts{}) {
		t.Fatalf("Texts of %d ids and an unknown one: %d, last %+v", len(ids), len(texts), texts[len(texts)-1])
	}
	described := 0
	for i, w := range whole {
		if texts[i].Abstract != w.Abstract || texts[i].Description != w.Description {
			t.Errorf("Texts of %s: %+v, want %q, %q", w.ID, texts[i], w.Abstract, w.Description)
		}
		if texts[i].Description != "" {
			described++
		}
	}
	if described != 1 {
		t.Errorf("%d talks with a description, want 1", described)
	}
}

// TestListingSharesRepeatedValues: talks read apart (each value its own
// copy, as a JSON Lines file gives them) share their equal tracks, rooms,
// times, seed files and speakers once listed, with every field as given.
func TestListingSharesRepeatedValues(t *testing.T) {
	start := time.Date(2026, 4, 8, 10, 0, 0, 0, time.FixedZone("", 2*3600))
	var corpus []index.Talk
	for i, title := range []string{"Replication lag in practice", "Logical replication slots", "Vacuum tuning"} {
		st, end := start, start.Add(30*time.Minute)
		corpus = append(corpus, index.Talk{
			ID: fmt.Sprintf("talk-%d", i), Title: title, Kind: index.Kind(strings.Clone("talk")),
			Conference: index.Conference{ID: strings.Clone("pgconf"), Name: strings.Clone("PGConf")},
			Track:      strings.Clone("Databases"), Room: strings.Clone(fmt.Sprintf("Room %d", i%2)),
			Start: &st, End: &end, Scheduled: true, TimeZone: strings.Clone("Europe/Brussels"),
			Speakers: []index.Speaker{{Name: strings.Clone("Ada Lovelace"), Affiliation: strings.Clone("Postgres")}},
			Sources:  []string{strings.Clone("pgconf.xml")},
			Abstract: "About " + title,
		})
	}
	e, err := New(corpus)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	l := e.Listing()
	if len(l) != 3 {
		t.Fatalf("%d talks listed, want 3", len(l))
	}
	same := func(what string, a, b string) {
		t.Helper()
		if a != b || unsafe.StringData(a) != unsafe.StringData(b) {
			t.Errorf("%s: %q and %q are two copies", what, a, b)
		}
	}
	for _, b := range l[1:] {
		a := l[0]
		same("track", a.Track, b.Track)
		same("conference", a.Conference.Name, b.Conference.Name)
		same("zone", a.TimeZone, b.TimeZone)
		same("kind", string(a.Kind), string(b.Kind))
		same("speaker", a.Speakers[0].Name, b.Speakers[0].Name)
		same("affiliation", a.Speakers[0].Affiliation, b.Speakers[0].Affiliation)
		if &a.Speakers[0] != &b.Speakers[0] {
			t.Errorf("%s and %s: one speaker, two lists", a.ID, b.ID)
		}
		if a.Start != b.Start || a.End != b.End {
			t.Errorf("%s and %s: one slot, two copies of its times", a.ID, b.ID)
		}
		if &a.Sources[0] != &b.Sources[0] {
			t.Errorf("%s and %s: one seed file, two lists", a.ID, b.ID)
		}
	}
	// Schedule order: one start, then the titles; rooms 1, 0, 0.
	same("room", l[1].Room, l[2].Room)
	if l[0].Room == l[1].Room {
		t.Errorf("rooms %q and %q: want the two rooms given", l[0].Room, l[1].Room)
	}
	for _, tk := range l {
		var w index.Talk
		for _, c := range corpus {
			if c.ID == tk.ID {
				w = c
			}
		}
		w.Abstract = ""
		if !reflect.DeepEqual(tk, w) {
			t.Errorf("listed %+v, want %+v", tk, w)
		}
	}
}

package search

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/talksearch/talksearch/index"
)

// TestTextsOffTheDocs: the docs keep no abstract or description; the talk
// page, the corpus and highlights read them from the mapped store, and
// what they return stays whole once the engine is closed (unmapped).
func TestTextsOffTheDocs(t *testing.T) {
	defer func(n int) { index.MapTextMin = n }(index.MapTextMin)
	index.MapTextMin = 1 // the seeds' texts are mapped like a large corpus's
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
		w := whole[i]
		w.Abstract, w.Description = "", ""
		if !reflect.DeepEqual(*tk, w) {
			t.Fatalf("listed talk %d: %+v, want %+v", i, *tk, w)
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

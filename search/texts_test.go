package search

import (
	"context"
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

package search

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/talksearch/talksearch/index"
)

// TestHighlightWholeWords: abstract fragments start and end on word
// boundaries, keep every matched word, and only the title is whole.
func TestHighlightWholeWords(t *testing.T) {
	long := strings.Repeat("alpha beta gamma delta epsilon ", 10) + "the zeta-function matters " + strings.Repeat("eta theta iota kappa lambda ", 10)
	e, err := New([]index.Talk{
		{ID: "a", Title: "A Talk About Zeta", Abstract: long, Kind: index.KindTalk},
		{ID: "b", Title: "Another", Abstract: "nothing here", Kind: index.KindTalk},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	r, err := e.Search(context.Background(), Request{Query: "zeta"})
	if err != nil || len(r.Hits) != 1 {
		t.Fatalf("%v, %+v", err, r)
	}
	h := r.Hits[0].Highlights
	if len(h.Title) != 1 || h.Title[0] != "A Talk About <mark>Zeta</mark>" {
		t.Errorf("title highlight %q", h.Title)
	}
	if len(h.Abstract) != 1 {
		t.Fatalf("abstract highlights %q", h.Abstract)
	}
	frag := h.Abstract[0]
	if !strings.Contains(frag, "<mark>zeta</mark>-function") {
		t.Errorf("fragment lacks the match: %q", frag)
	}
	inner := strings.NewReplacer("<mark>", "", "</mark>", "").Replace(strings.Trim(frag, "…"))
	if !strings.HasPrefix(frag, "…") || !strings.HasSuffix(frag, "…") {
		t.Errorf("fragment of a long abstract not marked as cut: %q", frag)
	}
	words := strings.Fields(long)
	first, lastW := strings.Fields(inner)[0], strings.Fields(inner)[len(strings.Fields(inner))-1]
	if !slices.Contains(words, first) || !slices.Contains(words, lastW) {
		t.Errorf("fragment %q starts with %q or ends with %q, not whole words", frag, first, lastW)
	}
}

// TestHighlightOfManyMatches: an abstract where every word matches still
// gets its two best fragments, each of whole words, every matched word
// inside them marked.
func TestHighlightOfManyMatches(t *testing.T) {
	words := strings.Fields("alpha beta gamma delta epsilon zeta theta iota kappa lambda")
	var b strings.Builder
	for i := range 300 {
		b.WriteString(words[i%len(words)] + " ")
	}
	e, err := New([]index.Talk{
		{ID: "a", Title: "Greek", Abstract: b.String(), Kind: index.KindTalk},
		{ID: "b", Title: "Another", Abstract: "nothing here", Kind: index.KindTalk},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	r, err := e.Search(context.Background(), Request{Query: strings.Join(words, " ")})
	if err != nil || len(r.Hits) != 1 {
		t.Fatalf("%v, %+v", err, r)
	}
	frags := r.Hits[0].Highlights.Abstract
	if len(frags) != 2 {
		t.Fatalf("abstract fragments %q", frags)
	}
	for _, f := range frags {
		for _, w := range strings.Fields(strings.Trim(f, "…")) {
			if !strings.HasPrefix(w, "<mark>") || !strings.HasSuffix(w, "</mark>") || !slices.Contains(words, strings.TrimSuffix(strings.TrimPrefix(w, "<mark>"), "</mark>")) {
				t.Errorf("fragment %q: word %q is not a whole marked word", f, w)
			}
		}
	}
}

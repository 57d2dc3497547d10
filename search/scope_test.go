package search

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
)

// TestScope: a query that is a room's or a track's name, whole and folded
// as the facet folds it, reports it with its number of talks; the talks
// found are those whose text matches, as for any query.
func TestScope(t *testing.T) {
	talks := []index.Talk{
		{ID: "a", Title: "Borrow checking", Room: "H.2215", Track: "Rust", Kind: index.KindTalk},
		{ID: "b", Title: "Async traits", Room: "H.2215", Track: "Rust", Kind: index.KindTalk},
		{ID: "c", Title: "Goroutines", Room: "H.2215", Track: "Go", Kind: index.KindTalk},
		{ID: "d", Title: "Rust in the kernel", Room: "K.1.105", Track: "Kernel", Kind: index.KindTalk},
		{ID: "e", Title: "Mesh radios", Room: "AW1.120 (Chavanne)", Track: "Radio", Kind: index.KindTalk},
		{ID: "f", Title: "Satellites", Room: "AW1.121 (Chavanne)", Track: "Radio", Kind: index.KindTalk},
		{ID: "g", Title: "Lasers", Room: "UB2.252A (Lameere)", Track: "Radio", Kind: index.KindTalk},
	}
	e := newEngineT(t, talks, Options{})
	for _, tt := range []struct {
		query string
		want  *Scope
		total uint64
	}{
		{"H.2215", &Scope{Facet: "room", Value: "H.2215", Talks: 3}, 3},
		{" h 2215 ", &Scope{Facet: "room", Value: "H.2215", Talks: 3}, 3},
		{"kernel", &Scope{Facet: "track", Value: "Kernel", Talks: 1}, 1},
		{"rust", &Scope{Facet: "track", Value: "Rust", Talks: 2}, 3},
		{"rust kernel", nil, 3},
		{"track:rust", nil, 2},
		// Either part of a name with parentheses, when no other name
		// has it.
		{"AW1.120", &Scope{Facet: "room", Value: "AW1.120 (Chavanne)", Talks: 1}, 1},
		{"lameere", &Scope{Facet: "room", Value: "UB2.252A (Lameere)", Talks: 1}, 1},
		{"Chavanne", nil, 2},
		{"", nil, 7},
	} {
		r, err := e.Search(context.Background(), Request{Query: tt.query})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, r.Scope); diff != "" {
			t.Errorf("%q: scope (-want +got):\n%s", tt.query, diff)
		}
		if r.Total != tt.total {
			t.Errorf("%q: %d talks, want %d", tt.query, r.Total, tt.total)
		}
	}
}

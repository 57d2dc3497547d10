package search

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
)

// fixtureEngine builds an engine over testdata/talks.json: eight hand-made
// talks with two Monarch talks, a talk built on Monarch, a break, HTML-like
// text, talks without track, level or room, and a clash.
func fixtureEngine(t testing.TB) *Engine {
	t.Helper()
	b, err := os.ReadFile("testdata/talks.json")
	if err != nil {
		t.Fatal(err)
	}
	var talks []index.Talk
	if err := json.Unmarshal(b, &talks); err != nil {
		t.Fatalf("testdata/talks.json: %v", err)
	}
	e, err := New(&index.Corpus{Talks: talks})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func hitIDs(r *Result) []string {
	ids := []string{}
	for _, h := range r.Hits {
		ids = append(ids, h.ID)
	}
	return ids
}

func TestSearchFixture(t *testing.T) {
	e := fixtureEngine(t)
	ctx := context.Background()
	for _, q := range []string{"Monarch", "monrach", "KV cache", "torch.compile", "<1ms", "C++", `"unbalanced`, "MoE", "-coffee", "speaker:Hopper", "track:infer cache", "flexatention", "speculativ decoding", "coffee"} {
		r, err := e.Search(ctx, Request{Query: q})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		b, _ := json.MarshalIndent(r, "", " ")
		_ = b
		t.Logf("%q: %d %v dym=%q", q, r.Total, hitIDs(r), r.DidYouMean)
		for _, h := range r.Hits {
			t.Logf("   %s %.3f %q %q", h.ID, h.Score, h.Highlights.Title, h.Highlights.Abstract)
		}
	}
	d, err := e.Talk(ctx, "monarch-api")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", d.Related)
	_ = errors.Is
	_ = strings.Contains
	_ = cmp.Diff
}

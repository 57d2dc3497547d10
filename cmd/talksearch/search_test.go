package main

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/web"
)

// TestSearchJSON checks that `search --json` prints the API document.
func TestSearchJSON(t *testing.T) {
	out, stderr, err := runCmd(t, nil, "search", "--json", "--limit", "3", "KV", "cache")
	if err != nil || stderr != "" {
		t.Fatalf("search: %v, stderr %q", err, stderr)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not a JSON object: %v\n%s", err, out)
	}
	for k := range doc {
		if !slices.Contains([]string{"query", "total", "took_ms", "hits", "facets", "did_you_mean", "corrected", "synonyms", "simplified", "note"}, k) {
			t.Errorf("unexpected key %q", k)
		}
	}
	var r web.SearchDoc
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Query != "KV cache" || len(r.Hits) != 3 || r.Total < 3 {
		t.Fatalf("query %q, %d hits of %d", r.Query, len(r.Hits), r.Total)
	}
	if !strings.Contains(r.Hits[0].Title, "KV-Cache") || len(r.Hits[0].Highlights.Title) != 1 || !strings.Contains(r.Hits[0].Highlights.Title[0], "<mark>") {
		t.Errorf("first hit %q, title highlights %q", r.Hits[0].Title, r.Hits[0].Highlights.Title)
	}
	if len(r.Facets.Track) == 0 || r.Facets.Missing == nil {
		t.Errorf("facets %+v", r.Facets)
	}
}

func TestSearchText(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string // lines or parts of lines, in order
	}{
		{"typo", []string{"search", "--limit", "2", "Monrach"}, []string{
			"Showing results for: Monarch", "talks (", " 1. ", "[Monarch]", " 2. ", "track: "}},
		{"facet selection", []string{"search", "--track", "Inference & Production", "--limit", "1", "kv", "cache"}, []string{
			"talks (", " 1. ", "Inference & Production", "track: ", "*Inference & Production ("}},
		{"synonyms", []string{"search", "--limit", "1", "MoE"}, []string{"Also searched: MoE → mixture of experts"}},
		{"browse by time", []string{"search", "--sort", "time", "--limit", "1"}, []string{"talks (", " 1. Community Expo"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := runCmd(t, nil, tt.args...)
			if err != nil {
				t.Fatal(err)
			}
			rest := out
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("output lacks %q (in order):\n%s", w, out)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}

func TestSearchBadRequest(t *testing.T) {
	_, _, err := runCmd(t, nil, "search", "--limit", "101", "x")
	if !errors.Is(err, search.ErrInvalid) || !strings.Contains(err.Error(), "limit 101") {
		t.Errorf("err = %v, want ErrInvalid about the limit", err)
	}
}

func TestRelated(t *testing.T) {
	out, _, err := runCmd(t, nil, "search", "--json", "title:monarch")
	if err != nil {
		t.Fatal(err)
	}
	var r web.SearchDoc
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Hits) != 2 {
		t.Fatalf("title:monarch: %v, %s", err, out)
	}
	out, _, err = runCmd(t, nil, "related", r.Hits[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	if lines[0] != r.Hits[0].Title || !strings.Contains(out, " 1. "+r.Hits[1].Title) || !strings.Contains(out, "shares: monarch") {
		t.Errorf("related %s:\n%s", r.Hits[0].ID, out)
	}
	out, _, err = runCmd(t, nil, "related", "--json", r.Hits[0].ID)
	var d web.TalkDoc
	if err != nil || json.Unmarshal([]byte(out), &d) != nil || d.ID != r.Hits[0].ID || len(d.Related) == 0 || d.Related[0].ID != r.Hits[1].ID {
		t.Errorf("related --json: %v\n%s", err, out)
	}
	if _, _, err := runCmd(t, nil, "related", "no-such-talk"); !errors.Is(err, search.ErrNotFound) {
		t.Errorf("unknown id: %v, want ErrNotFound", err)
	}
}

package web

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/search/overlap"
)

// The documents' JSON is the API's contract: every key, arrays for lists
// the engine left nil, null for values a talk does not have.
func TestDocumentsOfEmptyValues(t *testing.T) {
	for _, tt := range []struct {
		name   string
		encode func() ([]byte, error)
		want   string
	}{
		{"search", func() ([]byte, error) { return SearchJSON(&search.Result{Query: "q"}) },
			`{"query":"q","total":0,"took_ms":0,"hits":[],"facets":{"track":[],"level":[],"room":[],"day":[],"kind":[],"conference":[],"language":[],"missing":{}},"did_you_mean":null,"corrected":false}`},
		{"hit", func() ([]byte, error) {
			return SearchJSON(&search.Result{Hits: []search.Hit{{ID: "x", Kind: index.KindTalk}}, DidYouMean: "y"})
		}, `{"query":"","total":0,"took_ms":0,"hits":[{"id":"x","title":"","speakers":[],"track":null,"level":null,"room":null,"start":null,"end":null,"kind":"talk","scheduled":false,"cancelled":false,"score":0,"highlights":{"title":[],"abstract":[],"description":[],"speakers":[]}}],"facets":{"track":[],"level":[],"room":[],"day":[],"kind":[],"conference":[],"language":[],"missing":{}},"did_you_mean":"y","corrected":false}`},
		{"scope", func() ([]byte, error) {
			return SearchJSON(&search.Result{Query: "H.2215", Scope: &search.Scope{Facet: "room", Value: "H.2215", Talks: 412}})
		}, `{"query":"H.2215","total":0,"took_ms":0,"hits":[],"facets":{"track":[],"level":[],"room":[],"day":[],"kind":[],"conference":[],"language":[],"missing":{}},"did_you_mean":null,"corrected":false,"scope":{"facet":"room","value":"H.2215","talks":412}}`},
		{"talk", func() ([]byte, error) {
			return TalkJSON(&search.TalkDetail{Talk: index.Talk{ID: "x", Kind: index.KindTalk}, Related: []search.Related{{ID: "y"}}})
		}, `{"id":"x","conference":{"id":"","name":""},"title":"","kind":"talk","scheduled":false,"sources":[],"related":[{"id":"y","title":"","score":0,"shared_terms":[],"clash":false}]}`},
		{"overlaps", func() ([]byte, error) { return OverlapsJSON(overlap.Detect(nil, overlap.Options{})) },
			`{"pairs":[],"clusters":[],"clashes":[],"merged":[],"conflicts":[],"resubmissions":[],"recurring":[],"totals":{"pairs":0,"clusters":0,"clashes":0,"conflicts":0,"resubmissions":0,"recurring":0,"merged":0,"decisions":0,"rows":0,"kept":0,"repaired":0,"merged_rows":0,"skipped":0}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.encode()
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("JSON\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// A detected pair has every key of the contract.
func TestPairDocumentKeys(t *testing.T) {
	abstract := "We show how Monarch actors orchestrate reinforcement learning, with weights synchronized over RDMA between trainers and rollout workers."
	rep := overlap.Detect([]index.Talk{
		{ID: "x", Title: "Monarch Actors for RL", Abstract: abstract, Kind: index.KindTalk},
		{ID: "y", Title: "Monarch Actors for RL", Abstract: abstract, Kind: index.KindTalk},
	}, overlap.Options{})
	b, err := OverlapsJSON(rep)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Pairs []map[string]any }
	if err := json.Unmarshal(b, &doc); err != nil || len(doc.Pairs) != 1 {
		t.Fatalf("%v: %s", err, b)
	}
	for _, k := range []string{"a", "b", "score", "kind", "shared_terms", "passages", "title_a", "title_b", "resemblance"} {
		if _, ok := doc.Pairs[0][k]; !ok {
			t.Errorf("pair JSON lacks %q: %s", k, b)
		}
	}
	if len(doc.Pairs[0]) != 9 {
		t.Errorf("pair JSON has %d keys, want 9: %s", len(doc.Pairs[0]), b)
	}
}

// TestAPIJSONIsEncodingJSON: the API writes the bytes encoding/json writes
// for every answer of the seeds (a search for each word of the talks'
// titles and for odd text, every talk, and the overlaps), escaping
// included, so that no change of encoder can change the contract.
func TestAPIJSONIsEncodingJSON(t *testing.T) {
	_, e := newRealHandler(t)
	ctx := context.Background()
	same := func(what string, got []byte, err error, doc any) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		want, err := json.Marshal(doc)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: the API's JSON differs from encoding/json's:\n got %s\nwant %s", what, got, want)
		}
	}
	queries := []string{"", `<script>alert("x")</script> & 'quotes' \ /`, "naïve “quoted” — ✓ \u2028 \x7f", "Monrach", `"KV cache" -rocm`}
	for _, tk := range e.Talks() {
		queries = append(queries, strings.Fields(tk.Title)...)
		res, err := e.Talk(ctx, tk.ID)
		if err != nil {
			t.Fatal(err)
		}
		body, err := TalkJSON(res)
		same("talk "+tk.ID, body, err, NewTalkDoc(res))
	}
	for _, q := range queries {
		res, err := e.Search(ctx, search.Request{Query: q, Limit: 20})
		if err != nil {
			t.Fatal(err)
		}
		body, err := SearchJSON(res)
		same("search "+q, body, err, NewSearchDoc(res))
	}
	rep, err := overlap.NewReports(e).Overlaps(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	body, err := OverlapsJSON(rep)
	same("overlaps", body, err, NewOverlapsDoc(rep))
}

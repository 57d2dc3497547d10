package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSearchJSONIsTheAPIDocument: `search --json Q` and GET /api/search?q=Q
// are one document (web encodes both), but for took_ms, the time each took.
func TestSearchJSONIsTheAPIDocument(t *testing.T) {
	base, _, _ := startServe(t, []string{"serve", "--addr", "127.0.0.1:0"}, nil)
	for _, q := range []string{"KV cache", "monrach", "nothing matches zzqx", ""} {
		t.Run(q, func(t *testing.T) {
			cli, stderr, err := runCmd(t, nil, "search", "--json", q)
			if err != nil || stderr != "" {
				t.Fatalf("search --json: %v, stderr %q", err, stderr)
			}
			resp, err := http.Get(base + "api/search?q=" + url.QueryEscape(q))
			if err != nil {
				t.Fatal(err)
			}
			api, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || resp.StatusCode != http.StatusOK {
				t.Fatalf("GET: %v, status %d", err, resp.StatusCode)
			}
			doc := func(b []byte) map[string]any {
				var m map[string]any
				if err := json.Unmarshal(b, &m); err != nil {
					t.Fatalf("not JSON: %v\n%s", err, b)
				}
				if _, ok := m["took_ms"].(float64); !ok {
					t.Fatalf("took_ms is %v", m["took_ms"])
				}
				delete(m, "took_ms")
				return m
			}
			if diff := cmp.Diff(doc(api), doc([]byte(cli))); diff != "" {
				t.Errorf("documents differ (-api +cli):\n%s", diff)
			}
		})
	}
}

package web

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkPages measures whole requests through the router on the real
// seeds (engine cache warm after the first iteration), with gzip as a
// browser asks for it.
//
//	go test ./web -run '^$' -bench Pages -benchtime 2s
func BenchmarkPages(b *testing.B) {
	h, e := newRealHandler(b)
	for _, bm := range []struct{ name, target string }{
		{"search_page", "/?q=kv+cache&track=Inference+%26+Production"},
		{"search_fragment", "/?q=kv+cache"},
		{"browse_page", "/"},
		{"talk_page", "/talks/" + talkByTitle(b, e, monarchAPI).ID},
		{"api_search", "/api/search?q=kv+cache"},
		{"overlaps_page", "/overlaps"},
	} {
		b.Run(bm.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, bm.target, nil)
			req.Header.Set("Accept-Encoding", "gzip")
			if bm.name == "search_fragment" {
				req.Header.Set(HeaderFragment, "1")
			}
			b.ReportAllocs()
			for b.Loop() {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d", rec.Code)
				}
			}
		})
	}
}

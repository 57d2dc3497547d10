package web

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/rs/zerolog"
)

// BenchmarkPages measures whole requests through the router on the real
// seeds, with gzip as a browser asks for it: "kept" answers from the
// response cache (after the first iteration), "made" with it off, so every
// request renders (the engine's result cache stays on).
//
//	go test ./web -run '^$' -bench Pages -benchtime 2s
func BenchmarkPages(b *testing.B) {
	kept, e := newRealHandler(b)
	made, err := NewHandler(served(e), zerolog.Nop(), Options{CacheBytes: -1})
	if err != nil {
		b.Fatal(err)
	}
	for _, bm := range []struct{ name, target string }{
		{"search_page", "/?q=kv+cache&track=Inference+%26+Production"},
		{"search_fragment", "/?q=kv+cache"},
		{"browse_page", "/"},
		{"talk_page", "/talks/" + talkByTitle(b, e, monarchAPI).ID},
		{"api_search", "/api/search?q=kv+cache"},
		{"overlaps_page", "/overlaps"},
	} {
		for _, hv := range []struct {
			name string
			h    http.Handler
		}{{"kept", kept}, {"made", made}} {
			b.Run(bm.name+"/"+hv.name, func(b *testing.B) {
				req := httptest.NewRequest(http.MethodGet, bm.target, nil)
				req.Header.Set("Accept-Encoding", "gzip")
				if bm.name == "search_fragment" {
					req.Header.Set(HeaderFragment, "1")
				}
				b.ReportAllocs()
				for b.Loop() {
					rec := httptest.NewRecorder()
					hv.h.ServeHTTP(rec, req)
					if rec.Code != http.StatusOK {
						b.Fatalf("status %d", rec.Code)
					}
				}
			})
		}
	}
}

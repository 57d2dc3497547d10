package search

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
)

// hostileQuery is a query of random non-words up to n characters, as
// hostile clients send them: new every time, up to the length bound.
func hostileQuery(r *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n-12 {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		for range 3 + r.IntN(8) {
			b.WriteByte(byte('a' + r.IntN(26)))
		}
	}
	return b.String()
}

// TestQueryAnalysisCacheIsBounded: distinct query text, which a client can
// send without end, must not grow the cache of its analysis and with it
// the server's RSS: the cache is bounded in bytes, evicts, and starts
// empty with every generation.
func TestQueryAnalysisCacheIsBounded(t *testing.T) {
	_, c := seedEngine(t)
	e := freshSeedEngine(t)
	s := e.snap.Load()
	r := rand.New(rand.NewPCG(16, 16))
	const queries = 3000 // about 2.2 KiB of analysis each: 6.6 MiB unbounded
	for range queries {
		if ts := s.tokens(hostileQuery(r, 400)); len(ts) == 0 {
			t.Fatal("a query of words analyses to nothing")
		}
	}
	if w := s.tokenCache.weight(); w > TokenCacheBytes || w < TokenCacheBytes/2 {
		t.Errorf("query analysis cache weighs %d bytes after %d distinct queries, want at most %d and not empty", w, queries, TokenCacheBytes)
	}
	if n := s.tokenCache.len(); n >= queries {
		t.Errorf("query analysis cache keeps all %d queries", n)
	}
	if _, err := e.Search(context.Background(), Request{Query: "monarch"}); err != nil {
		t.Fatal(err)
	}
	if err := e.Replace(c.Talks); err != nil {
		t.Fatal(err)
	}
	next := e.snap.Load()
	if n := next.tokenCache.len(); n != 0 {
		t.Errorf("a new generation starts with %d analysed queries, want 0", n)
	}
	if next.analyzer == s.analyzer {
		t.Error("two generations share one analyzer (and its stem cache)")
	}
	if n := next.stats.words.len(); n == 0 || n > wordCacheSize {
		t.Errorf("word cache of the new generation keeps %d words, want some, at most %d", n, wordCacheSize)
	}
}

// TestResultCacheBoundedInBytes: CacheSize small results fit, a large one
// (100 hits with highlights) takes the room of several.
func TestResultCacheBoundedInBytes(t *testing.T) {
	c := newResultCache(4)
	for i := range 6 {
		c.put(strings.Repeat("k", i+1), &Result{Query: "small"})
	}
	if n := c.len(); n != 4 {
		t.Errorf("%d small results kept, want 4", n)
	}
	big := &Result{}
	for range 100 {
		big.Hits = append(big.Hits, Hit{Title: strings.Repeat("t", 100), Highlights: Highlights{Abstract: []string{strings.Repeat("a", 300)}}})
	}
	if b := big.approxBytes(); b < 60<<10 {
		t.Fatalf("100 hits estimated at %d bytes", b)
	}
	c = newResultCache(4)
	for i := range 4 {
		c.put(strings.Repeat("b", i+1), big)
	}
	if n, w := c.len(), c.weight(); n > 1 || w > 4*resultSlot {
		t.Errorf("large results: %d kept weighing %d, want at most 1 within %d", n, w, 4*resultSlot)
	}
}

// TestSimplifiedResultsAreNotKept: the answer to a query the cost model
// simplified (the 400 characters of a hostile client, new every time) is
// not kept in the result cache, where it would push out the answers
// people ask for again and hold memory every garbage collection marks; an
// ordinary query's answer is kept.
func TestSimplifiedResultsAreNotKept(t *testing.T) {
	e := freshSeedEngine(t)
	s := e.snap.Load()
	g := newHostileGen(7, seedTitles(t))
	for _, shape := range hostileShapes {
		q := g.query(shape.next)
		r, err := e.Search(context.Background(), Request{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Simplified {
			t.Fatalf("%s: %q not simplified", shape.name, q)
		}
	}
	if n := s.cache.len(); n != 0 {
		t.Errorf("%d simplified answers kept, want 0", n)
	}
	for _, q := range []string{"monarch", "KV cache", `"distributed training" -monarch`} {
		if _, err := e.Search(context.Background(), Request{Query: q}); err != nil {
			t.Fatal(err)
		}
	}
	if n := s.cache.len(); n != 3 {
		t.Errorf("%d ordinary answers kept, want 3", n)
	}
}

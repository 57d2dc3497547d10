package analysis

import (
	"fmt"
	"testing"

	"github.com/blevesearch/bleve/v2/registry"
)

// TestStemCacheIsBounded: distinct query words, which a client can send
// without end, must not grow the stem cache and with it the server's RSS:
// each cache is bounded in bytes and evicts.
func TestStemCacheIsBounded(t *testing.T) {
	c := newStemCache()
	const words = 100_000
	for i := range words {
		w := fmt.Sprintf("zq%dxw", i)
		if got := string(c.stem([]byte(w))); got == "" {
			t.Fatalf("stem(%s) is empty", w)
		}
	}
	c.c.CleanUp()
	if w := c.c.WeightedSize(); w > StemCacheBytes {
		t.Errorf("stem cache weighs %d bytes after %d words, above its bound %d", w, words, StemCacheBytes)
	}
	if n := c.len(); n >= words || n == 0 {
		t.Errorf("stem cache keeps %d of %d distinct words, want some, not all", n, words)
	}
	if got := string(c.stem([]byte("running"))); got != "run" {
		t.Errorf("stem(running) = %q after the evictions", got)
	}
}

// TestAnalyzerPerIndexMapping: each index mapping (a Bleve registry cache)
// builds its own analyzer, so a stem cache lives and dies with one index
// generation and none is global.
func TestAnalyzerPerIndexMapping(t *testing.T) {
	a, err := registry.NewCache().AnalyzerNamed(AnalyzerName)
	if err != nil {
		t.Fatal(err)
	}
	b, err := registry.NewCache().AnalyzerNamed(AnalyzerName)
	if err != nil {
		t.Fatal(err)
	}
	if a == b {
		t.Error("two registry caches share one talk analyzer (and its stem cache)")
	}
	if got := termsOf(a.Analyze([]byte("Running kernels"))); len(got) != 2 || got[0] != "run" || got[1] != "kernel" {
		t.Errorf("the registry's analyzer makes %v of \"Running kernels\"", got)
	}
}

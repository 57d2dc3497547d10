package search

import (
	"context"
	"os"
	"strings"
	"testing"
)

func TestZZDebug(t *testing.T) {
	qs := os.Getenv("ZZQ")
	if qs == "" {
		t.Skip()
	}
	e, _ := fosdemEngine(t)
	for _, q := range strings.Split(qs, "|") {
		r, err := e.Search(context.Background(), Request{Query: q, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%q total %d syn %v dym %q", q, r.Total, r.Synonyms, r.DidYouMean)
		for _, h := range r.Hits {
			t.Logf("   %.3f %s", h.Score, h.Title)
		}
	}
}

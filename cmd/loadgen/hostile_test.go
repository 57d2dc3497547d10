package main

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestHostileQueries(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	seen := map[string]bool{}
	quoted, dotted, long := 0, 0, 0
	for range 500 {
		q := hostileQuery(r)
		if n := utf8.RuneCountInString(q); n == 0 || n > hostileMaxRunes {
			t.Fatalf("query of %d characters: %q", n, q)
		}
		if seen[q] {
			t.Fatalf("query repeated: %q", q)
		}
		seen[q] = true
		if strings.Count(q, `"`) > 2 {
			quoted++
		}
		if strings.Contains(q, ".") {
			dotted++
		}
		if utf8.RuneCountInString(q) > 300 {
			long++
		}
	}
	if quoted < 100 || dotted < 100 || long < 400 {
		t.Errorf("of 500 queries %d with phrases, %d dotted, %d over 300 characters", quoted, dotted, long)
	}
}

func TestTookOf(t *testing.T) {
	for _, tt := range []struct {
		body string
		want float64
		ok   bool
	}{
		{`{"query":"x","total":3,"took_ms":1.25,"hits":[]}`, 1.25, true},
		{`{"took_ms":0.4}`, 0.4, true},
		{`{"error":"x"}`, 0, false},
	} {
		got, ok := tookOf([]byte(tt.body))
		if got != tt.want || ok != tt.ok {
			t.Errorf("tookOf(%s) = %v, %v", tt.body, got, ok)
		}
	}
}

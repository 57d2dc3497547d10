package analysis

import (
	"sync"
	"testing"
)

func TestShingles(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want int // shared shingles
	}{
		{"typographic variants fold", "Léonard’s KV–cache talk", "Leonard's KV-cache talk", 3},
		{"one word edited", "one two three four five", "one two THREE four six", 2},
		{"different order", "alpha beta gamma", "gamma beta alpha", 0},
		{"too short", "two words", "two words", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := Shingles(tt.a), Shingles(tt.b)
			shared := 0
			for _, x := range a {
				for _, y := range b {
					if x == y {
						shared++
					}
				}
			}
			if shared != tt.want {
				t.Errorf("shared %d shingles, want %d (%v, %v)", shared, tt.want, a, b)
			}
		})
	}
	if got := Shingles("a b c a b c"); len(got) != 3 {
		t.Errorf("repeated shingles: %v, want 3 distinct", got)
	}
}

// Overlap detection folds texts from several goroutines; run with -race.
func TestShinglesConcurrent(t *testing.T) {
	want := Shingles("Über große Modelle und Léonard’s Kernels")
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				if got := Shingles("Über große Modelle und Léonard’s Kernels"); len(got) != len(want) || got[0] != want[0] {
					t.Errorf("got %v, want %v", got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// FoldText skips the accent stripping on ASCII text; both paths must give
// the same forms.
func TestFoldText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Plain ASCII Title", "plain ascii title"},
		{"It`s a `tick`", "it's a 'tick'"},
		{"Léonard’s KV–cache", "leonard's kv-cache"},
		{"Ünïcödé\u00a0spaces", "unicode spaces"},
		{"Straße", "straße"},
		{"bad \xff byte", "bad   byte"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := FoldText(tt.in); got != tt.want {
			t.Errorf("FoldText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

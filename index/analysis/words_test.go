package analysis

import "testing"

func TestWordLists(t *testing.T) {
	tests := []struct {
		word              string
		stop, fn, generic bool
	}{
		{"the", true, true, false},
		{"how", true, true, false},
		{"all", false, true, false}, // all-to-all must stay findable
		{"up", false, true, false},  // scale up
		{"not", false, true, false},
		{"pytorch", false, false, true},
		{"attendees", false, false, true},
		{"monarch", false, false, false},
		{"kv", false, false, false},
	}
	generic := map[string]bool{}
	for _, w := range GenericTerms() {
		generic[w] = true
	}
	for _, tt := range tests {
		if got := IsStopWord(tt.word); got != tt.stop {
			t.Errorf("IsStopWord(%q) = %v, want %v", tt.word, got, tt.stop)
		}
		if got := IsFunctionWord(tt.word); got != tt.fn {
			t.Errorf("IsFunctionWord(%q) = %v, want %v", tt.word, got, tt.fn)
		}
		if generic[tt.word] != tt.generic {
			t.Errorf("GenericTerms has %q: %v, want %v", tt.word, generic[tt.word], tt.generic)
		}
	}
	for _, w := range GenericTerms() {
		if IsFunctionWord(w) {
			t.Errorf("%q is in both lists", w)
		}
	}
}

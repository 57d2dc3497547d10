package search

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/talksearch/talksearch/index"
)

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b  string
		bound int
		want  int
	}{
		{"monarch", "monarch", 2, 0},
		{"monrach", "monarch", 2, 1}, // a swap of neighbours is one edit
		{"torchtittan", "torchtitan", 2, 1},
		{"flexatention", "flexattention", 2, 1},
		{"speculativ", "speculative", 2, 1},
		{"kitten", "sitting", 3, 3},
		{"kitten", "sitting", 1, 2}, // anything above the bound
		{"", "abc", 3, 3},
		{"abc", "", 3, 3},
		{"ab", "abcdef", 2, 3},
		{"日本語", "日本", 2, 1},
	}
	var r editRows
	for _, tt := range tests {
		got := r.distance([]rune(tt.a), []rune(tt.b), tt.bound)
		if got != tt.want && !(tt.want > tt.bound && got > tt.bound) {
			t.Errorf("distance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.bound, got, tt.want)
		}
	}
}

func TestVocabularyCorrections(t *testing.T) {
	v := newVocabulary([]index.Talk{
		{Title: "Monarch and Monarch", Abstract: "FlexAttention, speculative decoding, debugging and debug tools"},
		{Title: "Monarchs", Abstract: "speculative decoding for LLMs; a debugging story"},
		{Title: "Torchtitan", Abstract: "March madness"},
	})
	tests := []struct {
		word   string
		fix    []string
		family []string
	}{
		{"monrach", []string{"monarch"}, nil},
		{"torchtittan", []string{"torchtitan"}, nil},
		{"flexatention", []string{"flexattention"}, nil},
		{"speculativ", []string{"speculative"}, nil},
		{"monarch", nil, nil}, // known: nothing to correct
		{"mrach", []string{"march"}, nil},
		{"qqqqqqq", nil, nil},
		{"debugger", nil, []string{"debugging"}}, // the longest shared prefix wins
		{"llm", nil, nil},                        // too short to guess
	}
	for _, tt := range tests {
		got := v.correctWithin(tt.word, maxEdits(len([]rune(tt.word))), 2)
		if diff := cmp.Diff(tt.fix, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("correct(%q) (-want +got):\n%s", tt.word, diff)
		}
		if tt.family != nil {
			if diff := cmp.Diff(tt.family, v.family(tt.word, 2)); diff != "" {
				t.Errorf("family(%q) (-want +got):\n%s", tt.word, diff)
			}
		}
	}
}

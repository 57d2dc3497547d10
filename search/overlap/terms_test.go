package overlap

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"torch.compile's C++ wrapper", []string{"torch.compile's", "C", "wrapper"}},
		{"KV-cache, <1ms; Monarch’s 3.2× speedup.", []string{"KV", "cache", "1ms", "Monarch’s", "3.2", "speedup"}},
		{"end. Next", []string{"end", "Next"}},
		{"", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, sp := range tokenize(tt.in) {
			got = append(got, tt.in[sp.start:sp.end])
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("tokenize(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestSentences(t *testing.T) {
	text := "First one. Second one!\n- a list item\n\n  Third? yes.e.g. kept"
	var got []string
	for _, sp := range sentences(text) {
		got = append(got, text[sp.start:sp.end])
	}
	// "e.g. kept" splits too: the cost of a plain splitter (see sentences).
	want := []string{"First one.", "Second one!", "- a list item", "Third?", "yes.e.g.", "kept"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sentences (-want +got):\n%s", diff)
	}
}

// Generic words never become terms; phrases add the term of their name.
func TestOccurrences(t *testing.T) {
	a := newTextAnalyzer()
	text := "We present PyTorch training on GPUs with reinforcement learning and CUDA Graphs."
	var got []string
	for _, o := range a.occurrences(text, tokenize(text)) {
		got = append(got, o.term)
	}
	want := []string{"reinforc", "rl", "cuda", "graph", "cudagraph"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("terms (-want +got):\n%s", diff)
	}
}

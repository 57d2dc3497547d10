package overlap

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

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

// Generic words never become terms; names written in words add the term of
// the name, after their words; the terms are the index's (C++ is cpp,
// torch.compile is torch and compile), each with the words that carry it.
func TestOccurrences(t *testing.T) {
	a := newTextAnalyzer()
	tests := []struct {
		text string
		want []string // term=form
	}{
		{"We present PyTorch training on GPUs with reinforcement learning and CUDA Graphs.",
			[]string{"reinforc=reinforcement", "rl=reinforcement learning", "cuda=CUDA", "graph=Graphs", "cudagraph=CUDA Graphs"}},
		{"torch.compile's C++ wrapper", []string{"compil=compile", "torchcompil=torch.compile", "cpp=C++", "wrapper=wrapper"}},
		{"Mixture-of-Experts and mixture of experts; KV-cache", []string{
			"mixtur=Mixture", "expert=Experts", "moe=Mixture-of-Experts", "mixtur=mixture", "expert=experts",
			"moe=mixture of experts", "kv=KV", "cach=cache", "kvcach=KV-cache"}},
		{"Monarch’s 3.2× speedup in <1ms", []string{"monarch=Monarch", "speedup=speedup", "1ms=1ms"}},
	}
	for _, tt := range tests {
		var got []string
		for _, o := range a.occurrences(tt.text) {
			got = append(got, o.term+"="+o.form(tt.text))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%q: terms (-want +got):\n%s", tt.text, diff)
		}
	}
}

package analysis

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAnalyzeTerms pins what the talk analyzer makes of the technical
// tokens readers type. Rows that must agree (KV-cache / KV cache / KV
// caching) are checked against each other below as well.
func TestAnalyzeTerms(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"dotted api", "torch.compile", []string{"torch", "compil"}},
		{"bare part of dotted api", "compile", []string{"compil"}},
		{"dotted api capitalised, possessive", "Torch.compile's graph", []string{"torch", "compil", "graph"}},
		{"hyphenated stop words survive", "all-to-all", []string{"all", "to", "all"}},
		{"spaced stop words leave a gap", "all to all", []string{"all", "all"}},
		{"only stop words are kept", "to be or", []string{"to", "be", "or"}},
		{"not is no stop word", "to be or not", []string{"not"}},
		{"c plus plus", "C++", []string{"cpp"}},
		{"c plus plus in text", "a C++ custom op", []string{"cpp", "custom", "op"}},
		{"c sharp", "C# bindings", []string{"csharp", "bind"}},
		{"lone c stays c", "the C language", []string{"c", "languag"}},
		{"hyphenated kv cache", "KV-cache", []string{"kv", "cach"}},
		{"spaced kv cache", "KV cache", []string{"kv", "cach"}},
		{"kv caching", "KV caching", []string{"kv", "cach"}},
		{"fp8", "FP8", []string{"fp8"}},
		{"float8 is fp8", "float8", []string{"fp8"}},
		{"bfloat16 is bf16", "BFloat16 and FP16", []string{"bf16", "fp16"}},
		{"model with version", "DeepSeek-V3", []string{"deepseek", "v3"}},
		{"model versions with slash", "DeepSeek-V3/R1", []string{"deepseek", "v3", "r1"}},
		{"vendor float format", "NVFP4", []string{"nvfp4", "fp4"}},
		{"mx float format", "MXFP8", []string{"mxfp8", "fp8"}},
		{"gpu family", "MI300", []string{"mi300"}},
		{"gpu variant finds family", "MI300X", []string{"mi300x", "mi300"}},
		{"gpu class", "MI300-class clusters", []string{"mi300", "class", "cluster"}},
		{"latency bound", "<1ms", []string{"1ms"}},
		{"latency bound in text", "achieves <1ms random read", []string{"achiev", "1ms", "random", "read"}},
		{"vllm", "vLLM", []string{"vllm"}},
		{"llm-d", "llm-d", []string{"llm", "d"}},
		{"pytorch", "PyTorch", []string{"pytorch"}},
		{"torchtitan", "TorchTitan", []string{"torchtitan"}},
		{"flexattention", "FlexAttention", []string{"flexattent"}},
		{"acronym plurals", "GPUs, LLMs, APIs and B300s", []string{"gpu", "llm", "api", "b300"}},
		{"acronym plurals typed in lower case", "gpus llms apis", []string{"gpu", "llm", "api"}},
		{"k8s is kubernetes", "K8s and Kubernetes", []string{"kubernet", "kubernet"}},
		{"single-letter compounds join", "I/O, e.g. this", []string{"io"}},
		{"curly possessive", "Monarch’s actors", []string{"monarch", "actor"}},
		{"identifier parts", "TORCH_TARGET_VERSION", []string{"torch", "target", "version"}},
		{"versions stay whole", "v0.6.0 and 2.5", []string{"v0.6.0", "2.5"}},
		{"compound keeps of", "Mixture-of-Experts (MoE)", []string{"mixtur", "of", "expert", "moe"}},
		{"spaced long form drops of", "mixture of experts", []string{"mixtur", "expert"}},
		{"slash pair", "AI/ML", []string{"ai", "ml"}},
		{"url", "https://github.com/TorchJD/torchjd", []string{"https", "github", "com", "torchjd", "torchjd"}},
		{"hyphen prefix words", "multi-GPU, post-training", []string{"multi", "gpu", "post", "train"}},
		{"word variants", "speculative decoding decoders", []string{"specul", "decod", "decod"}},
		{"empty", "", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, AnalyzeTerms(tt.text)); diff != "" {
				t.Errorf("AnalyzeTerms(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

// Positions and offsets decide phrase matching and highlighting: parts of a
// compound are consecutive, a removed stop word leaves a gap, a variant's
// family shares its position, "C++" is marked whole.
func TestAnalyzerPositionsAndOffsets(t *testing.T) {
	type tok struct {
		Term       string
		Pos, Start int
		End        int
	}
	tests := []struct {
		text string
		want []tok
	}{
		{"use torch.compile now", []tok{{"use", 1, 0, 3}, {"torch", 2, 4, 9}, {"compil", 3, 10, 17}, {"now", 4, 18, 21}}},
		{"mixture of experts", []tok{{"mixtur", 1, 0, 7}, {"expert", 3, 11, 18}}},
		{"MI300X C++", []tok{{"mi300x", 1, 0, 6}, {"mi300", 1, 0, 6}, {"cpp", 2, 7, 10}}},
	}
	for _, tt := range tests {
		var got []tok
		for _, tk := range NewAnalyzer().Analyze([]byte(tt.text)) {
			got = append(got, tok{string(tk.Term), tk.Position, tk.Start, tk.End})
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.text, diff)
		}
	}
}

// TestTokens: each term comes with the bytes that carry it, so callers can
// show and mark what the text wrote ("C++", "Monarch’s"), and positions keep
// the gap of a removed stop word.
func TestTokens(t *testing.T) {
	text := "Monarch’s C++ API and the KV-cache"
	var got []string
	for _, tok := range Tokens(text) {
		got = append(got, fmt.Sprintf("%s=%s@%d", tok.Term, text[tok.Start:tok.End], tok.Position))
	}
	want := []string{"monarch=Monarch’s@1", "cpp=C++@2", "api=API@3", "kv=KV@6", "cach=cache@7"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tokens (-want +got):\n%s", diff)
	}
}

package overlap

import (
	"testing"
)

// seedPair names two seed talks by the start of their title or abstract
// (see talkBy).
type seedPair struct{ a, b, why string }

// mustSee are the pairs of the seeds a programme committee must be shown,
// found by reading the 73 seed talks: two talks on one named system or one
// technique, which a committee would merge, schedule apart or at least
// compare.
var mustSee = []seedPair{
	{"Torch-Spyre", "Building a PyTorch‑native VLLM Plugin for IBM Spyre", "IBM Spyre: the compiler and the vLLM plugin"},
	{"PyTorch Symmetric Memory", "Birds of A Feather: NCCL in the Wild", "NCCL device APIs and NCCL at scale"},
	{"Monarch: An API", "Bringing PyTorch Monarch to AMD", "Monarch, twice"},
	{"Bringing PyTorch Monarch to AMD", "Asynchronous Reinforcement Learning (AsyncRL)", "Monarch actors for async RL"},
	{"KV-Cache Centric Inference", "Not All Tokens Are Equal", "KV-cache aware serving"},
	{"KV-Cache Centric Inference", "Inside VLLM's KV Offloading Connector", "KV-cache offloading in vLLM"},
	{"Birds of A Feather: Disaggregated Tokenization", "Beyond the Theory: What Actually Breaks", "disaggregated prefill/decode serving"},
	{"Pluggable PyTorch LLM Inference Architecture", "Building a PyTorch‑native VLLM Plugin for IBM Spyre", "vLLM hardware plugins"},
	{"Optimizing Large MoE Inference on NVIDIA Blackwell", "DualPipe from Scratch", "DeepSeek-V3 MoE parallelism, DualPipe"},
	{"Modern GPUs are fast enough that CPU kernel launch overhead", "Accelerating PyTorch Models With Torch.compile's C++ Wrapper", "CPU launch overhead, CUDA Graphs"},
	{"From Responses To Trajectories", "This talk will dive into how we implemented and optimized reinforcement learning", "RL post-training at scale"},
	{"Asynchronous Reinforcement Learning (AsyncRL)", "This talk will dive into how we implemented and optimized reinforcement learning", "RL post-training infrastructure"},
}

// acceptable are pairs that are not must-see but that a committee would
// not mind seeing at the top: they share a real subject, not only words.
var acceptable = []seedPair{
	{"Accelerating Complex-Valued Tensors With Torch.compile", "torch.compile is the goto mechanism", "both about how torch.compile itself works"},
	{"From Hugging Face To Handheld", "Deploying PyTorch Models To the Browser", "exporting Hugging Face models to run on devices and in browsers"},
}

// The committee's pairs are in the top 30 (recall at least 0.9) and the top
// 10 holds nothing else (precision at least 0.9).
func TestSeedMustSeeRecallPrecision(t *testing.T) {
	talks := seedTalks(t)
	rep := Detect(talks, Options{})
	key := func(p seedPair) [2]string {
		a, b := talkBy(t, talks, p.a).ID, talkBy(t, talks, p.b).ID
		return [2]string{min(a, b), max(a, b)}
	}
	relevant := map[[2]string]bool{}
	found := 0
	for _, p := range mustSee {
		k := key(p)
		relevant[k] = true
		rank, _ := rankOf(rep, k[0], k[1])
		if rank >= 1 && rank <= 30 {
			found++
		} else {
			t.Logf("must-see pair out of the top 30 (rank %d): %s", rank, p.why)
		}
	}
	for _, p := range acceptable {
		relevant[key(p)] = true
	}
	if recall := float64(found) / float64(len(mustSee)); recall < 0.9 {
		t.Errorf("recall@30 %.2f (%d of %d), want ≥ 0.9", recall, found, len(mustSee))
	}
	hits := 0
	for _, p := range rep.Pairs[:10] {
		if relevant[[2]string{min(p.A, p.B), max(p.A, p.B)}] {
			hits++
		} else {
			t.Logf("top-10 pair not judged relevant: %s / %s %q", p.TitleA, p.TitleB, p.SharedTerms)
		}
	}
	if precision := float64(hits) / 10; precision < 0.9 {
		t.Errorf("precision@10 %.1f, want ≥ 0.9", precision)
	}
}

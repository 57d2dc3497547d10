package overlap

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/analysis"
)

// talkBy finds a seed talk by the start of its title (with or without
// "Lightning Talk: ") or of its abstract, so tests survive id changes.
func talkBy(t *testing.T, talks []index.Talk, prefix string) index.Talk {
	t.Helper()
	for _, tk := range talks {
		if strings.HasPrefix(tk.Title, prefix) || strings.HasPrefix(strings.TrimPrefix(tk.Title, "Lightning Talk: "), prefix) ||
			strings.HasPrefix(tk.Abstract, prefix) {
			return tk
		}
	}
	t.Fatalf("no seed talk starts with %q", prefix)
	return index.Talk{}
}

// rankOf returns the 1-based rank of the pair a-b in rep, or 0.
func rankOf(rep *Report, a, b string) (int, Pair) {
	for k, p := range rep.Pairs {
		if (p.A == a && p.B == b) || (p.A == b && p.B == a) {
			return k + 1, p
		}
	}
	return 0, Pair{}
}

// The pairs a program committee would flag on the seeds, and how high they
// must rank among the 40-odd pairs at the default threshold. They are the
// talks built on one named system (Monarch), the two about DeepSeek-V3
// style MoE parallelism (DualPipe, expert parallelism), the two about CPU
// launch overhead and CUDA Graphs, and the RL post-training talks.
func TestSeedPairsFlagged(t *testing.T) {
	talks := seedTalks(t)
	rep := Detect(talks, Options{})
	tests := []struct {
		name    string
		a, b    string
		maxRank int
		terms   []string // must be among the shared terms
	}{
		{"Monarch lightning talk and Monarch on AMD", "Monarch: An API", "Bringing PyTorch Monarch to AMD", 5, []string{"Monarch"}},
		{"Monarch on AMD and the async RL store on Monarch actors", "Bringing PyTorch Monarch to AMD", "Asynchronous Reinforcement Learning (AsyncRL)", 8, []string{"Monarch", "actors"}},
		{"MoE inference on Blackwell and DualPipe from scratch", "Optimizing Large MoE Inference on NVIDIA Blackwell", "DualPipe from Scratch", 25, []string{"DualPipe", "DeepSeek", "MoE"}},
		// 36 with the index's terms alone (C++ is the index's term cpp,
		// which lifts the two torch.compile talks' pair above it); the
		// generic-term discount brings it back to 31.
		{"CUDA Graph capture and the C++ wrapper", "Modern GPUs are fast enough that CPU kernel launch overhead", "Accelerating PyTorch Models With Torch.compile's C++ Wrapper", 31, []string{"CPU", "overhead", "CUDA Graph"}},
		{"multi-turn GRPO and trillion-parameter RL", "From Responses To Trajectories", "This talk will dive into how we implemented and optimized reinforcement learning", 25, []string{"reinforcement learning"}},
		{"async RL store and trillion-parameter RL", "Asynchronous Reinforcement Learning (AsyncRL)", "This talk will dive into how we implemented and optimized reinforcement learning", 30, []string{"RL"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := talkBy(t, talks, tt.a), talkBy(t, talks, tt.b)
			rank, p := rankOf(rep, a.ID, b.ID)
			if rank == 0 || rank > tt.maxRank {
				t.Fatalf("rank %d of %d, want 1..%d", rank, len(rep.Pairs), tt.maxRank)
			}
			if p.Kind != KindTopical {
				t.Errorf("kind %q, want %q", p.Kind, KindTopical)
			}
			for _, want := range tt.terms {
				found := false
				for _, got := range p.SharedTerms {
					if strings.EqualFold(got, want) {
						found = true
					}
				}
				if !found {
					t.Errorf("shared terms %q lack %q", p.SharedTerms, want)
				}
			}
			if len(p.Passages.A) == 0 || len(p.Passages.B) == 0 || !strings.Contains(strings.Join(p.Passages.A, " "), "<mark>") {
				t.Errorf("passages without marks: %q", p.Passages)
			}
		})
	}
}

// Talks that share only the words every submission uses (PyTorch,
// training, GPU, model, performance) must not look alike: their score stays
// far below the threshold even when every pair is listed.
func TestSeedPairsNotFlagged(t *testing.T) {
	talks := seedTalks(t)
	rep := Detect(talks, Options{Min: 0.001, MaxPairs: 10000})
	tests := []struct{ a, b string }{
		{"Jacobian descent (JD)", "Trinity Large"},
		{"Ball Tracking and Detection", "Scaling Recommendation Systems To 2K GPUs"},
		{"Live Migration of PyTorch GPU Nodes", "Scaling Recommendation Systems To 2K GPUs"},
		{"Keynote: PyTorch CTO", "Fp8 Training From Hopper To Blackwell"},
		{"Bringing PyTorch Monarch to AMD", "Fp8 Training From Hopper To Blackwell"},
		{"As PyTorch models scale to billions of parameters", "Fp8 Training From Hopper To Blackwell"},
		{"Backpropagation-Free Optimization", "Trinity Large"},
		{"Enabling the Audio Modality", "Distributed neural network training frameworks"},
		{"PyTorch on RISC-V", "Step-Aligned Telemetry"},
		{"Why Logging Isn", "Trinity Large"},
	}
	for _, tt := range tests {
		a, b := talkBy(t, talks, tt.a), talkBy(t, talks, tt.b)
		if _, p := rankOf(rep, a.ID, b.ID); p.Score >= DefaultMin/2 {
			t.Errorf("%q / %q: score %.3f sharing %q, want < %.3f", tt.a, tt.b, p.Score, p.SharedTerms, DefaultMin/2)
		}
	}
}

func TestSeedReport(t *testing.T) {
	talks := seedTalks(t)
	rep := Detect(talks, Options{})
	kinds := map[string]index.Kind{}
	for _, tk := range talks {
		kinds[tk.ID] = tk.Kind
	}
	for k, p := range rep.Pairs {
		if kinds[p.A] == index.KindBreak || kinds[p.B] == index.KindBreak {
			t.Errorf("pair %d pairs a break: %s / %s", k, p.TitleA, p.TitleB)
		}
		if p.Score < DefaultMin || p.Score > 1 {
			t.Errorf("pair %d score %.3f outside [%.2f, 1]", k, p.Score, DefaultMin)
		}
		if k > 0 && p.Score > rep.Pairs[k-1].Score {
			t.Errorf("pair %d (%.3f) ranks below a worse pair (%.3f)", k, p.Score, rep.Pairs[k-1].Score)
		}
		if len(p.SharedTerms) == 0 {
			t.Errorf("pair %d has no shared terms", k)
		}
	}
	// The Monarch talks form one cluster named after Monarch.
	monarch := map[string]bool{
		talkBy(t, talks, "Monarch: An API").ID:                               true,
		talkBy(t, talks, "Bringing PyTorch Monarch to AMD").ID:               true,
		talkBy(t, talks, "Asynchronous Reinforcement Learning (AsyncRL)").ID: true,
	}
	var found *Cluster
	for k, c := range rep.Clusters {
		for _, id := range c.IDs {
			if monarch[id] {
				found = &rep.Clusters[k]
			}
		}
	}
	if found == nil {
		t.Fatal("no cluster holds a Monarch talk")
	}
	for id := range monarch {
		if !strings.Contains(strings.Join(found.IDs, " "), id) {
			t.Errorf("cluster %q lacks %s", found.Label, id)
		}
	}
	if !strings.HasPrefix(found.Label, "Monarch") {
		t.Errorf("Monarch cluster label %q", found.Label)
	}
	for _, c := range rep.Clusters {
		if len(c.IDs) > MaxClusterSize || len(c.IDs) != len(c.Titles) {
			t.Errorf("cluster %q: %d ids, %d titles", c.Label, len(c.IDs), len(c.Titles))
		}
	}
	// Talks the ingest merged from several dumps are listed with their sources.
	dualpipe := talkBy(t, talks, "DualPipe from Scratch")
	listed := false
	for _, m := range rep.Merged {
		if m.ID == dualpipe.ID {
			listed = len(m.Sources) > 1
		}
	}
	if !listed {
		t.Errorf("DualPipe talk (sources %q) not among the merged duplicates", dualpipe.Sources)
	}
}

func at(hhmm string) *time.Time {
	t, err := time.Parse("2006-01-02 15:04", "2026-04-08 "+hhmm)
	if err != nil {
		panic(err)
	}
	return &t
}

const monarchAbstract = `Monarch is a single-controller runtime: one Python program drives actors on a whole cluster through process meshes.

We show how Monarch actors orchestrate reinforcement learning, with weights synchronized over RDMA between trainers and rollout workers.`

func TestKinds(t *testing.T) {
	edited := strings.NewReplacer("one Python program", "a single Python script", "whole", "large", "trainers", "the trainer").Replace(monarchAbstract)
	talks := []index.Talk{
		{ID: "orig", Title: "Monarch Actors for RL", Abstract: monarchAbstract, Kind: index.KindTalk},
		{ID: "same", Title: "Monarch Actors for RL", Abstract: monarchAbstract, Kind: index.KindTalk},
		{ID: "edit", Title: "Monarch Actors for Reinforcement Learning", Abstract: edited, Kind: index.KindTalk},
		{ID: "topic", Title: "Porting Monarch to ROCm", Abstract: "We port the Monarch runtime and its actors to AMD GPUs: process meshes, RDMA transfers and HIPified kernels on MI300 clusters.", Kind: index.KindTalk},
		{ID: "vllm", Title: "Meet the vLLM Maintainers", Abstract: "Meet the core maintainers of vLLM at this session! Come and discuss use cases, features, roadmap with us, or just learn how the vLLM development happens under the hood.", Kind: index.KindMeet},
		{ID: "ray", Title: "Meet the Ray Maintainers", Abstract: "Meet the core maintainers of Ray at this session! Come and discuss use cases, features, roadmap with us, or just learn how the Ray development happens under the hood.", Kind: index.KindMeet},
		{ID: "coffee1", Title: "Coffee Break", Abstract: "Coffee and tea in the hall.", Kind: index.KindBreak},
		{ID: "coffee2", Title: "Coffee Break", Abstract: "Coffee and tea in the hall.", Kind: index.KindBreak},
	}
	rep := Detect(talks, Options{Min: 0.01})
	got := map[string]string{}
	for _, p := range rep.Pairs {
		got[p.A+"/"+p.B] = p.Kind
	}
	want := map[string]string{
		"orig/same":  KindDuplicate,
		"orig/edit":  KindNearDuplicate,
		"same/edit":  KindNearDuplicate,
		"orig/topic": KindTopical,
		"same/topic": KindTopical,
		"edit/topic": KindTopical,
		// "vllm/ray" is absent: a template filled in for two projects
		// shares its wording, not its subject.
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pair kinds (-want +got):\n%s", diff)
	}
	if rk, p := rankOf(rep, "orig", "same"); rk != 1 || p.Score != 1 || p.Resemblance != 1 {
		t.Errorf("identical texts: rank %d, score %v, resemblance %v; want first, 1, 1", rk, p.Score, p.Resemblance)
	}
	if _, p := rankOf(rep, "orig", "edit"); p.Score < 0.8 || p.Resemblance < nearDupMin {
		t.Errorf("edited copy: score %v resemblance %v", p.Score, p.Resemblance)
	}
	if jac, _ := resemblance(analysis.Shingles(talks[4].Title+"\n"+talks[4].Abstract), analysis.Shingles(talks[5].Title+"\n"+talks[5].Abstract)); jac < nearDupMin {
		t.Errorf("the template pair's resemblance %.2f is too low to test the cosine rule", jac)
	}
}

// onePair detects the pairs of talks, of which there must be one.
func onePair(t *testing.T, talks []index.Talk) Pair {
	t.Helper()
	rep := Detect(talks, Options{Min: 0.01})
	if len(rep.Pairs) != 1 {
		t.Fatalf("%d pairs, want 1", len(rep.Pairs))
	}
	return rep.Pairs[0]
}

func TestPassagesEscapeAndMark(t *testing.T) {
	talks := []index.Talk{
		{ID: "a", Title: "Monarch checkpoints", Abstract: "Monarch actors restore state in <1ms. Nothing else here.\n\nA <script>alert(1)</script> Monarch demo & more.", Kind: index.KindTalk},
		{ID: "b", Title: "Monarch on ROCm", Abstract: "We port Monarch actors to ROCm.", Kind: index.KindTalk},
	}
	p := onePair(t, talks)
	want := Passages{
		A: []string{
			"<mark>Monarch actors</mark> restore state in &lt;1ms.",
			"A &lt;script&gt;alert(1)&lt;/script&gt; <mark>Monarch</mark> demo &amp; more.",
		},
		B: []string{"We port <mark>Monarch actors</mark> to ROCm."},
	}
	if diff := cmp.Diff(want, p.Passages); diff != "" {
		t.Errorf("passages (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Monarch", "actors"}, p.SharedTerms); diff != "" {
		t.Errorf("shared terms (-want +got):\n%s", diff)
	}
}

// Two talks naming one thing differently share it: RL and reinforcement
// learning, CUDAGraphs and CUDA Graphs. The shared term is shown as written.
func TestPhraseNamesAreShared(t *testing.T) {
	talks := []index.Talk{
		{ID: "a", Title: "Cheaper launches", Abstract: "CUDAGraphs cut launch cost. Scaling RL rollouts with vLLM.", Kind: index.KindTalk},
		{ID: "b", Title: "Capture everything", Abstract: "CUDA Graphs capture launch sequences. Reinforcement learning rollouts need vLLM.", Kind: index.KindTalk},
	}
	got := onePair(t, talks).SharedTerms
	for _, want := range [][]string{{"CUDA Graphs", "CUDAGraphs"}, {"RL", "Reinforcement learning"}} {
		found := false
		for _, g := range got {
			found = found || g == want[0] || g == want[1]
		}
		if !found {
			t.Errorf("shared terms %q lack %q", got, want)
		}
	}
}

func TestClashes(t *testing.T) {
	mk := func(id, title, room, start, end string) index.Talk {
		return index.Talk{ID: id, Title: title, Abstract: monarchAbstract, Room: room, Start: at(start), End: at(end), Kind: index.KindTalk, Scheduled: true}
	}
	other := index.Talk{ID: "soccer", Title: "Tracking the ball", Abstract: "Detectors and trackers for a fast ball in soccer footage.", Room: "C", Start: at("10:00"), End: at("10:30"), Kind: index.KindTalk, Scheduled: true}
	talks := []index.Talk{
		mk("a", "Monarch I", "A", "10:00", "10:30"),
		mk("b", "Monarch II", "B", "10:15", "10:45"),
		mk("c", "Monarch III", "A", "10:00", "10:30"), // same room as a: one session
		mk("d", "Monarch IV", "D", "11:00", "11:30"),  // later
		other,
	}
	rep := Detect(talks, Options{})
	want := []Clash{
		{A: "a", B: "b", Score: 0.895, TitleA: "Monarch I", TitleB: "Monarch II", RoomA: "A", RoomB: "B", Start: *at("10:15"), End: *at("10:30")},
		{A: "b", B: "c", Score: 0.895, TitleA: "Monarch II", TitleB: "Monarch III", RoomA: "B", RoomB: "A", Start: *at("10:15"), End: *at("10:30")},
	}
	if diff := cmp.Diff(want, rep.Clashes); diff != "" {
		t.Errorf("clashes (-want +got):\n%s", diff)
	}
}

func TestMaxPairs(t *testing.T) {
	talks := seedTalks(t)
	all := Detect(talks, Options{})
	few := Detect(talks, Options{MaxPairs: 5})
	if len(few.Pairs) != 5 || few.More != len(all.Pairs)-5 {
		t.Fatalf("MaxPairs 5: %d pairs, %d more; want 5, %d", len(few.Pairs), few.More, len(all.Pairs)-5)
	}
	if diff := cmp.Diff(all.Pairs[:5], few.Pairs); diff != "" {
		t.Errorf("the 5 kept pairs are not the best 5 (-want +got):\n%s", diff)
	}
}

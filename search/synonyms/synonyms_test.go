package synonyms

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/talksearch/talksearch/index/synthetic"

	"github.com/google/go-cmp/cmp"
	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
)

// loadSeedTalks ingests the real seeds once for all tests of the package.
var loadSeedTalks = sync.OnceValues(func() ([]index.Talk, error) {
	c, err := ingest.Load(os.DirFS("../../seeds"))
	if err != nil {
		return nil, err
	}
	return c.Talks, nil
})

func seedTalks(t testing.TB) []index.Talk {
	t.Helper()
	talks, err := loadSeedTalks()
	if err != nil {
		t.Fatalf("load seeds: %v", err)
	}
	return talks
}

func TestMineAcronyms(t *testing.T) {
	tests := []struct {
		name, text string
		want       [][2]string
	}{
		{"hyphenated long form", "Deploying massive Mixture-of-Experts (MoE) models", [][2]string{{"MoE", "Mixture-of-Experts"}}},
		{"shortest long form", "We will analyze the architectural shift to Expert Parallelism (EP) today", [][2]string{{"EP", "Expert Parallelism"}}},
		{"hyphen inside a word", "converting Multi-Head Latent Attention (MLA) to", [][2]string{{"MLA", "Multi-Head Latent Attention"}}},
		{"plural acronym", "serving Vision-Language Models (VLMs) fast", [][2]string{{"VLM", "Vision-Language Models"}}},
		{"more letters of one word", "Asynchronous Reinforcement Learning (AsyncRL) at scale", [][2]string{{"AsyncRL", "Asynchronous Reinforcement Learning"}}},
		{"minor word skipped", "the Cloud Native Computing Foundation (CNCF) hosts", [][2]string{{"CNCF", "Cloud Native Computing Foundation"}}},
		{"two in one text", "Multi-Token Prediction (MTP) and Multi-Query Attention (MQA)", [][2]string{{"MTP", "Multi-Token Prediction"}, {"MQA", "Multi-Query Attention"}}},
		{"not an acronym", "Parmesan cheese (Vegetarian)", nil},
		{"one capital", "Implementing IntegratedGradients (Captum)", nil},
		{"initials do not match", "the Internet of Things (IIoT)", nil},
		{"all initials", "Industrial Internet of Things (IIoT)", [][2]string{{"IIoT", "Industrial Internet of Things"}}},
		{"no long form before", "XLA (TPU) backend", nil},
		{"sentence boundary", "It is fast. Expert Parallelism. (EP)", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, MineAcronyms(tt.text)); diff != "" {
				t.Errorf("MineAcronyms(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func TestThesaurusExpand(t *testing.T) {
	th := NewThesaurus(seedTalks(t))
	type exp struct {
		Start, End int
		Matched    string
		Alts       string
		Sources    string
	}
	tests := []struct {
		query string
		want  []exp
	}{
		{"MoE routing", []exp{{0, 1, "MoE", "mixture of experts", "corpus,curated"}}},
		{"Mixture-of-Experts", []exp{{0, 1, "mixture of experts", "MoE", "corpus,curated"}}},
		{"mixture of experts inference", []exp{{0, 3, "mixture of experts", "MoE", "corpus,curated"}}},
		{"KV cache", []exp{{0, 1, "KV", "key-value", "curated"}}},
		{"key value cache", []exp{{0, 2, "key-value", "KV", "curated"}}},
		{"expert parallel", []exp{{0, 2, "expert parallelism", "EP", "corpus,curated"}}},
		{"ADP", []exp{{0, 1, "ADP", "Attention Data Parallelism", "corpus"}}},
		{"AMD GPUs", []exp{{0, 1, "AMD", "ROCm", "curated"}}},
		{"LLMs", []exp{{0, 1, "LLM", "large language model", "corpus,curated"}}},
		{"flex attention", []exp{{0, 2, "flex attention", "FlexAttention", "name"}}},
		{"FlexAttention", nil}, // one way: the name is already one term
		{"torch titan", []exp{{0, 2, "torch titan", "TorchTitan", "name"}}},
		{"fine tuning for RL", []exp{{0, 2, "fine-tuning", "finetuning", "curated"}, {3, 4, "RL", "reinforcement learning", "curated"}}},
		{"all to all", []exp{{0, 3, "all-to-all", "alltoall,all2all", "curated"}}},
		{"KV-cache", nil}, // a match must cover whole words
		{"monarch", nil},
		{"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			var got []exp
			for _, e := range th.Expand(strings.Fields(tt.query)) {
				got = append(got, exp{e.Start, e.End, e.Matched, strings.Join(e.Alternatives, ","), strings.Join(e.Sources, ",")})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Expand(%q) (-want +got):\n%s", tt.query, diff)
			}
		})
	}
}

func TestThesaurusGroupsFromCorpus(t *testing.T) {
	th := NewThesaurus(seedTalks(t))
	bySource := map[string][]string{}
	for _, g := range th.Groups() {
		if len(g.Sources) == 1 && g.Sources[0] == SourceCorpus {
			bySource[SourceCorpus] = append(bySource[SourceCorpus], g.Phrases[0]+"="+g.Phrases[1])
		}
	}
	want := []string{
		"ADP=Attention Data Parallelism", "PDL=Programmatic Dependent Launch", "GIN=GPU-Initiated Networking",
		"RVV=RISC-V Vector", "DLC=Deep Learning Containers", "DRA=Dynamic Resource Allocation",
		"AsyncRL=Asynchronous Reinforcement Learning", "JD=Jacobian descent", "MoM=Mixture-of-Multimodal Models",
	}
	if diff := cmp.Diff(want, bySource[SourceCorpus]); diff != "" {
		t.Errorf("corpus-only acronyms (-want +got):\n%s", diff)
	}
}

func TestCamelNames(t *testing.T) {
	got := camelNames("FlexAttention, TorchTitan-based PyTorch; not TorchJD, vLLM, ViTs, Flex, A100, ReAct or FlashAttention2.")
	want := []string{"FlexAttention", "TorchTitan", "PyTorch", "ReAct"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestExpansionString(t *testing.T) {
	e := Expansion{Matched: "MoE", Alternatives: []string{"mixture of experts"}}
	if got, want := e.String(), "MoE → mixture of experts"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func BenchmarkThesaurusExpand(b *testing.B) {
	th := NewThesaurus(seedTalks(b))
	words := strings.Fields("serving mixture of experts models with KV cache offload on AMD GPUs")
	for b.Loop() {
		th.Expand(words)
	}
}

func BenchmarkNewThesaurus(b *testing.B) {
	for _, n := range []int{0, 10_000} {
		talks := seedTalks(b)
		if n > 0 {
			talks = synthetic.Talks(talks, n, 1)
		}
		b.Run(fmt.Sprintf("talks=%d", len(talks)), func(b *testing.B) {
			for b.Loop() {
				NewThesaurus(talks)
			}
		})
	}
}

func TestEnglishWords(t *testing.T) {
	for w, want := range map[string]bool{"beginner": true, "Beginner": true, "founders": true, "kernels": true,
		"virtualisation": true, "virtualization": true, "monrach": false, "kuberentes": false, "pyhton": false} {
		if got := IsEnglishWord(w); got != want {
			t.Errorf("IsEnglishWord(%q) = %v, want %v", w, got, want)
		}
	}
}

func TestSpellingVariant(t *testing.T) {
	for w, want := range map[string]string{"virtualisation": "virtualization", "virtualization": "virtualisation",
		"licences": "licenses", "colour": "color", "centre": "center", "catalogue": "catalog", "optimising": "optimizing",
		"tokenisation": "tokenization", "visualising": "visualizing", "license": "licence", "kernel": "", "beginner": ""} {
		if got := SpellingVariant(w); got != want {
			t.Errorf("SpellingVariant(%q) = %q, want %q", w, got, want)
		}
	}
}

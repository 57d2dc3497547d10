package search

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/blevesearch/bleve/v2"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/index/scorch"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/analysis"
	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/search/termvec"
	"github.com/talksearch/talksearch/seeds"
)

var (
	seedOnce   sync.Once
	seedCorpus *ingest.Corpus
	seedEng    *Engine
	seedErr    error
)

// seedEngine is an engine over the real seeds, built once per test binary.
func seedEngine(t testing.TB) (*Engine, *ingest.Corpus) {
	t.Helper()
	seedOnce.Do(func() {
		seedCorpus, seedErr = ingest.Load(seeds.FS)
		if seedErr != nil {
			return
		}
		seedEng, seedErr = New(seedCorpus.Talks)
	})
	if seedErr != nil {
		t.Fatalf("seed engine: %v", seedErr)
	}
	return seedEng, seedCorpus
}

// scannedSeeds is a snapshot of the seeds that scans as a large corpus
// does (no one-pass search), released with the test.
func scannedSeeds(t testing.TB) *snapshot {
	t.Helper()
	_, c := seedEngine(t)
	s, err := newSnapshot(c.Talks, Options{CacheSize: -1, OnePassMax: -1}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.release)
	return s
}

// freshSeedEngine is an engine of its own on the seeds, closed with the
// test: for tests that fill or count its caches.
func freshSeedEngine(t testing.TB) *Engine {
	t.Helper()
	_, c := seedEngine(t)
	e, err := New(c.Talks)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// judgment is a graded relevance judgment of the dev set.
type judgment struct {
	query string
	grade int
	id    string
}

// devJudgmentsPath is the seeds' development judgments, read where they
// are: they are not the project's to copy.
var devJudgmentsPath = filepath.Join("..", "..", "shared", "relevance", "dev-judgments.tsv")

// loadJudgments reads the dev judgments and resolves each judged talk to
// its id: by schedule title when it has one, else by the first words of
// its abstract. Without ../shared the test is skipped (failed under
// CI=true, where it must be there).
func loadJudgments(t testing.TB, talks []index.Talk) (queries []string, judged map[string]map[string]int) {
	t.Helper()
	f, err := os.Open(devJudgmentsPath)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("dev judgments missing under CI: %v", err)
		}
		t.Skipf("dev judgments %s absent: %v", devJudgmentsPath, err)
	}
	defer f.Close()
	judged = map[string]map[string]int{}
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		cols := strings.Split(sc.Text(), "\t")
		if line == 1 || len(cols) < 4 {
			continue
		}
		grade, err := strconv.Atoi(cols[1])
		if err != nil {
			t.Fatalf("dev-judgments.tsv:%d: grade %q: %v", line, cols[1], err)
		}
		id := resolveTalk(talks, cols[2], cols[3])
		if id == "" {
			t.Fatalf("dev-judgments.tsv:%d: no talk titled %q starting %q", line, cols[2], cols[3])
		}
		q := cols[0]
		if judged[q] == nil {
			judged[q] = map[string]int{}
			queries = append(queries, q)
		}
		judged[q][id] = grade
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return queries, judged
}

func resolveTalk(talks []index.Talk, title, abstractStart string) string {
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, t := range talks {
		if title != "" && t.Title == title {
			return t.ID
		}
	}
	for _, t := range talks {
		if title == "" && strings.HasPrefix(norm(t.Abstract), norm(abstractStart)) {
			return t.ID
		}
	}
	return ""
}

// ndcg10 is the normalised discounted cumulative gain of the first ten
// ids, with gains 2^grade − 1.
func ndcg10(ranked []string, grades map[string]int) float64 {
	dcg := 0.0
	for i, id := range ranked {
		if i == 10 {
			break
		}
		dcg += (math.Pow(2, float64(grades[id])) - 1) / math.Log2(float64(i+2))
	}
	ideal := make([]int, 0, len(grades))
	for _, g := range grades {
		ideal = append(ideal, g)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(ideal)))
	idcg := 0.0
	for i, g := range ideal {
		if i == 10 {
			break
		}
		idcg += (math.Pow(2, float64(g)) - 1) / math.Log2(float64(i+2))
	}
	if idcg == 0 {
		return 0
	}
	return dcg / idcg
}

// ranker returns the ids a system ranks first for a query.
type ranker func(q string) ([]string, error)

func meanNDCG(t *testing.T, name string, rank ranker, queries []string, judged map[string]map[string]int) float64 {
	t.Helper()
	sum := 0.0
	for _, q := range queries {
		ids, err := rank(q)
		if err != nil {
			t.Fatalf("%s %q: %v", name, q, err)
		}
		n := ndcg10(ids, judged[q])
		sum += n
		t.Logf("%-10s %-22q nDCG@10 %.3f", name, q, n)
	}
	return sum / float64(len(queries))
}

func engineRanker(e *Engine) ranker {
	return func(q string) ([]string, error) {
		r, err := e.Search(context.Background(), Request{Query: q, Limit: 10})
		if err != nil {
			return nil, err
		}
		return hitIDs(r), nil
	}
}

// baselineRanker is Bleve's out-of-the-box answer: the default mapping
// with the "en" analyzer and a plain match query over all fields.
func baselineRanker(t testing.TB, talks []index.Talk) ranker {
	t.Helper()
	m := bleve.NewIndexMapping()
	m.DefaultAnalyzer = "en"
	idx, err := bleve.NewUsing("", m, scorch.Name, scorch.Name, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	b := idx.NewBatch()
	for _, tk := range talks {
		var names []string
		for _, s := range tk.Speakers {
			names = append(names, s.Name+", "+s.Affiliation)
		}
		if err := b.Index(tk.ID, map[string]string{"title": tk.Title, "abstract": tk.Abstract, "speakers": strings.Join(names, "\n")}); err != nil {
			t.Fatal(err)
		}
	}
	if err := idx.Batch(b); err != nil {
		t.Fatal(err)
	}
	return func(q string) ([]string, error) {
		req := bleve.NewSearchRequestOptions(bleve.NewMatchQuery(q), 10, 0, false)
		// Ties by id, so the baseline's figure does not change run to run.
		req.SortBy([]string{"-_score", "_id"})
		res, err := idx.Search(req)
		if err != nil {
			return nil, err
		}
		var ids []string
		for _, h := range res.Hits {
			ids = append(ids, h.ID)
		}
		return ids, nil
	}
}

// ndcgFloor is the mean nDCG@10 the engine must keep on the dev set: what
// it scores (the README's figure) less a hair, so a change that
// costs ranking quality fails here rather than going unnoticed.
const ndcgFloor = 0.97

func TestRelevanceDevSet(t *testing.T) {
	e, c := seedEngine(t)
	queries, judged := loadJudgments(t, c.Talks)
	ours := meanNDCG(t, "engine", engineRanker(e), queries, judged)
	base := meanNDCG(t, "bleve-en", baselineRanker(t, c.Talks), queries, judged)
	t.Logf("mean nDCG@10 over %d dev queries: engine %.3f, Bleve default en %.3f", len(queries), ours, base)
	if ours < ndcgFloor {
		t.Errorf("mean nDCG@10 = %.3f, below the floor %.2f", ours, ndcgFloor)
	}
	if ours <= base {
		t.Errorf("engine nDCG@10 %.3f is not above the Bleve default %.3f", ours, base)
	}
}

// TestRelatedMonarch pins a known answer on the seeds: the two
// Monarch talks are each other's first related talk, and the talk whose
// system is built on Monarch actors (abstract-only, about asynchronous RL
// data sharing) is in the top 3 of both.
func TestRelatedMonarch(t *testing.T) {
	e, c := seedEngine(t)
	api := resolveTalk(c.Talks, "Lightning Talk: Monarch: An API To Your Supercomputer", "")
	amd := resolveTalk(c.Talks, "Bringing PyTorch Monarch to AMD GPUs: Single-Controller Distributed Training on ROCm", "")
	rl := resolveTalk(c.Talks, "", "Asynchronous Reinforcement Learning (AsyncRL) workloads have unique data sharing requirements")
	if api == "" || amd == "" || rl == "" {
		t.Fatalf("talks not found: %q %q %q", api, amd, rl)
	}
	for _, tc := range []struct{ id, first string }{{api, amd}, {amd, api}} {
		d, err := e.Talk(context.Background(), tc.id)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, r := range d.Related {
			ids = append(ids, r.ID)
			t.Logf("%s → %s %.3f %v", tc.id, r.ID, r.Score, r.SharedTerms)
		}
		if len(ids) < 3 || ids[0] != tc.first || (ids[1] != rl && ids[2] != rl) {
			t.Errorf("related(%s) = %v, want %s first and %s in the top 3", tc.id, ids, tc.first, rl)
		}
		if len(d.Related[0].SharedTerms) == 0 || d.Related[0].SharedTerms[0] != "monarch" {
			t.Errorf("related(%s)[0] shares %v, want monarch first", tc.id, d.Related[0].SharedTerms)
		}
	}
}

// TestRelatedNeverBreaksOrSelf checks every talk of the seeds.
func TestRelatedNeverBreaksOrSelf(t *testing.T) {
	e, c := seedEngine(t)
	kinds := map[string]index.Kind{}
	for _, tk := range c.Talks {
		kinds[tk.ID] = tk.Kind
	}
	for _, tk := range c.Talks {
		d, err := e.Talk(context.Background(), tk.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Related) > DefaultRelatedCount {
			t.Errorf("%s: %d related", tk.ID, len(d.Related))
		}
		for i, r := range d.Related {
			if r.ID == tk.ID || kinds[r.ID] == index.KindBreak {
				t.Errorf("%s: related %s (%s)", tk.ID, r.ID, kinds[r.ID])
			}
			if i > 0 && r.Score > d.Related[i-1].Score {
				t.Errorf("%s: related not ordered by score", tk.ID)
			}
			for _, w := range r.SharedTerms {
				for _, term := range analysis.AnalyzeTerms(w) {
					if !termvec.Content(term) {
						t.Errorf("%s → %s shares filler %q", tk.ID, r.ID, w)
					}
				}
			}
		}
	}
}

// talkRef names a seed talk by its schedule title, or for a talk only in
// the abstract dumps by the first words of its abstract (ids carry hashes).
type talkRef struct{ title, abstract string }

func title(s string) talkRef    { return talkRef{title: s} }
func abstract(s string) talkRef { return talkRef{abstract: s} }

// TestRelevanceTable: for every class of attendee query, the talks that must
// rank in the top 3 on the real seeds. The rows were chosen by reading the
// talks: each names the talks a person typing the query is looking for,
// and the query is not in the dev judgments unless marked (the dev set tunes,
// this table guards).
func TestRelevanceTable(t *testing.T) {
	e, c := seedEngine(t)
	var (
		monarchAPI  = title("Lightning Talk: Monarch: An API To Your Supercomputer")
		monarchAMD  = title("Bringing PyTorch Monarch to AMD GPUs: Single-Controller Distributed Training on ROCm")
		asyncRL     = abstract("Asynchronous Reinforcement Learning (AsyncRL) workloads")
		trinity     = title("Lightning Talk: Trinity Large - Torchtitan on 2000+ B300s")
		flex        = abstract("FlexAttention democratized attention research")
		robotics    = title("Lightning Talk: Full-Stack PyTorch Robotics VLA: From Data To Edge Via ExecuTorch/OpenVINO")
		triton      = title("Portable High‑Performance LLM Serving: A Triton Backend for VLLM")
		browser     = title("Deploying PyTorch Models To the Browser and Beyond With Transformers.js")
		dualpipe    = title("DualPipe from Scratch: Implementing DeepSeek's 5D Parallelism in PyTorch")
		ncclBOF     = title("Birds of A Feather: NCCL in the Wild: Scaling Communications To Thousands of GPUs")
		symmem      = title("PyTorch Symmetric Memory + NCCL Device APIs: A New Path Towards Multi-GPU Kernels")
		faultTol    = title("Sponsored Session: Fault-Tolerant Training: How We Build Reliable Clusters for Distributed AI Workloads")
		recsys      = title("Lightning Talk: Scaling Recommendation Systems To 2K GPUs and Beyond")
		compliance  = title("Building Trust for Users and Regulators Alike: A Cost-Efficient PyTorch Path To Compliance-as-Code")
		audio       = title("Lightning Talk: Enabling the Audio Modality for Language Models")
		soccer      = title("Lightning Talk: Ball Tracking and Detection in Soccer Videos - Comparison of VLMs and Traditional Pipelines")
		moeNVIDIA   = title("Optimizing Large MoE Inference on NVIDIA Blackwell: NVFP4, ADP, and DualPipe Strategies")
		trajectory  = title("From Responses To Trajectories: Multi-Turn and Multi-Environment Reinforcement Learning")
		rlTrillion  = abstract("This talk will dive into how we implemented and optimized reinforcement learning")
		kvCentric   = title("Lightning Talk: KV-Cache Centric Inference: Building a State-Aware Serving Platform With Llm-d and VLLM")
		kvSemantic  = title("Lightning Talk: Not All Tokens Are Equal: Semantic KV-Cache for Agentic LLM Serving")
		kvOffload   = title("Lightning Talk: Inside VLLM's KV Offloading Connector: Async Memory Transfers for Higher Inference Throughput")
		mcp         = title("Beyond JSON-RPC: Scaling Model Context Protocols With gRPC in the PyTorch Ecosystem")
		gemm        = title("Lightning Talk: Achieving SOTA GEMM Performance: A CuTeDSL Backend for PyTorch Inductor")
		fp8         = title("Fp8 Training From Hopper To Blackwell")
		riscv       = title("PyTorch on RISC-V: From Cross-Compilation To Native CI")
		debugDist   = title("Lightning Talk: Debugging the Undebuggable: Introducing Torch.distributed.debug")
		migration   = title("Lightning Talk: Live Migration of PyTorch GPU Nodes From Azure To European Clouds")
		coldStart   = title("Lightning Talk: Slash LLM Cold-Start Times by Pre-distributing GPU Caches")
		tokenize    = title("Birds of A Feather: Disaggregated Tokenization: Building Toward Tokens-In-Tokens-Out LLM Inference")
		cppExt      = title("How To Write C++ Extensions in 2026")
		cpuLLM      = title("Optimizing CPU LLM Inference in PyTorch: Lessons From VLLM")
		cpuValidate = title("Sponsor Activity - Validating AI on CPUs: The vLLM 3-Phase Evaluation Framework")
		disagg      = title("Beyond the Theory: What Actually Breaks When You Scale Your Disaggregated Pytorch Models")
		governance  = title("From Gradients To Governance: Making PyTorch Lineage-Aware")
		hfKernels   = title("Bridging the Hardware Gap With Code Harnesses on the Hugging Face Kernels Hub")
		spyrePlugin = title("Lightning Talk: Building a PyTorch‑native VLLM Plugin for IBM Spyre")
		torchSpyre  = title("Lightning Talk: Torch-Spyre: Compiling To a Multi-core Dataflow Accelerator With Inductor")
		cudaGraphs  = abstract("Modern GPUs are fast enough that CPU kernel launch overhead")
		jacobian    = abstract("Jacobian descent (JD) is an extension of gradient descent")
	)
	tests := []struct {
		class, query string
		top3         []talkRef
	}{
		{"product", "torchtitan", []talkRef{trinity}},
		{"product", "ExecuTorch", []talkRef{robotics}},
		{"product", "FlexAttention", []talkRef{flex}},
		{"product", "Triton backend", []talkRef{triton}},
		{"product", "Transformers.js", []talkRef{browser}},
		{"product", "DualPipe", []talkRef{dualpipe}},
		{"product", "NCCL", []talkRef{ncclBOF, symmem}},
		{"product", "Torchstore", []talkRef{asyncRL}},
		{"product", "TorchJD", []talkRef{jacobian}},
		{"topic", "fault tolerance", []talkRef{faultTol}},
		{"topic", "recommendation systems", []talkRef{recsys}},
		{"topic", "compliance", []talkRef{compliance}},
		{"topic", "robotics", []talkRef{robotics}},
		{"topic", "audio", []talkRef{audio}},
		{"topic", "soccer video", []talkRef{soccer}},
		{"topic", "CUDA graphs", []talkRef{cudaGraphs}},
		{"acronym", "MoE", []talkRef{moeNVIDIA}},
		{"acronym", "RL", []talkRef{trajectory, rlTrillion}},
		{"acronym", "MCP", []talkRef{mcp}},
		{"acronym", "GEMM", []talkRef{gemm}},
		{"acronym", "FP8", []talkRef{fp8}},
		{"acronym", "VLA", []talkRef{robotics}},
		{"acronym", "CI", []talkRef{riscv}},
		{"acronym", "KV", []talkRef{kvCentric, kvSemantic}},
		{"variant", "caching", []talkRef{kvCentric, kvSemantic}},
		{"variant", "KV-caching", []talkRef{kvCentric, kvSemantic}},
		{"variant", "debugger", []talkRef{debugDist}},
		{"variant", "migrating", []talkRef{migration}},
		{"variant", "tokenizer", []talkRef{tokenize}},
		{"variant", "float8", []talkRef{fp8}},
		{"variant", "offload", []talkRef{kvOffload}},
		{"question", "how do I run PyTorch in the browser", []talkRef{browser}},
		{"question", "how to write C++ extensions", []talkRef{cppExt}},
		// cpuValidate (vLLM on CPUs, never "LLM") fell to 4th when the
		// coordination factor was raised to the power 3 (query.go,
		// coordPower): a measured trade-off for multi-concept queries.
		{"question", "running LLMs on CPUs", []talkRef{cpuLLM}},
		{"question", "vLLM on CPUs", []talkRef{cpuValidate}},
		{"question", "what breaks in disaggregated inference", []talkRef{disagg}},
		{"question", "how can I start LLM servers faster", []talkRef{coldStart}},
		{"misspelling", "Monrach", []talkRef{monarchAPI, monarchAMD}},
		{"misspelling", "torchtittan", []talkRef{trinity}},
		{"misspelling", "flexatention", []talkRef{flex}},
		{"misspelling", "execturoch", []talkRef{robotics}},
		{"misspelling", "recomendation systms", []talkRef{recsys}},
		{"misspelling", "dual pipe", []talkRef{dualpipe}},
		{"speaker", "Jane Xu", []talkRef{cppExt}},
		{"speaker", "Marius Eriksen", []talkRef{monarchAPI}},
		{"speaker", "Ke Wen", []talkRef{symmem, ncclBOF}},
		{"speaker", "Lochner", []talkRef{browser}},
		{"company", "Red Hat", []talkRef{kvOffload, coldStart, governance}},
		{"company", "AMD", []talkRef{monarchAMD}},
		{"company", "IBM", []talkRef{spyrePlugin, torchSpyre}},
		{"company", "Nebius", []talkRef{faultTol}},
		{"company", "Hugging Face", []talkRef{hfKernels}},
	}
	for _, tt := range tests {
		t.Run(tt.class+"/"+tt.query, func(t *testing.T) {
			r, err := e.Search(context.Background(), Request{Query: tt.query, Limit: 3})
			if err != nil {
				t.Fatal(err)
			}
			got := hitIDs(r)
			for _, ref := range tt.top3 {
				id := resolveTalk(c.Talks, ref.title, ref.abstract)
				if id == "" {
					t.Fatalf("no talk %+v", ref)
				}
				if !slices.Contains(got, id) {
					t.Errorf("%q: %s not in the top 3 %v", tt.query, id, got)
				}
			}
		})
	}
}

// TestRelatedTiesInTalkOrder: talks that tie with each other as candidates
// and in similarity come in talk order, whatever document numbers the
// index gave them. More of them tie than the candidates kept, so a cut by
// document number (Bleve's own top n, whose numbers follow the order in
// which a batch's analysis finished) changed the related talks from one
// build of the same talks to the next.
func TestRelatedTiesInTalkOrder(t *testing.T) {
	talks := []index.Talk{{ID: "target", Title: "Monarch actors for distributed training", Kind: index.KindTalk}}
	for i := range relatedCandidates + 20 {
		talks = append(talks, index.Talk{ID: fmt.Sprintf("twin-%02d", i), Title: "Monarch actors in distributed training", Kind: index.KindTalk})
	}
	// Enough other talks that the words of the 71 alike stay distinctive
	// (ranking.RelatedGenericShare).
	for i := range 1500 {
		talks = append(talks, index.Talk{ID: fmt.Sprintf("other-%04d", i), Title: fmt.Sprintf("Compiler passes, part %d", i), Kind: index.KindTalk})
	}
	var want []string
	for i := range DefaultRelatedCount {
		want = append(want, fmt.Sprintf("twin-%02d", i))
	}
	for build := range 5 {
		e, err := New(talks)
		if err != nil {
			t.Fatal(err)
		}
		d, err := e.Talk(context.Background(), "target")
		e.Close()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range d.Related {
			got = append(got, r.ID)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("build %d: related %v, want %v", build, got, want)
		}
	}
}

package ingest

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/analysis"
	"github.com/talksearch/talksearch/seeds"
)

const knownAbstract = "Distributed PyTorch training often looks healthy in system dashboards; GPU utilization is high, " +
	"memory is stable and yet throughput degrades, steps jitter, or GPUs go idle intermittently. The core issue is " +
	"misalignment: most telemetry is sampled by time, while training progresses by \"steps\", and distributed " +
	"behavior is dominated by the slowest rank rather than averages.\n\n" +
	"In this talk I will break down common failure modes in DDP training that standard metrics miss " +
	"(rank stragglers, dataloader stalls, step-time variance, and memory spikes/creep)."

func TestMergerMatchNearDuplicates(t *testing.T) {
	m := newMerger()
	m.add(index.Talk{Title: "Step-Aligned Telemetry", Abstract: knownAbstract, Scheduled: true}, "a.txt")
	m.add(index.Talk{Title: "DualPipe", Abstract: "We'll share what we discovered:\nWhy K_pe is shared\n\nWhat you'll learn:\n\nHow TP and PP interact"}, "a.txt")
	first, _, _ := strings.Cut(knownAbstract, "\n\n")
	tests := []struct {
		name, p string
		want    int
	}{
		{"identical", first, 0},
		{"hard-wrapped mid-sentence", strings.Replace(first, "most telemetry", "most\ntelemetry", 1), 0},
		{"typographic quotes and dashes", strings.NewReplacer(`"steps"`, "“steps”", "step-time", "step–time").Replace(knownAbstract[len(first)+2:]), 0},
		{"non-breaking spaces and double spaces", strings.ReplaceAll(first, " is ", "\u00a0is  "), 0},
		{"a word changed", strings.Replace(first, "healthy", "fine", 1), 0},
		{"a sentence dropped", strings.Replace(first, " The core issue is misalignment:", "", 1), 0},
		{"accents and case", strings.ToUpper(strings.Replace(first, "behavior", "béhavior", 1)), 0},
		{"short paragraph, exact words", "What you’ll learn:", 1},
		{"short paragraph of no talk", "What we learned:", -1},
		{"same topic, other text", "Distributed training dashboards show GPU utilization, but throughput and step time tell more about stragglers.", -1},
		{"empty", "", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := m.match(tt.p, -1); got != tt.want {
				t.Errorf("match = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestMergerContinues(t *testing.T) {
	m := &merger{idf: computeIDF([]string{
		"Jacobian descent is an extension of gradient descent for vector-valued objectives and multiple losses.",
		"TorchJD computes Jacobians of the losses with respect to the model parameters.",
		"Tomato plants grow in gardens.", "Kraken schedules pipelines on clusters.",
	})}
	long := "Jacobian descent is an extension of gradient descent for vector-valued objectives and multiple losses. " +
		"It updates the parameters of the model with the Jacobian matrix of the vector of losses, one row per loss, " +
		"so that every objective improves at once instead of only their average. The method needs no weighting of " +
		"the losses by hand."
	presented := long + " We present TorchJD, a library for it."
	tests := []struct {
		name  string
		group []string
		p     string
		want  bool
	}{
		{"no group", nil, "Anything.", false},
		{"intro after context continues", []string{long}, "In this talk we show how to use it.", true},
		{"intro after a presented talk begins a new one", []string{presented}, "This talk will dive into tomato gardens.", false},
		{"colon announces a list", []string{"We cover:"}, "Serving: multi-region TorchServe.", true},
		{"labelled items chain", []string{long, "Serving: multi-region TorchServe on Kubernetes."}, "Observability: OpenTelemetry tracing.", true},
		{"short lead-in takes the next paragraph", []string{"torch.compile is the goto mechanism."}, "While it is widely understood how to change the computation.", true},
		{"back reference continues", []string{long}, "Finally, we conclude with lessons learned.", true},
		{"'the talk' refers back", []string{long}, "The core of the talk is a live demo.", true},
		{"'We' with shared terms continues", []string{long}, "We have developed a library that computes the Jacobian of the losses.", true},
		{"'We' without shared terms begins a new talk", []string{long}, "We will share the latest updates to NCCL and how they can be used.", false},
		{"a TLDR summary takes its body", []string{"TLDR: In this session we explain 2D sparse parallelism for ads models at Meta scale."}, "Scaling laws have dominated LLMs.", true},
		{"shared rare terms continue", []string{long}, "TorchJD computes Jacobians of the losses with respect to the model parameters.", true},
		{"new topic begins a new talk", []string{long}, "Kraken schedules pipelines on clusters of many machines across regions.", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := m.continues(tt.group, tt.p); got != tt.want {
				t.Errorf("continues = %v, want %v (cohesion %.2f)", got, tt.want, m.cohesion(tt.group, tt.p))
			}
		})
	}
}

func TestTalkID(t *testing.T) {
	start := time.Date(2026, 4, 8, 10, 5, 0, 0, CEST)
	later := time.Date(2026, 4, 8, 14, 55, 0, 0, CEST)
	tests := []struct {
		name, title, identity, want string
	}{
		{"scheduled", "Keynote: PyTorch CTO", ScheduledIdentity("Keynote: PyTorch CTO", &start), "keynote-pytorch-cto-"},
		{"accents and symbols", "Léonard’s C++ & CUDA: Ça Marche!", "x", "leonard-s-c-cuda-ca-marche-"},
		{"at most six words", "One Two Three Four Five Six Seven", "x", "one-two-three-four-five-six-"},
		{"no ascii letters", "日本語", "x", "talk-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := TalkID(tt.title, tt.identity)
			if !strings.HasPrefix(got, tt.want) || len(got) != len(tt.want)+6 || !idRE.MatchString(got) {
				t.Errorf("TalkID = %q, want %q + 6 hex digits", got, tt.want)
			}
			if again := TalkID(tt.title, tt.identity); again != got {
				t.Errorf("TalkID not stable: %q then %q", got, again)
			}
		})
	}
	if a, b := TalkID("Coffee Break", ScheduledIdentity("Coffee Break", &start)),
		TalkID("Coffee Break", ScheduledIdentity("Coffee Break", &later)); a == b {
		t.Errorf("two Coffee Breaks share the id %q", a)
	}
	if a, b := TalkID("x", AbstractIdentity("It’s “fast” — really")), TalkID("x", AbstractIdentity("It's \"fast\" - really\n")); a != b {
		t.Errorf("abstract identity depends on typography: %q vs %q", a, b)
	}
	if got := Slug(strings.Repeat("abcdefghij", 6)); got != "" {
		t.Errorf("Slug of one 60-letter word = %q, want empty (over %d chars)", got, slugMaxLen)
	}
}

func TestDerivedTitle(t *testing.T) {
	tests := []struct{ abstract, want string }{
		{"torch.compile is the goto mechanism. More text.", "torch.compile is the goto mechanism"},
		{"One two three four five six seven eight nine ten eleven twelve thirteen.", "One two three four five six seven eight nine ten eleven twelve…"},
		{"Short title:\nthen a list", "Short title"},
		{"Ends with a comma, here, after, twelve, words, one, two, three, four, five, six, seven.", "Ends with a comma, here, after, twelve, words, one, two, three, four…"},
	}
	for _, tt := range tests {
		if got := DerivedTitle(tt.abstract); got != tt.want {
			t.Errorf("DerivedTitle(%q) = %q, want %q", tt.abstract, got, tt.want)
		}
	}
}

func TestJoinWrapped(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  string
	}{
		{"mid-sentence wrap", []string{"The core issue is misalignment: most", "telemetry is sampled by time."}, "The core issue is misalignment: most telemetry is sampled by time."},
		{"sentence per line", []string{"First sentence.", "Second sentence."}, "First sentence.\nSecond sentence."},
		{"list after colon", []string{"We cover:", "- serving", "- tracing"}, "We cover:\n- serving\n- tracing"},
		{"list items without punctuation", []string{"Why K_pe is shared", "The critical timing"}, "Why K_pe is shared\nThe critical timing"},
		{"label after colon stays", []string{"Key takeaways:", "why it matters"}, "Key takeaways:\nwhy it matters"},
	}
	for _, tt := range tests {
		if got := joinWrapped(tt.lines); got != tt.want {
			t.Errorf("%s: joinWrapped = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestParseAbstractsHeaderAndLines(t *testing.T) {
	d := ParseAbstracts("x.txt", []byte("PyTorch Conference Europe 2026\r\n\r\nFirst para\r\nwrapped here.\n\n\n\nSecond para."))
	want := []Paragraph{{File: "x.txt", Line: 3, Text: "First para wrapped here."}, {File: "x.txt", Line: 8, Text: "Second para."}}
	if d.Header != "PyTorch Conference Europe 2026" || len(d.Paragraphs) != 2 || d.Paragraphs[0] != want[0] || d.Paragraphs[1] != want[1] {
		t.Errorf("ParseAbstracts = %q, %+v; want header and %+v", d.Header, d.Paragraphs, want)
	}
	if d := ParseAbstracts("y.txt", []byte("A first line that is a sentence of abstract text.\n\nMore.")); d.Header != "" || len(d.Paragraphs) != 2 {
		t.Errorf("a dump without header lost a paragraph: %q, %+v", d.Header, d.Paragraphs)
	}
}

// TestSplitWithoutSchedule ingests the four abstract dumps without the
// schedule page: continuity alone must then find the same talks as the full
// ingest, paragraph for paragraph (29 talks: 18 scheduled ones repeated in
// the dumps and the 11 abstract-only ones).
func TestSplitWithoutSchedule(t *testing.T) {
	full := loadSeeds(t)
	dumps := fstest.MapFS{}
	names, _ := fs.Glob(seeds.FS, "*.txt")
	for _, name := range names {
		if name != schedSeed {
			data, _ := fs.ReadFile(seeds.FS, name)
			dumps[name] = &fstest.MapFile{Data: data}
		}
	}
	alone, err := Load(dumps)
	if err != nil {
		t.Fatal(err)
	}
	talkOf := func(p string) int {
		w := " " + strings.Join(analysis.MatchWords(p), " ") + " "
		for i, tk := range full.Talks {
			if strings.Contains(" "+strings.Join(analysis.MatchWords(tk.Abstract), " ")+" ", w) {
				return i
			}
		}
		return -1
	}
	used := map[int]string{}
	for _, tk := range alone.Talks {
		paras := splitParagraphs(tk.Abstract)
		want := talkOf(paras[0])
		if prev, ok := used[want]; ok {
			t.Errorf("%q and %q are one talk of the full ingest", prev, tk.Title)
		}
		used[want] = tk.Title
		for _, p := range paras[1:] {
			if got := talkOf(p); got != want {
				t.Errorf("%q: paragraph %.40q belongs to another talk", tk.Title, p)
			}
		}
		if want >= 0 && len(paras) != len(splitParagraphs(full.Talks[want].Abstract)) {
			t.Errorf("%q: %d paragraphs, the full ingest has %d", tk.Title, len(paras), len(splitParagraphs(full.Talks[want].Abstract)))
		}
	}
	if len(alone.Talks) != 29 {
		t.Errorf("%d talks without the schedule, want 29", len(alone.Talks))
	}
}

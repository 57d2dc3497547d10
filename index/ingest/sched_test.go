package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/talksearch/talksearch/index"
)

const schedSeed = "003_dfd754d9b55d5906.txt"

func readSeed(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "seeds", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func at(hhmm string) *time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04", "2026-04-08 "+hhmm, CEST)
	if err != nil {
		panic(err)
	}
	return &t
}

// findTalk returns the talk with this title starting at hhmm ("" for an
// unscheduled talk).
func findTalk(t *testing.T, talks []index.Talk, title, hhmm string) index.Talk {
	t.Helper()
	for _, tk := range talks {
		if tk.Title != title {
			continue
		}
		if hhmm == "" || (tk.Start != nil && tk.Start.Equal(*at(hhmm))) {
			return tk
		}
	}
	t.Fatalf("no talk %q at %q", title, hhmm)
	return index.Talk{}
}

func TestParseSchedSeedCounts(t *testing.T) {
	s := ParseSched(schedSeed, readSeed(t, schedSeed))
	if s.Blocks != 62 || len(s.Talks) != 62 {
		t.Errorf("blocks, talks = %d, %d; want 62, 62", s.Blocks, len(s.Talks))
	}
	if len(s.Warnings) != 0 {
		t.Errorf("warnings on the real schedule: %v", s.Warnings)
	}
	kinds := map[index.Kind]int{}
	levels := 0
	for _, tk := range s.Talks {
		kinds[tk.Kind]++
		if tk.Level != "" {
			levels++
		}
		if !tk.Scheduled || tk.Start == nil || tk.End == nil || tk.Room == "" || tk.Track == "" {
			t.Errorf("%q: scheduled talk without time, room or track: %+v", tk.Title, tk)
		}
		if tk.Start.Year() != 2026 {
			t.Errorf("%q: start %v, want 2026 (the page header's 2025 is wrong)", tk.Title, tk.Start)
		}
	}
	want := map[index.Kind]int{index.KindKeynote: 5, index.KindLightning: 26, index.KindBOF: 2, index.KindMeet: 2, index.KindSponsor: 3, index.KindBreak: 5, index.KindTalk: 19}
	if d := cmp.Diff(want, kinds); d != "" {
		t.Errorf("talks per kind (-want +got):\n%s", d)
	}
	if levels != 17 {
		t.Errorf("talks with an audience level = %d, want 17 (all of them Any)", levels)
	}
}

// TestParseSchedSeedFields checks every field of sessions of each kind and
// of the title lines that are hard to split (" - " in titles and affiliations).
func TestParseSchedSeedFields(t *testing.T) {
	talks := ParseSched(schedSeed, readSeed(t, schedSeed)).Talks
	src := []string{schedSeed}
	tests := []struct {
		name       string
		want       index.Talk // Abstract is checked by the three fields below
		start, end string
		paragraphs int
	}{
		{
			name: "keynote without abstract, two speakers, ' - ' in an affiliation, missing space after a comma",
			want: index.Talk{ID: "keynote-vllm-ray-updates-813549", Conference: pytorchEurope, Title: "Keynote: vLLM & Ray Updates",
				Speakers: []index.Speaker{
					{Name: "Tyler Michael Smith", Affiliation: "Chief Architect - Inference Engineering, Red Hat"},
					{Name: "Artur Niederfahrenhorst", Affiliation: "Member of Technical Staff, Anyscale"}},
				Track: "Keynote Sessions", Level: "Any", Room: "Master Stage", Start: at("09:10"), End: at("09:25"),
				Kind: index.KindKeynote, Scheduled: true, Sources: src, ReadFrom: src},
		},
		{
			name: "keynote 'Name, Role, Org', abstract followed by bio and slide file",
			want: index.Talk{ID: "keynote-pytorch-cto-f14e6d", Conference: pytorchEurope, Title: "Keynote: PyTorch CTO",
				Speakers: []index.Speaker{{Name: "Matt White", Affiliation: "Global CTO of AI, Linux Foundation"}},
				Track:    "Keynote Sessions", Level: "Any", Room: "Master Stage", Start: at("09:00"), End: at("09:10"),
				Kind: index.KindKeynote, Scheduled: true, Sources: src, ReadFrom: src},
			start:      "Matt White, Global CTO of AI and CTO at PyTorch Foundation will provide",
			end:        "ecosystem and projects and working groups",
			paragraphs: 1,
		},
		{
			name: "multi-speaker: groups separated by ';', Speakers section in another order",
			want: index.Talk{ID: "birds-of-a-feather-disaggregated-tokenization-2a9a90", Conference: pytorchEurope,
				Title: "Birds of A Feather: Disaggregated Tokenization: Building Toward Tokens-In-Tokens-Out LLM Inference",
				Speakers: []index.Speaker{
					{Name: "Maroon Ayoub", Affiliation: "IBM Research"},
					{Name: "Hang Yin", Affiliation: "Alibaba Cloud"},
					{Name: "Xi Ning Wang", Affiliation: "Alibaba Cloud"},
					{Name: "Nili Guy", Affiliation: "IBM"},
					{Name: "Hyunkyun Moon", Affiliation: "Moreh"}},
				Track: "Birds of A Feather", Room: "Open Platform", Start: at("10:05"), End: at("10:35"),
				Kind: index.KindBOF, Scheduled: true, Sources: src, ReadFrom: src},
			start:      "LLMs are token-in, token-out - but our serving stacks aren't.",
			end:        "then open the floor.",
			paragraphs: 3,
		},
		{
			name: "talk with '• Audience Level Any', 'A & B, Org'",
			want: index.Talk{ID: "bringing-pytorch-monarch-to-amd-gpus-54ae28", Conference: pytorchEurope,
				Title:    "Bringing PyTorch Monarch to AMD GPUs: Single-Controller Distributed Training on ROCm",
				Speakers: []index.Speaker{{Name: "Liz Li", Affiliation: "AMD"}, {Name: "Zachary Streeter", Affiliation: "AMD"}},
				Track:    "Training Systems", Level: "Any", Room: "Founders Cafe", Start: at("11:05"), End: at("11:30"),
				Kind: index.KindTalk, Scheduled: true, Sources: src, ReadFrom: src},
			start:      "PyTorch Monarch introduces a new distributed programming paradigm",
			end:        "cluster-wide experimentation across accelerator platforms.",
			paragraphs: 4,
		},
		{
			name: "break: the second Coffee Break, menu kept as its abstract",
			want: index.Talk{ID: "coffee-break-edeeda", Conference: pytorchEurope, Title: "Coffee Break",
				Track: "Breaks/Exhibits/Special Events", Room: "Open Platform", Start: at("14:55"), End: at("15:25"),
				Kind: index.KindBreak, Scheduled: true, Sources: src, ReadFrom: src},
			start:      "Menu:\n-Lemon cake\n-Caramelized arlette\n",
			end:        "-Chocolate Cookie (GF, Vegan)",
			paragraphs: 1,
		},
		{
			name: "lightning talk whose title contains ' - '",
			want: index.Talk{ID: "lightning-talk-trinity-large-torchtitan-on-46bf4b", Conference: pytorchEurope,
				Title:    "Lightning Talk: Trinity Large - Torchtitan on 2000+ B300s",
				Speakers: []index.Speaker{{Name: "Matej Sirovatka", Affiliation: "Prime Intellect"}},
				Track:    "Training Systems", Room: "Founders Cafe", Start: at("15:25"), End: at("15:35"),
				Kind: index.KindLightning, Scheduled: true, Sources: src, ReadFrom: src},
			start:      "In this talk, we'll cover how to use torchtitan",
			end:        "pitfalls to avoid in your own large-scale training runs.",
			paragraphs: 1,
		},
		{
			name: "sponsor activity: no speakers, no Sponsor/Location lines, no data-sharing notice",
			want: index.Talk{ID: "sponsor-activity-validating-ai-on-cpus-d88919", Conference: pytorchEurope,
				Title: "Sponsor Activity - Validating AI on CPUs: The vLLM 3-Phase Evaluation Framework",
				Track: "Breaks/Exhibits/Special Events", Room: "Open Platform", Start: at("10:25"), End: at("10:40"),
				Kind: index.KindSponsor, Scheduled: true, Sources: src, ReadFrom: src},
			start:      "Stop guessing your hardware capabilities.",
			end:        "Join us for a demo!",
			paragraphs: 1,
		},
		{
			name: "meet the developers: no speakers in the title, taken from the Speakers section",
			want: index.Talk{ID: "meet-the-vllm-maintainers-be6bb9", Conference: pytorchEurope, Title: "Meet the vLLM Maintainers",
				Speakers: []index.Speaker{
					{Name: "Tyler Michael Smith", Affiliation: "Chief Architect - Inference Engineering, Red Hat"},
					{Name: "Nicolò Lucchesi", Affiliation: "Senior Machine Learning Engineer, Red Hat"}},
				Track: "Meet the Developers", Level: "Any", Room: "Open Platform", Start: at("10:05"), End: at("10:35"),
				Kind: index.KindMeet, Scheduled: true, Sources: src, ReadFrom: src},
			start:      "Meet the core maintainers of vLLM at this session!",
			end:        "under the hood.",
			paragraphs: 1,
		},
		{
			name: "speakers spelled differently in the section (Gabrielle US), four names before one affiliation",
			want: index.Talk{ID: "birds-of-a-feather-nccl-in-69fe14", Conference: pytorchEurope,
				Title: "Birds of A Feather: NCCL in the Wild: Scaling Communications To Thousands of GPUs",
				Speakers: []index.Speaker{{Name: "Jeff Hammond", Affiliation: "NVIDIA"}, {Name: "Gabrielle Talavera", Affiliation: "NVIDIA"},
					{Name: "Ke Wen", Affiliation: "NVIDIA"}, {Name: "Asma Farjallah", Affiliation: "NVIDIA"}},
				Track: "Birds of A Feather", Room: "Open Platform", Start: at("14:55"), End: at("15:20"),
				Kind: index.KindBOF, Scheduled: true, Sources: src, ReadFrom: src},
			start:      "We will share the latest updates to NCCL",
			end:        "(handling failed nodes without a restart).",
			paragraphs: 2,
		},
		{
			name: "sponsored session, speakers without photo (initials), typo in the title line",
			want: index.Talk{ID: "sponsored-session-fault-tolerant-training-how-97b7c8", Conference: pytorchEurope,
				Title:    "Sponsored Session: Fault-Tolerant Training: How We Build Reliable Clusters for Distributed AI Workloads",
				Speakers: []index.Speaker{{Name: "Cyril Konkratenko", Affiliation: "Nebius"}, {Name: "Maurits de Groot", Affiliation: "Nebius"}},
				Track:    "Training Systems", Room: "Junior Stage", Start: at("15:55"), End: at("16:20"),
				Kind: index.KindSponsor, Scheduled: true, Sources: src, ReadFrom: src},
			start:      "Large-scale distributed AI training is highly sensitive",
			end:        "efficiency of long-running AI workloads.",
			paragraphs: 1,
		},
		{
			name: "' - ' in title and affiliation, section spells 'Dave'",
			want: index.Talk{ID: "lightning-talk-building-a-pytorch-native-16ff7c", Conference: pytorchEurope,
				Title: "Lightning Talk: Building a PyTorch‑native VLLM Plugin for IBM Spyre",
				Speakers: []index.Speaker{{Name: "Thomas Parnell", Affiliation: "IBM Research"},
					{Name: "Thomas Ortner", Affiliation: "IBM Research Europe - Zurich"}},
				Track: "Frameworks & Compilers", Room: "Junior Stage", Start: at("14:45"), End: at("14:55"),
				Kind: index.KindLightning, Scheduled: true, Sources: src, ReadFrom: src},
			start:      "IBM Spyre is an AI accelerator",
			end:        "a wider variety of accelerators and use cases.",
			paragraphs: 3,
		},
		{
			name: "registration spans the day, no abstract",
			want: index.Talk{ID: "registration-badge-pick-up-b32ce0", Conference: pytorchEurope, Title: "Registration & Badge Pick-Up",
				Track: "Breaks/Exhibits/Special Events", Room: "Lobby", Start: at("08:00"), End: at("15:25"),
				Kind: index.KindBreak, Scheduled: true, Sources: src, ReadFrom: src},
		},
		{
			name: "last block before the sidebar; speaker name with a trailing ' -' in the section",
			want: index.Talk{ID: "de-mystifying-pytorch-for-asics-when-5881fc", Conference: pytorchEurope,
				Title:    "De-mystifying PyTorch for ASICs: When (and Why) To Move Your Development To AI Accelerators",
				Speakers: []index.Speaker{{Name: "Alpha Romer Coma", Affiliation: "Kollab Philippines"}},
				Track:    "Frameworks & Compilers", Room: "Central Room", Start: at("16:25"), End: at("16:50"),
				Kind: index.KindTalk, Scheduled: true, Sources: src, ReadFrom: src},
			start:      "GPU availability and cost are squeezing ML teams",
			end:        "is ready for the ASIC leap.",
			paragraphs: 4,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := findTalk(t, talks, tt.want.Title, tt.want.Start.Format("15:04"))
			if d := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(index.Talk{}, "Abstract")); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			paras := splitParagraphs(got.Abstract)
			if len(paras) != tt.paragraphs || !strings.HasPrefix(got.Abstract, tt.start) || !strings.HasSuffix(got.Abstract, tt.end) {
				t.Errorf("abstract: %d paragraphs, want %d, starting %q, ending %q; got:\n%s",
					len(paras), tt.paragraphs, tt.start, tt.end, got.Abstract)
			}
		})
	}
}

// TestParseSchedSpeakerNames covers the title lines whose speakers need the
// Speakers section to be found.
func TestParseSchedSpeakerNames(t *testing.T) {
	talks := ParseSched(schedSeed, readSeed(t, schedSeed)).Talks
	tests := []struct{ title, hhmm, speakers string }{
		{"Keynote: Gemma 4: Compacting Intelligence for the Edge", "09:50", "Léonard Hussenot (Research Scientist, Google Deepmind)"},
		{"Lightning Talk: Torch-Spyre: Compiling To a Multi-core Dataflow Accelerator With Inductor", "14:30", "David Grove (IBM); Olivier Tardieu (IBM)"},
		{"Building Trust for Users and Regulators Alike: A Cost-Efficient PyTorch Path To Compliance-as-Code", "15:25", "Raja Gopal Hari Vijay (Zoho Corporation)"},
		{"Lightning Talk: Ball Tracking and Detection in Soccer Videos - Comparison of VLMs and Traditional Pipelines", "16:10", "Maciej Szymkowski (Future Processing)"},
		{"Lightning Talk: Debugging the Undebuggable: Introducing Torch.distributed.debug", "14:00", "Tristan Rice (Meta, PyTorch)"},
		{"Lightning Talk: Building AI That Ops Teams Actually Trust", "11:20", "Robert King (Chronosphere / Palo Alto Networks)"},
		{"Seamless Integration: Custom Kernels in the Torch.compile Stack Without Graphbreaks", "14:30", "Kshiteej Kalambarkar (NVIDIA); Masaki Kozuki (NVIDIA); Pawel Gadzinski (NVIDIA)"},
		{"Lightning Talk: Not All Tokens Are Equal: Semantic KV-Cache for Agentic LLM Serving", "11:20", "Maroon Ayoub (IBM Research); Hyunkyun Moon (moreh)"},
	}
	for _, tt := range tests {
		t.Run(tt.title, func(t *testing.T) {
			var got []string
			for _, s := range findTalk(t, talks, tt.title, tt.hhmm).Speakers {
				got = append(got, s.Name+" ("+s.Affiliation+")")
			}
			if g := strings.Join(got, "; "); g != tt.speakers {
				t.Errorf("speakers = %q, want %q", g, tt.speakers)
			}
		})
	}
}

// TestParseSchedNoBioNoBoilerplate collects, independently of the parser,
// every line of the page that is not abstract text (speaker sections, bios,
// slide files, sponsor notices, the sidebar) and checks that none reaches
// an abstract.
func TestParseSchedNoBioNoBoilerplate(t *testing.T) {
	data := readSeed(t, schedSeed)
	lines := splitLines(data)
	foreign := map[string]bool{}
	inSpeakers := false
	for i, l := range lines {
		switch {
		case l == "Speakers":
			inSpeakers = true
		case dateLineRE.MatchString(l):
			inSpeakers = false
		case strings.HasPrefix(l, sidebarStart):
			for _, rest := range lines[i:] {
				foreign[rest] = true
			}
		}
		if inSpeakers || strings.HasPrefix(l, "Sponsor:") || strings.HasPrefix(l, "Location:") || strings.HasPrefix(l, sponsorBoilerplate) {
			foreign[l] = true
		}
	}
	delete(foreign, "")
	if len(foreign) < 300 {
		t.Fatalf("only %d non-abstract lines collected; the collector is broken", len(foreign))
	}
	for _, tk := range ParseSched(schedSeed, data).Talks {
		for _, l := range strings.Split(tk.Abstract, "\n") {
			if foreign[l] {
				t.Errorf("%q: abstract line is not abstract text: %q", tk.Title, l)
			}
		}
		for _, bad := range []string{"Read More", "avatar for", "In order to facilitate", "Filter By", " pdf\n", "Speakers\n"} {
			if strings.Contains(tk.Abstract+"\n", bad) {
				t.Errorf("%q: abstract contains %q", tk.Title, bad)
			}
		}
	}
}

func TestParseSchedTruncated(t *testing.T) {
	const file = "003_truncated.txt"
	data, err := os.ReadFile(filepath.Join("testdata", "bad", file))
	if err != nil {
		t.Fatal(err)
	}
	s := ParseSched(file, data)
	wantWarn := []Warning{
		{File: file, Line: 5, Msg: `truncated session block "Keynote: Opening Remarks - Ada Lovelace, Babbage & Co": no date line after the title`},
		{File: file, Line: 27, Msg: `truncated session block "Cut Short - Alan Turing, Bletchley": no closing date, room and track lines`},
		{File: file, Line: 27, Msg: `session block "Cut Short - Alan Turing, Bletchley": speakers guessed from the title line`},
	}
	if d := cmp.Diff(wantWarn, s.Warnings); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	if s.Blocks != 3 || len(s.Talks) != 2 {
		t.Fatalf("blocks, talks = %d, %d; want 3, 2", s.Blocks, len(s.Talks))
	}
	cut := s.Talks[1]
	want := index.Talk{ID: cut.ID, Title: "Cut Short", Speakers: []index.Speaker{{Name: "Alan Turing", Affiliation: "Bletchley"}},
		Abstract: "This abstract is all that survived of the block.", Room: "Central Room",
		Start: at("10:00"), End: at("10:25"), Kind: index.KindTalk, Scheduled: true, Sources: []string{file}, ReadFrom: []string{file}}
	if d := cmp.Diff(want, cut); d != "" {
		t.Errorf("truncated block (-want +got):\n%s", d)
	}
}

func TestSessionKind(t *testing.T) {
	tests := []struct {
		title, track string
		want         index.Kind
	}{
		{"Keynote: PyTorch CTO", "Keynote Sessions", index.KindKeynote},
		{"Sponsored Keynote: Open Source Infrastructure", "Keynote Sessions", index.KindKeynote},
		{"Lightning Talk: Monarch", "Frameworks & Compilers", index.KindLightning},
		{"Birds of A Feather: NCCL in the Wild", "Birds of A Feather", index.KindBOF},
		{"Meet the Ray Maintainers", "Meet the Developers", index.KindMeet},
		{"Robots in the Wild", "Poster Presentations", index.KindPoster},
		{"Sponsor Activity - Lobster Trap", "Breaks/Exhibits/Special Events", index.KindSponsor},
		{"Sponsored Session: Fault-Tolerant Training", "Training Systems", index.KindSponsor},
		{"Attendee Lunch", "Breaks/Exhibits/Special Events", index.KindBreak},
		{"Community Expo", "Breaks/Exhibits/Special Events", index.KindBreak},
		{"Fp8 Training From Hopper To Blackwell", "Training Systems", index.KindTalk},
	}
	for _, tt := range tests {
		if got := sessionKind(tt.title, tt.track); got != tt.want {
			t.Errorf("sessionKind(%q, %q) = %q, want %q", tt.title, tt.track, got, tt.want)
		}
	}
}

// TestParseSchedSharedHeader: two parallel sessions under one time header,
// the second with the same date line as the first, are two talks.
func TestParseSchedSharedHeader(t *testing.T) {
	page := strings.Join([]string{
		"11:00 CEST", "",
		"Talk One - Ada Lovelace, Babbage & Co",
		"Wednesday April 8, 2026 11:00 - 11:25 CEST", "Master Stage",
		"First abstract.",
		"Speakers", "avatar for Ada Lovelace", "", "Ada Lovelace", "", "Engineer, Babbage & Co", "Bio of Ada.",
		"Wednesday April 8, 2026 11:00 - 11:25 CEST", "Master Stage", "\u00a0 Training Systems", "",
		"Talk Two",
		"Wednesday April 8, 2026 11:00 - 11:25 CEST", "Junior Stage",
		"Second abstract.",
		"Wednesday April 8, 2026 11:00 - 11:25 CEST", "Junior Stage", "\u00a0 Frameworks & Compilers", "\u00a0 • Audience Level Advanced",
		"", "\u00a0 • Filter By Date", "    Apr 7 - 8, 2026",
	}, "\n")
	s := ParseSched("p.txt", []byte(page))
	var got []string
	for _, tk := range s.Talks {
		got = append(got, strings.Join([]string{tk.Title, tk.Room, tk.Track, tk.Level, tk.Abstract}, " | "))
	}
	want := []string{
		"Talk One | Master Stage | Training Systems |  | First abstract.",
		"Talk Two | Junior Stage | Frameworks & Compilers | Advanced | Second abstract.",
	}
	if d := cmp.Diff(want, got); d != "" || s.Blocks != 2 || len(s.Warnings) != 0 {
		t.Errorf("blocks %d, warnings %v, talks (-want +got):\n%s", s.Blocks, s.Warnings, d)
	}
}

// TestParseSchedUnknownSpeaker: the title line names someone the Speakers
// section does not list; the section's speakers are kept, with a warning.
func TestParseSchedUnknownSpeaker(t *testing.T) {
	page := strings.Join([]string{
		"11:00 CEST", "",
		"Widgets - Part Two - Zed Zulu, Acme",
		"Wednesday April 8, 2026 11:00 - 11:25 CEST", "Master Stage",
		"Speakers", "avatar for Ada Lovelace", "", "Ada Lovelace", "", "Engineer, Babbage & Co",
		"Wednesday April 8, 2026 11:00 - 11:25 CEST", "Master Stage", "\u00a0 Training Systems",
	}, "\n")
	s := ParseSched("p.txt", []byte(page))
	if len(s.Talks) != 1 {
		t.Fatalf("%d talks, want 1", len(s.Talks))
	}
	got := s.Talks[0]
	if got.Title != "Widgets - Part Two" || !cmp.Equal(got.Speakers, []index.Speaker{{Name: "Ada Lovelace", Affiliation: "Engineer, Babbage & Co"}}) {
		t.Errorf("title %q, speakers %v", got.Title, got.Speakers)
	}
	want := []Warning{{File: "p.txt", Line: 3, Msg: `session block "Widgets - Part Two - Zed Zulu, Acme": no speaker of the Speakers section found after a " - " in the title line; speakers taken from the section`}}
	if d := cmp.Diff(want, s.Warnings); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
}

var pytorchEurope = index.Conference{ID: "pytorch-conference-europe-2026", Name: "PyTorch Conference Europe 2026"}

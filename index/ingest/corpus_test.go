package ingest

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/analysis"
	"github.com/talksearch/talksearch/seeds"
)

func loadSeeds(t testing.TB) *Corpus {
	t.Helper()
	c, err := Load(seeds.FS)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestLoadSeedCounts(t *testing.T) {
	c := loadSeeds(t)
	r := c.Report
	got := []int{r.Files, r.Blocks, len(c.Talks), r.Unscheduled, r.Merged, len(r.Warnings)}
	want := []int{5, 62, 73, 11, 32, 0}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("files, blocks, talks, unscheduled, merged, warnings (-want +got):\n%s", d)
	}
	wantFiles := []FileStats{
		{File: "000_6b42f94569a604f4.txt", Kind: "abstracts", Paragraphs: 42, Talks: 17, New: 6},
		{File: "001_2e0c21527924176b.txt", Kind: "abstracts", Paragraphs: 28, Talks: 11, New: 0},
		{File: "002_40d108097b152c48.txt", Kind: "abstracts", Paragraphs: 11, Talks: 5, New: 0},
		{File: "003_dfd754d9b55d5906.txt", Kind: "schedule", Talks: 62, Read: 62, New: 62},
		{File: "004_4152ccaaccaafb47.txt", Kind: "abstracts", Paragraphs: 29, Talks: 10, New: 5},
	}
	if d := cmp.Diff(wantFiles, r.PerFile); d != "" {
		t.Errorf("per file (-want +got):\n%s", d)
	}
	if r.Warnings != nil {
		t.Errorf("warnings: %v", r.Warnings)
	}
}

// TestLoadSeedUnscheduled lists the talks known only from the abstract
// dumps: how the dumps were split into talks.
func TestLoadSeedUnscheduled(t *testing.T) {
	const f0, f4 = "000_6b42f94569a604f4.txt", "004_4152ccaaccaafb47.txt"
	want := []struct {
		title      string
		paragraphs int
		sources    []string
	}{
		{"As PyTorch models move to production, organizations face a critical challenge: deploying…", 6, []string{f4}},
		{"As PyTorch models scale to billions of parameters, the bottleneck has quietly…", 1, []string{f0}},
		{"Asynchronous Reinforcement Learning (AsyncRL) workloads have unique data sharing requirements: actors must…", 1, []string{f0}},
		{"Distributed neural network training frameworks typically optimize for specific architectures while minimizing…", 1, []string{f0}},
		{"FlexAttention democratized attention research by letting researchers prototype custom attention variants in…", 4, []string{f4}},
		{"In recent years, both Nvidia and AMD have introduced hardware coherent platforms…", 1, []string{f4}},
		{"Jacobian descent (JD) is an extension of gradient descent supporting the optimization…", 4, []string{f0}},
		{"LLM systems increasingly rely on intelligent routing to balance cost, latency, and…", 4, []string{f0}},
		{"Modern GPUs are fast enough that CPU kernel launch overhead has become…", 4, []string{f4}},
		{"This talk will dive into how we implemented and optimized reinforcement learning…", 4, []string{f0}},
		{"torch.compile is the goto mechanism to increase performance of PyTorch models of…", 3, []string{f4}},
	}
	var got []index.Talk
	for _, tk := range loadSeeds(t).Talks {
		if !tk.Scheduled {
			got = append(got, tk)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d unscheduled talks, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Title != w.title || len(splitParagraphs(g.Abstract)) != w.paragraphs || !cmp.Equal(g.Sources, w.sources) {
			t.Errorf("unscheduled talk %d = %q, %d paragraphs, %v; want %q, %d, %v",
				i, g.Title, len(splitParagraphs(g.Abstract)), g.Sources, w.title, w.paragraphs, w.sources)
		}
		if g.Kind != index.KindTalk || g.Speakers != nil || g.Track != "" || g.Level != "" || g.Room != "" || g.Start != nil || g.End != nil {
			t.Errorf("%q: an abstract-only talk has invented fields: %+v", g.Title, g)
		}
	}
}

// TestLoadSeedEveryParagraphOnce checks that each paragraph of each
// abstract dump is in exactly one talk, and that each paragraph of each
// talk comes from one of its sources.
func TestLoadSeedEveryParagraphOnce(t *testing.T) {
	c := loadSeeds(t)
	folded := make([]string, len(c.Talks))
	for i, tk := range c.Talks {
		folded[i] = " " + strings.Join(analysis.MatchWords(tk.Abstract), " ") + " "
	}
	names, _ := fs.Glob(seeds.FS, "*.txt")
	sourceText := map[string]string{}
	total := 0
	for _, name := range names {
		data, _ := fs.ReadFile(seeds.FS, name)
		sourceText[name] = " " + strings.Join(analysis.MatchWords(string(data)), " ") + " "
		if name == schedSeed {
			continue
		}
		for _, p := range ParseAbstracts(name, data).Paragraphs {
			total++
			words := " " + strings.Join(analysis.MatchWords(p.Text), " ") + " "
			var in []string
			for i, f := range folded {
				if strings.Contains(f, words) {
					in = append(in, c.Talks[i].Title)
				}
			}
			if len(in) != 1 {
				t.Errorf("%s:%d %.40q is in %d talks %q, want 1", name, p.Line, p.Text, len(in), in)
			}
		}
	}
	if total != 42+28+11+29 {
		t.Errorf("%d dump paragraphs, want 110", total)
	}
	for _, tk := range c.Talks {
		for _, p := range splitParagraphs(tk.Abstract) {
			words := " " + strings.Join(analysis.MatchWords(p), " ") + " "
			found := false
			for _, s := range tk.Sources {
				found = found || strings.Contains(sourceText[s], words)
			}
			if !found {
				t.Errorf("%q: paragraph %.40q is in none of its sources %v", tk.Title, p, tk.Sources)
			}
		}
	}
}

// TestLoadSeedJudgedTalks checks that every talk of the seeds' relevance
// judgments (../shared/relevance/dev-judgments.tsv: query, grade, schedule
// title or none, the abstract's first ten words) exists after ingest, once.
func TestLoadSeedJudgedTalks(t *testing.T) {
	p := filepath.Join("..", "..", "..", "shared", "relevance", "dev-judgments.tsv")
	f, err := os.Open(p)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("dev judgments missing under CI: %v", err)
		}
		t.Skipf("dev judgments %s absent: %v", p, err)
	}
	defer f.Close()
	talks := loadSeeds(t).Talks
	n := 0
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		cols := strings.Split(sc.Text(), "\t")
		if line == 1 || len(cols) < 4 || seen[cols[2]+"\t"+cols[3]] {
			continue
		}
		seen[cols[2]+"\t"+cols[3]] = true
		title, start := cols[2], cols[3]
		n++
		matches := 0
		for _, tk := range talks {
			words := strings.Fields(tk.Abstract)
			if len(words) > 10 {
				words = words[:10]
			}
			if strings.Join(words, " ") == start && (tk.Scheduled == (title != "")) && (title == "" || tk.Title == title) {
				matches++
			}
		}
		if matches != 1 {
			t.Errorf("judged talk %q / %q: %d talks match, want 1", title, start, matches)
		}
	}
	if n != 39 {
		t.Errorf("%d judged talks read, want 39", n)
	}
}

var idRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*-[0-9a-f]{6}$`)

// TestLoadIDsFromContent renames and reorders the seed files: ids do not
// change, are unique and URL-safe.
func TestLoadIDsFromContent(t *testing.T) {
	orig := loadSeeds(t)
	renamed := fstest.MapFS{}
	names, _ := fs.Glob(seeds.FS, "*.txt")
	for i, name := range names {
		data, _ := fs.ReadFile(seeds.FS, name)
		// Reverse the order and hide which file is the schedule.
		renamed[string(rune('z'-i))+".txt"] = &fstest.MapFile{Data: data}
	}
	again, err := Load(renamed)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(c *Corpus) []string {
		var out []string
		seen := map[string]bool{}
		for _, tk := range c.Talks {
			if seen[tk.ID] {
				t.Errorf("duplicate id %s", tk.ID)
			}
			seen[tk.ID] = true
			if !idRE.MatchString(tk.ID) || len(tk.ID) > slugMaxLen+7 {
				t.Errorf("id %q is not a short URL-safe slug-hash", tk.ID)
			}
			out = append(out, tk.ID)
		}
		sort.Strings(out)
		return out
	}
	if d := cmp.Diff(ids(orig), ids(again)); d != "" {
		t.Errorf("ids depend on file names or order (-orig +renamed):\n%s", d)
	}
}

func TestLoadSeedOrder(t *testing.T) {
	talks := loadSeeds(t).Talks
	for i := 1; i < len(talks); i++ {
		a, b := talks[i-1], talks[i]
		ok := false
		switch {
		case a.Scheduled && !b.Scheduled:
			ok = true
		case a.Scheduled && b.Scheduled:
			ok = a.Start.Before(*b.Start) || (a.Start.Equal(*b.Start) && a.Title <= b.Title)
		case !a.Scheduled && !b.Scheduled:
			ok = a.Title <= b.Title
		}
		if !ok {
			t.Errorf("talk %d %q before %q breaks the export order", i, a.Title, b.Title)
		}
	}
}

// TestLoadSplitFixture: a schedule and two dumps with near-duplicates
// (re-wrapped lines, "!" for ".", a non-breaking hyphen) and talks that
// begin with "In this talk" as well as continue with it.
func TestLoadSplitFixture(t *testing.T) {
	c, err := Load(os.DirFS(filepath.Join("testdata", "split")))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Title      string
		Scheduled  bool
		Paragraphs []string
		Sources    []string
	}
	var got []row
	for _, tk := range c.Talks {
		got = append(got, row{tk.Title, tk.Scheduled, splitParagraphs(tk.Abstract), tk.Sources})
	}
	const d0, d1, s = "000_dump.txt", "001_dump.txt", "003_sched.txt"
	want := []row{
		{"Keynote: Opening Remarks", true, []string{"The conference opens with a look at the “difference engine” and what it means for tensor programs — a short history."}, []string{s}},
		{"Quantized Widgets - From Theory To Practice", true, []string{
			"Widgets are everywhere in modern deep learning systems, but quantizing them without losing accuracy is still an art rather than a science.",
			"In this talk we show a recipe that quantizes widgets to four bits with less than one percent accuracy loss, and we explain why it works."}, []string{d0, s}},
		{"Coffee Break", true, []string{"Menu:\n-Croissant\n-Fruit"}, []string{s}},
		{"Gardeners have tracked the growth of tomato plants by hand for centuries…", false, []string{
			"Gardeners have tracked the growth of tomato plants by hand for centuries, writing measurements in notebooks that nobody reads again.",
			"In this talk, we present TomatoNet, a PyTorch model that reads leaf images and predicts the harvest date of each tomato plant.",
			"Attendees will learn how to collect leaf images, label them cheaply and train a small convolutional network on a single GPU."}, []string{d0}},
		{"In this talk we introduce Kraken, a scheduler that places octopus-shaped pipelines…", false, []string{
			"In this talk we introduce Kraken, a scheduler that places octopus-shaped pipelines on heterogeneous clusters, and we measure its gains on real jobs.",
			"Kraken also recovers from node failures by re-placing the pipeline tentacles that were lost, without restarting the whole job."}, []string{d0, d1}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("talks (-want +got):\n%s", d)
	}
	opening := c.Talks[0].Speakers
	wantSpeakers := []index.Speaker{{Name: "Ada Lovelace", Affiliation: "Chief Engine Officer - Analytics, Babbage & Co"}, {Name: "Charles Babbage", Affiliation: "Babbage & Co"}}
	if d := cmp.Diff(wantSpeakers, opening); d != "" {
		t.Errorf("speakers (-want +got):\n%s", d)
	}
	wantMerges := []Merge{
		{TalkID: c.Talks[1].ID, Title: "Quantized Widgets - From Theory To Practice", File: d0, Paragraphs: 2},
		{TalkID: c.Talks[4].ID, Title: c.Talks[4].Title, File: d1, Paragraphs: 1},
	}
	if d := cmp.Diff(wantMerges, c.Report.Merges); d != "" {
		t.Errorf("merges (-want +got):\n%s", d)
	}
	if c.Report.Merged != 2 || c.Report.Unscheduled != 2 || c.Report.Blocks != 3 {
		t.Errorf("merged, unscheduled, blocks = %d, %d, %d; want 2, 2, 3", c.Report.Merged, c.Report.Unscheduled, c.Report.Blocks)
	}
}

// TestLoadBadInput: an empty, a binary and a structureless file, and a
// schedule with truncated blocks, next to a good dump. Each problem is a
// warning with its file (and line); the rest ingests.
func TestLoadBadInput(t *testing.T) {
	c, err := Load(os.DirFS(filepath.Join("testdata", "bad")))
	if err != nil {
		t.Fatal(err)
	}
	const tr = "003_truncated.txt"
	wantWarn := []Warning{
		{File: "000_empty.txt", Msg: "empty file"},
		{File: "001_binary.txt", Msg: "binary file (NUL bytes or invalid UTF-8), not a text dump"},
		{File: "002_noise.txt", Msg: "no recognisable structure: neither a schedule page nor abstract paragraphs"},
		{File: tr, Line: 5, Msg: `truncated session block "Keynote: Opening Remarks - Ada Lovelace, Babbage & Co": no date line after the title`},
		{File: tr, Line: 27, Msg: `truncated session block "Cut Short - Alan Turing, Bletchley": no closing date, room and track lines`},
		{File: tr, Line: 27, Msg: `session block "Cut Short - Alan Turing, Bletchley": speakers guessed from the title line`},
	}
	if d := cmp.Diff(wantWarn, c.Report.Warnings); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	var titles []string
	for _, tk := range c.Talks {
		titles = append(titles, tk.Title+" "+strings.Join(tk.Sources, ","))
	}
	wantTitles := []string{
		"Quantized Widgets 003_truncated.txt,004_dump.txt",
		"Cut Short 003_truncated.txt",
		"A lonely abstract about gardening robots that water tomato plants at night… 004_dump.txt",
	}
	if d := cmp.Diff(wantTitles, titles); d != "" {
		t.Errorf("talks (-want +got):\n%s", d)
	}
	if c.Report.Files != 5 || c.Report.Blocks != 3 {
		t.Errorf("files, blocks = %d, %d; want 5, 3", c.Report.Files, c.Report.Blocks)
	}
}

func TestLoadNoSeeds(t *testing.T) {
	for name, fsys := range map[string]fs.FS{
		"empty":       fstest.MapFS{},
		"other files": fstest.MapFS{"README.md": {Data: []byte("# seeds")}, "sub/a.txt": {Data: []byte("x")}},
	} {
		t.Run(name, func(t *testing.T) {
			c, err := Load(fsys)
			if !errors.Is(err, ErrNoSeeds) || c != nil {
				t.Errorf("Load = %v, %v; want nil, ErrNoSeeds", c, err)
			}
		})
	}
}

// TestLoadNearDuplicateDump adds a copy of a dump with its typography
// changed, its lines re-wrapped at 60 columns and a word edited in every
// paragraph: it merges into the same talks as the original, adding none.
func TestLoadNearDuplicateDump(t *testing.T) {
	const orig = "002_40d108097b152c48.txt"
	fsys := fstest.MapFS{}
	names, _ := fs.Glob(seeds.FS, "*.txt")
	for _, name := range names {
		data, _ := fs.ReadFile(seeds.FS, name)
		fsys[name] = &fstest.MapFile{Data: data}
	}
	text := strings.NewReplacer("’", "'", "—", " - ", "–", "-", `"`, "“", " the ", " a ").Replace(string(fsys[orig].Data))
	var b strings.Builder
	for _, para := range strings.Split(text, "\n\n") {
		col := 0
		for _, w := range strings.Fields(para) {
			if col > 0 && col+len(w) > 60 {
				b.WriteString("\n")
				col = 0
			} else if col > 0 {
				b.WriteString(" ")
				col++
			}
			b.WriteString(w)
			col += len(w)
		}
		b.WriteString("\n\n")
	}
	fsys["005_edited.txt"] = &fstest.MapFile{Data: []byte(b.String())}
	c, err := Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Talks) != 73 || c.Report.Unscheduled != 11 {
		t.Errorf("talks, unscheduled = %d, %d; want 73, 11 (the edited copy added talks)", len(c.Talks), c.Report.Unscheduled)
	}
	mergedInto := func(file string) []string {
		var ids []string
		for _, m := range c.Report.Merges {
			if m.File == file {
				ids = append(ids, m.TalkID+" "+string(rune('0'+m.Paragraphs)))
			}
		}
		return ids
	}
	if d := cmp.Diff(mergedInto(orig), mergedInto("005_edited.txt")); d != "" {
		t.Errorf("the edited copy merged differently (-original +edited):\n%s", d)
	}
}

// TestLoadReadFromIsTheFileRead: a JSON Lines row keeps the sources it
// states, but what the talk was read from is the file that held it.
func TestLoadReadFromIsTheFileRead(t *testing.T) {
	fsys := fstest.MapFS{
		"a.jsonl": {Data: []byte(`{"id":"otter-1","title":"Otters in the build farm","abstract":"Why our build farm keeps a raft of otters busy sorting artifacts at night.","sources":["b.txt"]}
{"id":"otter-2","title":"Otter-driven release trains","abstract":"Release trains that leave on time because an otter rings the bell.","sources":["b.txt","c.txt"]}
`)},
		"b.txt": {Data: []byte("A lighthouse keeper explains how fog signals were scheduled along the northern coast for a century.\n")},
	}
	c, err := Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	type got struct{ ID, Sources, ReadFrom string }
	var talks []got
	for _, tk := range c.Talks {
		talks = append(talks, got{tk.ID, strings.Join(tk.Sources, ","), strings.Join(tk.ReadFrom, ",")})
	}
	sort.Slice(talks, func(i, j int) bool { return talks[i].ID < talks[j].ID })
	want := []got{
		{"a-lighthouse-keeper-explains-how-fog-821931", "b.txt", "b.txt"},
		{"otter-1", "b.txt", "a.jsonl"},
		{"otter-2", "b.txt,c.txt", "a.jsonl"},
	}
	if d := cmp.Diff(want, talks); d != "" {
		t.Errorf("talks (-want +got):\n%s", d)
	}
	per := map[string]int{}
	for _, f := range c.Report.PerFile {
		per[f.File] = f.Talks
	}
	if d := cmp.Diff(map[string]int{"a.jsonl": 2, "b.txt": 1}, per); d != "" {
		t.Errorf("talks per file (-want +got):\n%s", d)
	}
}

package overlap

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/analysis"
	"github.com/talksearch/talksearch/index/ingest"
)

// readFile reads a submissions file of testdata as the organizers' files
// are read (ingest.Importer), times without a zone in UTC.
func readFile(t *testing.T, name string) []index.Talk {
	t.Helper()
	imp := readImport(t, name, ingest.ImportOptions{Location: time.UTC})
	return imp.Talks
}

func readImport(t *testing.T, name string, opt ingest.ImportOptions) *ingest.Import {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	imp, err := ingest.ReadSubmissions(filepath.Base(name), f, opt)
	if err != nil {
		t.Fatalf("ReadSubmissions(%s): %v", name, err)
	}
	if s := imp.Summary; s.Rows != s.Kept+s.Merged+s.Skipped {
		t.Errorf("%s: %d rows but %d kept + %d merged + %d skipped", s.File, s.Rows, s.Kept, s.Merged, s.Skipped)
	}
	return imp
}

// Imported submissions go through Detect like the seeds: the example file
// holds an identical resubmission, an edited copy, topical pairs and a
// clash, and its break is never paired.
func TestDetectExampleSubmissions(t *testing.T) {
	talks := readFile(t, "testdata/submissions.csv")
	rep := Detect(talks, Options{})
	type row struct {
		A, B, Kind string
		Score      float64
	}
	var got []row
	for _, p := range rep.Pairs {
		got = append(got, row{p.A, p.B, p.Kind, p.Score})
	}
	want := []row{
		{"s01", "s02", KindDuplicate, 1},
		{"s01", "s03", KindNearDuplicate, 0.972},
		{"s02", "s03", KindNearDuplicate, 0.972},
		// C++ is a term (cpp, as in the index) that only s06 says.
		{"s05", "s06", KindTopical, 0.358},
		{"s01", "s04", KindTopical, 0.181},
		{"s02", "s04", KindTopical, 0.181},
		{"s03", "s04", KindTopical, 0.175},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pairs (-want +got):\n%s", diff)
	}
	wantClusters := []Cluster{
		{IDs: []string{"s01", "s02", "s03", "s04"}, Label: "Monarch, RL, post-training", Titles: []string{
			"Scaling RL Post-Training With Monarch Actors", "Scaling RL Post-Training With Monarch Actors",
			"Asynchronous RL Post-Training on Monarch Actors", "Bringing Monarch to ROCm"}},
		{IDs: []string{"s05", "s06"}, Label: "overhead, launch, CUDA Graphs", Titles: []string{
			"CUDA Graphs Without Tears", "Less CPU Overhead With torch.compile's C++ Wrapper"}},
	}
	if diff := cmp.Diff(wantClusters, rep.Clusters); diff != "" {
		t.Errorf("clusters (-want +got):\n%s", diff)
	}
	if len(rep.Clashes) != 1 || rep.Clashes[0].A != "s05" || rep.Clashes[0].B != "s06" {
		t.Errorf("clashes %+v, want s05/s06", rep.Clashes)
	}
}

// The identical copy right after an unclosed quote is read, and paired
// with the row it copies.
func TestUnclosedQuotePaired(t *testing.T) {
	rep := Detect(readImport(t, "testdata/unclosed-quote.csv", ingest.ImportOptions{}).Talks, Options{})
	if len(rep.Pairs) == 0 || rep.Pairs[0].A != "u1" || rep.Pairs[0].B != "u3" || rep.Pairs[0].Kind != KindDuplicate {
		t.Errorf("pairs %+v, want u1/u3 duplicate first", rep.Pairs)
	}
}

func at2(day, hhmm string, zone *time.Location) *time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04", day+" "+hhmm, zone)
	if err != nil {
		panic(err)
	}
	return &t
}

// pretalxTalks are testdata/pretalx-submissions.json as a pretalx reader
// gives them: the speaker, conflict and resubmission logic is tested on
// them until that reader is registered (TestPretalxFixture).
func pretalxTalks() []index.Talk {
	paris := time.FixedZone("CEST", 2*3600)
	day := "2026-04-08"
	mk := func(code, title, abstract, track, room, start, end string, sp index.Speaker) index.Talk {
		return index.Talk{ID: code, SourceID: code, Title: title, Abstract: abstract, Track: track, Room: room,
			Start: at2(day, start, paris), End: at2(day, end, paris), Kind: index.KindTalk, Scheduled: true,
			Speakers: []index.Speaker{sp}, Conference: index.Conference{ID: "pytorch-conference-europe-2026"}}
	}
	ada := index.Speaker{Name: "Ada Lovelace", SourceID: "ADA1"}
	ada2 := index.Speaker{Name: "ada LOVELACE", SourceID: "ADA1"}
	grace := index.Speaker{Name: "Grace Hopper", SourceID: "GRC2"}
	return []index.Talk{
		mk("AB7XQK", "Monarch Actors for Reinforcement Learning", "Monarch is a single-controller runtime: one Python program drives actors on a whole cluster through process meshes. We show how Monarch actors orchestrate reinforcement learning, with weights synchronized over RDMA between trainers and rollout workers.", "Post-Training", "Room A", "10:00", "10:30", ada),
		mk("CD9YRM", "One Controller, Many Actors: Asynchronous RL at Cluster Scale", "A single Python program can drive a cluster: Monarch meshes of actors run trainers and rollout workers for asynchronous reinforcement learning, and weights move between them over RDMA. We show the design and what broke at scale.", "Distributed", "Room B", "10:15", "10:45", ada2),
		mk("EF3ZSP", "CUDA Graphs Without Tears", "CPU kernel launch overhead is now the bottleneck of fast GPUs. CUDA Graphs remove it, but capture fails on dynamic shapes.", "Compilers", "Room C", "14:00", "14:30", grace),
		mk("GH5WTN", "Profiling Kernels on ROCm", "We profile HIP kernels on MI300 accelerators with rocprof and omniperf, and show which counters explain a slow GEMM.", "Hardware", "Room D", "14:20", "14:50", grace),
	}
}

// checkPretalxReport holds the report of the pretalx fixture to what a
// committee must see: the reworded resubmission by one speaker (spelled two
// ways, one code), shown with that speaker; the speaker booked twice.
func checkPretalxReport(t *testing.T, rep *Report) {
	t.Helper()
	if len(rep.Pairs) == 0 {
		t.Fatal("no pairs")
	}
	p := rep.Pairs[0]
	if p.A != "AB7XQK" || p.B != "CD9YRM" || p.Kind != KindSameSpeaker || !cmp.Equal(p.SharedSpeakers, []string{"Ada Lovelace"}) {
		t.Errorf("first pair %s/%s %s %v, want AB7XQK/CD9YRM same-speaker by Ada Lovelace", p.A, p.B, p.Kind, p.SharedSpeakers)
	}
	if p.Score < 0.5 || p.RoomA != "Room A" || p.RoomB != "Room B" || p.StartA == nil || len(p.SpeakersB) != 1 {
		t.Errorf("pair card data: %+v", p)
	}
	type row struct{ Kind, Speaker, A, B, Start, End string }
	var got []row
	for _, c := range rep.Conflicts {
		got = append(got, row{c.Kind, c.Speaker, c.A, c.B, c.Start.UTC().Format("15:04"), c.End.UTC().Format("15:04")})
	}
	want := []row{
		{ConflictSpeaker, "Ada Lovelace", "AB7XQK", "CD9YRM", "08:15", "08:30"},
		{ConflictSpeaker, "Grace Hopper", "EF3ZSP", "GH5WTN", "12:20", "12:30"},
	}
	if len(got) < 2 || !cmp.Equal(want, got[:2]) {
		t.Errorf("conflicts (-want +got):\n%s", cmp.Diff(want, got))
	}
	for _, c := range got[2:] {
		if c.Kind == ConflictSpeaker {
			t.Errorf("extra speaker conflict %+v", c)
		}
	}
}

func TestSpeakersResubmissionAndConflicts(t *testing.T) {
	checkPretalxReport(t, Detect(pretalxTalks(), Options{}))
}

// The same texts by strangers are only a topical pair: the speaker is the
// evidence.
func TestResubmissionNeedsTheSpeaker(t *testing.T) {
	talks := pretalxTalks()[:2]
	talks[1].Speakers = []index.Speaker{{Name: "Charles Babbage", SourceID: "CB3"}}
	rep := Detect(talks, Options{})
	if len(rep.Pairs) != 1 || rep.Pairs[0].Kind != KindTopical || len(rep.Pairs[0].SharedSpeakers) != 0 {
		t.Fatalf("pairs %+v", rep.Pairs)
	}
	// A name matches across spellings (case, accents) without a code.
	talks[0].Speakers = []index.Speaker{{Name: "José García"}}
	talks[1].Speakers = []index.Speaker{{Name: "jose  GARCIA"}}
	rep = Detect(talks, Options{})
	if rep.Pairs[0].Kind != KindSameSpeaker || !cmp.Equal(rep.Pairs[0].SharedSpeakers, []string{"José García"}) {
		t.Errorf("pair %+v", rep.Pairs[0])
	}
}

func TestTrackConflicts(t *testing.T) {
	talks := pretalxTalks()
	talks[3].Track = "Compilers" // EF3ZSP 14:00-14:30 Room C, GH5WTN 14:20-14:50 Room D
	talks[3].Speakers = nil
	extra := talks[2]
	extra.ID, extra.Room, extra.Speakers = "SAMEROOM", "Room C", nil
	extra.Start, extra.End = talks[2].End, at2("2026-04-08", "15:00", time.FixedZone("CEST", 2*3600))
	talks = append(talks, extra) // starts as EF3ZSP ends: no conflict
	rep := Detect(talks, Options{})
	var got []string
	for _, c := range rep.Conflicts {
		if c.Kind == ConflictTrack {
			got = append(got, c.Track+" "+c.A+"/"+c.B)
		}
	}
	if diff := cmp.Diff([]string{"Compilers EF3ZSP/GH5WTN", "Compilers GH5WTN/SAMEROOM"}, got); diff != "" {
		t.Errorf("track conflicts (-want +got):\n%s", diff)
	}
}

// With two conferences loaded, a talk that comes back (same speaker, the
// abstract edited, a new title; or the same title) is listed as a
// resubmission, earlier conference first, and in both talks' views.
func TestResubmissionsAcrossConferences(t *testing.T) {
	base := pretalxTalks()
	y1 := index.Conference{ID: "fosdem-2024", Name: "FOSDEM 2024"}
	y2 := index.Conference{ID: "fosdem-2025", Name: "FOSDEM 2025"}
	old := base[0]
	old.ID, old.Conference = "fosdem-2024/1", y1
	old.Start, old.End = nil, nil
	edited := base[0]
	edited.ID, edited.Conference, edited.Title = "fosdem-2025/9", y2, "Reinforcement Learning on One Controller"
	edited.Abstract = strings.Replace(edited.Abstract, "We show how", "This talk explains how", 1)
	edited.Start, edited.End = nil, nil
	other := base[2]
	other.ID, other.Conference, other.Start, other.End = "fosdem-2025/3", y2, nil, nil
	rep := Detect([]index.Talk{edited, other, old}, Options{})
	if len(rep.Resubmissions) != 1 {
		t.Fatalf("resubmissions %+v", rep.Resubmissions)
	}
	r := rep.Resubmissions[0]
	want := Resubmission{Earlier: "fosdem-2024/1", Later: "fosdem-2025/9", TitleEarlier: old.Title, TitleLater: edited.Title,
		ConferenceEarlier: "fosdem-2024", ConferenceLater: "fosdem-2025", YearEarlier: 2024, YearLater: 2025, Kind: KindResubmission, Score: r.Score,
		Resemblance: r.Resemblance, SharedSpeakers: []string{"Ada Lovelace"}, Evidence: []string{"new title", "edited abstract", "same speaker"}}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("resubmission (-want +got):\n%s", diff)
	}
	v, ok := rep.Talk("fosdem-2025/9")
	if !ok || len(v.Versions) != 1 || v.Versions[0].Earlier != "fosdem-2024/1" || len(v.Similar) == 0 || v.Similar[0].B != "fosdem-2024/1" && v.Similar[0].A != "fosdem-2024/1" {
		t.Errorf("talk view %+v", v)
	}
	if len(v.Similar[0].Passages.A) == 0 || len(v.Similar[0].SharedTerms) == 0 {
		t.Errorf("similar submission without its explanation: %+v", v.Similar[0])
	}
	if _, ok := rep.Talk("no-such-id"); ok {
		t.Error("a view of an unknown id")
	}
}

// TestPretalxFixture reads the pretalx export with index/ingest's pretalx
// reader: the report is the one its talks give.
func TestPretalxFixture(t *testing.T) {
	imp := readImport(t, "testdata/pretalx-submissions.json", ingest.ImportOptions{})
	if imp.Summary.Kept != 4 || imp.Summary.Format != "pretalx" {
		t.Fatalf("summary %+v", imp.Summary)
	}
	checkPretalxReport(t, Detect(imp.Talks, Options{}))
}

// Two years of one conference: the talks that come back are found,
// earlier year first, with their evidence, and nothing else is.
func TestRecurringTalksResubmissions(t *testing.T) {
	talks := readFile(t, "testdata/recurring-talks.jsonl")
	rep := Detect(talks, Options{})
	type row struct{ Earlier, Later, Evidence string }
	var got []row
	for _, r := range rep.Resubmissions {
		got = append(got, row{r.Earlier, r.Later, strings.Join(r.Evidence, ", ")})
	}
	want := []row{
		{"osw-2024/1187", "osw-2025/2210", "new title, same speaker"}, // Pocket Mirage homebrew, renamed
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resubmissions (-want +got):\n%s", diff)
	}
	// The yearly state-of talks are recurring sessions: one line each,
	// with their years, and no pair.
	wantRecurring := []Recurring{
		{Title: "Kettle: State of the Union 2025", Years: []int{2024, 2025}, Conferences: []string{"osw-2024", "osw-2025"},
			IDs: []string{"osw-2024/1243", "osw-2025/2301"}, Evidence: []string{"same title", "same speaker", "edited abstract", "short title"}},
		{Title: "The state of Rivulet", Years: []int{2024, 2025}, Conferences: []string{"osw-2024", "osw-2025"},
			IDs: []string{"osw-2024/1120", "osw-2025/2145"}, Evidence: []string{"same title", "same speaker", "edited abstract", "short title"}},
	}
	if diff := cmp.Diff(wantRecurring, rep.Recurring); diff != "" {
		t.Errorf("recurring (-want +got):\n%s", diff)
	}
	for _, p := range rep.Pairs {
		if p.Kind == KindRecurring {
			t.Errorf("recurring pair %s/%s among the pairs", p.A, p.B)
		}
	}
	if v, ok := rep.Talk("osw-2025/2210"); !ok || len(v.Versions) != 1 || v.Versions[0].Earlier != "osw-2024/1187" || len(v.Similar) != len(dedupPairs(v.Similar)) {
		t.Errorf("the 2025 homebrew talk lacks its earlier version, or lists a pair twice: %+v", v)
	}
}

// Two real years of FOSDEM, read by ingest from ../shared/datasets: the
// sessions held every year are collapsed into one line with their years
// ("The state of Go", the Weblate BoF), apart from the resubmissions
// (earlier year first); the devrooms' 5-minute welcomes are not clashes.
func TestSharedFOSDEMResubmissions(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "datasets", "fosdem")
	var paths []string
	for _, year := range []string{"2024", "2025"} {
		p := filepath.Join(dir, "fosdem-"+year+".xml")
		if _, err := os.Stat(p); err != nil {
			t.Skipf("real schedule %s absent (the shared datasets sit beside the repository): %v", p, err)
		}
		paths = append(paths, p)
	}
	c, err := ingest.LoadPaths(paths, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := Detect(c.Talks, Options{})
	for _, r := range rep.Resubmissions {
		if r.ConferenceEarlier != "fosdem-2024" || r.ConferenceLater != "fosdem-2025" {
			t.Errorf("resubmission %s → %s: conferences %s → %s", r.Earlier, r.Later, r.ConferenceEarlier, r.ConferenceLater)
		}
		if r.TitleLater == "The state of Go" || r.TitleLater == "Weblate BoF" {
			t.Errorf("recurring session %q listed as a resubmission", r.TitleLater)
		}
	}
	recurring := map[string][]int{}
	for _, r := range rep.Recurring {
		recurring[r.Title] = r.Years
	}
	for _, title := range []string{"The state of Go", "Weblate BoF", "Welcome to the SBOM devroom"} {
		if !cmp.Equal(recurring[title], []int{2024, 2025}) {
			t.Errorf("recurring %q: years %v, want [2024 2025]", title, recurring[title])
		}
	}
	for _, p := range rep.Pairs {
		if recurring[p.TitleA] != nil && p.TitleA == p.TitleB {
			t.Errorf("recurring session %q among the pairs", p.TitleA)
		}
	}
	for k, cl := range rep.Clashes[:min(20, len(rep.Clashes))] {
		for _, title := range []string{cl.TitleA, cl.TitleB} {
			if strings.Contains(strings.ToLower(title), "welcome") {
				t.Errorf("clash %d: a welcome, %q", k+1, title)
			}
		}
	}
	if len(rep.Resubmissions) < 10 || len(rep.Recurring) < 10 {
		t.Errorf("%d resubmissions, %d recurring sessions", len(rep.Resubmissions), len(rep.Recurring))
	}
}

// dedupPairs is ps without repeated pairs.
func dedupPairs(ps []Pair) []Pair {
	seen := map[[2]string]bool{}
	var out []Pair
	for _, p := range ps {
		if k := [2]string{p.A, p.B}; !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}

// Two editions of an invented conference: the BoF and the seven devroom
// welcomes held both years are one line each with their years; the
// welcomes, 5-minute openings at 09:00 in seven rooms sharing a learnt
// blurb, clash with nothing; the two compiler talks in parallel do.
func TestMultiEditionRecurringAndWelcomes(t *testing.T) {
	talks := readFile(t, "testdata/multi-edition.jsonl")
	rep := Detect(talks, Options{})
	if len(rep.Recurring) != 8 {
		t.Fatalf("%d recurring sessions, want 8: %+v", len(rep.Recurring), rep.Recurring)
	}
	bof := rep.Recurring[0]
	want := Recurring{Title: "Kettle packaging BoF", Years: []int{2024, 2025}, Conferences: []string{"osw-2024", "osw-2025"},
		IDs: []string{"osw-2024/108", "osw-2025/108"}, Evidence: []string{"same title", "same speaker", "same abstract", "kind bof"}}
	if diff := cmp.Diff(want, bof); diff != "" {
		t.Errorf("the BoF (-want +got):\n%s", diff)
	}
	for _, r := range rep.Recurring[1:] {
		if !strings.HasPrefix(r.Title, "Welcome to the ") || !cmp.Equal(r.Years, []int{2024, 2025}) {
			t.Errorf("recurring %q %v", r.Title, r.Years)
		}
	}
	var clashes [][2]string
	for _, c := range rep.Clashes {
		clashes = append(clashes, [2]string{c.A, c.B})
	}
	if !cmp.Equal(clashes, [][2]string{{"osw-2025/201", "osw-2025/202"}}) {
		t.Errorf("clashes %v, want only the two compiler talks", clashes)
	}
	for _, p := range rep.Pairs {
		if strings.HasPrefix(p.TitleA, "Welcome") && strings.HasPrefix(p.TitleB, "Welcome") {
			t.Errorf("two welcomes paired: %s / %s (%v)", p.A, p.B, p.SharedTerms)
		}
	}
	d := newDetector(talks, nil)
	if !d.boiler.sentences[sentenceKey("Please silence your phones and join the devroom chat to ask questions.")] {
		t.Error("the welcomes' shared sentence is not learnt as boilerplate")
	}
	for _, term := range analysis.AnalyzeTerms("welcome devroom") {
		if !d.boiler.terms[term] {
			t.Errorf("title term %q of the openings is not learnt as boilerplate", term)
		}
	}
	if d.boiler.terms[analysis.AnalyzeTerms("Rivulet")[0]] {
		t.Error("a subject, Rivulet, taken for boilerplate")
	}
}

// An eight-proposal call, pretalx-style: one speaker's two proposals on
// multi-GPU graph learning share no title word (PyG and PyTorch
// Geometric, GPU and accelerator). With the seeds as background corpus
// and the PyG alias (names.txt) they are the top finding, same speaker,
// and borrowing the statistics lifts them: in eight texts a word two
// proposals share looks common.
func TestSmallCallBorrowsStatistics(t *testing.T) {
	imp := readImport(t, "testdata/small-cfp.json", ingest.ImportOptions{})
	if len(imp.Talks) != 8 {
		t.Fatalf("%d proposals, want 8", len(imp.Talks))
	}
	own := Detect(imp.Talks, Options{})
	rep := Detect(imp.Talks, Options{Background: seedTalks(t)})
	if len(rep.Pairs) == 0 {
		t.Fatal("no finding")
	}
	p := rep.Pairs[0]
	if p.A != "GX1PYG" || p.B != "GX2GEO" || p.Kind != KindSameSpeaker || !cmp.Equal(p.SharedSpeakers, []string{"Mirela Stan"}) {
		t.Errorf("top finding %s/%s %s %v, want GX1PYG/GX2GEO same-speaker by Mirela Stan", p.A, p.B, p.Kind, p.SharedSpeakers)
	}
	if len(p.SharedTerms) == 0 || p.SharedTerms[0] != "PyG" {
		t.Errorf("shared terms %v, want PyG (PyTorch Geometric) first", p.SharedTerms)
	}
	if p.Score != 0.779 || len(own.Pairs) == 0 || own.Pairs[0].Score != 0.714 {
		t.Errorf("score %.3f with the seeds' statistics, %v alone; want 0.779 and 0.714", p.Score, own.Pairs)
	}
	for _, q := range rep.Pairs {
		if q.A != "GX1PYG" && q.B != "GX1PYG" && q.A != "GX2GEO" && q.B != "GX2GEO" {
			t.Errorf("a background talk or a stranger's proposal paired: %s/%s", q.A, q.B)
		}
	}
}

// The committee's decisions file: a pair decided not to overlap leaves
// the pairs, a confirmed one is marked with its note, a decision about a
// pair the report does not hold is counted apart.
func TestDecisionsApplied(t *testing.T) {
	f, err := os.Open("testdata/decisions.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ds, err := ReadDecisions("decisions.csv", f)
	if err != nil {
		t.Fatal(err)
	}
	rep := Detect(readFile(t, "testdata/submissions.csv"), Options{}).Apply(ds)
	if rep.Applied != 2 || rep.Unmatched != 1 {
		t.Errorf("applied %d, unmatched %d; want 2, 1", rep.Applied, rep.Unmatched)
	}
	var got []string
	for _, p := range rep.Pairs {
		got = append(got, p.A+"/"+p.B+" "+p.Decision)
	}
	want := []string{"s01/s02 ", "s01/s03 ", "s02/s03 ", "s05/s06 confirmed", "s02/s04 ", "s03/s04 "}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pairs (-want +got):\n%s", diff)
	}
	if tot := rep.Totals(); tot.Pairs != 6 || tot.Decisions != 2 || len(rep.Clashes) != 1 {
		t.Errorf("totals %+v, %d clashes", tot, len(rep.Clashes))
	}
	var buf strings.Builder
	if err := WriteDecision(&buf, Decision{A: "s05", B: "s06", Decision: DecisionConfirmed, Note: "=split them"}); err != nil {
		t.Fatal(err)
	}
	back, err := ReadDecisions("download.csv", strings.NewReader(buf.String()))
	if err != nil || !cmp.Equal(back, []Decision{{A: "s05", B: "s06", Decision: DecisionConfirmed, Note: "=split them"}}) {
		t.Errorf("a downloaded decision read back: %v, %+v\n%s", err, back, buf.String())
	}
	for _, bad := range []struct{ text, err string }{
		{"a,b\ns1,s2\n", `bad.csv:1: no "decision" column`},
		{"a,b,decision\ns1,s2,maybe\n", `bad.csv:2: decision "maybe": want not-an-overlap or confirmed`},
		{"a,b,decision\ns1,s2,confirmed\n,s3,confirmed\n", "bad.csv:3: a and b must both name a talk id"},
	} {
		if _, err := ReadDecisions("bad.csv", strings.NewReader(bad.text)); err == nil || !strings.HasPrefix(err.Error(), bad.err) {
			t.Errorf("%q: %v, want %s", bad.text, err, bad.err)
		}
	}
}

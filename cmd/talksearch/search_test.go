package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/spf13/pflag"

	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/web"
)

// TestSearchJSON checks that `search --json` prints the API document.
func TestSearchJSON(t *testing.T) {
	out, stderr, err := runCmd(t, nil, "search", "--json", "--limit", "3", "KV", "cache")
	if err != nil || stderr != "" {
		t.Fatalf("search: %v, stderr %q", err, stderr)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not a JSON object: %v\n%s", err, out)
	}
	for k := range doc {
		if !slices.Contains([]string{"query", "total", "took_ms", "hits", "facets", "did_you_mean", "corrected", "synonyms", "simplified", "note"}, k) {
			t.Errorf("unexpected key %q", k)
		}
	}
	var r web.SearchDoc
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Query != "KV cache" || len(r.Hits) != 3 || r.Total < 3 {
		t.Fatalf("query %q, %d hits of %d", r.Query, len(r.Hits), r.Total)
	}
	if !strings.Contains(r.Hits[0].Title, "KV-Cache") || len(r.Hits[0].Highlights.Title) != 1 || !strings.Contains(r.Hits[0].Highlights.Title[0], "<mark>") {
		t.Errorf("first hit %q, title highlights %q", r.Hits[0].Title, r.Hits[0].Highlights.Title)
	}
	if len(r.Facets.Track) == 0 || r.Facets.Missing == nil {
		t.Errorf("facets %+v", r.Facets)
	}
}

func TestSearchText(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string // lines or parts of lines, in order
	}{
		{"typo", []string{"search", "--limit", "2", "Monrach"}, []string{
			"Showing results for: Monarch", "talks (", " 1. ", "[Monarch]", " 2. ", "track: "}},
		{"facet selection", []string{"search", "--track", "Inference & Production", "--limit", "1", "kv", "cache"}, []string{
			"talks (", " 1. ", "Inference & Production", "track: ", "*Inference & Production ("}},
		{"synonyms", []string{"search", "--limit", "1", "MoE"}, []string{"Also searched: MoE → mixture of experts"}},
		{"browse by time", []string{"search", "--sort", "time", "--limit", "1"}, []string{"talks (", " 1. Community Expo"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := runCmd(t, nil, tt.args...)
			if err != nil {
				t.Fatal(err)
			}
			rest := out
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("output lacks %q (in order):\n%s", w, out)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}

func TestSearchBadRequest(t *testing.T) {
	_, _, err := runCmd(t, nil, "search", "--limit", "101", "x")
	if !errors.Is(err, search.ErrInvalid) || !strings.Contains(err.Error(), "limit 101") {
		t.Errorf("err = %v, want ErrInvalid about the limit", err)
	}
}

func TestRelated(t *testing.T) {
	out, _, err := runCmd(t, nil, "search", "--json", "title:monarch")
	if err != nil {
		t.Fatal(err)
	}
	var r web.SearchDoc
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Hits) != 2 {
		t.Fatalf("title:monarch: %v, %s", err, out)
	}
	out, _, err = runCmd(t, nil, "related", r.Hits[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	if lines[0] != r.Hits[0].Title || !strings.Contains(out, " 1. "+r.Hits[1].Title) || !strings.Contains(out, "shares: monarch") {
		t.Errorf("related %s:\n%s", r.Hits[0].ID, out)
	}
	out, _, err = runCmd(t, nil, "related", "--json", r.Hits[0].ID)
	var d web.TalkDoc
	if err != nil || json.Unmarshal([]byte(out), &d) != nil || d.ID != r.Hits[0].ID || len(d.Related) == 0 || d.Related[0].ID != r.Hits[1].ID {
		t.Errorf("related --json: %v\n%s", err, out)
	}
	if _, _, err := runCmd(t, nil, "related", "no-such-talk"); !errors.Is(err, search.ErrNotFound) {
		t.Errorf("unknown id: %v, want ErrNotFound", err)
	}
}

// TestSearchFlagsRequest: each filter flag lands in its field of the
// request, as given (the engine normalizes case and order).
func TestSearchFlagsRequest(t *testing.T) {
	tests := []struct {
		args []string
		want search.Request
	}{
		{nil, search.Request{Sort: "relevance", Limit: search.DefaultLimit}},
		{[]string{"rust", "embedded"}, search.Request{Query: "rust embedded", Sort: "relevance", Limit: search.DefaultLimit}},
		{[]string{"--day", "2025-02-01", "--day", "2025-02-02"}, search.Request{Days: []string{"2025-02-01", "2025-02-02"}, Sort: "relevance", Limit: 20}},
		{[]string{"--kind", "Lightning", "--kind", "bof"}, search.Request{Kinds: []string{"Lightning", "bof"}, Sort: "relevance", Limit: 20}},
		{[]string{"--language", "de"}, search.Request{Languages: []string{"de"}, Sort: "relevance", Limit: 20}},
		{[]string{"--after", "09:30", "--before", "12:00"}, search.Request{After: "09:30", Before: "12:00", Sort: "relevance", Limit: 20}},
		{[]string{"--scheduled"}, search.Request{Scheduled: true, Sort: "relevance", Limit: 20}},
		{[]string{"--cancelled", "Exclude", "--sort", "newest"}, search.Request{Cancelled: "exclude", Sort: "newest", Limit: 20}},
		{[]string{"--sort", "Time", "--limit", "5", "--offset", "10"}, search.Request{Sort: "time", Limit: 5, Offset: 10}},
		{[]string{"--track", "Go, Rust", "--level", "Any", "--room", "K.1.105"}, search.Request{
			Tracks: []string{"Go, Rust"}, Levels: []string{"Any"}, Rooms: []string{"K.1.105"}, Sort: "relevance", Limit: 20}},
		{[]string{"--explain", "q"}, search.Request{Query: "q", Explain: true, Sort: "relevance", Limit: 20}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var f searchFlags
			fs := pflag.NewFlagSet("search", pflag.ContinueOnError)
			addSearchFlags(fs, &f)
			if err := fs.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			if err := f.check(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, f.request(fs.Args(), nil), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("request (-want +got):\n%s", diff)
			}
		})
	}
	// Conferences are the ids openLibrary resolved.
	var f searchFlags
	fs := pflag.NewFlagSet("search", pflag.ContinueOnError)
	addSearchFlags(fs, &f)
	if err := fs.Parse([]string{"--conference", "Lakeside Conf 2024"}); err != nil {
		t.Fatal(err)
	}
	if got := f.request(nil, []string{"lakeside-2024"}).Conferences; !cmp.Equal(got, []string{"lakeside-2024"}) {
		t.Errorf("conferences %q", got)
	}
}

// TestSearchUsageErrors: a value no search could take exits 2 and names
// its flag, before any seed is read.
func TestSearchUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		flag string
	}{
		{[]string{"--limit", "0"}, "--limit 0"},
		{[]string{"--offset", "-1"}, "--offset -1"},
		{[]string{"--sort", "oldest"}, `--sort "oldest"`},
		{[]string{"--day", "2025-02-30"}, `--day "2025-02-30"`},
		{[]string{"--day", "1 Feb"}, `--day "1 Feb"`},
		{[]string{"--kind", "film"}, `--kind "film"`},
		{[]string{"--after", "9:30"}, `--after "9:30"`},
		{[]string{"--before", "24:00"}, `--before "24:00"`},
		{[]string{"--after", "14:00", "--before", "10:00"}, "--after 14:00 --before 10:00"},
		{[]string{"--conference", "no-such-conf"}, `--conference "no-such-conf"`},
		{[]string{"--scheduled=maybe"}, "--scheduled"},
		{[]string{"--cancelled", "hidden"}, `--cancelled "hidden"`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, _, err := runCmd(t, nil, append([]string{"search"}, append(tt.args, "x")...)...)
			if exitCode(err) != exitUsage || !strings.Contains(err.Error(), tt.flag) {
				t.Errorf("err = %v (status %d), want status 2 naming %s", err, exitCode(err), tt.flag)
			}
		})
	}
}

// twoConferences writes a seed directory of two JSON Lines files, a
// conference each, in different zones and years.
func twoConferences(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"lakeside.jsonl": `{"title":"Borrow Checking for Beginners","conference":{"id":"lakeside-2024","name":"Lakeside Conf 2024"},"abstract":"Ownership and borrowing explained with ferries.","track":"Languages","room":"Hall A","language":"en","start":"2024-02-03T09:30:00Z","end":"2024-02-03T09:55:00Z","time_zone":"Europe/Brussels","kind":"talk","scheduled":true}
{"title":"Five Minutes of Ferry Timetables","conference":{"id":"lakeside-2024","name":"Lakeside Conf 2024"},"abstract":"A lightning tour of ferry timetable formats and borrowing tricks.","track":"Lightning","room":"Hall B","language":"en","start":"2024-02-04T15:00:00Z","end":"2024-02-04T15:05:00Z","time_zone":"Europe/Brussels","kind":"lightning","scheduled":true}
`,
		"harbour.jsonl": `{"title":"Borrowing Cranes: Harbour Logistics in Rust","conference":{"id":"harbour-2025","name":"Harbour Summit 2025"},"abstract":"Cranes, containers and the borrow checker.","track":"Languages","room":"Pier 4","language":"de","start":"2025-06-14T14:00:00Z","end":"2025-06-14T14:45:00Z","time_zone":"America/New_York","kind":"workshop","scheduled":true}
{"title":"Ferry Scheduling Without Borrowing Trouble","conference":{"id":"harbour-2025","name":"Harbour Summit 2025"},"abstract":"Timetables for ferries, solved late at night.","track":"Operations","room":"Pier 4","language":"en","start":"2025-06-15T02:30:00Z","end":"2025-06-15T03:00:00Z","time_zone":"America/New_York","kind":"talk","scheduled":true}
`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestSearchTwoConferences: with talks of two conferences loaded, each line
// names its conference and a date with the year, in the talk's own zone;
// the conference facet is shown; the new filters select.
func TestSearchTwoConferences(t *testing.T) {
	seeds := twoConferences(t)
	find := func(args ...string) string {
		t.Helper()
		out, stderr, err := runCmd(t, nil, append([]string{"--seeds", seeds, "search"}, args...)...)
		if err != nil || stderr != "" {
			t.Fatalf("search %q: %v\nstderr: %s", args, err, stderr)
		}
		return out
	}
	out := find("--sort", "time")
	for _, want := range []string{
		"4 talks (",
		"  ·  Lakeside Conf 2024 · Sat 3 Feb 2024, 10:30–10:55, Hall A · Languages\n",
		"  ·  Lakeside Conf 2024 · Sun 4 Feb 2024, 16:00–16:05, Hall B · Lightning\n",
		"  ·  Harbour Summit 2025 · Sat 14 Jun 2025, 10:00–10:45, Pier 4 · Languages\n",
		// 02:30 UTC on the 15th is still the 14th in New York.
		"  ·  Harbour Summit 2025 · Sat 14 Jun 2025, 22:30–23:00, Pier 4 · Operations\n",
		"\nconference: Harbour Summit 2025 (2), Lakeside Conf 2024 (2)\n",
		"\nday: 2024-02-03 (1), 2024-02-04 (1), 2025-06-14 (2)\n",
		"\nkind: talk (2), lightning (1), workshop (1)\n",
		"\nlanguage: en (3), de (1)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	filters := []struct {
		args []string
		want []string // titles, in time order
	}{
		{[]string{"--conference", "harbour-2025"}, []string{"Borrowing Cranes", "Ferry Scheduling"}},
		{[]string{"--conference", "harbour-2025", "--sort", "newest"}, []string{"Ferry Scheduling", "Borrowing Cranes"}},
		{[]string{"--conference", "lakeside conf 2024"}, []string{"Borrow Checking", "Five Minutes"}},
		{[]string{"--day", "2025-06-14"}, []string{"Borrowing Cranes", "Ferry Scheduling"}},
		{[]string{"--kind", "lightning", "--kind", "workshop"}, []string{"Five Minutes", "Borrowing Cranes"}},
		{[]string{"--language", "de"}, []string{"Borrowing Cranes"}},
		{[]string{"--after", "16:00"}, []string{"Five Minutes", "Ferry Scheduling"}},
		{[]string{"--before", "10:30"}, []string{"Borrowing Cranes"}},
		{[]string{"--scheduled", "--conference", "lakeside-2024", "--conference", "Harbour Summit 2025", "ferry"}, []string{"Borrow Checking", "Five Minutes", "Ferry Scheduling"}},
	}
	for _, f := range filters {
		out := find(append([]string{"--sort", "time"}, f.args...)...)
		var titles []string
		for _, line := range strings.Split(out, "\n") {
			if len(line) > 4 && line[2] == '.' && line[3] == ' ' {
				titles = append(titles, line[4:])
			}
		}
		ok := len(titles) == len(f.want)
		for i := 0; ok && i < len(titles); i++ {
			ok = strings.HasPrefix(strings.NewReplacer("[", "", "]", "").Replace(titles[i]), f.want[i])
		}
		if !ok {
			t.Errorf("%q: titles %q, want %q", f.args, titles, f.want)
		}
	}
}

// TestSearchOneConferenceDate: the seeds are one conference of one year:
// lines keep their shape, with the date and without the year.
func TestSearchOneConferenceDate(t *testing.T) {
	out, _, err := runCmd(t, nil, "search", "--sort", "time", "--limit", "1")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`\n    \S+  ·  Wed 8 Apr, \d\d:\d\d–\d\d:\d\d, [^\n·]+ · [^\n]+\n`).MatchString(out) || strings.Contains(out, "2026,") {
		t.Errorf("want a line dated Wed 8 Apr without the year or the conference:\n%s", out)
	}
	if strings.Contains(out, "\nconference: ") {
		t.Errorf("conference facet shown for one conference:\n%s", out)
	}
}

// TestSearchIndexKept: with --index, the first call parses the seeds and
// keeps the index and the corpus; the second answers the same from them,
// parsing nothing; serve on the same directory reuses them too; a changed
// seed file is parsed again.
func TestSearchIndexKept(t *testing.T) {
	seeds, dir := twoConferences(t), t.TempDir()
	args := []string{"--seeds", seeds, "--log-level", "debug", "search", "--index", dir, "--limit", "3", "borrow"}
	call := func() (out, stderr string) {
		t.Helper()
		out, stderr, err := runCmd(t, nil, args...)
		if err != nil {
			t.Fatalf("search: %v\n%s", err, stderr)
		}
		return regexp.MustCompile(`talks \([0-9.]+ ms\)`).ReplaceAllString(out, "talks"), stderr
	}
	first, log := call()
	if !strings.Contains(log, "debug: talks read from the seeds") || !strings.Contains(log, "warning: on-disk index rebuilt (") {
		t.Fatalf("first call: want the seeds parsed and the index built:\n%s", log)
	}
	second, log := call()
	if !strings.Contains(log, "debug: talks read from the corpus kept with the index") || strings.Contains(log, "talks read from the seeds") ||
		!strings.Contains(log, "info: on-disk index reused") || !strings.Contains(log, "derivations_kept=[bm25 thesaurus vocabulary]") {
		t.Fatalf("second call: want the kept corpus, index and derivations:\n%s", log)
	}
	if second != first {
		t.Errorf("kept index answers differently:\nfirst:\n%s\nsecond:\n%s", first, second)
	}
	inMemory, _, err := runCmd(t, nil, "--seeds", seeds, "search", "--limit", "3", "borrow")
	if err != nil {
		t.Fatal(err)
	}
	if regexp.MustCompile(`talks \([0-9.]+ ms\)`).ReplaceAllString(inMemory, "talks") != first {
		t.Errorf("--index answers unlike the index in memory:\n%s\nvs\n%s", first, inMemory)
	}

	if !testing.Short() {
		_, serveLog, stop := startServe(t, []string{"--seeds", seeds, "serve", "--addr", "127.0.0.1:0", "--index", dir}, nil)
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		if r := readyOf(t, serveLog.String()); !r.CorpusKept {
			t.Errorf("serve on the directory search built: %+v, want the corpus kept", r)
		}
	}

	f := filepath.Join(seeds, "harbour.jsonl")
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, bytes.Replace(data, []byte("Borrowing Cranes"), []byte("Borrowing Tugboats"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	third, log := call()
	if !strings.Contains(log, "talks read from the seeds") || !strings.Contains(third, "Tugboats") {
		t.Errorf("changed seed: want it parsed again and served:\n%s\n%s", log, third)
	}
}

// TestPrintFacetCompact: a facet is one line of its values of most talks,
// the selected ones whatever their count, how many more, and the talks
// without a value.
func TestPrintFacetCompact(t *testing.T) {
	var vs []search.FacetValue
	for i := range 12 {
		vs = append(vs, search.FacetValue{Value: fmt.Sprintf("t%02d", i), Count: 20 - i})
	}
	vs[11].Selected = true
	vs[3].Label = "Track Three"
	var b bytes.Buffer
	printFacet(&b, "track", vs, 7)
	want := "track: t00 (20), t01 (19), t02 (18), Track Three (17), t04 (16), t05 (15), t06 (14), t07 (13), *t11 (9) … and 3 more; none (7)\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
	// Days keep their date order; the values shown are those of most talks.
	days := []search.FacetValue{{Value: "2024-02-03", Count: 1}, {Value: "2025-02-01", Count: 9}, {Value: "2025-02-02", Count: 5}}
	b.Reset()
	printFacet(&b, "day", days, 0)
	if b.String() != "day: 2024-02-03 (1), 2025-02-01 (9), 2025-02-02 (5)\n" {
		t.Errorf("days: %q", b.String())
	}
	b.Reset()
	printFacet(&b, "level", nil, 40)
	if b.String() != "" {
		t.Errorf("a facet without values printed %q", b.String())
	}
}

// TestSearchIndexRefusesDrop: search --index does not rebuild the index of
// a directory without the talks of a deleted seed file, which the next
// serve would then lose without a word.
func TestSearchIndexRefusesDrop(t *testing.T) {
	seeds, dir := twoConferences(t), t.TempDir()
	if _, stderr, err := runCmd(t, nil, "--seeds", seeds, "search", "--index", dir, "borrow"); err != nil {
		t.Fatalf("first call: %v\n%s", err, stderr)
	}
	if err := os.Remove(filepath.Join(seeds, "harbour.jsonl")); err != nil {
		t.Fatal(err)
	}
	_, _, err := runCmd(t, nil, "--seeds", seeds, "search", "--index", dir, "borrow")
	if exitCode(err) != exitFailure || !strings.Contains(err.Error(), "harbour.jsonl (2 talks)") {
		t.Errorf("err = %v, want status 1 naming harbour.jsonl", err)
	}
}

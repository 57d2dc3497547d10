package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/search/overlap"
	"github.com/talksearch/talksearch/web"
)

func TestOverlapsFromCSVJSON(t *testing.T) {
	out, stderr, err := runCmd(t, nil, "overlaps", "--from", "../../search/overlap/testdata/submissions.csv", "--json")
	if err != nil || stderr != "" {
		t.Fatalf("err %v, stderr %q", err, stderr)
	}
	var rep web.OverlapsDoc
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("not the report JSON: %v\n%s", err, out)
	}
	if len(rep.Pairs) != 7 || rep.Pairs[0].Kind != overlap.KindDuplicate || rep.Pairs[1].Kind != overlap.KindNearDuplicate {
		t.Errorf("pairs %+v", rep.Pairs)
	}
	if len(rep.Clusters) != 2 || len(rep.Clashes) != 1 {
		t.Errorf("%d clusters, %d clashes; want 2, 1", len(rep.Clusters), len(rep.Clashes))
	}
	for _, key := range []string{`"pairs"`, `"clusters"`, `"clashes"`, `"shared_terms"`, `"passages"`} {
		if !strings.Contains(out, key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
}

func TestOverlapsText(t *testing.T) {
	out, _, err := runCmd(t, nil, "overlaps", "--from", "../../search/overlap/testdata/submissions.jsonl", "--min", "0.3")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"9 talks from ../../search/overlap/testdata/submissions.jsonl: 4 pairs scoring 0.30 or more, in 2 clusters; 1 schedule clashes.",
		" 1. Monarch, actors, post-training (4 talks)\n    - Scaling RL Post-Training With Monarch Actors  [s01]",
		" 1. 1.000 duplicate\n    A: Scaling RL Post-Training With Monarch Actors  [s01]\n    B: Scaling RL Post-Training With Monarch Actors  [s02]\n    same speaker: Ada Lovelace\n    shared: post-training, actors, RL, Monarch",
		"    A> We show how [Monarch actors] and process meshes orchestrate an asynchronous [RL loop] from a single Python program.",
		" 4. 0.326 topical\n    A: CUDA Graphs Without Tears  [s05]",
		"Schedule clashes: similar talks at the same time in different rooms\n 1. 0.326  Wed Apr 8 14:15 – 14:30\n    Room A: CUDA Graphs Without Tears  [s05]\n    Room B: Less CPU Overhead With torch.compile's C++ Wrapper  [s06]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q\n%s", want, out)
		}
	}
}

func TestOverlapsBadRows(t *testing.T) {
	out, stderr, err := runCmd(t, nil, "overlaps", "--from", "../../search/overlap/testdata/bad-rows.csv", "--json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "warning: ../../search/overlap/testdata/bad-rows.csv:3: skipped: abstract is empty\n") || strings.Count(stderr, "warning:") != 6 {
		t.Errorf("stderr:\n%s", stderr)
	}
	var rep web.OverlapsDoc
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Skipped) != 6 || rep.Skipped[0] != (web.RowErrorDoc{File: "bad-rows.csv", Line: 3, Action: ingest.ActionSkipped, Reason: "abstract is empty"}) {
		t.Errorf("skipped %+v", rep.Skipped)
	}
}

func TestOverlapsErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--min", "1.5"}, "--min 1.5: want a score between 0 and 1"},
		{[]string{"--from", "testdata/no-such-file.csv"}, "submissions: stat testdata/no-such-file.csv: no such file or directory"},
		{[]string{"extra"}, `unknown command "extra" for "talksearch overlaps"`},
	}
	for _, tt := range tests {
		_, _, err := runCmd(t, nil, append([]string{"overlaps"}, tt.args...)...)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%v: err %v, want %q", tt.args, err, tt.want)
		}
	}
}

func TestOverlapsSeeds(t *testing.T) {
	out, _, err := runCmd(t, nil, "overlaps")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"talks from the seeds:", "\nClusters\n", "Monarch", "\nPairs, most similar first\n", "Duplicates merged at ingest"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

// Several files are analysed together; an unusable file set fails; the
// CSV export is the API's.
func TestOverlapsManyFiles(t *testing.T) {
	out, stderr, err := runCmd(t, nil, "overlaps", "--from", "../../search/overlap/testdata/recurring-talks.jsonl",
		"--from", "../../search/overlap/testdata/unclosed-quote.csv", "--time-zone", "UTC")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"recurring-talks.jsonl: 9 rows: 9 kept (0 repaired), 0 merged, 0 skipped.\n",
		"unclosed-quote.csv: 5 rows: 3 kept (0 repaired), 0 merged, 2 skipped. 2 rows had times without a zone, read as UTC.\n",
		"Resubmissions: talks that come back at a later conference\n",
		"Recurring sessions: held at every edition, one line each\n",
		" 2. The state of Rivulet (2024, 2025; same title, same speaker, edited abstract, short title)  [osw-2024/1120, osw-2025/2145]\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q\n%s", want, out)
		}
	}
	if !strings.Contains(stderr, "warning: ../../search/overlap/testdata/unclosed-quote.csv:3: skipped: malformed csv") {
		t.Errorf("stderr %q", stderr)
	}
	out, _, err = runCmd(t, nil, "overlaps", "--from", "../../search/overlap/testdata/unclosed-quote.csv", "--csv")
	if err != nil || !strings.HasPrefix(out, "section,kind,score,a,conference_a,year_a,title_a,b,conference_b,year_b,title_b,") ||
		!strings.Contains(out, "\npair,duplicate,1.000,u1,,2026,Monarch Actors for RL,u3,,2026,") ||
		!strings.HasSuffix(out, "\ntotal,,,,,,,,,,,,,,,,,\"1 pairs, 1 clusters, 0 clashes, 0 conflicts, 0 earlier versions, 0 recurring sessions, 0 merged at ingest; rows 5: kept 3 (repaired 0), merged 0, skipped 2\"\n") {
		t.Errorf("CSV: %v\n%s", err, out)
	}
	dir := t.TempDir()
	bad := dir + "/bad.csv"
	if err := os.WriteFile(bad, []byte("title,abstract\n,\n\"x,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runCmd(t, nil, "overlaps", "--from", bad)
	if err == nil || err.Error() != "no submission could be read from "+bad+" (2 rows, none usable: see the warnings)" {
		t.Errorf("nothing usable: err %v", err)
	}
	// A pretalx API export is read by index/ingest's reader: its same-speaker
	// resubmission and its double-booked speaker are reported.
	out, _, err = runCmd(t, nil, "overlaps", "--from", "../../search/overlap/testdata/pretalx-submissions.json")
	if err != nil || !strings.Contains(out, "0.848 same-speaker") || !strings.Contains(out, "same speaker: Ada Lovelace") || !strings.Contains(out, " 2. speaker Grace Hopper  Wed Apr 8 14:20 – 14:30") {
		t.Errorf("pretalx export: err %v\n%s", err, out)
	}
	_, _, err = runCmd(t, nil, "overlaps", "--from", bad, "--time-zone", "Mars/Base")
	if err == nil || !strings.HasPrefix(err.Error(), `--time-zone: time zone "Mars/Base": unknown time zone`) || exitCode(err) != exitUsage {
		t.Errorf("bad zone: err %v", err)
	}
}

// A schedule naming no zone, two similar talks in one slot: the times in
// the report show which zone they were read in.
const zonelessFrab = `<?xml version="1.0" encoding="UTF-8"?>
<schedule>
  <conference><acronym>tzc-2026</acronym><title>Zone Test Conf 2026</title></conference>
  <day index="1" date="2026-03-07">
    <room name="Hall 1">
      <event id="1"><start>10:00</start><duration>00:30</duration><room>Hall 1</room>
        <title>Tidewater schedulers for batch queues</title><type>talk</type>
        <abstract>Tidewater schedules batch queues on shared clusters with fair share quotas and preemption of idle jobs.</abstract>
        <persons><person id="9">Ines Marlow</person></persons></event>
    </room>
    <room name="Hall 2">
      <event id="2"><start>10:00</start><duration>00:30</duration><room>Hall 2</room>
        <title>Fair share quotas in Tidewater batch queues</title><type>talk</type>
        <abstract>Fair share quotas and preemption of idle jobs keep Tidewater batch queues moving on shared clusters.</abstract>
        <persons><person id="10">Oskar Lind</person></persons></event>
    </room>
  </day>
</schedule>
`

// The global --time-zone is the one zone of times that name none, for
// --seeds and --from alike, wherever it is written on the command line.
func TestOverlapsTimeZoneEverywhere(t *testing.T) {
	dir := t.TempDir()
	xml := filepath.Join(dir, "tzc-2026.xml")
	csvPath := filepath.Join(dir, "cfp.csv")
	if err := os.WriteFile(xml, []byte(zonelessFrab), 0o644); err != nil {
		t.Fatal(err)
	}
	csvRows := "id,title,abstract,room,start,end\n" +
		"c1,Tidewater schedulers for batch queues,Tidewater schedules batch queues on shared clusters with fair share quotas and preemption of idle jobs.,Hall 1,2026-03-07 10:00,2026-03-07 10:30\n" +
		"c2,Fair share quotas in Tidewater batch queues,Fair share quotas and preemption of idle jobs keep Tidewater batch queues moving on shared clusters.,Hall 2,2026-03-07 10:00,2026-03-07 10:30\n"
	if err := os.WriteFile(csvPath, []byte(csvRows), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--time-zone", "America/New_York", "--seeds", xml, "overlaps", "--json"},
		{"overlaps", "--seeds", xml, "--time-zone", "America/New_York", "--json"},
		{"overlaps", "--from", xml, "--time-zone", "America/New_York", "--json"},
		{"--time-zone", "America/New_York", "overlaps", "--from", csvPath, "--json"},
	} {
		out, _, err := runCmd(t, nil, args...)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		var doc web.OverlapsDoc
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if len(doc.Pairs) != 1 || doc.Pairs[0].StartA == nil || doc.Pairs[0].StartA.Format(time.RFC3339) != "2026-03-07T10:00:00-05:00" {
			t.Errorf("%q: pairs %+v, want one starting 10:00 in New York", args, doc.Pairs)
		}
	}
}

// Usage errors exit 2; contradictory formats are refused.
func TestOverlapsUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"overlaps", "--min", "2"},
		{"overlaps", "--min", "-0.1"},
		{"overlaps", "--min", "NaN"},
		{"overlaps", "--json", "--csv"},
		{"overlaps", "--time-zone", "Mars/Olympus"},
	} {
		out, _, err := runCmd(t, nil, args...)
		if code := exitCode(err); code != exitUsage || out != "" {
			t.Errorf("%q: exit %d (%v), output %q; want %d and nothing", args, code, err, out, exitUsage)
		}
	}
}

// The help names the formats the ingest registry reads, all of them.
func TestOverlapsHelpNamesFormats(t *testing.T) {
	out, _, err := runCmd(t, nil, "overlaps", "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ingest.FormatNames() {
		if !strings.Contains(out, f) {
			t.Errorf("help lacks the format %s", f)
		}
	}
}

// A small call read with --from borrows the seeds' statistics: its
// reworded same-speaker pair is the top finding.
func TestOverlapsSmallCallTopFinding(t *testing.T) {
	out, _, err := runCmd(t, nil, "overlaps", "--from", "../../search/overlap/testdata/small-cfp.json", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var doc web.OverlapsDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Pairs) == 0 || doc.Pairs[0].A != "GX1PYG" || doc.Pairs[0].B != "GX2GEO" || doc.Pairs[0].Kind != overlap.KindSameSpeaker || doc.Pairs[0].Score != 0.779 {
		t.Errorf("pairs %+v, want GX1PYG/GX2GEO same-speaker at 0.779 first", doc.Pairs)
	}
}

// --decisions applies the committee's file and says how many it applied.
func TestOverlapsDecisions(t *testing.T) {
	out, stderr, err := runCmd(t, nil, "overlaps", "--from", "../../search/overlap/testdata/submissions.csv",
		"--decisions", "../../search/overlap/testdata/decisions.csv", "--json")
	if err != nil {
		t.Fatal(err)
	}
	if stderr != "../../search/overlap/testdata/decisions.csv: 2 decisions applied, 1 match no finding of this report\n" {
		t.Errorf("stderr %q", stderr)
	}
	var doc web.OverlapsDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	for _, p := range doc.Pairs {
		if p.A == "s01" && p.B == "s04" {
			t.Error("a pair decided not to overlap is reported")
		}
		if p.A == "s05" && p.B == "s06" && p.Decision != "confirmed" {
			t.Errorf("confirmed pair %+v", p)
		}
	}
	if doc.Totals.Decisions != 2 {
		t.Errorf("totals %+v", doc.Totals)
	}
	_, _, err = runCmd(t, nil, "overlaps", "--decisions", "../../search/overlap/testdata/submissions.csv")
	if err == nil || !strings.Contains(err.Error(), `submissions.csv:1: no "a" column`) {
		t.Errorf("a file that is no decisions file: %v", err)
	}
}

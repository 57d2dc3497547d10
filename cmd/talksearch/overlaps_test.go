package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/talksearch/talksearch/search/overlap"
)

func TestOverlapsFromCSVJSON(t *testing.T) {
	out, stderr, err := runCmd(t, nil, "overlaps", "--from", "../../search/overlap/testdata/submissions.csv", "--json")
	if err != nil || stderr != "" {
		t.Fatalf("err %v, stderr %q", err, stderr)
	}
	var rep overlap.Report
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
		" 1. RL, post-training, Monarch (3 talks)\n    - Scaling RL Post-Training With Monarch Actors  [s01]",
		" 1. 1.000 duplicate\n    A: Scaling RL Post-Training With Monarch Actors  [s01]\n    B: Scaling RL Post-Training With Monarch Actors  [s02]\n    same speaker: Ada Lovelace\n    shared: RL, post-training, Monarch",
		"    A> We show how [Monarch actors] and process meshes orchestrate an asynchronous [RL loop] from a single Python program.",
		" 4. 0.390 topical\n    A: CUDA Graphs Without Tears  [s05]",
		"Schedule clashes: similar talks at the same time in different rooms\n 1. 0.390  Wed Apr 8 14:15 – 14:30\n    Room A: CUDA Graphs Without Tears  [s05]\n    Room B: Less CPU Overhead With torch.compile's C++ Wrapper  [s06]",
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
	var rep overlap.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Skipped) != 6 || rep.Skipped[0] != (overlap.RowError{File: "bad-rows.csv", Line: 3, Action: overlap.ActionSkipped, Reason: "abstract is empty"}) {
		t.Errorf("skipped %+v", rep.Skipped)
	}
}

func TestOverlapsErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--min", "1.5"}, "--min 1.5: want a score between 0 and 1"},
		{[]string{"--from", "testdata/no-such-file.csv"}, "submissions: open testdata/no-such-file.csv: no such file or directory"},
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

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// runCmd runs the program like main does, with the given environment.
func runCmd(t *testing.T, env map[string]string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err = run(context.Background(), args, func(k string) string { return env[k] }, &out, &errOut)
	return out.String(), errOut.String(), err
}

// TestExport checks the JSON Lines data contract of `talksearch export`.
func TestExport(t *testing.T) {
	out, stderr, err := runCmd(t, nil, "export")
	if err != nil || stderr != "" {
		t.Fatalf("export: %v, stderr %q", err, stderr)
	}
	allowed := []string{"id", "conference", "source_id", "title", "speakers", "abstract", "description", "track", "level", "room", "language", "url", "start", "end", "time_zone", "kind", "scheduled", "cancelled", "links", "sources"}
	required := []string{"id", "conference", "title", "kind", "scheduled", "sources"}
	var lines, scheduled int
	var keynote map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines++
		var obj map[string]any
		if err := json.Unmarshal(sc.Bytes(), &obj); err != nil {
			t.Fatalf("line %d is not a JSON object: %v", lines, err)
		}
		for k, v := range obj {
			if !slices.Contains(allowed, k) {
				t.Errorf("line %d: unexpected key %q", lines, k)
			}
			if v == "" {
				t.Errorf("line %d: key %q is an empty placeholder", lines, k)
			}
		}
		for _, k := range required {
			if _, ok := obj[k]; !ok {
				t.Errorf("line %d: key %q missing", lines, k)
			}
		}
		for _, k := range []string{"start", "end"} {
			if s, ok := obj[k].(string); ok {
				if _, err := time.Parse(time.RFC3339, s); err != nil || !strings.HasSuffix(s, "+02:00") {
					t.Errorf("line %d: %s = %q, want RFC 3339 with +02:00", lines, k, s)
				}
			}
		}
		if obj["scheduled"] == true {
			scheduled++
		}
		if obj["title"] == "Keynote: PyTorch CTO" {
			keynote = obj
		}
	}
	if lines != 73 || scheduled != 62 {
		t.Errorf("%d talks, %d scheduled; want 73, 62", lines, scheduled)
	}
	want := `{"id":"keynote-pytorch-cto-f14e6d","conference":{"id":"pytorch-conference-europe-2026","name":"PyTorch Conference Europe 2026"},"title":"Keynote: PyTorch CTO",` +
		`"speakers":[{"name":"Matt White","affiliation":"Global CTO of AI, Linux Foundation"}],` +
		`"abstract":"Matt White, Global CTO of AI and CTO at PyTorch Foundation will provide an update on technical strategy, ecosystem and projects and working groups",` +
		`"track":"Keynote Sessions","level":"Any","room":"Master Stage","start":"2026-04-08T09:00:00+02:00","end":"2026-04-08T09:10:00+02:00",` +
		`"kind":"keynote","scheduled":true,"sources":["003_dfd754d9b55d5906.txt"]}`
	if !strings.Contains(out, want+"\n") {
		t.Errorf("keynote line not found; got %v", keynote)
	}
}

func TestIndexSummary(t *testing.T) {
	out, _, err := runCmd(t, nil, "index")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"files read:         5\n",
		"session blocks:     62\n",
		"talks:              73\n",
		"unscheduled talks:  11\n",
		"duplicates merged:  32\n",
		"  003_dfd754d9b55d5906.txt  schedule                  62 talks  62 new\n",
		"  000_6b42f94569a604f4.txt  abstracts  42 paragraphs  17 talks  6 new\n",
		"  004_4152ccaaccaafb47.txt  5  dualpipe-from-scratch-implementing-deepseek-s-734e61",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
}

// TestSeedsEnvironmentList: TALKSEARCH_SEEDS names several files as a
// PATH-style list, as --seeds does when repeated (6 + 3 talks).
func TestSeedsEnvironmentList(t *testing.T) {
	dir := filepath.Join("..", "..", "index", "ingest", "testdata", "formats")
	list := filepath.Join(dir, "frab-devroom.xml") + string(filepath.ListSeparator) + filepath.Join(dir, "frab-camp.json")
	out, _, err := runCmd(t, map[string]string{"TALKSEARCH_SEEDS": list}, "index")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "talks:              9\n") {
		t.Errorf("TALKSEARCH_SEEDS=%s: want 9 talks, got:\n%s", list, out)
	}
}

// TestIndexSeedsDir reads a directory named by the environment, prints
// the warnings of bad files and goes on, then fails naming the files that
// gave no talk; a directory without seeds fails.
func TestIndexSeedsDir(t *testing.T) {
	bad := filepath.Join("..", "..", "index", "ingest", "testdata", "bad")
	out, stderr, err := runCmd(t, map[string]string{"TALKSEARCH_SEEDS": bad}, "index")
	if exitCode(err) != exitFailure || !strings.Contains(err.Error(), "no talk read from 000_empty.txt, 001_binary.txt, 002_noise.txt") {
		t.Errorf("err = %v, want status 1 naming the files without talks", err)
	}
	if !strings.Contains(out, "talks:              3\n") || !strings.Contains(stderr, "warning: 000_empty.txt:0: empty file\n") ||
		!strings.Contains(stderr, "warning: 003_truncated.txt:5: truncated session block") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out, stderr)
	}
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, "notes.md"), []byte("no seeds"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, nil, "--seeds", empty, "export"); err == nil || !strings.Contains(err.Error(), "no seed files") {
		t.Errorf("export of a directory without seeds: err = %v, want no seed files", err)
	}
}

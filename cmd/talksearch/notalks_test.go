package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// seedsWithRefusedFile is a directory of one readable schedule (the frab
// XML fixture, 6 talks) and, if withGood is false, only the refused file:
// JSON of a shape no reader takes.
func seedsWithRefusedFile(t *testing.T, withGood bool) string {
	t.Helper()
	dir := t.TempDir()
	if withGood {
		data, err := os.ReadFile(filepath.Join("..", "..", "index", "ingest", "testdata", "formats", "frab-devroom.xml"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "devroom.xml"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "other.json"), []byte(`{"generator": "a tool no reader knows", "items": []}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestIndexExportFileWithoutTalks: a seed file that gives no talk makes
// index and export exit 1 naming it, after writing what the other files
// gave; the warning says why.
func TestIndexExportFileWithoutTalks(t *testing.T) {
	dir := seedsWithRefusedFile(t, true)
	for _, cmd := range []string{"index", "export"} {
		out, stderr, err := runCmd(t, nil, "--seeds", dir, cmd)
		if exitCode(err) != exitFailure || !strings.Contains(err.Error(), "no talk read from other.json") {
			t.Errorf("%s: err = %v, want status 1 naming other.json", cmd, err)
		}
		if !strings.Contains(stderr, "warning: other.json:0: ") {
			t.Errorf("%s: stderr lacks the warning about other.json:\n%s", cmd, stderr)
		}
		switch cmd {
		case "index":
			if !strings.Contains(out, "talks:              6\n") {
				t.Errorf("index: summary of the other file missing:\n%s", out)
			}
		case "export":
			if n := strings.Count(out, "\n"); n != 6 {
				t.Errorf("export: %d talks written, want the other file's 6", n)
			}
		}
	}
	// Every file giving talks: status 0.
	if err := os.Remove(filepath.Join(dir, "other.json")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, nil, "--seeds", dir, "export"); err != nil {
		t.Errorf("export of readable seeds: %v", err)
	}
}

// TestServeRefusesWithoutTalks: serve does not start an empty site when
// its only file gives no talk (status 1, naming the file), and starts on
// the talks of another file when there is one.
func TestServeRefusesWithoutTalks(t *testing.T) {
	only := seedsWithRefusedFile(t, false)
	_, stderr, err := runCmd(t, nil, "--seeds", only, "serve", "--addr", "127.0.0.1:0")
	if exitCode(err) != exitFailure || !strings.Contains(err.Error(), "no talks to serve: no talk read from other.json") {
		t.Errorf("serve of a refused file: err = %v, want status 1 naming other.json; stderr:\n%s", err, stderr)
	}
	both := seedsWithRefusedFile(t, true)
	_, log, stop := startServe(t, []string{"--seeds", both, "serve", "--addr", "127.0.0.1:0"}, nil)
	if err := stop(); err != nil {
		t.Errorf("serve with another file's talks: %v", err)
	}
	if !strings.Contains(log.String(), "seed files gave no talk") || !strings.Contains(log.String(), "other.json") {
		t.Errorf("log does not name the file without talks:\n%s", log)
	}
}

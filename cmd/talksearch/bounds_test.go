package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runWithin is runCmd with ctx, failing the test if the command has not
// returned after limit: these inputs used to hang it.
func runWithin(t *testing.T, ctx context.Context, limit time.Duration, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, args, func(string) string { return "" }, &out, &errOut) }()
	select {
	case err = <-done:
		return out.String(), errOut.String(), err
	case <-time.After(limit):
		t.Fatalf("%v: still running after %v", args, limit)
		return "", "", nil
	}
}

// TestImportsRefuseNonRegularFiles: /dev/zero and a FIFO, as seeds or as
// submissions, fail at once with status 1, naming the file and what it is.
func TestImportsRefuseNonRegularFiles(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "cfp.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo not allowed here: %v", err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"index", "--seeds", "/dev/zero"}, "load seeds: seeds /dev/zero: a character device, not a regular file: refused"},
		{[]string{"index", "--seeds", fifo}, "load seeds: seeds " + fifo + ": a FIFO, not a regular file: refused"},
		{[]string{"overlaps", "--from", "/dev/zero"}, "submissions: /dev/zero: a character device, not a regular file: refused"},
		{[]string{"overlaps", "--from", fifo}, "submissions: " + fifo + ": a FIFO, not a regular file: refused"},
	} {
		if _, err := os.Stat(tt.args[2]); err != nil {
			continue // no /dev/zero here
		}
		_, _, err := runWithin(t, context.Background(), 10*time.Second, tt.args...)
		if err == nil || err.Error() != tt.want || exitCode(err) != exitFailure {
			t.Errorf("%v: %v, want %q with status 1", tt.args, err, tt.want)
		}
	}
}

// TestSizeFlags: --max-line-bytes and --max-file-bytes reach the readers
// of index and overlaps; sizes of 0 are usage errors.
func TestSizeFlags(t *testing.T) {
	dir := t.TempDir()
	jsonl := filepath.Join(dir, "cfp.jsonl")
	long := `{"title":"Long one","abstract":"` + strings.Repeat("long ", 100) + `"}` + "\n"
	data := `{"title":"Short one","abstract":"A short abstract about caching."}` + "\n" + long
	if err := os.WriteFile(jsonl, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := runWithin(t, context.Background(), time.Minute, "--seeds", jsonl, "--max-line-bytes", "256", "index")
	if err != nil || !strings.Contains(out, "talks:              1\n") ||
		stderr != fmt.Sprintf("warning: cfp.jsonl:2: line is %d bytes, longer than the 256-byte limit of a row (--max-line-bytes): skipped\n", len(long)) {
		t.Errorf("index --max-line-bytes 256: %v\nstdout %s\nstderr %q", err, out, stderr)
	}
	_, stderr, err = runWithin(t, context.Background(), time.Minute, "overlaps", "--from", jsonl, "--max-line-bytes", "256")
	if err != nil || stderr != fmt.Sprintf("warning: %s:2: skipped: line is %d bytes, longer than the 256-byte limit of a row\n", jsonl, len(long)) {
		t.Errorf("overlaps --max-line-bytes 256: %v, stderr %q", err, stderr)
	}
	xml := filepath.Join(dir, "schedule.xml")
	if err := os.WriteFile(xml, []byte("<schedule>"+strings.Repeat(" ", 2048)+"</schedule>"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runWithin(t, context.Background(), time.Minute, "overlaps", "--from", xml, "--max-file-bytes", "1024")
	if err == nil || err.Error() != "read "+xml+": frab-xml document: too large: over the 1 KiB limit of a file (--max-file-bytes)" {
		t.Errorf("overlaps --max-file-bytes 1024: %v", err)
	}
	for _, flag := range []string{"--max-line-bytes", "--max-file-bytes"} {
		_, _, err := runWithin(t, context.Background(), time.Minute, "index", flag, "0")
		if exitCode(err) != exitUsage {
			t.Errorf("%s 0: %v, want a usage error", flag, err)
		}
	}
}

// TestCancelEndsIndex: the command's context (cancelled by SIGINT and
// SIGTERM in main) ends the import.
func TestCancelEndsIndex(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "talks.jsonl"), []byte(`{"title":"T"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := runWithin(t, ctx, 10*time.Second, "--seeds", dir, "index")
	if err == nil || err.Error() != "load seeds: ingest stopped: context canceled" {
		t.Errorf("index with a cancelled context: %v", err)
	}
}

// TestMaxParseTimeFlag: --max-parse-time reaches the readers of index
// (a seed file past it is a warning, the others are read: here none is
// left) and of overlaps --from (an error naming the file); 0 is a usage
// error.
func TestMaxParseTimeFlag(t *testing.T) {
	dir := t.TempDir()
	jsonl := filepath.Join(dir, "cfp.jsonl")
	if err := os.WriteFile(jsonl, []byte(`{"title":"Short one","abstract":"A short abstract about caching."}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := runWithin(t, context.Background(), time.Minute, "--seeds", jsonl, "--max-parse-time", "1ns", "index")
	if err == nil || err.Error() != "no talk read from cfp.jsonl (see the warnings)" || !strings.Contains(out, "talks:              0\n") ||
		stderr != "warning: cfp.jsonl:0: jsonl: took longer than 1ns to read (--max-parse-time): stopped, no talks read from this file\n" {
		t.Errorf("index --max-parse-time 1ns: %v\nstdout %s\nstderr %q", err, out, stderr)
	}
	if out, _, err := runWithin(t, context.Background(), time.Minute, "--seeds", jsonl, "index"); err != nil || !strings.Contains(out, "talks:              1\n") {
		t.Errorf("index within the default budget: %v\n%s", err, out)
	}
	_, _, err = runWithin(t, context.Background(), time.Minute, "overlaps", "--from", jsonl, "--max-parse-time", "1ns")
	if err == nil || err.Error() != "read "+jsonl+": ingest stopped: took longer than 1ns to read (--max-parse-time)" {
		t.Errorf("overlaps --max-parse-time 1ns: %v", err)
	}
	if _, _, err := runWithin(t, context.Background(), time.Minute, "index", "--max-parse-time", "0s"); exitCode(err) != exitUsage {
		t.Errorf("--max-parse-time 0s: %v, want a usage error", err)
	}
}

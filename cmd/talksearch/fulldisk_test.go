package main

// A full --index disk, at start and at a reload, through the real program:
// the build fails with an error naming the disk, exit status 1 at start,
// the old index serving at a reload; never a panic. The seeds are more
// than one build batch, the shape that ended the process.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// manyTalksSeeds writes a JSON Lines seed file of n invented talks, ids
// from first on, into dir.
func manyTalksSeeds(t *testing.T, dir, name string, first, n int) {
	t.Helper()
	var b strings.Builder
	enc := json.NewEncoder(&b)
	for i := first; i < first+n; i++ {
		if err := enc.Encode(map[string]any{
			"id":       fmt.Sprintf("disk-%05d", i),
			"title":    fmt.Sprintf("Tuning storage engines, part %d", i),
			"speakers": []map[string]string{{"name": fmt.Sprintf("Speaker %d", i%97)}},
			"abstract": fmt.Sprintf("Write amplification, compaction and fsync on volume %d, measured on small disks.", i),
			"track":    "Storage",
			"room":     fmt.Sprintf("Room %d", i%7),
			"start":    "2026-05-04T10:00:00+02:00",
			"end":      "2026-05-04T10:30:00+02:00",
			"kind":     "talk",
		}); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fillTo writes a file into mnt until about leave bytes are free.
func fillTo(t *testing.T, mnt string, leave int64) {
	t.Helper()
	f, err := os.Create(filepath.Join(mnt, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4<<10)
	for {
		var st unix.Statfs_t
		if err := unix.Statfs(mnt, &st); err != nil {
			t.Fatal(err)
		}
		free := int64(st.Bavail) * st.Bsize
		if free <= leave {
			return
		}
		if _, err := f.Write(buf[:min(int64(len(buf)), free-leave)]); err != nil {
			t.Fatalf("fill %s: %v", mnt, err)
		}
	}
}

// TestServeStartOnFullDisk: a start whose index does not fit says why and
// exits 1.
func TestServeStartOnFullDisk(t *testing.T) {
	requireIndexDir(t)
	mnt := t.TempDir()
	mountTmpfs(t, mnt, 0, "2m")
	seedsDir := t.TempDir()
	manyTalksSeeds(t, seedsDir, "talks.jsonl", 0, 1600)
	fillTo(t, mnt, 300<<10)
	dir := filepath.Join(mnt, "index")
	log, err := startOnly(t, "--seeds", seedsDir, "--index", dir)
	if err == nil || !strings.Contains(err.Error(), "the disk of "+dir+" is full") {
		t.Errorf("serve on a full disk: error %v, want one saying the disk of %s is full\n%s", err, dir, log)
	}
	if code := exitCode(err); code != exitFailure {
		t.Errorf("serve on a full disk: exit status %d, want %d", code, exitFailure)
	}
	if strings.Contains(log, "panic") {
		t.Errorf("serve panicked:\n%s", log)
	}
	if got := indexFiles(t, dir); len(got) > 0 {
		t.Errorf("a failed start left %q in %s", got, dir)
	}
}

// TestServeReloadOnFullDisk: a reload whose index does not fit fails with
// an error naming the disk, the old index keeps serving, and once there is
// room the same reload succeeds.
func TestServeReloadOnFullDisk(t *testing.T) {
	requireIndexDir(t)
	mnt := t.TempDir()
	mountTmpfs(t, mnt, 0, "4m")
	seedsDir := t.TempDir()
	manyTalksSeeds(t, seedsDir, "a.jsonl", 0, 40)
	dir := filepath.Join(mnt, "index")
	const token = "full-disk-token"
	// A reload answers once its index is built: slow under -race.
	s := serveSeeds(t, nil, "--seeds", seedsDir, "--index", dir, "--reload-token", token, "--write-timeout", "5m")
	if got := s.total(t, ""); got != 40 {
		t.Fatalf("serving %d talks, want 40", got)
	}
	serving := currentIndex(t, dir)

	manyTalksSeeds(t, seedsDir, "b.jsonl", 40, 1600)
	fillTo(t, mnt, 300<<10)
	code, body := s.reload(t, token)
	if code == http.StatusOK || !strings.Contains(body, "is full") {
		t.Errorf("reload on a full disk: %d %s, want a failure naming the full disk", code, body)
	}
	if got := s.total(t, ""); got != 40 {
		t.Errorf("after the failed reload serving %d talks, want the 40 of before", got)
	}
	if got := indexFiles(t, dir); len(got) != 1 || filepath.Join(dir, got[0]) != serving || currentIndex(t, dir) != serving {
		t.Errorf("after the failed reload %s holds %q, want only %s", dir, got, filepath.Base(serving))
	}
	if strings.Contains(s.log.String(), "panic") {
		t.Errorf("serve panicked:\n%s", s.log)
	}

	if err := os.Remove(filepath.Join(mnt, "filler")); err != nil {
		t.Fatal(err)
	}
	if code, body := s.reload(t, token); code != http.StatusOK {
		t.Fatalf("reload with room again: %d %s", code, body)
	}
	if got := s.total(t, ""); got != 1640 {
		t.Errorf("after the reload serving %d talks, want 1640", got)
	}
	if err := s.stop(); err != nil {
		t.Errorf("serve: %v", err)
	}
}

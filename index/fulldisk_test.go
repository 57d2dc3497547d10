package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"golang.org/x/sys/unix"
)

// Builds on a disk that refuses the writes: a full tmpfs and a read-only
// one. Only root may mount one (CI runs as root); elsewhere they skip.

// smallDisk mounts a tmpfs of size at a new directory for the test.
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("needs root on Linux to mount a small tmpfs: a full disk cannot be had otherwise")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("cannot mount a tmpfs at %s: %v", dir, err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

// available is the free space of dir's file system, in bytes.
func available(t *testing.T, dir string) int64 {
	t.Helper()
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	return int64(st.Bavail) * st.Bsize
}

// fillDisk writes a file into mnt until leave bytes are free.
func fillDisk(t *testing.T, mnt string, leave int64) {
	t.Helper()
	f, err := os.Create(filepath.Join(mnt, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4<<10)
	for available(t, mnt) > leave {
		n := min(int64(len(buf)), available(t, mnt)-leave)
		if _, err := f.Write(buf[:n]); err != nil {
			t.Fatalf("fill %s: %v", mnt, err)
		}
	}
}

// wordyTalks are n talks of some text, distinct from numberedTalks, each
// naming several seed files so that their manifest is large too.
func wordyTalks(n int) []Talk {
	talks := numberedTalks(n)
	for i := range talks {
		talks[i].Title += " revisited"
		talks[i].Abstract += " Kernels, compilers and schedulers, measured again on other machines."
		for j := range 6 {
			talks[i].Sources = append(talks[i].Sources, "conference-schedule-export-"+string(rune('a'+j))+".json")
		}
	}
	return talks
}

// servingState is what a failed rebuild must leave as it was.
type servingState struct {
	current string   // DIR/current's target
	entries []string // DIR's entries
}

func stateOf(t *testing.T, dir string) servingState {
	t.Helper()
	target, err := os.Readlink(filepath.Join(dir, currentLink))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := servingState{current: target}
	for _, e := range entries {
		s.entries = append(s.entries, e.Name())
	}
	return s
}

// checkStillServing checks that a failed rebuild left dir and the index
// serving from it as they were.
func checkStillServing(t *testing.T, dir string, before servingState, serving interface {
	DocCount() (uint64, error)
}, docs uint64) {
	t.Helper()
	if after := stateOf(t, dir); after.current != before.current || !slices.Equal(after.entries, before.entries) {
		t.Errorf("after a failed rebuild %s holds %q (current %s), want %q as before (current %s): partial files left",
			dir, after.entries, after.current, before.entries, before.current)
	}
	if n, err := serving.DocCount(); err != nil || n != docs {
		t.Errorf("serving index: DocCount %d, %v; want %d", n, err, docs)
	}
}

// TestRebuildOnFullDisk rebuilds an index of several batches (merged,
// copied, with a manifest) on a disk left with less and less room: every
// write that fails (a segment, the merge, the copy, the manifest) must
// fail the build with an error naming the full disk, leave no partial
// index directory, and leave the index in use serving. A panic in Bleve
// (a batch reading the segment its neighbour's failed write closed) used
// to end the process.
func TestRebuildOnFullDisk(t *testing.T) {
	mnt := smallDisk(t, "4m")
	dir := filepath.Join(mnt, "idx")
	old := numberedTalks(100)
	serving, _, err := Open(dir, old)
	if err != nil {
		t.Fatalf("Open on an empty disk: %v", err)
	}
	defer serving.Close()
	before := stateOf(t, dir)
	if n := matches(t, serving, "kernels"); n != uint64(len(old)) {
		t.Fatalf("serving index finds %d talks about kernels, want %d", n, len(old))
	}

	fillDisk(t, mnt, 0)
	filler := filepath.Join(mnt, "filler")
	fi, err := os.Stat(filler)
	if err != nil {
		t.Fatal(err)
	}
	full := fi.Size()
	newTalks := wordyTalks(3*batchSize + 17)
	stages := map[string]int{}
	failed := 0
	// Room for none of it, then for more and more of the build, up to
	// one that succeeds.
	for leave := int64(0); leave <= 2<<20; leave += 64 << 10 {
		if err := os.Truncate(filler, max(0, full-leave)); err != nil {
			t.Fatal(err)
		}
		idx, _, err := Open(dir, newTalks)
		if err == nil {
			n, _ := idx.DocCount()
			idx.Close()
			if n != uint64(len(newTalks)) {
				t.Errorf("rebuild with %d KiB free: DocCount %d, want %d", leave>>10, n, len(newTalks))
			}
			t.Logf("rebuild fits in %d KiB", leave>>10)
			break
		}
		failed++
		var de *DiskError
		if !errors.Is(err, syscall.ENOSPC) || !errors.As(err, &de) || !strings.Contains(err.Error(), "the disk of "+dir+" is full") {
			t.Errorf("rebuild with %d KiB free: error %v, want one naming the full disk (ENOSPC)", leave>>10, err)
		}
		if errors.Is(err, ErrBuildPanic) {
			t.Logf("rebuild with %d KiB free: %v", leave>>10, err)
		}
		stages[failedStage(err)]++
		checkStillServing(t, dir, before, serving, uint64(len(old)))
		if n := matches(t, serving, "kernels"); n != uint64(len(old)) {
			t.Errorf("rebuild with %d KiB free: serving index finds %d talks about kernels, want %d", leave>>10, n, len(old))
		}
	}
	t.Logf("failed builds by stage: %v", stages)
	if failed == 0 {
		t.Fatal("no rebuild failed: the disk was never full")
	}
	if stages["index talks"] == 0 {
		t.Error("no rebuild failed while batches were written")
	}
}

// matches is the number of talks of idx whose abstract has word.
func matches(t *testing.T, idx bleve.Index, word string) uint64 {
	t.Helper()
	res, err := idx.Search(bleve.NewSearchRequest(matchField(FieldAbstract, word)))
	if err != nil {
		t.Fatalf("search %s: %v", word, err)
	}
	return res.Total
}

// TestManifestOnFullDisk: talks whose files read fill more than the disk
// holds give an index that fits and a manifest that does not; the build
// fails naming the full disk and removes the index it wrote.
func TestManifestOnFullDisk(t *testing.T) {
	mnt := smallDisk(t, "2m")
	dir := filepath.Join(mnt, "idx")
	serving, _, err := Open(dir, numberedTalks(30))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer serving.Close()
	before := stateOf(t, dir)
	talks := numberedTalks(40)
	for i := range talks {
		for j := range 1500 {
			talks[i].ReadFrom = append(talks[i].ReadFrom, fmt.Sprintf("schedules/%04d/export-of-a-long-name.json", j))
		}
	}
	_, _, err = Open(dir, talks)
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "the disk of "+dir+" is full") || failedStage(err) != "manifest" {
		t.Errorf("rebuild whose manifest does not fit: error %v, want one naming the full disk while writing the manifest", err)
	}
	checkStillServing(t, dir, before, serving, 30)
}

// failedStage is the build step an error of Open names.
func failedStage(err error) string {
	for _, s := range []string{"index talks", "new index", "merge segments", "reopen new index", "copy new index", "manifest", "checksum"} {
		if strings.Contains(err.Error(), s) {
			return s
		}
	}
	return "other"
}

// TestRebuildOnReadOnlyDisk: a disk remounted read-only under a serving
// index fails the rebuild with an error saying so, and the index serves.
func TestRebuildOnReadOnlyDisk(t *testing.T) {
	mnt := smallDisk(t, "4m")
	dir := filepath.Join(mnt, "idx")
	serving, _, err := Open(dir, numberedTalks(50))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer serving.Close()
	before := stateOf(t, dir)
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Fatalf("remount %s read-only: %v", mnt, err)
	}
	_, _, err = Open(dir, wordyTalks(2*batchSize))
	if !errors.Is(err, syscall.EROFS) || !strings.Contains(err.Error(), "the disk of "+dir+" is read-only") {
		t.Errorf("rebuild on a read-only disk: error %v, want one naming the read-only disk (EROFS)", err)
	}
	checkStillServing(t, dir, before, serving, 50)
}

// TestSidecarSaveOnFullDisk: a sidecar that does not fit is an error
// naming the full disk, and leaves no part of itself.
func TestSidecarSaveOnFullDisk(t *testing.T) {
	mnt := smallDisk(t, "1m")
	dir := filepath.Join(mnt, "idx")
	idx, _, err := Open(dir, numberedTalks(20))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer idx.Close()
	sc := SidecarOf(idx)
	if err := sc.Save("small", "", "fits"); err != nil {
		t.Fatalf("Save before the disk is full: %v", err)
	}
	fillDisk(t, mnt, 8<<10)
	err = sc.Save("large", "", strings.Repeat("does not fit ", 4<<10))
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "is full") {
		t.Errorf("Save on a full disk: error %v, want one naming the full disk (ENOSPC)", err)
	}
	entries, _ := os.ReadDir(sc.dir)
	for _, e := range entries {
		if e.Name() != "small" {
			t.Errorf("sidecar directory holds %s after a failed save", e.Name())
		}
	}
	var got string
	if err := sc.Load("small", "", &got); err != nil || got != "fits" {
		t.Errorf("the sidecar saved before: %q, %v", got, err)
	}
}

package index

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
)

func openOK(t *testing.T, dir string, talks []Talk) OpenReport {
	t.Helper()
	idx, rep, err := Open(dir, talks)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer idx.Close()
	if n, _ := idx.DocCount(); n != uint64(len(talks)) {
		t.Fatalf("DocCount = %d, want %d", n, len(talks))
	}
	// The index answers queries with the talk analyzer.
	ids := searchIDs(t, idx, matchField(FieldAbstract, "compile"))
	if len(talks) == len(handTalks()) && (len(ids) != 1 || ids[0] != "compile") {
		t.Fatalf("search compile: %v", ids)
	}
	return rep
}

func indexDirs(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, indexPrefix+"*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestOpenReusesMatchingIndex(t *testing.T) {
	dir := t.TempDir()
	talks := handTalks()
	first := openOK(t, dir, talks)
	if first.Reused || first.Reason != "no index yet" {
		t.Fatalf("first open: %+v", first)
	}
	second := openOK(t, dir, talks)
	if !second.Reused || second.Path != first.Path || second.Docs != 6 {
		t.Fatalf("second open did not reuse %s: %+v", first.Path, second)
	}
	if got := indexDirs(t, dir); len(got) != 1 {
		t.Errorf("index dirs %v, want one", got)
	}
	// A build killed midway leaves a directory without a manifest; the
	// index in use is untouched and the leftover goes at the next Open.
	crashed := filepath.Join(dir, indexPrefix+"1")
	if err := os.MkdirAll(filepath.Join(crashed, "store"), 0o755); err != nil {
		t.Fatal(err)
	}
	third := openOK(t, dir, talks)
	if !third.Reused || third.Path != first.Path || third.Cleanup != nil {
		t.Fatalf("open after a crashed build: %+v", third)
	}
	if got := indexDirs(t, dir); len(got) != 1 || got[0] != first.Path {
		t.Errorf("index dirs %v, want only %s", got, first.Path)
	}
}

// An index replaced by a rebuild stays readable by whoever still has it
// open (a server finishing the searches it started on the old index).
func TestOpenReplacedIndexStaysReadable(t *testing.T) {
	dir := t.TempDir()
	old, _, err := Open(dir, handTalks())
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	changed := handTalks()[:5]
	idx, rep, err := Open(dir, changed)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	if rep.Reused || rep.Docs != 5 {
		t.Fatalf("rebuild: %+v", rep)
	}
	if ids := searchIDs(t, old, matchField(FieldAbstract, "compile")); len(ids) != 1 {
		t.Errorf("old index after the switch: %v", ids)
	}
}

func TestOpenRebuilds(t *testing.T) {
	tests := []struct {
		name   string
		damage func(t *testing.T, dir, path string) []Talk // returns the talks to open with
		reason string
		// previous: the first index stays as DIR/previous (servers
		// of the directory may still read it); not when it is gone
		// or current no longer named it.
		previous bool
	}{
		{"content changed", func(t *testing.T, dir, path string) []Talk {
			talks := handTalks()
			talks[0].Title = "Slower models without torch.compile"
			return talks
		}, "content changed", true},
		{"mapping version changed", func(t *testing.T, dir, path string) []Talk {
			m, err := readManifest(path)
			if err != nil {
				t.Fatal(err)
			}
			m.MappingVersion = MappingVersion - 1
			if err := writeManifest(path, m); err != nil {
				t.Fatal(err)
			}
			return handTalks()
		}, fmt.Sprintf("mapping version %d, want %d", MappingVersion-1, MappingVersion), true},
		{"truncated file", func(t *testing.T, dir, path string) []Talk {
			f := largestFile(t, path)
			if err := os.Truncate(f, 10); err != nil {
				t.Fatal(err)
			}
			return handTalks()
		}, "corrupted: file", true},
		{"flipped bytes", func(t *testing.T, dir, path string) []Talk {
			f := largestFile(t, path)
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			data[len(data)/2] ^= 0xff
			if err := os.WriteFile(f, data, 0o644); err != nil {
				t.Fatal(err)
			}
			return handTalks()
		}, "changed", true},
		{"manifest missing (crash before it was written)", func(t *testing.T, dir, path string) []Talk {
			if err := os.Remove(filepath.Join(path, manifestName)); err != nil {
				t.Fatal(err)
			}
			return handTalks()
		}, "unusable: read manifest", true},
		{"index dir gone", func(t *testing.T, dir, path string) []Talk {
			if err := os.RemoveAll(path); err != nil {
				t.Fatal(err)
			}
			return handTalks()
		}, "unusable: read manifest", false},
		{"link missing", func(t *testing.T, dir, path string) []Talk {
			if err := os.Remove(filepath.Join(dir, currentLink)); err != nil {
				t.Fatal(err)
			}
			return handTalks()
		}, "no index yet", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			first := openOK(t, dir, handTalks())
			talks := tt.damage(t, dir, first.Path)
			// A crashed build leaves a directory behind; it is cleaned up.
			if err := os.Mkdir(filepath.Join(dir, indexPrefix+"0"), 0o755); err != nil {
				t.Fatal(err)
			}
			second := openOK(t, dir, talks)
			if second.Reused || !strings.Contains(second.Reason, tt.reason) {
				t.Fatalf("reopen: %+v, want a rebuild because %q", second, tt.reason)
			}
			if second.Path == first.Path {
				t.Errorf("rebuilt into the old directory %s", first.Path)
			}
			want := []string{second.Path}
			if tt.previous {
				want = []string{first.Path, second.Path} // names sort by build time
			}
			if got := indexDirs(t, dir); !slices.Equal(got, want) {
				t.Errorf("index dirs %v, want %v", got, want)
			}
			if second.Cleanup != nil {
				t.Errorf("cleanup: %v", second.Cleanup)
			}
			third := openOK(t, dir, talks)
			if !third.Reused {
				t.Errorf("third open rebuilt again: %+v", third)
			}
		})
	}
}

func largestFile(t *testing.T, root string) string {
	t.Helper()
	var best string
	var size int64 = -1
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && info.Name() != manifestName && info.Size() > size {
			best, size = p, info.Size()
		}
		return nil
	})
	if best == "" {
		t.Fatal("no index file")
	}
	return best
}

func TestOpenUnwritableDir(t *testing.T) {
	t.Run("path under a file", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(file, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		// The directory cannot even be made to be locked (lock.go).
		_, _, err := Open(filepath.Join(file, "idx"), handTalks())
		if err == nil || !strings.Contains(err.Error(), "lock index directory "+filepath.Join(file, "idx")) || !strings.Contains(err.Error(), "not a directory") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("read-only dir", func(t *testing.T) {
		dir := writableDir(t)
		want := makeReadOnly(t, dir)
		_, _, err := Open(dir, handTalks())
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("err = %v, want %q", err, want)
		}
	})
	t.Run("read-only dir with a matching index is reused", func(t *testing.T) {
		dir := writableDir(t)
		openOK(t, dir, handTalks())
		makeReadOnly(t, dir)
		if rep := openOK(t, dir, handTalks()); !rep.Reused {
			t.Errorf("not reused: %+v", rep)
		}
	})
}

// writableDir returns an empty directory that makeReadOnly can later make
// read-only: as root, a tmpfs mounted on it, since root writes into a
// directory whatever its mode (and CI runs as root).
func writableDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if !asRoot() {
		return dir
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=16m"); err != nil {
		t.Skipf("cannot mount a tmpfs at %s as root: %v", dir, err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

// makeReadOnly makes a directory from writableDir read-only and returns the
// error text writing to it gives.
func makeReadOnly(t *testing.T, dir string) string {
	t.Helper()
	if asRoot() {
		if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
			t.Fatalf("remount %s read-only: %v", dir, err)
		}
		return "read-only file system"
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	return "permission denied"
}

func asRoot() bool { return runtime.GOOS == "linux" && os.Geteuid() == 0 }

func TestContentHash(t *testing.T) {
	a, err := ContentHash(handTalks())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ContentHash(handTalks())
	changed := handTalks()
	changed[5].Room = "Hall B"
	c, _ := ContentHash(changed)
	if a != b || a == c || len(a) != 64 {
		t.Errorf("hashes %s %s %s", a, b, c)
	}
}

package index

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestOpenRefusesADirectoryAnotherProcessHolds: two servers on one --index
// would delete each other's live index on every rebuild. Another
// process's lock is a flock on another open file description of the
// directory, which is what flockDir takes here.
func TestOpenRefusesADirectoryAnotherProcessHolds(t *testing.T) {
	dir := t.TempDir()
	talks := handTalks()
	first := openOK(t, dir, talks)
	before := indexDirs(t, dir)

	other, err := flockDir(dir) // the other process
	if err != nil {
		t.Fatal(err)
	}
	changed := slices.Clone(talks)
	changed[0].Title += " (edited)" // a rebuild would remove the index in use
	if idx, _, err := Open(dir, changed); !errors.Is(err, ErrLocked) {
		if idx != nil {
			idx.Close()
		}
		t.Fatalf("Open on a held directory: %v, want ErrLocked", err)
	}
	if _, err := Lock(dir); !errors.Is(err, ErrLocked) {
		t.Errorf("Lock on a held directory: %v, want ErrLocked", err)
	}
	if got := indexDirs(t, dir); !slices.Equal(got, before) {
		t.Errorf("index dirs %v after a refused Open, want %v untouched", got, before)
	}
	if _, err := os.Stat(filepath.Join(first.Path, manifestName)); err != nil {
		t.Errorf("the index in use lost its manifest: %v", err)
	}
	other.Close()

	// Once the other process is gone, this one can lock and rebuild.
	l, err := Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(dir); !errors.Is(err, ErrLocked) {
		t.Errorf("a second Lock in the same process: %v, want ErrLocked", err)
	}
	if rep := openOK(t, dir, changed); rep.Reused || rep.Reason != "content changed" {
		t.Errorf("Open under this process's lock: %+v, want a rebuild", rep)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	if f, err := flockDir(dir); err != nil {
		t.Errorf("after Unlock another process cannot lock: %v", err)
	} else {
		f.Close()
	}
}

func TestPersistedSources(t *testing.T) {
	dir := t.TempDir()
	if _, ok := PersistedSources(dir); ok {
		t.Error("an empty directory has sources")
	}
	talks := handTalks()
	talks[0].ReadFrom = []string{"a.txt", "b.txt"}
	openOK(t, dir, talks)
	got, ok := PersistedSources(dir)
	if !ok || len(got) != len(talks) || !slices.Equal(got[talks[0].ID], []string{"a.txt", "b.txt"}) {
		t.Errorf("PersistedSources = %v, %v", got, ok)
	}
}

package index

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

type keptValue struct {
	Words []string
	N     int
}

func openSidecar(t *testing.T, dir string, talks []Talk) *Sidecar {
	t.Helper()
	idx, _, err := Open(dir, talks)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	sc := SidecarOf(idx)
	if sc == nil {
		t.Fatal("Open's index has no sidecar")
	}
	return sc
}

// TestSidecarKeepsWithTheIndex: what is saved beside an index reads back
// after a reuse, does not make the index look corrupted, and goes with it
// when the talks change.
func TestSidecarKeepsWithTheIndex(t *testing.T) {
	dir := t.TempDir()
	talks := handTalks()
	sc := openSidecar(t, dir, talks)
	var got keptValue
	if err := sc.Load("words", "k1", &got); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Load before Save: %v, want fs.ErrNotExist", err)
	}
	want := keptValue{Words: []string{"monarch", "kv", "cache"}, N: 3}
	if err := sc.Save("words", "k1", want); err != nil {
		t.Fatal(err)
	}

	rep := openOK(t, dir, talks) // the sidecar is not one of the index's files
	if !rep.Reused {
		t.Fatalf("index with a sidecar not reused: %+v", rep)
	}
	again := openSidecar(t, dir, talks)
	if err := again.Load("words", "k1", &got); err != nil || !slices.Equal(got.Words, want.Words) || got.N != 3 {
		t.Fatalf("Load after a reuse: %v, %+v", err, got)
	}
	cur, err := CurrentSidecar(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := cur.Load("words", "k1", &got); err != nil {
		t.Fatalf("CurrentSidecar Load: %v", err)
	}
	if err := cur.Load("words", "k2", &got); !errors.Is(err, ErrSidecarStale) || !strings.Contains(err.Error(), "key changed") {
		t.Errorf("another key: %v, want ErrSidecarStale", err)
	}
	if err := cur.Load("other", "k1", &got); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("another name: %v, want fs.ErrNotExist", err)
	}

	// Another build of the program may derive differently: never read.
	build := programBuild
	programBuild = func() string { return "buildid:another" }
	err = cur.Load("words", "k1", &got)
	programBuild = build
	if !errors.Is(err, ErrSidecarStale) || !strings.Contains(err.Error(), "another build") {
		t.Errorf("another build: %v, want ErrSidecarStale", err)
	}
	kept, err := os.ReadFile(filepath.Join(cur.dir, "words"))
	if err != nil {
		t.Fatal(err)
	}

	// Other talks: a new index, without the old one's sidecar.
	changed := append(handTalks(), Talk{ID: "extra", Title: "Extra talk", Kind: KindTalk})
	sc2 := openSidecar(t, dir, changed)
	if err := sc2.Load("words", "k1", &got); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("rebuilt index: %v, want fs.ErrNotExist", err)
	}
	// A sidecar carried over from the other talks' index is refused.
	if err := os.MkdirAll(sc2.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sc2.dir, "words"), kept, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := sc2.Load("words", "k1", &got); !errors.Is(err, ErrSidecarStale) || !strings.Contains(err.Error(), "other talks") {
		t.Errorf("sidecar of other talks: %v, want ErrSidecarStale", err)
	}
}

// TestSidecarDamaged: any change to the bytes is caught by the checksum,
// before anything is decoded.
func TestSidecarDamaged(t *testing.T) {
	dir := t.TempDir()
	sc := openSidecar(t, dir, handTalks())
	if err := sc.Save("words", "", keptValue{Words: []string{"a", "b"}, N: 2}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(sc.dir, "words")
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "0 bytes, truncated"},
		{"short", good[:20], "20 bytes, truncated"},
		{"cut", good[:len(good)-3], "checksum mismatch"},
		{"flipped", flipped(good, len(good)-2), "checksum mismatch"},
		{"sum flipped", flipped(good, 0), "checksum mismatch"},
		{"appended", append(slices.Clone(good), 'x'), "checksum mismatch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(path, tc.data, 0o600); err != nil {
				t.Fatal(err)
			}
			var got keptValue
			err := sc.Load("words", "", &got)
			if err == nil || errors.Is(err, ErrSidecarStale) || errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Load: %v, want a damaged-file error saying %q", err, tc.want)
			}
		})
	}
	// Saving again repairs it.
	if err := sc.Save("words", "", keptValue{N: 5}); err != nil {
		t.Fatal(err)
	}
	var got keptValue
	if err := sc.Load("words", "", &got); err != nil || got.N != 5 {
		t.Errorf("after a new Save: %v, %+v", err, got)
	}
	if left, _ := filepath.Glob(filepath.Join(sc.dir, ".*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func flipped(b []byte, at int) []byte {
	c := slices.Clone(b)
	c[at] ^= 0xff
	return c
}

func TestSidecarOfMemoryIndex(t *testing.T) {
	idx, err := Build(handTalks())
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	if sc := SidecarOf(idx); sc != nil {
		t.Errorf("in-memory index has a sidecar: %+v", sc)
	}
	if _, err := CurrentSidecar(t.TempDir()); err == nil {
		t.Error("CurrentSidecar of an empty directory: no error")
	}
}

// TestProgramBuild: the test binary has a Go build ID, read the same way
// every time.
func TestProgramBuild(t *testing.T) {
	b := programBuild()
	if !strings.HasPrefix(b, "buildid:") || len(b) < len("buildid:")+20 {
		t.Errorf("programBuild() = %q, want the binary's build ID", b)
	}
}

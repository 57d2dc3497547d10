package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tree lists every path under dir with its size and modification time: what
// a reader must leave as it was.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		out = append(out, fmt.Sprint(p, " ", info.Mode(), " ", info.ModTime(), " ", info.Size()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestOpenGenerationReadsWithoutWriting: a read-only server opens the
// published generation while the writer holds the directory, reads what
// the writer kept under any key, and writes nothing.
func TestOpenGenerationReadsWithoutWriting(t *testing.T) {
	dir := t.TempDir()
	talks := handTalks()
	lock, err := Lock(dir) // the writer's
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	sc := openSidecar(t, dir, talks)
	if err := sc.Save("corpus", "the writer's seeds", keptValue{Words: []string{"monarch"}, N: 1}); err != nil {
		t.Fatal(err)
	}
	name, err := CurrentGeneration(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(name, indexPrefix) || filepath.Join(dir, name) != filepath.Dir(sc.dir) {
		t.Fatalf("CurrentGeneration = %q, want the index of %s", name, sc.dir)
	}
	before := tree(t, dir)

	idx, g, err := OpenGeneration(dir, name)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	if g.Name != name || g.Path != filepath.Join(dir, name) || g.Docs != uint64(len(talks)) || g.Built.IsZero() {
		t.Errorf("generation %+v, want %s with %d docs and a build time", g, name, len(talks))
	}
	if ids := searchIDs(t, idx, matchField(FieldAbstract, "compile")); !slices.Equal(ids, []string{"compile"}) {
		t.Errorf("search compile: %v", ids)
	}
	rsc := SidecarOf(idx)
	var got keptValue
	if err := rsc.LoadAnyKey("corpus", &got); err != nil || got.N != 1 || !slices.Equal(got.Words, []string{"monarch"}) {
		t.Errorf("LoadAnyKey: %v, %+v", err, got)
	}
	if err := rsc.Load("corpus", "other seeds", &got); !errors.Is(err, ErrSidecarStale) {
		t.Errorf("Load with another key: %v, want ErrSidecarStale", err)
	}
	if err := rsc.Save("vocabulary", "", keptValue{N: 2}); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Save on a read-only sidecar: %v, want ErrReadOnly", err)
	}
	if after := tree(t, dir); !slices.Equal(after, before) {
		t.Errorf("the directory changed under a reader:\nbefore %v\nafter  %v", before, after)
	}
}

// TestOpenGenerationRefuses: a generation that is damaged, gone or not
// published is an error, never an index.
func TestOpenGenerationRefuses(t *testing.T) {
	if _, err := CurrentGeneration(t.TempDir()); !errors.Is(err, ErrNoGeneration) {
		t.Errorf("empty directory: %v, want ErrNoGeneration", err)
	}
	dir := t.TempDir()
	rep := openOK(t, dir, handTalks())
	name := filepath.Base(rep.Path)
	f := largestFile(t, rep.Path)
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, flipped(data, len(data)/2), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := OpenGeneration(dir, name); err == nil || !strings.Contains(err.Error(), "changed") {
		t.Errorf("flipped bytes: %v, want a changed file", err)
	}
	if _, _, err := OpenGeneration(dir, indexPrefix+"1"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a removed generation: %v, want fs.ErrNotExist", err)
	}
}

// TestRebuildKeepsPreviousGeneration: a rebuild keeps the index it
// replaced, which read-only servers may not have left yet, and removes the
// one before.
func TestRebuildKeepsPreviousGeneration(t *testing.T) {
	dir := t.TempDir()
	talks := handTalks()
	first := openOK(t, dir, talks)
	second := openOK(t, dir, talks[:5])
	if got := indexDirs(t, dir); !slices.Equal(got, []string{first.Path, second.Path}) {
		t.Fatalf("after a rebuild: %v, want %s and %s", got, first.Path, second.Path)
	}
	third := openOK(t, dir, talks[:4])
	if got := indexDirs(t, dir); !slices.Equal(got, []string{second.Path, third.Path}) {
		t.Errorf("after two rebuilds: %v, want %s and %s", got, second.Path, third.Path)
	}
	if prev, err := os.Readlink(filepath.Join(dir, previousLink)); err != nil || prev != filepath.Base(second.Path) {
		t.Errorf("previous = %q, %v; want %s", prev, err, filepath.Base(second.Path))
	}
	// A reuse keeps both too, and removes what a crashed build left.
	if err := os.Mkdir(filepath.Join(dir, indexPrefix+"0"), 0o755); err != nil {
		t.Fatal(err)
	}
	if again := openOK(t, dir, talks[:4]); !again.Reused || again.Cleanup != nil {
		t.Fatalf("reopen: %+v", again)
	}
	if got := indexDirs(t, dir); !slices.Equal(got, []string{second.Path, third.Path}) {
		t.Errorf("after a reuse: %v, want %s and %s", got, second.Path, third.Path)
	}
}

// TestStagePublishesWhole: a staged build is invisible to readers until
// Publish, so what its writer keeps in its sidecar before is there when
// they first see it; an abandoned one leaves the directory as it was.
func TestStagePublishesWhole(t *testing.T) {
	dir := t.TempDir()
	talks := handTalks()
	first := openOK(t, dir, talks)

	st, err := Stage(context.Background(), dir, talks[:5], nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Index.Close()
	if st.Report.Reused || st.Report.Docs != 5 {
		t.Fatalf("staged: %+v", st.Report)
	}
	if name, _ := CurrentGeneration(dir); name != filepath.Base(first.Path) {
		t.Fatalf("current is %s before Publish, want %s", name, filepath.Base(first.Path))
	}
	if err := SidecarOf(st.Index).Save("corpus", "seeds", keptValue{N: 5}); err != nil {
		t.Fatal(err)
	}
	if err := st.Publish(); err != nil {
		t.Fatal(err)
	}
	name, _ := CurrentGeneration(dir)
	if name != filepath.Base(st.Report.Path) {
		t.Fatalf("current is %s after Publish, want %s", name, st.Report.Path)
	}
	idx, _, err := OpenGeneration(dir, name)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	var got keptValue
	if err := SidecarOf(idx).LoadAnyKey("corpus", &got); err != nil || got.N != 5 {
		t.Errorf("the published generation's sidecar: %v, %+v", err, got)
	}
	if l, err := Lock(dir); err != nil {
		t.Errorf("Publish left the directory locked: %v", err)
	} else {
		l.Unlock()
	}

	gone, err := Stage(context.Background(), dir, talks[:3], nil)
	if err != nil {
		t.Fatal(err)
	}
	gone.Index.Close()
	gone.Abandon()
	if now, _ := CurrentGeneration(dir); now != name {
		t.Errorf("current is %s after Abandon, want %s", now, name)
	}
	if got := indexDirs(t, dir); !slices.Equal(got, []string{first.Path, st.Report.Path}) {
		t.Errorf("after Abandon: %v, want %s and %s", got, first.Path, st.Report.Path)
	}
}

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/web"
)

// extraTalk is a seed file of one talk, found by a word no seed has.
const extraTalk = `{"id":"rollout-zeppelin-1","title":"Rolling zeppelin builds out to read-only replicas","abstract":"How a search site swaps builds under load.","conference":{"id":"pytorch-conference-europe-2026","name":"PyTorch Conference Europe 2026"}}` + "\n"

// indexCmd runs talksearch index --index dir ARGS… and returns the index
// directory it published (DIR/current's target).
func indexCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), append([]string{"index", "--index", dir}, args...), func(string) string { return "" }, &out, &errOut)
	if err != nil {
		t.Fatalf("index --index: %v\n%s", err, errOut.String())
	}
	name, err := index.CurrentGeneration(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := "\nindex: " + filepath.Join(dir, name) + ", "; !strings.Contains(out.String(), want) {
		t.Errorf("index --index printed no %q:\n%s", want, out.String())
	}
	return name
}

// listing is every path under dir with its size and time: what read-only
// servers must leave as they found it.
func listing(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		out = append(out, fmt.Sprint(p, " ", info.Size(), " ", info.ModTime().UnixNano()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestReadOnlyReplicasFollowTheWriter: two read-only servers share the
// directory index --index built, write nothing there, and both switch to
// the next build without a restart.
func TestReadOnlyReplicasFollowTheWriter(t *testing.T) {
	seeds := copySeeds(t)
	dir := t.TempDir()
	first := indexCmd(t, dir, "--seeds", seeds)
	before := listing(t, dir)

	var replicas []*served
	for range 2 {
		s := serveSeeds(t, nil, "--index", dir, "--read-only", "--poll", "20ms", "--log-level", "warn")
		t.Cleanup(func() { s.stop() })
		replicas = append(replicas, s)
	}
	for i, s := range replicas {
		h := s.waitHealth(t, "a replica", func(health) bool { return true })
		if h.Index != first || h.Generation != 1 {
			t.Errorf("replica %d: /healthz %+v, want generation 1 of %s", i, h, first)
		}
		if n := s.total(t, "monarch"); n != 3 {
			t.Errorf("replica %d: monarch finds %d talks, want the seeds' 3", i, n)
		}
		if n := s.total(t, "zeppelin"); n != 0 {
			t.Errorf("replica %d: zeppelin finds %d talks before the new build", i, n)
		}
	}
	if after := listing(t, dir); !slices.Equal(after, before) {
		t.Errorf("read-only servers changed the directory:\nbefore %v\nafter  %v", before, after)
	}

	if err := os.WriteFile(filepath.Join(seeds, "extra.jsonl"), []byte(extraTalk), 0o644); err != nil {
		t.Fatal(err)
	}
	second := indexCmd(t, dir, "--seeds", seeds)
	if second == first {
		t.Fatalf("the new seeds were not built: %s", second)
	}
	for i, s := range replicas {
		// The build serves as soon as it is swapped in; the switch is
		// counted just after, once Reloading is over.
		h := s.waitHealth(t, "the new build", func(h health) bool { return h.Index == second && !h.Reloading })
		if h.Generation != 2 || h.Reloads != 1 || h.ReloadFailures != 0 {
			t.Errorf("replica %d after the new build: /healthz %+v, want generation 2, one switch", i, h)
		}
		if n := s.total(t, "zeppelin"); n != 1 {
			t.Errorf("replica %d: zeppelin finds %d talks in the new build, want 1", i, n)
		}
	}
	// A writer serving the directory names its build too.
	replicas[0].stop()
	w := serveSeeds(t, nil, "--index", dir, "--seeds", seeds)
	defer w.stop()
	if h := w.waitHealth(t, "the writer", func(health) bool { return true }); h.Index != second {
		t.Errorf("a writer on the directory: /healthz %+v, want index %s", h, second)
	}
	// The build the replicas left is kept, as a slower one may be on it.
	if got := indexDirsOf(t, dir); !slices.Equal(got, []string{first, second}) {
		t.Errorf("index directories %v, want %s and %s", got, first, second)
	}
}

func indexDirsOf(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "index-") {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestReadOnlyKeepsServingOnABadBuild: a published build that fails to
// open (a damaged file) is counted once and logged; the build serving
// stays, and the next good one is taken.
func TestReadOnlyKeepsServingOnABadBuild(t *testing.T) {
	seeds := copySeeds(t)
	dir := t.TempDir()
	first := indexCmd(t, dir, "--seeds", seeds)
	s := serveSeeds(t, nil, "--index", dir, "--read-only", "--poll", "20ms")
	defer s.stop()
	s.waitHealth(t, "the replica", func(health) bool { return true })

	// A copy of the build with one byte changed, published by hand.
	bad := "index-9" + first[len("index-")+1:]
	if err := os.CopyFS(filepath.Join(dir, bad), os.DirFS(filepath.Join(dir, first))); err != nil {
		t.Fatal(err)
	}
	store, err := filepath.Glob(filepath.Join(dir, bad, "store", "*.zap"))
	if err != nil || len(store) == 0 {
		t.Fatalf("no segment in the copy: %v", err)
	}
	data, err := os.ReadFile(store[0])
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(store[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(bad, filepath.Join(dir, "current.tmp")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "current.tmp"), filepath.Join(dir, "current")); err != nil {
		t.Fatal(err)
	}
	h := s.waitHealth(t, "the refusal", func(h health) bool { return h.ReloadFailures > 0 })
	if h.Index != first || h.Generation != 1 || h.ReloadFailures != 1 {
		t.Errorf("after a damaged build: /healthz %+v, want %s still serving, one failure", h, first)
	}
	if n := s.total(t, "monarch"); n != 3 {
		t.Errorf("monarch finds %d talks, want 3", n)
	}
	if !strings.Contains(s.log.String(), `"message":"new generation not opened: the one serving stays"`) || !strings.Contains(s.log.String(), "changed") {
		t.Errorf("no log of the refusal:\n%s", s.log)
	}

	os.Remove(filepath.Join(dir, "current"))
	if err := os.Symlink(first, filepath.Join(dir, "current")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(seeds, "extra.jsonl"), []byte(extraTalk), 0o644); err != nil {
		t.Fatal(err)
	}
	second := indexCmd(t, dir, "--seeds", seeds)
	h = s.waitHealth(t, "the next good build", func(h health) bool { return h.Index == second })
	if h.Generation != 2 || h.ReloadFailures != 1 {
		t.Errorf("after the good build: /healthz %+v, want generation 2, still one failure", h)
	}
}

// TestReadOnlyRefuses: flags a read-only server cannot honour are usage
// errors, and a directory with no build an error naming the command that
// makes one.
func TestReadOnlyRefuses(t *testing.T) {
	empty := t.TempDir()
	for _, tt := range []struct {
		args    []string
		want    string
		isUsage bool
	}{
		{[]string{"serve", "--read-only"}, "--read-only needs --index DIR", true},
		{[]string{"serve", "--read-only", "--index", empty, "--seeds", "x.xml", "--refresh", "1m"}, "--seeds, --refresh apply to the writer", true},
		{[]string{"serve", "--read-only", "--index", empty, "--poll", "-1s"}, "--poll -1s: need 0", true},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--read-only", "--index", empty}, "build one with talksearch index --index", false},
		{[]string{"index", "--allow-drop"}, "--allow-drop applies to --index", true},
	} {
		var out, errOut bytes.Buffer
		err := run(context.Background(), tt.args, func(string) string { return "" }, &out, &errOut)
		var u usageError
		if err == nil || !strings.Contains(err.Error(), tt.want) || errors.As(err, &u) != tt.isUsage {
			t.Errorf("%v: %v, want %q (a usage error: %v)", tt.args, err, tt.want, tt.isUsage)
		}
	}
	if entries, _ := os.ReadDir(empty); len(entries) != 0 {
		t.Errorf("a read-only server wrote into its directory: %v", entries)
	}
}

// TestLiveSwapWarmsThenRetires: a swapped-in site answers as the next
// generation with its catalog made, and the site it replaces closes its
// engine only once the call it was answering lets go.
func TestLiveSwapWarmsThenRetires(t *testing.T) {
	c, err := (&globals{}).loadSeeds()
	if err != nil {
		t.Fatal(err)
	}
	e1, err := search.New(c.Talks)
	if err != nil {
		t.Fatal(err)
	}
	e2, err := search.New(c.Talks[:10])
	if err != nil {
		t.Fatal(err)
	}
	l := newLive(newSite(e1, "", "index-1"))
	h, err := web.NewHandler(l, zerolog.Nop(), web.Options{})
	if err != nil {
		t.Fatal(err)
	}
	held := l.acquire() // a call on the first site, in flight
	if err := l.swap(context.Background(), h, newSite(e2, "", "index-2")); err != nil {
		t.Fatal(err)
	}
	if g := l.Generation(); g != 2 || l.serving().index != "index-2" || len(l.Talks()) != 10 {
		t.Fatalf("after the swap: generation %d, index %s, %d talks; want 2, index-2, 10", g, l.serving().index, len(l.Talks()))
	}
	if _, err := held.Search(context.Background(), search.Request{Query: "monarch"}); err != nil {
		t.Errorf("the call in flight on the old site failed: %v", err)
	}
	if e1.Generation() == 0 {
		t.Error("the old engine closed under a call")
	}
	held.release()
	if e1.Generation() != 0 {
		t.Error("the old engine is still open after its last call")
	}
	l.close()
	if e2.Generation() != 0 {
		t.Error("close left the engine open")
	}
}

package main

// Faults of the on-disk index (serve --index DIR), tested through the real
// program: a damaged index is rebuilt with a clear log line, a read-only or
// full disk is a clear error, and a kill at any moment of a rebuild leaves
// an index the next start can use.
//
// The log lines they expect: a rebuild says "rebuilt" and the reason
// index.Open gives (OpenReport.Reason), a reuse says "reused".

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startOnly runs serve with a context cancelled once it says it serves
// (a cancel before would end its start): it does all its setup (the index
// included), then stops at once. It returns the log and the error of the
// setup.
func startOnly(t *testing.T, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var log syncBuffer
	stdout := cancelOnWrite{cancel}
	err := run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), func(string) string { return "" }, stdout, &log)
	return log.String(), err
}

// cancelOnWrite cancels at its first write: serve's stdout, written once
// it listens with its index built.
type cancelOnWrite struct{ cancel func() }

func (w cancelOnWrite) Write(p []byte) (int, error) {
	w.cancel()
	return len(p), nil
}

// requireIndexDir skips the on-disk index tests while serve refuses --index.
func requireIndexDir(t *testing.T) {
	t.Helper()
	if _, err := startOnly(t, "--index", filepath.Join(t.TempDir(), "probe")); err != nil && strings.Contains(err.Error(), "not supported yet") {
		t.Skipf("serve --index is not wired to the engine yet: %v", err)
	}
}

// indexFiles lists the index directories under dir ("index-…").
func indexFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "index-") {
			out = append(out, e.Name())
		}
	}
	return out
}

// currentIndex is the index directory DIR/current points at.
func currentIndex(t *testing.T, dir string) string {
	t.Helper()
	target, err := os.Readlink(filepath.Join(dir, "current"))
	if err != nil {
		t.Fatalf("no current index in %s: %v", dir, err)
	}
	return filepath.Join(dir, filepath.Base(target))
}

// largestIndexFile is the biggest file of an index: its segment data.
func largestIndexFile(t *testing.T, path string) string {
	t.Helper()
	var best string
	var size int64 = -1
	filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != "talksearch.json" {
			if fi, err := d.Info(); err == nil && fi.Size() > size {
				best, size = p, fi.Size()
			}
		}
		return err
	})
	if best == "" {
		t.Fatalf("no files in index %s", path)
	}
	return best
}

// serveOnce starts serve on an index dir, checks it serves every talk of
// the seeds, stops it, and returns its log.
func serveOnce(t *testing.T, indexDir string, args ...string) string {
	t.Helper()
	s := serveSeeds(t, nil, append([]string{"--index", indexDir}, args...)...)
	if got := s.total(t, ""); got != 73 {
		t.Errorf("serving %d talks from %s, want the 73 of the seeds", got, indexDir)
	}
	if got := s.total(t, "monarch"); got == 0 {
		t.Errorf("Monarch finds nothing from %s", indexDir)
	}
	if err := s.stop(); err != nil {
		t.Errorf("serve: %v\n%s", err, s.log)
	}
	return s.log.String()
}

func TestServeRebuildsDamagedIndex(t *testing.T) {
	requireIndexDir(t)
	tests := []struct {
		name   string
		damage func(t *testing.T, dir string)
		reason string // in the rebuild's log line
		// kept: the damaged index stays beside the rebuilt one, as
		// DIR/previous (current named it); not when it is gone.
		kept bool
	}{
		{"missing directory", func(t *testing.T, dir string) { os.RemoveAll(dir) }, "no index yet", false},
		{"empty directory", func(t *testing.T, dir string) {
			os.RemoveAll(dir)
			os.Mkdir(dir, 0o755)
		}, "no index yet", false},
		{"truncated segment", func(t *testing.T, dir string) {
			p := largestIndexFile(t, currentIndex(t, dir))
			fi, _ := os.Stat(p)
			if err := os.Truncate(p, fi.Size()/2); err != nil {
				t.Fatal(err)
			}
		}, "corrupted", true},
		{"flipped bytes", func(t *testing.T, dir string) {
			p := largestIndexFile(t, currentIndex(t, dir))
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			for i := len(b) / 3; i < len(b)/3+64 && i < len(b); i++ {
				b[i] ^= 0xff
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}, "corrupted", true},
		{"garbage manifest", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(currentIndex(t, dir), "talksearch.json"), []byte("{not json"), 0o644)
		}, "manifest", true},
		{"no manifest (a build killed before it finished)", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(currentIndex(t, dir), "talksearch.json"))
		}, "manifest", true},
		{"dangling current link", func(t *testing.T, dir string) { os.RemoveAll(currentIndex(t, dir)) }, "unusable", false},
		{"emptied index", func(t *testing.T, dir string) {
			cur := currentIndex(t, dir)
			entries, _ := os.ReadDir(cur)
			for _, e := range entries {
				if e.Name() != "talksearch.json" {
					os.RemoveAll(filepath.Join(cur, e.Name()))
				}
			}
		}, "corrupted", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "index")
			serveOnce(t, dir)
			var damaged string
			if tt.kept {
				damaged = filepath.Base(currentIndex(t, dir))
			}
			tt.damage(t, dir)
			log := serveOnce(t, dir)
			if !strings.Contains(log, "rebuil") || !strings.Contains(log, tt.reason) {
				t.Errorf("no log line saying the index is rebuilt because %q:\n%s", tt.reason, log)
			}
			// The rebuilt index is whole: the next start reuses it.
			if log := serveOnce(t, dir); !strings.Contains(log, "reus") {
				t.Errorf("the rebuilt index was not reused:\n%s", log)
			}
			want := []string{filepath.Base(currentIndex(t, dir))}
			if tt.kept {
				want = append([]string{damaged}, want...) // names sort by build time
			}
			if got := indexFiles(t, dir); !slices.Equal(got, want) {
				t.Errorf("index directories after the rebuild: %q, want %q", got, want)
			}
		})
	}
}

// mountTmpfs mounts a small tmpfs at dir for the test, or skips when this
// process may not mount (only root can; CI runs as root).
func mountTmpfs(t *testing.T, dir string, flags uintptr, size string) {
	t.Helper()
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("needs root on Linux to mount a tmpfs: a read-only or full disk cannot be had otherwise (root ignores permissions)")
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", flags, "size="+size); err != nil {
		t.Skipf("cannot mount a tmpfs at %s: %v", dir, err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
}

// TestServeUnwritableIndexDir: a data directory that cannot take the index
// is a clear error at start, not a crash and not a half-built index.
func TestServeUnwritableIndexDir(t *testing.T) {
	requireIndexDir(t)
	tests := []struct {
		name  string
		setup func(t *testing.T) string // returns the --index dir
		want  string
	}{
		{"read-only file system", func(t *testing.T) string {
			mnt := t.TempDir()
			mountTmpfs(t, mnt, syscall.MS_RDONLY, "1m")
			return filepath.Join(mnt, "index")
		}, "read-only file system"},
		{"full disk", func(t *testing.T) string {
			mnt := t.TempDir()
			mountTmpfs(t, mnt, 0, "64k")
			return filepath.Join(mnt, "index")
		}, "no space left on device"},
		{"a file in the way", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "index")
			if err := os.WriteFile(p, []byte("not a directory"), 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}, "not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.setup(t)
			stderr, err := startOnly(t, "--index", dir)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), dir) {
				t.Errorf("serve --index %s: error = %v, want one naming the dir and %q\n%s", dir, err, tt.want, stderr)
			}
			if strings.Contains(stderr, "panic") {
				t.Errorf("serve panicked:\n%s", stderr)
			}
			if entries, _ := os.ReadDir(dir); slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() == "current" }) {
				t.Errorf("a current index was left in %s after a failed build", dir)
			}
		})
	}
}

// buildBinary builds talksearch for the tests that must kill it.
func buildBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "talksearch")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestKillDuringRebuild kills the server (SIGKILL, no cleanup) at many
// moments of a rebuild, from before the first file is written to after the
// switch. After each kill a normal start must serve every talk, from the
// old index when the kill came before the switch.
func TestKillDuringRebuild(t *testing.T) {
	requireIndexDir(t)
	bin := buildBinary(t)
	dir := filepath.Join(t.TempDir(), "index")
	seedsA := copySeeds(t)
	seedsB := copySeeds(t) // the same talks and one more, so its index differs
	extra := "Zymurgy at scale: brewing quantized kernels with PyTorch. This talk shows how we ferment our zymurgical " +
		"kernels for inference, what failed along the way, and which numbers we measured on real workloads.\n"
	if err := os.WriteFile(filepath.Join(seedsB, "900_new.txt"), []byte(extra), 0o644); err != nil {
		t.Fatal(err)
	}
	start := func(seeds string) *exec.Cmd {
		// --allow-drop: going back from seedsB to seedsA drops its talk.
		cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--index", dir, "--seeds", seeds, "--log-level", "warn", "--allow-drop")
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	// How long a start with a rebuild takes, to spread the kills over it.
	t0 := time.Now()
	full := start(seedsA)
	waitListening(t, full, dir)
	buildTime := time.Since(t0)
	full.Process.Kill()
	full.Wait()

	for i := range 12 {
		seeds := seedsB
		if i%2 == 1 {
			seeds = seedsA
		}
		cmd := start(seeds)
		time.Sleep(buildTime * time.Duration(i) / 10)
		cmd.Process.Kill()
		cmd.Wait()

		s := serveSeeds(t, nil, "--index", dir, "--seeds", seedsA, "--allow-drop")
		if got := s.total(t, ""); got != 73 {
			t.Fatalf("after a kill %d/10 into a rebuild: %d talks, want 73\n%s", i, got, s.log)
		}
		if err := s.stop(); err != nil {
			t.Fatalf("after a kill %d/10 into a rebuild: %v\n%s", i, err, s.log)
		}
	}
}

// waitListening waits until a started server has its index in place.
func waitListening(t *testing.T, cmd *exec.Cmd, dir string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Readlink(filepath.Join(dir, "current")); err == nil {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no index in %s within 60 s", dir)
}

package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/blevesearch/bleve/v2"
	"golang.org/x/sys/unix"
)

// A persisted index lives in a directory of its own:
//
//	DIR/current              symlink to the index in use
//	DIR/previous             symlink to the index current named before
//	DIR/index-<unixnano>/    one complete index: Bleve's files plus
//	DIR/index-…/talksearch.json  our manifest (versions, hash, file sizes and sums)
//
// Each index directory is a generation: read-only servers of DIR
// (OpenGeneration) take no lock and may still be on the previous one when
// a rebuild switches current, so a rebuild removes every index directory
// but the new one and the one it replaced (DIR/previous); an older one
// goes at the next rebuild. A server still on it reads on, as its files
// are unlinked, not overwritten, but one that had not opened it yet fails
// to, and keeps what it serves.
//
// A rebuild writes a new index-* directory, closes it, writes its manifest,
// then renames a new symlink over "current": the switch is atomic, so a
// crash at any point leaves "current" on a complete index (or absent). The
// manifest is written last; an index without one, or whose files differ
// from it, is never used. Indexes are opened read-only so a reused index
// stays byte-identical to its manifest.
const (
	currentLink  = "current"
	previousLink = "previous"
	manifestName = "talksearch.json"
	indexPrefix  = "index-"
)

// OpenReport says what Open did, for the caller to log.
type OpenReport struct {
	Path   string        // the index directory in use
	Reused bool          // true if an existing index was reused
	Reason string        // why it was (re)built: "no index yet", "content changed", …
	Docs   uint64        // documents in the index
	Took   time.Duration // time spent checking, building and opening
	// Cleanup is a failure to remove an old index after the switch; the
	// index returned is fine, the disk holds a leftover.
	Cleanup error
}

// manifest is what a persisted index must match to be reused.
type manifest struct {
	MappingVersion int              `json:"mapping_version"`
	ContentHash    string           `json:"content_hash"`
	Docs           uint64           `json:"docs"`
	Built          time.Time        `json:"built"`
	Files          map[string]entry `json:"files"`
	// Sources are the seed files each talk was read from (Talk.ReadFrom),
	// by talk id: what the next start compares its seeds with, so a
	// deleted seed file that held the only copy of some talks is noticed
	// (PersistedSources).
	Sources map[string][]string `json:"sources,omitempty"`
}

type entry struct {
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// ContentHash identifies a list of talks: any change to any field of any
// talk (ReadFrom too, which the manifest records), or to their order,
// changes it. Talks are encoded one at a time:
// encoding the slice at once buffers its whole JSON (and up to twice that
// while the buffer grows) before hashing it, which at 100k talks is a
// large share of the process's memory.
func ContentHash(talks []Talk) (string, error) { return contentHash(Whole(talks)) }

// contentHash is ContentHash of the talks whole: a Slim corpus hashes as
// the same talks held whole do, so either reuses the other's index.
func contentHash(talks Slim) (string, error) {
	h := sha256.New()
	enc := json.NewEncoder(h)
	var err error
	talks.Each(func(_ int, t *Talk) {
		if err != nil {
			return
		}
		if err = enc.Encode(t); err == nil {
			err = enc.Encode(t.ReadFrom)
		}
		if err != nil {
			err = fmt.Errorf("hash talk %s: %w", t.ID, err)
		}
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Open returns the index of talks persisted under dir, reusing the one
// there when it was built from the same talks (ContentHash) with the same
// MappingVersion and its files are intact, and building a new one otherwise.
// The index is read-only; SidecarOf gives the directory where what is derived
// from its talks may be kept. A dir that cannot be written is an error only when
// a build is needed. Directories left by a crashed build are removed.
//
// One process at a time may Open a dir (calls must not overlap): a build
// in progress looks like a crashed one to another caller. Open fails,
// wrapping ErrLocked and removing nothing, when another process holds the
// dir (Lock); a process that serves from dir should Lock it for as long as
// it serves, and Open then uses that lock. An index replaced while still
// open stays readable until closed (its files are unlinked, not
// overwritten).
func Open(dir string, talks []Talk) (bleve.Index, OpenReport, error) {
	return OpenWithProgress(dir, talks, nil)
}

// OpenWithProgress is Open telling p (if not nil) how far a rebuild is.
func OpenWithProgress(dir string, talks []Talk, p Progress) (bleve.Index, OpenReport, error) {
	return OpenContext(context.Background(), dir, talks, p)
}

// OpenContext is OpenWithProgress whose rebuild ends early once ctx is
// done (see BuildContext), leaving dir as it was.
func OpenContext(ctx context.Context, dir string, talks []Talk, p Progress) (bleve.Index, OpenReport, error) {
	return OpenSlim(ctx, dir, Whole(talks), p)
}

// OpenSlim is OpenContext for a corpus whose texts may be in a store
// (BuildSlim); it reuses an index built from the same talks whole.
func OpenSlim(ctx context.Context, dir string, talks Slim, p Progress) (bleve.Index, OpenReport, error) {
	began := time.Now()
	st, err := stage(ctx, dir, talks, p)
	if err != nil {
		return nil, st.Report, err
	}
	if err := st.Publish(); err != nil {
		st.Index.Close()
		return nil, st.Report, err
	}
	st.Report.Took = time.Since(began)
	return st.Index, st.Report, nil
}

// Staged is an index Stage reused or built. A built one is not yet the one
// DIR/current names: its writer may keep what it derives in its sidecar
// first, so that servers of the directory (OpenGeneration) find it whole
// when they see it. Publish or Abandon it.
type Staged struct {
	Index  bleve.Index // open, read-only, with its sidecar (SidecarOf)
	Report OpenReport
	dir    string
	built  string // the new index's path; "" when reused
	unlock func() // the lock Stage took, if any
}

// Stage is Open without the switch to a built index: Publish makes it
// current. The directory stays locked (when Stage locked it) until
// Publish or Abandon. On error, Report says what Stage found and nothing
// is left to publish. A build ends early once ctx is done (BuildContext),
// leaving dir as it was.
func Stage(ctx context.Context, dir string, talks []Talk, p Progress) (*Staged, error) {
	return stage(ctx, dir, Whole(talks), p)
}

func stage(ctx context.Context, dir string, talks Slim, p Progress) (*Staged, error) {
	began := time.Now()
	st := &Staged{dir: dir}
	if !lockedHere(dir) {
		l, err := Lock(dir)
		if err != nil {
			return st, err
		}
		st.unlock = func() { l.Unlock() }
	}
	fail := func(err error) (*Staged, error) {
		st.release()
		return st, err
	}
	rep := &st.Report
	// The talks are hashed while the index there is checked and opened:
	// on a restart both take about as long.
	var (
		hash    string
		hashErr error
	)
	hashed := make(chan struct{})
	go func() {
		defer close(hashed)
		hash, hashErr = contentHash(talks)
	}()
	idx, path, reason := reuse(dir, func() (string, error) { <-hashed; return hash, hashErr })
	<-hashed
	if hashErr != nil {
		if idx != nil {
			idx.Close()
		}
		return fail(hashErr)
	}
	if idx != nil {
		rep.Path, rep.Reused = path, true
		rep.Docs, _ = idx.DocCount()
		if hasStale(dir) {
			rep.Cleanup = removeStale(dir) // left by a build that crashed
		}
		rep.Took = time.Since(began)
		st.Index = &persistedIndex{bleveIndex: idx, sidecar: newSidecar(path, hash)}
		return st, nil
	}
	rep.Reason = reason
	path, err := buildPersisted(ctx, dir, talks, hash, p)
	if err != nil {
		return fail(fmt.Errorf("rebuild index in %s (%s): %w", dir, reason, diskError(dir, err)))
	}
	idx, err = openReadOnly(path)
	if err != nil {
		os.RemoveAll(path)
		return fail(fmt.Errorf("open rebuilt index %s: %w", path, err))
	}
	rep.Path, st.built = path, path
	rep.Docs, _ = idx.DocCount()
	rep.Took = time.Since(began)
	st.Index = &persistedIndex{bleveIndex: idx, sidecar: newSidecar(path, hash)}
	return st, nil
}

// Publish makes a built index the one DIR/current names, keeps the one it
// replaces (DIR/previous) and removes older ones (Report.Cleanup says what
// could not be); a reused index is current already. On error the built
// index is removed (Index stays readable until closed) and current is as
// it was.
func (st *Staged) Publish() error {
	defer st.release()
	if st.built == "" {
		return nil
	}
	name := filepath.Base(st.built)
	prev, err := switchCurrent(st.dir, name)
	if err != nil {
		os.RemoveAll(st.built)
		return fmt.Errorf("switch index in %s to %s: %w", st.dir, name, diskError(st.dir, err))
	}
	if err := linkPrevious(st.dir, prev); err != nil {
		// Without the link, the replaced index cannot be told from a
		// crashed build: it stays until the next rebuild.
		st.Report.Cleanup = fmt.Errorf("keep the replaced index %s: %w", prev, err)
	} else {
		st.Report.Cleanup = removeStale(st.dir)
	}
	return nil
}

// Abandon removes a built index without publishing it (Index stays
// readable until closed, which is the caller's).
func (st *Staged) Abandon() {
	defer st.release()
	if st.built != "" {
		os.RemoveAll(st.built)
	}
}

func (st *Staged) release() {
	if st.unlock != nil {
		st.unlock()
		st.unlock = nil
	}
}

// reuse opens the current index if it matches the talks whose content
// hash hashOf gives; otherwise it says why not.
func reuse(dir string, hashOf func() (string, error)) (bleve.Index, string, string) {
	target, err := os.Readlink(filepath.Join(dir, currentLink))
	if err != nil {
		return nil, "", "no index yet"
	}
	path := filepath.Join(dir, filepath.Base(target))
	m, err := readManifest(path)
	switch {
	case err != nil:
		return nil, "", fmt.Sprintf("index %s unusable: %v", filepath.Base(path), err)
	case m.MappingVersion != MappingVersion:
		return nil, "", fmt.Sprintf("mapping version %d, want %d", m.MappingVersion, MappingVersion)
	}
	if err := m.verify(path); err != nil {
		return nil, "", fmt.Sprintf("index %s corrupted: %v", filepath.Base(path), err)
	}
	idx, err := openReadOnly(path)
	if err != nil {
		return nil, "", fmt.Sprintf("index %s corrupted: %v", filepath.Base(path), err)
	}
	if n, err := idx.DocCount(); err != nil || n != m.Docs {
		idx.Close()
		return nil, "", fmt.Sprintf("index %s corrupted: %d documents, manifest says %d (%v)", filepath.Base(path), n, m.Docs, err)
	}
	if hash, err := hashOf(); err != nil || m.ContentHash != hash {
		idx.Close()
		return nil, "", "content changed"
	}
	return idx, path, ""
}

// PersistedSources returns the seed files of each talk (by id) of the
// index dir serves, as its manifest records them; ok is false when dir
// holds no index, or one whose manifest is unreadable or older than this
// record.
func PersistedSources(dir string) (sources map[string][]string, ok bool) {
	target, err := os.Readlink(filepath.Join(dir, currentLink))
	if err != nil {
		return nil, false
	}
	m, err := readManifest(filepath.Join(dir, filepath.Base(target)))
	if err != nil || m.Sources == nil {
		return nil, false
	}
	return m.Sources, true
}

func openReadOnly(path string) (bleve.Index, error) {
	return bleve.OpenUsing(path, map[string]interface{}{"read_only": true})
}

// buildPersisted writes a complete index of talks and its manifest into a
// new directory of dir and returns its path. On any error, a failed write
// (a full or read-only disk, an I/O error) or a panic of Bleve's after one,
// it removes everything it wrote and leaves the rest of dir as it was.
func buildPersisted(ctx context.Context, dir string, talks Slim, hash string, p Progress) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, indexPrefix+strconv.FormatInt(time.Now().UnixNano(), 10))
	docs, err := buildCompact(ctx, path, talks, p)
	if err != nil {
		os.RemoveAll(path)
		return "", err
	}
	m := manifest{MappingVersion: MappingVersion, ContentHash: hash, Docs: docs, Built: time.Now().UTC(), Sources: make(map[string][]string, talks.Len())}
	for _, t := range talks.Talks {
		m.Sources[t.ID] = t.ReadFrom
	}
	if m.Files, err = sumFiles(path); err != nil {
		os.RemoveAll(path)
		return "", err
	}
	if err := writeManifest(path, m); err != nil {
		os.RemoveAll(path)
		return "", err
	}
	return path, nil
}

// switchCurrent points DIR/current at name by renaming a new symlink over
// it, which is atomic, and returns the name it pointed at before ("" for
// none). On error DIR/current is as it was: the caller removes name, so
// current must not be left on it.
func switchCurrent(dir, name string) (string, error) {
	link := filepath.Join(dir, currentLink)
	prev, prevErr := os.Readlink(link)
	if err := replaceLink(dir, currentLink, name); err != nil {
		return "", err
	}
	if err := syncDir(dir); err != nil {
		// The switch may not be on disk; the new index is about to be
		// removed, so current goes back to the index it named.
		if prevErr == nil {
			err = errors.Join(err, replaceLink(dir, currentLink, prev))
		} else {
			err = errors.Join(err, os.Remove(link))
		}
		return "", err
	}
	if prevErr != nil {
		return "", nil
	}
	return filepath.Base(prev), nil
}

// linkPrevious makes DIR/previous name prev, the index current named
// before a switch, which removeStale keeps; with no prev it removes the
// link, whose index is now older than the previous one.
func linkPrevious(dir, prev string) error {
	if prev == "" {
		if err := os.Remove(filepath.Join(dir, previousLink)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	return replaceLink(dir, previousLink, prev)
}

// replaceLink makes DIR/name a symlink to target, atomically.
func replaceLink(dir, name, target string) error {
	tmp := filepath.Join(dir, name+".tmp")
	os.Remove(tmp)
	if err := os.Symlink(target, tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// diskProblems are the errors of a write that the disk refused, with what
// to call them. Bleve formats the errors it passes on with %v, which
// loses the errno, so they are also recognised by its text.
var diskProblems = []struct {
	errno syscall.Errno
	what  string
}{
	{syscall.ENOSPC, "is full"},
	{syscall.EDQUOT, "is over quota"},
	{syscall.EROFS, "is read-only"},
	{syscall.EIO, "failed (I/O error)"},
}

// diskError names the disk problem behind err, a failed write under dir:
// "the disk of DIR is full (12 KiB free): …". The error wraps both err
// and the errno, so errors.Is(err, syscall.ENOSPC) holds even where Bleve
// dropped it from the chain. Other errors are returned as they are.
func diskError(dir string, err error) error {
	if err == nil {
		return nil
	}
	for _, p := range diskProblems {
		if errors.Is(err, p.errno) || strings.Contains(err.Error(), p.errno.Error()) {
			what := p.what
			if free, ok := freeSpace(dir); ok && (p.errno == syscall.ENOSPC || p.errno == syscall.EDQUOT) {
				what += fmt.Sprintf(" (%s free)", free)
			}
			return &DiskError{Dir: dir, Errno: p.errno, msg: "the disk of " + dir + " " + what, err: err}
		}
	}
	return err
}

// DiskError is a write under Dir that the disk refused (Errno: ENOSPC,
// EDQUOT, EROFS or EIO).
type DiskError struct {
	Dir   string
	Errno syscall.Errno
	msg   string
	err   error
}

func (e *DiskError) Error() string   { return e.msg + ": " + e.err.Error() }
func (e *DiskError) Unwrap() []error { return []error{e.err, e.Errno} }

// freeSpace is the space left to this process on dir's file system, in
// the largest unit that keeps it above 1.
func freeSpace(dir string) (string, bool) {
	var st unix.Statfs_t
	for d := dir; ; d = filepath.Dir(d) {
		if unix.Statfs(d, &st) == nil {
			break
		}
		if d == filepath.Dir(d) {
			return "", false
		}
	}
	n := st.Bavail * uint64(st.Bsize)
	switch {
	case n >= 10<<30:
		return fmt.Sprintf("%d GiB", n>>30), true
	case n >= 10<<20:
		return fmt.Sprintf("%d MiB", n>>20), true
	case n >= 10<<10:
		return fmt.Sprintf("%d KiB", n>>10), true
	}
	return fmt.Sprintf("%d bytes", n), true
}

// kept are the index directories of dir that current and previous name.
func kept(dir string) map[string]bool {
	keep := map[string]bool{}
	for _, link := range []string{currentLink, previousLink} {
		if target, err := os.Readlink(filepath.Join(dir, link)); err == nil {
			keep[filepath.Base(target)] = true
		}
	}
	return keep
}

// removeStale removes every index directory of dir but those current and
// previous name: older generations and any left by a crashed build.
func removeStale(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	keep := kept(dir)
	var errs []error
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), indexPrefix) && !keep[e.Name()] {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// hasStale says whether dir holds index directories removeStale removes.
func hasStale(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	keep := kept(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), indexPrefix) && !keep[e.Name()] {
			return true
		}
	}
	return false
}

func sumFiles(root string) (map[string]entry, error) {
	files := map[string]entry{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && p == filepath.Join(root, sidecarDir) {
			return fs.SkipDir // written after the manifest (sidecar.go)
		}
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		if rel == manifestName {
			return nil
		}
		e, err := sumFile(p)
		files[filepath.ToSlash(rel)] = e
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("checksum index files: %w", err)
	}
	return files, nil
}

func sumFile(p string) (entry, error) {
	f, err := os.Open(p)
	if err != nil {
		return entry{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	return entry{Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, err
}

// verify checks that the index files are exactly those of the manifest.
func (m manifest) verify(path string) error {
	got, err := sumFiles(path)
	if err != nil {
		return err
	}
	for name, want := range m.Files {
		e, ok := got[name]
		switch {
		case !ok:
			return fmt.Errorf("file %s missing", name)
		case e.Size != want.Size:
			return fmt.Errorf("file %s has %d bytes, want %d", name, e.Size, want.Size)
		case e.SHA256 != want.SHA256:
			return fmt.Errorf("file %s changed", name)
		}
	}
	for name := range got {
		if _, ok := m.Files[name]; !ok {
			return fmt.Errorf("unexpected file %s", name)
		}
	}
	return nil
}

func readManifest(path string) (manifest, error) {
	var m manifest
	data, err := os.ReadFile(filepath.Join(path, manifestName))
	if err != nil {
		return m, fmt.Errorf("read manifest: %w", err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("parse manifest: %w", err)
	}
	return m, nil
}

// writeManifest writes and syncs the manifest; it is the index's mark of
// completeness, so it must be on disk before the switch.
func writeManifest(path string, m manifest) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("encode manifest: %w", err)
	}
	f, err := os.Create(filepath.Join(path, manifestName))
	if err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write manifest: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("sync manifest: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close manifest: %w", err)
	}
	return syncDir(path)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/blevesearch/bleve/v2"
)

// Generation is one published index of a directory (an index-* directory
// that DIR/current named), as a read-only server sees it.
type Generation struct {
	Name  string    // "index-<unixnano>"
	Path  string    // DIR/index-<unixnano>
	Built time.Time // when its build finished (its manifest)
	Docs  uint64
}

// ErrNoGeneration wraps the error of CurrentGeneration and OpenGeneration
// on a directory that holds no published index.
var ErrNoGeneration = errors.New("no index published")

// CurrentGeneration names the generation DIR/current points at. It reads
// one symlink and nothing else, so a server may call it every second to
// notice a rebuild. The link is switched only once the generation is
// complete (Open), so a name it returns is never one being written.
func CurrentGeneration(dir string) (string, error) {
	target, err := os.Readlink(filepath.Join(dir, currentLink))
	if err != nil {
		return "", fmt.Errorf("%s: %w: %w", dir, ErrNoGeneration, err)
	}
	return filepath.Base(target), nil
}

// OpenGeneration opens the generation name of dir (CurrentGeneration) for
// a server that shares dir with a writer and other servers: it takes no
// lock and writes nothing into dir. The generation is checked as Open
// checks an index before reusing it (its manifest, mapping version, every
// file's size and SHA-256, its document count): a damaged one, or one a
// writer removed meanwhile, is an error, and the caller keeps what it
// serves. The index's sidecar (SidecarOf) reads what the writer kept and
// keeps nothing: its Save fails with ErrReadOnly.
func OpenGeneration(dir, name string) (bleve.Index, Generation, error) {
	path := filepath.Join(dir, filepath.Base(name))
	g := Generation{Name: filepath.Base(name), Path: path}
	m, err := readManifest(path)
	if err != nil {
		return nil, g, fmt.Errorf("generation %s: %w", g.Name, err)
	}
	if m.MappingVersion != MappingVersion {
		return nil, g, fmt.Errorf("generation %s: mapping version %d, want %d (built by another version of the program)", g.Name, m.MappingVersion, MappingVersion)
	}
	if err := m.verify(path); err != nil {
		return nil, g, fmt.Errorf("generation %s: %w", g.Name, err)
	}
	idx, err := openReadOnly(path)
	if err != nil {
		return nil, g, fmt.Errorf("generation %s: open: %w", g.Name, err)
	}
	if n, err := idx.DocCount(); err != nil || n != m.Docs {
		idx.Close()
		return nil, g, fmt.Errorf("generation %s: %d documents, manifest says %d (%v)", g.Name, n, m.Docs, err)
	}
	g.Built, g.Docs = m.Built, m.Docs
	sc := newSidecar(path, m.ContentHash)
	sc.readOnly = true
	return &persistedIndex{bleveIndex: idx, sidecar: sc}, g, nil
}

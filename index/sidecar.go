package index

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
)

// A persisted index keeps, beside Bleve's files, what the packages above
// index derive from its talks (the ingested corpus, the engine's
// vocabulary and thesaurus), so that a restart reads them rather than
// deriving them again:
//
//	DIR/index-…/sidecar/NAME  SHA-256 of the rest, then a gob header and value
//
// A sidecar belongs to its index directory: it goes when a rebuild removes
// that directory, and the manifest's checksums leave it out (it is written
// after the manifest, by another package). It is trusted only when its
// checksum holds and its header names the same value, key, talks
// (ContentHash), MappingVersion and program build: a new binary may derive
// differently, so it derives again rather than read what an older one kept.
const sidecarDir = "sidecar"

// ErrSidecarStale wraps the error of Sidecar.Load for a sidecar written for
// other talks, another key or another build of the program: not an error
// of the disk, only a value to derive again.
var ErrSidecarStale = errors.New("sidecar is stale")

// ErrReadOnly is the error of Save on the sidecar of an index opened by
// OpenGeneration, whose directory belongs to its writer.
var ErrReadOnly = errors.New("read-only: kept by the index's writer only")

// Sidecar is where values derived from the talks of one persisted index
// are kept. Its methods are safe for concurrent use.
type Sidecar struct {
	dir         string // DIR/index-…/sidecar
	contentHash string // ContentHash of the index's talks
	readOnly    bool   // OpenGeneration's: Save keeps nothing
}

// sidecarHeader is what a sidecar must match to be read.
type sidecarHeader struct {
	Name           string
	Key            string
	ContentHash    string
	MappingVersion int
	Build          string
}

// persistedIndex is an index opened by Open: it carries its sidecar.
type persistedIndex struct {
	bleveIndex
	sidecar *Sidecar
}

// SidecarOf returns the sidecar of an index that Open returned, nil for any
// other index (in memory: nothing outlives the process).
func SidecarOf(idx bleve.Index) *Sidecar {
	if p, ok := idx.(*persistedIndex); ok {
		return p.sidecar
	}
	return nil
}

// CurrentSidecar returns the sidecar of the index dir currently serves (as
// Open would reuse it or not), for what is read before Open can be called:
// the talks themselves, kept by the sources' key. It fails when dir holds
// no index or one whose manifest is unreadable.
func CurrentSidecar(dir string) (*Sidecar, error) {
	target, err := os.Readlink(filepath.Join(dir, currentLink))
	if err != nil {
		return nil, fmt.Errorf("no index in %s: %w", dir, err)
	}
	path := filepath.Join(dir, filepath.Base(target))
	m, err := readManifest(path)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", path, err)
	}
	return newSidecar(path, m.ContentHash), nil
}

func newSidecar(indexPath, contentHash string) *Sidecar {
	return &Sidecar{dir: filepath.Join(indexPath, sidecarDir), contentHash: contentHash}
}

// Load decodes the value kept under name into v, a pointer. key is the
// caller's own condition on the value ("" for none; for the ingested talks,
// the sources' hash). An absent sidecar is an error wrapping
// fs.ErrNotExist, a stale one ErrSidecarStale; any other error is a damaged
// file. Whatever the error, v is to be derived again (and Saved).
func (s *Sidecar) Load(name, key string, v any) error {
	return s.load(name, key, false, v)
}

// LoadAnyKey is Load whatever key the value was saved under: for a server
// that reads the talks its writer kept without the writer's sources (serve
// --read-only). The value must still be for the index's talks, mapping
// version and program build.
func (s *Sidecar) LoadAnyKey(name string, v any) error {
	return s.load(name, "", true, v)
}

func (s *Sidecar) load(name, key string, anyKey bool, v any) error {
	data, err := os.ReadFile(filepath.Join(s.dir, name))
	if err != nil {
		return fmt.Errorf("sidecar %s: %w", name, err)
	}
	if len(data) < sha256.Size {
		return fmt.Errorf("sidecar %s: %d bytes, truncated", name, len(data))
	}
	body := data[sha256.Size:]
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], data[:sha256.Size]) {
		return fmt.Errorf("sidecar %s: checksum mismatch (damaged file)", name)
	}
	dec := gob.NewDecoder(bytes.NewReader(body))
	var h sidecarHeader
	if err := dec.Decode(&h); err != nil {
		return fmt.Errorf("sidecar %s: header: %w", name, err)
	}
	want := s.header(name, key)
	switch {
	case h.Name != want.Name:
		return fmt.Errorf("sidecar %s holds %q: %w", name, h.Name, ErrSidecarStale)
	case h.ContentHash != want.ContentHash:
		return fmt.Errorf("sidecar %s: written for other talks: %w", name, ErrSidecarStale)
	case h.MappingVersion != want.MappingVersion:
		return fmt.Errorf("sidecar %s: mapping version %d, want %d: %w", name, h.MappingVersion, want.MappingVersion, ErrSidecarStale)
	case h.Build != want.Build:
		return fmt.Errorf("sidecar %s: written by another build of the program: %w", name, ErrSidecarStale)
	case h.Key != want.Key && !anyKey:
		return fmt.Errorf("sidecar %s: key changed: %w", name, ErrSidecarStale)
	}
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("sidecar %s: decode: %w", name, err)
	}
	return nil
}

// Save keeps v under name and key, replacing what was kept there: written
// to a temporary file and renamed over it, so a crash leaves the old
// sidecar, the new one or none, never a part of one.
func (s *Sidecar) Save(name, key string, v any) error {
	if s.readOnly {
		return fmt.Errorf("sidecar %s: %w", name, ErrReadOnly)
	}
	var body bytes.Buffer
	enc := gob.NewEncoder(&body)
	if err := enc.Encode(s.header(name, key)); err != nil {
		return fmt.Errorf("sidecar %s: encode header: %w", name, err)
	}
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("sidecar %s: encode: %w", name, err)
	}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return fmt.Errorf("sidecar %s: %w", name, diskError(s.dir, err))
	}
	f, err := os.CreateTemp(s.dir, "."+name+".tmp-*")
	if err != nil {
		return fmt.Errorf("sidecar %s: %w", name, diskError(s.dir, err))
	}
	sum := sha256.Sum256(body.Bytes())
	w := bufio.NewWriter(f)
	w.Write(sum[:])
	w.Write(body.Bytes())
	err = errors.Join(w.Flush(), f.Sync(), f.Close())
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(s.dir, name))
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("sidecar %s: write: %w", name, diskError(s.dir, err))
	}
	return nil
}

func (s *Sidecar) header(name, key string) sidecarHeader {
	return sidecarHeader{Name: name, Key: key, ContentHash: s.contentHash, MappingVersion: MappingVersion, Build: programBuild()}
}

// programBuild identifies the running program's code: its Go build ID
// (which changes with any of its sources), or, where the binary has none,
// the SHA-256 of the executable. A program that cannot read itself gets an
// identity of its own process: it trusts no sidecar, only its own.
var programBuild = sync.OnceValue(func() string {
	unidentified := fmt.Sprintf("unidentified:%d:%d", os.Getpid(), time.Now().UnixNano())
	exe, err := os.Executable()
	if err != nil {
		return unidentified
	}
	f, err := os.Open(exe)
	if err != nil {
		return unidentified
	}
	defer f.Close()
	if id := readBuildID(f); id != "" {
		return "buildid:" + id
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, 1<<62)); err != nil {
		return unidentified
	}
	return fmt.Sprintf("sha256:%x", h.Sum(nil))
})

// readBuildID returns the build ID the Go linker writes into a binary: an
// ELF note (.note.go.buildid) on ELF systems, otherwise the string
// `\xff Go build ID: "…"\n \xff` near the start of the text (where
// cmd/internal/buildid reads them). "" when there is none.
func readBuildID(f *os.File) string {
	if ef, err := elf.NewFile(f); err == nil {
		sec := ef.Section(".note.go.buildid")
		if sec == nil {
			return ""
		}
		note, err := sec.Data()
		// namesz, descsz, type, then the name "Go\x00\x00" and the ID.
		if err != nil || len(note) < 16 || string(note[12:16]) != "Go\x00\x00" {
			return ""
		}
		n := int(ef.ByteOrder.Uint32(note[4:8]))
		if 16+n > len(note) {
			return ""
		}
		return string(note[16 : 16+n])
	}
	const prefix, suffix = "\xff Go build ID: \"", "\"\n \xff"
	head := make([]byte, 32<<10)
	n, _ := f.ReadAt(head, 0)
	head = head[:n]
	i := bytes.Index(head, []byte(prefix))
	if i < 0 {
		return ""
	}
	rest := head[i+len(prefix):]
	j := bytes.Index(rest, []byte(suffix))
	if j <= 0 {
		return ""
	}
	return string(rest[:j])
}

package index

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// TextStore keeps the long texts of a list of talks, their abstracts and
// descriptions, out of the Go heap: a search engine needs them only for the
// talks it shows (highlights, a talk's page, its related talks), and held
// as strings they are most of a large corpus's heap, which the garbage
// collector then lets grow to twice their size.
//
// The texts are written once to a temporary file that is mapped read-only
// and unlinked at once: the pages are the kernel's page cache, read into
// the process only when a text is read, and dropped under memory pressure.
// Texts too small to be worth a file (MapTextMin) stay in one byte slice.
//
// Every text read is a copy on the Go heap, so what a caller keeps never
// points into the mapping, and Close may unmap it while results made from
// it live on. A TextStore is safe for concurrent reads; Close must come
// after the last read.
type TextStore struct {
	data   []byte
	mapped bool
	// offs are where each text starts in data, two per talk (abstract,
	// description), then the end of the last one.
	offs    []uint64
	closeMu sync.Once
	// MapErr is why texts large enough to map are on the heap instead
	// (the temporary file could not be written or mapped); nil otherwise.
	MapErr error
}

// MapTextMin is the size of the texts from which a TextStore maps them
// from a file rather than keeping them on the heap.
var MapTextMin = 1 << 20

// NewTextStore writes the abstracts and descriptions of talks, in their
// order, to a new store; dir is where its file is created ("" is the
// system's temporary directory).
func NewTextStore(dir string, talks []Talk) *TextStore {
	s := &TextStore{offs: make([]uint64, 0, 2*len(talks)+1)}
	var size uint64
	for i := range talks {
		s.offs = append(s.offs, size)
		size += uint64(len(talks[i].Abstract))
		s.offs = append(s.offs, size)
		size += uint64(len(talks[i].Description))
	}
	s.offs = append(s.offs, size)
	if size > 0 && size >= uint64(MapTextMin) {
		// A temporary directory that cannot take the file (full, read
		// only) costs memory, not the start: the texts stay on the heap,
		// as a small corpus's do, and MapErr says why.
		data, err := mapTexts(dir, talks, size)
		if err == nil {
			s.data, s.mapped = data, true
			return s
		}
		s.MapErr = fmt.Errorf("talk texts kept on the heap: %w", err)
	}
	s.data = make([]byte, 0, size)
	for i := range talks {
		s.data = append(s.data, talks[i].Abstract...)
		s.data = append(s.data, talks[i].Description...)
	}
	return s
}

// mapTexts writes the texts to an unlinked temporary file of size bytes
// and maps it.
func mapTexts(dir string, talks []Talk, size uint64) ([]byte, error) {
	if uint64(int(size)) != size {
		return nil, errors.New("too large to map")
	}
	f, err := os.CreateTemp(dir, "talksearch-texts-")
	if err != nil {
		return nil, err
	}
	// The mapping outlives the name and the descriptor: nothing is left
	// on disk once the store is closed, or the process ends.
	defer f.Close()
	defer os.Remove(f.Name())
	w := bufio.NewWriterSize(f, 1<<20)
	for i := range talks {
		w.WriteString(talks[i].Abstract)
		w.WriteString(talks[i].Description)
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
}

// Len is the number of talks in the store.
func (s *TextStore) Len() int { return (len(s.offs) - 1) / 2 }

// Abstract is talk i's abstract.
func (s *TextStore) Abstract(i int) string { return s.text(2 * i) }

// Description is talk i's description.
func (s *TextStore) Description(i int) string { return s.text(2*i + 1) }

func (s *TextStore) text(k int) string {
	return string(s.data[s.offs[k]:s.offs[k+1]]) // a copy
}

// Fill sets t's abstract and description to those of talk i.
func (s *TextStore) Fill(i int, t *Talk) {
	t.Abstract, t.Description = s.Abstract(i), s.Description(i)
}

// Close unmaps the texts. It is safe to call more than once.
func (s *TextStore) Close() error {
	var err error
	s.closeMu.Do(func() {
		if s.mapped {
			err = unix.Munmap(s.data)
		}
		s.data = nil
	})
	return err
}

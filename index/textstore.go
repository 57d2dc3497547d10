package index

import (
	"bufio"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"unsafe"
)

// TextStore keeps the long texts of a list of talks, their abstracts and
// descriptions, out of the Go heap: a search engine needs them only for the
// talks it shows (highlights, a talk's page, its related talks), and held
// as strings they are most of a large corpus's heap, which the garbage
// collector then lets grow to twice their size.
//
// The texts are written once to a temporary file, unlinked at once and
// read back with pread: they stay in the kernel's page cache, which serves
// every process and is dropped under memory pressure, and never count in
// the process's resident memory. (A mapping would: each text read faults
// in the pages around it, and a talk's related talks read hundreds.)
// Texts too small to be worth a file (FileTextMin) stay in one byte slice.
//
// Every text read from the file is a copy on the Go heap, so what a caller
// keeps never depends on the file, and Close may close it while results
// made from it live on. A small corpus's texts, kept on the heap, are read
// in place: those bytes are never changed once stored, and a search's hits
// read a dozen abstracts that a copy each would make the largest of its
// garbage. A TextStore is safe for concurrent reads; Close must come
// after the last read.
type TextStore struct {
	data []byte   // the texts, when not in a file
	file *os.File // the texts, when in one
	// offs are where each text starts, two per talk (abstract,
	// description), then the end of the last one.
	offs    []uint64
	closeMu sync.Once
	// FileErr is why texts large enough for a file are on the heap
	// instead (the temporary file could not be written); nil otherwise.
	FileErr error
	// readErrs counts the texts the file failed to give back.
	readErrs atomic.Int64
}

// FileTextMin is the size of the texts from which a TextStore keeps them
// in a file rather than on the heap.
var FileTextMin = 1 << 20

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
	if size > 0 && size >= uint64(FileTextMin) {
		// A temporary directory that cannot take the file (full, read
		// only) costs memory, not the start: the texts stay on the heap,
		// as a small corpus's do, and FileErr says why.
		f, err := writeTexts(dir, talks)
		if err == nil {
			s.file = f
			return s
		}
		s.FileErr = fmt.Errorf("talk texts kept on the heap: %w", err)
	}
	s.data = make([]byte, 0, size)
	for i := range talks {
		s.data = append(s.data, talks[i].Abstract...)
		s.data = append(s.data, talks[i].Description...)
	}
	return s
}

// writeTexts writes the texts to an unlinked temporary file, open for
// reading.
func writeTexts(dir string, talks []Talk) (*os.File, error) {
	f, err := os.CreateTemp(dir, "talksearch-texts-")
	if err != nil {
		return nil, err
	}
	// The descriptor outlives the name: nothing is left on disk once the
	// store is closed, or the process ends.
	os.Remove(f.Name())
	w := bufio.NewWriterSize(f, 1<<20)
	for i := range talks {
		w.WriteString(talks[i].Abstract)
		w.WriteString(talks[i].Description)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Len is the number of talks in the store.
func (s *TextStore) Len() int { return (len(s.offs) - 1) / 2 }

// Abstract is talk i's abstract.
func (s *TextStore) Abstract(i int) string { return s.text(2 * i) }

// Description is talk i's description.
func (s *TextStore) Description(i int) string { return s.text(2*i + 1) }

// text is text k: of the heap's bytes, or a copy of the file's; one the
// file fails to give back (an I/O error of the temporary directory) is
// empty, and counted (ReadErrors).
func (s *TextStore) text(k int) string {
	from, to := s.offs[k], s.offs[k+1]
	if from == to {
		return ""
	}
	if s.file == nil {
		if s.FileErr != nil {
			// A large corpus's texts, on the heap only because the file
			// failed: a copy, so that a result kept after a re-index does
			// not keep all of them.
			return string(s.data[from:to])
		}
		return unsafe.String(&s.data[from], int(to-from))
	}
	b := make([]byte, to-from)
	if _, err := s.file.ReadAt(b, int64(from)); err != nil {
		s.readErrs.Add(1)
		return ""
	}
	return unsafe.String(&b[0], len(b)) // b is this string's alone
}

// ReadErrors is the number of texts the store's file failed to give back.
func (s *TextStore) ReadErrors() int64 { return s.readErrs.Load() }

// Fill sets t's abstract and description to those of talk i.
func (s *TextStore) Fill(i int, t *Talk) {
	t.Abstract, t.Description = s.Abstract(i), s.Description(i)
}

// Close closes the texts' file. It is safe to call more than once.
func (s *TextStore) Close() error {
	var err error
	s.closeMu.Do(func() {
		if s.file != nil {
			err = s.file.Close()
		}
		s.data = nil
	})
	return err
}

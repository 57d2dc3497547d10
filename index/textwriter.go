package index

import (
	"fmt"
	"os"
)

// TextWriter makes a TextStore one talk at a time, for a corpus read as a
// stream: the caller keeps each talk without its abstract and description
// (a Slim corpus), so the texts of a large corpus are never all on the Go
// heap at once. The store it makes reads as NewTextStore's of the same
// talks would: the same texts at the same positions, in a file once they
// reach FileTextMin, on the heap below it or when no file can hold them
// (FileErr).
type TextWriter struct {
	dir  string
	offs []uint64
	size uint64
	// buf holds the texts not yet written to f; all of them while f is
	// nil (a corpus whose texts stay under FileTextMin, or no file).
	buf []byte
	f   *os.File
	// written is how many bytes of the texts f holds.
	written uint64
	fileErr error
	// err is texts lost: the file failed and could not be read back.
	err error
}

// textWriteChunk is how much of the texts a TextWriter buffers between
// writes to its file.
var textWriteChunk = 1 << 20

// NewTextWriter starts a store whose file, if its texts need one, is
// created in dir ("" is the system's temporary directory).
func NewTextWriter(dir string) *TextWriter { return &TextWriter{dir: dir} }

// Add appends the next talk's abstract and description.
func (w *TextWriter) Add(abstract, description string) {
	w.offs = append(w.offs, w.size)
	w.size += uint64(len(abstract))
	w.offs = append(w.offs, w.size)
	w.size += uint64(len(description))
	w.buf = append(w.buf, abstract...)
	w.buf = append(w.buf, description...)
	if w.fileErr != nil {
		return // the heap keeps them
	}
	if w.f == nil && w.size >= uint64(FileTextMin) {
		f, err := os.CreateTemp(w.dir, "talksearch-texts-")
		if err != nil {
			w.fileErr = err
			return
		}
		// The name goes at once: the descriptor is all that holds the
		// file, so nothing outlives the store or the process.
		os.Remove(f.Name())
		w.f = f
	}
	if w.f != nil && len(w.buf) >= textWriteChunk {
		w.flush()
	}
}

// flush writes the buffered texts to the file; on a failed write the
// texts go back to the heap (keepOnHeap).
func (w *TextWriter) flush() {
	n, err := w.f.Write(w.buf)
	w.written += uint64(n)
	if err != nil {
		w.buf = w.buf[n:]
		w.keepOnHeap(fmt.Errorf("write texts: %w", err))
		return
	}
	w.buf = w.buf[:0]
}

// keepOnHeap reads what the file holds back into the heap, before what
// is still buffered, and drops the file: a temporary directory that
// cannot take the texts costs memory, not the start.
func (w *TextWriter) keepOnHeap(why error) {
	data := make([]byte, w.written, w.size)
	if _, err := w.f.ReadAt(data, 0); err != nil && w.written > 0 {
		w.err = fmt.Errorf("read back the talks' texts: %w (after %w)", err, why)
	}
	w.buf = append(data, w.buf...)
	w.written = 0
	w.f.Close()
	w.f = nil
	w.fileErr = why
}

// Store ends the writing and returns the store of the texts added. The
// writer must not be used afterwards. The error is texts lost: written to
// a file that failed and then could not be read back.
func (w *TextWriter) Store() (*TextStore, error) {
	s := &TextStore{offs: append(w.offs, w.size)}
	w.offs = nil
	if w.f != nil && len(w.buf) > 0 {
		w.flush() // on failure the texts are back on the heap
	}
	if w.f != nil {
		s.file = w.f
		w.f, w.buf = nil, nil
		return s, nil
	}
	if w.err != nil {
		return nil, w.err
	}
	if w.fileErr != nil {
		s.FileErr = fmt.Errorf("talk texts kept on the heap: %w", w.fileErr)
	}
	s.data, w.buf = w.buf, nil
	return s, nil
}

package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// ErrNotRegular is the error for a path that is no regular file: a FIFO
// would block its reader forever, a device (/dev/zero) never ends.
var ErrNotRegular = errors.New("not a regular file")

// fileKind names what a non-regular file is, for messages.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	}
	return "not a regular file"
}

// checkRegular is ErrNotRegular, wrapped with what the file is, for a
// mode that is no regular file.
func checkRegular(info fs.FileInfo) error {
	if info.Mode().IsRegular() {
		return nil
	}
	return fmt.Errorf("%s, %w: refused", fileKind(info.Mode()), ErrNotRegular)
}

// OpenRegular opens path for reading if it is a regular file. The mode is
// checked before the file is opened, and again on what was opened: the
// open itself does not block (O_NONBLOCK), so a FIFO put in the file's
// place meanwhile is refused too, never waited on.
func OpenRegular(path string) (*os.File, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := checkRegular(info); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	opened, err := f.Stat()
	if err == nil {
		err = checkRegular(opened)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// readLimited reads what open opens, at most max bytes: more is
// ErrTooLarge.
func readLimited(open func() (io.ReadCloser, error), max int64) ([]byte, error) {
	f, err := open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, tooLarge(max)
	}
	return data, nil
}

// ctxReader ends the read of a file when ctx (nil: never) is done: a row
// reader or a decoder stops at its next read.
type ctxReader struct {
	r   io.Reader
	ctx context.Context
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := cancelled(c.ctx); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// tooLarge is ErrTooLarge with the limit in force.
func tooLarge(max int64) error {
	return fmt.Errorf("%w: over the %s limit of a file (--max-file-bytes)", ErrTooLarge, sizeText(max))
}

// sizeText is a limit in bytes as people write it: "64 MiB", "512 KiB".
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d-byte", n)
}

// dropLongLines blanks each line of a text file longer than max bytes,
// with a warning naming it: the other lines keep their numbers and are
// read. data is not changed; a copy is made only if a line is dropped.
func dropLongLines(file string, data []byte, max int) ([]byte, []Warning) {
	var warns []Warning
	var out []byte
	line, start := 1, 0
	for start <= len(data) {
		end := bytes.IndexByte(data[start:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += start
		}
		if end-start > max {
			if out == nil {
				out = append(make([]byte, 0, len(data)), data[:start]...)
			}
			warns = append(warns, Warning{File: file, Line: line, Msg: fmt.Sprintf("line is %d bytes, longer than the %s limit of a line (--max-line-bytes): skipped", end-start, sizeText(int64(max)))})
		} else if out != nil {
			out = append(out, data[start:end]...)
		}
		if end < len(data) && out != nil {
			out = append(out, '\n')
		}
		start, line = end+1, line+1
	}
	if out == nil {
		return data, nil
	}
	return out, warns
}

// UTF-16 byte order marks. Windows tools save "Unicode" text so.
var (
	bomUTF16LE = []byte{0xff, 0xfe}
	bomUTF16BE = []byte{0xfe, 0xff}
)

// utf16Decoder is the decoder of text that begins with a UTF-16 byte order
// mark, nil for any other.
func utf16Decoder(head []byte) transform.Transformer {
	switch {
	case bytes.HasPrefix(head, bomUTF16LE):
		return unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder()
	case bytes.HasPrefix(head, bomUTF16BE):
		return unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM).NewDecoder()
	}
	return nil
}

// fromUTF16 is data as UTF-8 when it is UTF-16 with a byte order mark
// (decoded is then true), else data. A lone surrogate becomes U+FFFD.
func fromUTF16(data []byte) (out []byte, decoded bool, err error) {
	dec := utf16Decoder(data)
	if dec == nil {
		return data, false, nil
	}
	out, _, err = transform.Bytes(dec, data)
	if err != nil {
		return nil, true, fmt.Errorf("UTF-16: %w", err)
	}
	return out, true, nil
}

// utf16Warning says a file was read as UTF-16, so that a file that only
// looked so is not read into nonsense unseen.
func utf16Warning(file string) Warning {
	return Warning{File: file, Line: 1, Msg: "UTF-16 (byte order mark): read as UTF-16 and converted to UTF-8"}
}

// cancelled is the error of a read ended by ctx, nil while it runs.
func cancelled(ctx context.Context) error {
	if ctx == nil {
		return nil
	}
	if err := context.Cause(ctx); err != nil {
		return fmt.Errorf("ingest stopped: %w", err)
	}
	// A file's budget is read off the clock at each look, not only once
	// its timer has fired: what a look sees does not depend on when the
	// runtime runs the timer.
	if b, ok := ctx.Value(parseBudgetKey{}).(parseBudget); ok && !time.Now().Before(b.by) {
		return fmt.Errorf("ingest stopped: %w", b.err)
	}
	return nil
}

func (o Options) cancelled() error { return cancelled(o.Context) }

// cancelEvery is how many records a reader handles between two looks at
// its context, once its file is decoded: often enough that a cancel or a
// file's time budget stops it at once, seldom enough to cost nothing.
const cancelEvery = 64

// cancelledAt is cancelled at every cancelEvery-th record i (from 0).
func (o Options) cancelledAt(i int) error {
	if i%cancelEvery != 0 {
		return nil
	}
	return o.cancelled()
}

// ParseTimeError is the error of a file whose reader took longer than
// its budget (Options.MaxParseTime).
type ParseTimeError struct{ Limit time.Duration }

func (e ParseTimeError) Error() string {
	return fmt.Sprintf("took longer than %s to read (--max-parse-time)", e.Limit)
}

type parseBudgetKey struct{}

// parseBudget is the budget of the file being read: its error, and when
// it is spent.
type parseBudget struct {
	err ParseTimeError
	by  time.Time
}

// withParseBudget is o for reading one file: its Context also ends once
// the file's MaxParseTime is spent, with a ParseTimeError. stop releases
// the budget's timer once the file is read.
func (o Options) withParseBudget() (_ Options, stop context.CancelFunc) {
	parent := o.Context
	if parent == nil {
		parent = context.Background()
	}
	limit := o.MaxParseTime
	if limit <= 0 {
		limit = DefaultMaxParseTime
	}
	b := parseBudget{err: ParseTimeError{limit}, by: time.Now().Add(limit)}
	ctx, stop := context.WithDeadlineCause(parent, b.by, b.err)
	o.Context = context.WithValue(ctx, parseBudgetKey{}, b)
	return o, stop
}

// overTime is the warning for a file whose reader ran out of its time
// budget (err wraps a ParseTimeError); ok is false for any other error.
func overTime(file, format string, err error) (w Warning, ok bool) {
	var pt ParseTimeError
	if !errors.As(err, &pt) {
		return Warning{}, false
	}
	return Warning{File: file, Msg: fmt.Sprintf("%s: %v: stopped, no talks read from this file", format, pt)}, true
}

// maxFile and maxLine are the limits in force.
func (o Options) maxFile() int64 {
	if o.MaxFileBytes > 0 {
		return o.MaxFileBytes
	}
	return MaxFileSize
}

func (o Options) maxLine() int {
	if o.MaxLineBytes > 0 {
		return o.MaxLineBytes
	}
	return MaxLineSize
}

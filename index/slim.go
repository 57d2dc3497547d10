package index

import (
	"os"

	"golang.org/x/sys/unix"
)

// Slim is a corpus whose abstracts and descriptions are in a TextStore
// rather than in its talks: a large corpus read as a stream (TextWriter)
// never holds every talk whole. Talk i's texts are the store's talk i.
// With a nil Texts the talks are whole, as a plain []Talk is.
type Slim struct {
	Talks []Talk
	Texts *TextStore
}

// Whole wraps talks that hold their own texts.
func Whole(talks []Talk) Slim { return Slim{Talks: talks} }

// Len is the number of talks.
func (c Slim) Len() int { return len(c.Talks) }

// Talk is talk i with its abstract and description: a copy when they are
// in the store.
func (c Slim) Talk(i int) Talk {
	t := c.Talks[i]
	if c.Texts != nil {
		c.Texts.Fill(i, &t)
	}
	return t
}

// Each calls fn with each talk whole, in order. fn must not keep t, nor
// anything pointing into its texts beyond the call: when the texts are in
// the store, t is one scratch talk filled again for the next call.
func (c Slim) Each(fn func(i int, t *Talk)) { c.EachEvery(1, fn) }

// EachEvery is Each of talks 0, step, 2×step and so on: a sample of the
// corpus in its order.
func (c Slim) EachEvery(step int, fn func(i int, t *Talk)) {
	step = max(step, 1)
	var t Talk
	released := 0 // the talks before it have their texts' pages let go
	for i := 0; i < len(c.Talks); i += step {
		if c.Texts == nil {
			fn(i, &c.Talks[i])
			continue
		}
		t = c.Talks[i]
		c.Texts.Fill(i, &t)
		fn(i, &t)
		if c.Texts.textBytes(released, i+1) >= releaseEvery {
			c.Texts.releaseTexts(released, i+1)
			released = i + 1
		}
	}
	if c.Texts != nil {
		c.Texts.releaseTexts(released, len(c.Talks))
	}
}

// releaseEvery is how many bytes of texts a pass over a Slim corpus reads
// before it lets their pages go (TextStore.releaseTexts).
const releaseEvery = 16 << 20

// batch is talks from to to whole: the slice itself when they are, else
// copies filled from the store, which the batch's index drops once it is
// in.
func (c Slim) batch(from, to int) []Talk {
	if c.Texts == nil {
		return c.Talks[from:to]
	}
	out := make([]Talk, to-from)
	for i := range out {
		out[i] = c.Talk(from + i)
	}
	c.Texts.releaseTexts(from, to)
	return out
}

// SlimOf moves talks' texts into a new store whose file, if they need
// one, is in dir ("" is the system's temporary directory): a corpus read
// whole becomes one that holds no text on the heap once talks is dropped.
// talks is left as it was.
func SlimOf(dir string, talks []Talk) (Slim, error) {
	w := NewTextWriter(dir)
	slim := make([]Talk, len(talks))
	for i, t := range talks {
		w.Add(t.Abstract, t.Description)
		t.Abstract, t.Description = "", ""
		slim[i] = t
	}
	texts, err := w.Store()
	if err != nil {
		return Slim{}, err
	}
	return Slim{Talks: slim, Texts: texts}, nil
}

// textBytes is the size of the texts of talks from to to (not included).
func (s *TextStore) textBytes(from, to int) uint64 { return s.offs[2*to] - s.offs[2*from] }

// releaseTexts lets go of the pages of the texts of talks from to to (not
// included) that reading them made resident in the process, when they are
// mapped: the pages stay in the kernel's page cache, and a later read maps
// them again. A pass over every text (a build's batches, the content hash,
// the vocabulary) would otherwise leave the whole file resident in the
// process until the store is closed, counted in its memory beside the
// heap. Pages it shares with other talks' texts go too, and come back as
// theirs are read.
func (s *TextStore) releaseTexts(from, to int) {
	if !s.mapped || from >= to {
		return
	}
	page := uint64(os.Getpagesize())
	start, end := s.offs[2*from]/page*page, min(s.offs[2*to], uint64(len(s.data)))
	if start >= end {
		return
	}
	// Advice only: a failure leaves the pages resident, as before.
	_ = unix.Madvise(s.data[start:end], unix.MADV_DONTNEED)
}

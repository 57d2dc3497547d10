package highlight

import (
	"encoding/binary"
	"unicode/utf8"

	bhighlight "github.com/blevesearch/bleve/v2/search/highlight"
)

// runeFragmenter makes the candidate fragments Bleve's simple fragmenter
// makes (fragmenter/simple, the same windows of size runes around each
// matched word, pushed back from the end and centred on the matches), in
// time bounded by the fragment size. Bleve's counts the runes from the
// previous match to each new one in full and decodes ASCII a rune at a
// time, work that grows with the text rather than the fragment.
// TestRuneFragmenterIsBlevesSimpleFragmenter holds the two to the same
// fragments, invalid UTF-8 and U+FFFD (where Bleve's gives up on a
// window) included.
type runeFragmenter struct{ size int }

func (f runeFragmenter) Fragment(orig []byte, ot bhighlight.TermLocations) []*bhighlight.Fragment {
	return f.fragment(nil, orig, ot)
}

// fragment is Fragment with its fragments in sc's buffers (new ones when
// sc is nil): they are valid until sc is used again.
func (f runeFragmenter) fragment(sc *scratch, orig []byte, ot bhighlight.TermLocations) []*bhighlight.Fragment {
	// One array holds them all: one allocation, not one a fragment, and
	// none where sc has room.
	n := max(1, len(ot))
	var all []bhighlight.Fragment
	var rv []*bhighlight.Fragment
	if sc != nil {
		all, rv = sc.fragments(n)
	} else {
		all, rv = make([]bhighlight.Fragment, 0, n), make([]*bhighlight.Fragment, 0, n)
	}
	add := func(start, end int) {
		all = append(all, bhighlight.Fragment{Orig: orig, Start: start, End: end})
		rv = append(rv, &all[len(all)-1])
	}
	maxbegin := 0
outer:
	for i, tl := range ot {
		start := tl.Start
		end, used, ok := f.forward(orig, start)
		if !ok {
			continue
		}
		// Room left: push back towards the beginning, not across the
		// previous match.
		if start > maxbegin && start <= len(orig) {
			// ASCII steps back, as the loop below takes them.
			n := asciiRunBefore(orig[maxbegin:start], f.size-used)
			start -= n
			used += n
		}
		for start > 0 && used < f.size {
			if start > len(orig) {
				continue outer
			}
			sz, ok := runeBefore(orig, start)
			if !ok {
				continue outer
			}
			if start-sz < maxbegin {
				break
			}
			start -= sz
			used++
		}
		// Centre the matches: move back by half the smaller of the room
		// after the last match inside and the room before the start.
		minend := end
		for _, in := range ot[i:] {
			if in.End > end {
				break
			}
			minend = in.End
		}
		room := runesUpTo(orig[minend:end], f.size)
		if start >= maxbegin {
			room = min(room, runesUpTo(orig[maxbegin:start], room))
		} else {
			room = 0
		}
		offset := room / 2
		if n := min(asciiRunBefore(orig[:start], offset), asciiRunBefore(orig[:end], offset)); n > 0 {
			// ASCII steps back, as the loop below takes them.
			start, end, offset = start-n, end-n, offset-n
		}
		for ; offset > 0; offset-- {
			sz, ok := runeBefore(orig, start)
			if !ok {
				continue outer
			}
			start -= sz
			if sz, ok = runeBefore(orig, end); !ok {
				continue outer
			}
			end -= sz
		}
		add(start, end)
		maxbegin = tl.End
	}
	if len(ot) == 0 {
		// Nothing matched: the start of the text.
		end, _, _ := f.forward(orig, 0)
		add(0, end)
	}
	if len(rv) == 0 {
		return nil // as Bleve's fragmenter: none, not an empty list
	}
	return rv
}

// forward walks up to f.size runes from start: where it ended, the runes
// walked, and not ok where Bleve's fragmenter gives up on the window (at
// utf8.RuneError; for the no-match fragment it keeps what it walked).
func (f runeFragmenter) forward(orig []byte, start int) (end, used int, ok bool) {
	end = start
	for end < len(orig) && used < f.size {
		if n := asciiRun(orig[end:min(len(orig), end+f.size-used)]); n > 0 {
			end += n
			used += n
			continue
		}
		sz, ok := runeAt(orig, end)
		if !ok {
			return end, used, false
		}
		end += sz
		used++
	}
	return end, used, true
}

// runeAt is the size of the rune at b[i]; not ok where Bleve's fragmenter
// stops, at utf8.RuneError (invalid UTF-8, or U+FFFD itself).
func runeAt(b []byte, i int) (int, bool) {
	if b[i] < utf8.RuneSelf {
		return 1, true
	}
	r, sz := utf8.DecodeRune(b[i:])
	return sz, r != utf8.RuneError
}

// runeBefore is the size of the rune that ends at b[i], as runeAt.
func runeBefore(b []byte, i int) (int, bool) {
	if i > 0 && b[i-1] < utf8.RuneSelf {
		return 1, true
	}
	r, sz := utf8.DecodeLastRune(b[:i])
	return sz, r != utf8.RuneError
}

// asciiRun is the length of the ASCII bytes b starts with: as many runes.
// Eight bytes are checked at a time: an abstract is mostly ASCII, and this
// walk runs for every fragment of every hit a page highlights.
func asciiRun(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if binary.LittleEndian.Uint64(b[i:])&nonASCII != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if b[i] >= utf8.RuneSelf {
			return i
		}
	}
	return len(b)
}

// nonASCII has the high bit of each of eight bytes.
const nonASCII = 0x8080808080808080

// asciiRunBefore is the length of the ASCII bytes b ends with, at most
// limit: as many runes.
func asciiRunBefore(b []byte, limit int) int {
	if limit < len(b) {
		b = b[len(b)-limit:]
	}
	i := len(b)
	for ; i >= 8; i -= 8 {
		if binary.LittleEndian.Uint64(b[i-8:])&nonASCII != 0 {
			break
		}
	}
	for ; i > 0; i-- {
		if b[i-1] >= utf8.RuneSelf {
			break
		}
	}
	return len(b) - i
}

// runesUpTo is min(utf8.RuneCount(b), limit), counting no further.
func runesUpTo(b []byte, limit int) int {
	n := 0
	for i := 0; i < len(b) && n < limit; {
		if a := asciiRun(b[i:min(len(b), i+limit-n)]); a > 0 {
			i += a
			n += a
			continue
		}
		_, sz := utf8.DecodeRune(b[i:])
		i += sz
		n++
	}
	return n
}

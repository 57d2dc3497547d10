package search

import (
	"math/bits"
	"sync"
)

// Typo corrections compare the typed word with every vocabulary word of a
// near length (correctWithin). On a large vocabulary nearly all of that
// scan would be edit distances of words that share few letters with the
// typo. A signature of the letters each word has (one bit per letter)
// bounds the distance from below for the price of two popcounts, so the
// table is filled for the few words that may be close. (An FST of the
// vocabulary searched with vellum's Levenshtein automaton is slower than
// this scan, and on a small vocabulary building the automaton alone costs
// more than the scan.) The scan measures a word exactly only while
// it may be within the limit and no further than the closest so far, and
// reads each word's runes and signature from slices (lengthTable), so that
// a word that cannot be close costs a few loads and two popcounts.

// letterSig is the set of w's letters, one bit each: a–z their own, other
// letters and digits folded onto the upper bits. Folding only weakens the
// bound.
func letterSig(w []rune) uint64 {
	var sig uint64
	for _, r := range w {
		if r >= 'a' && r <= 'z' {
			sig |= 1 << (r - 'a')
		} else {
			sig |= 1 << (26 + uint64(r)%38)
		}
	}
	return sig
}

// sigDistance is a lower bound of the edit distance (a swap of neighbours
// counting as one) of two words with signatures a and b: every bit of one
// that the other lacks is a letter that some deletion, insertion or
// substitution of its own must remove or add.
func sigDistance(a, b uint64) int {
	return max(bits.OnesCount64(a&^b), bits.OnesCount64(b&^a))
}

// lengthTable is a vocabulary's byLen words with what the scan reads of
// each, side by side: its runes and its letter signature. Built with the
// snapshot (newSnapshot), so that the first query with a typo costs what
// any other does. Read from maps by word, they would cost the scan a hash
// lookup per word, more than the bound it computes.
type lengthTable struct {
	once  sync.Once
	byLen map[int]*sameLength
}

// sameLength is the words of one rune length, in vocabulary.byLen's order.
type sameLength struct {
	words []string
	runes [][]rune
	sigs  []uint64
}

func (lt *lengthTable) of(v *vocabulary) map[int]*sameLength {
	lt.once.Do(func() {
		lt.byLen = make(map[int]*sameLength, len(v.byLen))
		for n, ws := range v.byLen {
			sl := &sameLength{words: ws, runes: make([][]rune, len(ws)), sigs: make([]uint64, len(ws))}
			for i, w := range ws {
				sl.runes[i] = v.runes[w]
				sl.sigs[i] = letterSig(sl.runes[i])
			}
			lt.byLen[n] = sl
		}
	})
	return lt.byLen
}

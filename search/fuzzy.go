package search

import (
	"math/bits"
	"sync"
)

// Typo corrections compare the typed word with every vocabulary word of a
// near length (correctWithin). On the FOSDEM archive's vocabulary that
// scan cost 6–9 ms of CPU per unknown word, most of a typo query
// (BenchmarkSearchFOSDEMEach), nearly all of it edit distances of words
// that share few letters with the typo. A signature of the letters each
// word has (one bit per letter) bounds the distance from below for the
// price of two popcounts, so the table is filled for the few words that
// may be close. (An FST of the vocabulary searched with vellum's
// Levenshtein automaton was tried: 1.0 ms per word on FOSDEM, but 0.6 ms
// on the seeds' vocabulary where the scan takes 0.16, building the
// automaton being most of it.) The scan measures a word exactly only while
// it may be within the limit and no further than the closest so far, and
// reads each word's runes and signature from slices (lengthTable): per
// misspelling on FOSDEM, "aprallel" 3.1 ms → 0.29, "monrach" 350 → 41 µs,
// "speculativ" 296 → 54 µs; on the seeds 25–106 → 8–26 µs.

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
// each, side by side: its runes and its letter signature. Built on the
// first correction, so a restart or a corpus without typos never pays for
// it. Reading them from maps by word cost a third of a scan.
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

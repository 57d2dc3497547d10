package analysis

import (
	"hash/fnv"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// The seed dumps were copied from web pages by different people and tools:
// the same sentence comes with typographic or straight quotes, en dashes or
// hyphens, non-breaking or plain spaces. Two forms of text are kept apart:
// display text (ingest's cleanLine) keeps the author's characters and only removes
// what is invisible; match text (MatchWords) folds every such variant so
// that near-duplicates compare equal.

// foldRune maps the typographic variants of punctuation to one ASCII form.
func foldRune(r rune) rune {
	switch r {
	case '‘', '’', '‚', '‛', '′', '`', '´':
		return '\''
	case '“', '”', '„', '‟', '″', '«', '»':
		return '"'
	case '‐', '‑', '‒', '–', '—', '―', '−':
		return '-'
	case '\u00a0', '\u202f', '\u2007', '\u2009', '\u200a':
		return ' '
	}
	return r
}

// stripMarks removes combining accents after NFD decomposition, so that
// "Léonard" and "Leonard" fold to the same key. A chain keeps state while
// it runs, so one is used by one call at a time (overlap detection folds
// texts from several goroutines); they are pooled because a new chain
// allocates its buffers, which was most of what loading a large corpus
// allocated.
var stripMarks = sync.Pool{New: func() any {
	return transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
}}

// FoldText is the comparison form of s: accents removed, quotes, dashes and
// spaces folded, lower case.
func FoldText(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, " ")
	}
	// ASCII has no marks to strip and is its own NFC form.
	if !isASCII(s) {
		t := stripMarks.Get().(transform.Transformer)
		if f, _, err := transform.String(t, s); err == nil {
			s = f
		}
		stripMarks.Put(t)
	}
	return strings.ToLower(strings.Map(foldRune, s))
}

func isASCII[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// MatchWords splits folded text into words of letters and digits. Every
// other character separates words, so "K_pe", "K pe" and "K-pe" agree.
func MatchWords(s string) []string {
	return strings.FieldsFunc(FoldText(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// shingleSize is the number of consecutive words in one shingle. Three words
// make a paragraph's shingles specific to it while one edited word only
// disturbs three of them.
const shingleSize = 3

// Shingles returns the sorted distinct hashes of the word 3-grams of text,
// in match form (case, accents, quotes and dashes folded, punctuation
// ignored): what dedup matches paragraphs by and overlap detection tells an
// edited copy by. Text of fewer than three words has none. The 64-bit hash
// stands for the words; a collision would only add one shared shingle.
func Shingles(text string) []uint64 {
	w := MatchWords(text)
	if len(w) < shingleSize {
		return nil
	}
	seen := make(map[uint64]bool, len(w))
	out := make([]uint64, 0, len(w))
	h := fnv.New64a()
	for i := 0; i+shingleSize <= len(w); i++ {
		h.Reset()
		for _, word := range w[i : i+shingleSize] {
			h.Write([]byte(word))
			h.Write([]byte{0})
		}
		if s := h.Sum64(); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// TopicTerms returns the stemmed content words of s, for measuring whether
// two paragraphs talk about the same things.
func TopicTerms(s string) map[string]struct{} {
	set := make(map[string]struct{})
	for _, w := range MatchWords(s) {
		if len(w) < 3 || IsFunctionWord(w) || IsNumber(w) {
			continue
		}
		set[english.Stem(w, false)] = struct{}{}
	}
	return set
}

// IsNumber reports whether w is made of digits only: a number says nothing
// about what a text is about (dedup topic terms, related talks).
func IsNumber(w string) bool {
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

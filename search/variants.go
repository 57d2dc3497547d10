package search

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/talksearch/talksearch/search/synonyms"
)

// Variants are other ways of writing the same word, matched as the word
// itself (weight 1), never as corrections: the other national spelling
// (virtualisation ↔ virtualization), the hyphenated form of a joined word
// (pretraining → pre-training, realtime → real-time) and the joined form
// of a hyphenated one (e-mail → email).

// hyphenated finds words joined by hyphens: "pre-training", "end-to-end".
var hyphenated = regexp.MustCompile(`[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+`)

// addHyphenated records, for each hyphenated word of text, its joined form
// → the hyphenated one ("pretraining" → "pre-training").
func (v *vocabulary) addHyphenated(text string) {
	for _, m := range hyphenated.FindAllString(strings.ToLower(text), -1) {
		j := strings.ReplaceAll(m, "-", "")
		if _, ok := v.hyphens[j]; !ok {
			v.hyphens[j] = m
		}
	}
}

// variant is one way of writing a query word otherwise, with what to say
// about it ("" for forms too obvious to mention, as a hyphen).
type variant struct {
	alt  alternative
	note string
}

// variants returns the other forms of the query word w that the corpus
// uses.
func (s *snapshot) variants(w string) []variant {
	lw := strings.ToLower(w)
	var out []variant
	if v := synonyms.SpellingVariant(lw); v != "" && (s.vocab.df[v] > 0 || s.knownTerms(v)) {
		out = append(out, variant{alternative{text: v, weight: 1}, w + " → " + v})
	}
	if h, ok := s.vocab.hyphens[lw]; ok && h != lw {
		out = append(out, variant{alternative{text: h, weight: 1, phrase: true}, ""})
	}
	if strings.ContainsAny(lw, "-‐") {
		j := strings.Map(func(r rune) rune {
			if r == '-' || r == '‐' {
				return -1
			}
			return r
		}, lw)
		if j != lw && isWord(j) && s.vocab.df[j] > 0 {
			out = append(out, variant{alternative{text: j, weight: 1}, ""})
		}
	}
	return out
}

// isWord says whether w is letters and digits only.
func isWord(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) && !unicode.IsNumber(r) {
			return false
		}
	}
	return w != ""
}

package search

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/talksearch/talksearch/search/ranking"
	"github.com/talksearch/talksearch/search/synonyms"
)

// Variants are other ways of writing the same word, matched as the word
// itself (weight 1), never as corrections: the other national spelling
// (virtualisation ↔ virtualization), the hyphenated form of a joined word
// (pretraining → pre-training, realtime → real-time) and the joined form
// of a hyphenated one (e-mail → email).

// addHyphenated records, for each hyphenated word of text ("pre-training",
// "end-to-end": letters or digits joined by single hyphens), its joined
// form → the hyphenated one ("pretraining" → "pre-training"). It walks
// out from each hyphen rather than running a regular expression over
// the whole text, which would cost more than the rest of building a large
// corpus's vocabulary.
func (v *vocabulary) addHyphenated(text string) {
	if strings.IndexByte(text, '-') < 0 {
		return
	}
	lower := strings.ToLower(text)
	for i := 0; i < len(lower); {
		k := strings.IndexByte(lower[i:], '-')
		if k < 0 {
			return
		}
		k += i
		start := k
		for start > i {
			r, size := utf8.DecodeLastRuneInString(lower[:start])
			if !isWordRune(r) {
				break
			}
			start -= size
		}
		end := k
		for start < k && end < len(lower) && lower[end] == '-' {
			j := end + 1
			for j < len(lower) {
				r, size := utf8.DecodeRuneInString(lower[j:])
				if !isWordRune(r) {
					break
				}
				j += size
			}
			if j == end+1 {
				break // a hyphen that joins nothing ends the word
			}
			end = j
		}
		if end == k {
			i = k + 1
			continue
		}
		m := lower[start:end]
		j := strings.ReplaceAll(m, "-", "")
		if _, ok := v.hyphens[j]; !ok {
			// A copy: text may be a scratch talk's (index.Slim.Each).
			v.hyphens[j] = strings.Clone(m)
		}
		i = end
	}
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }

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
		out = append(out, variant{alternative{text: v, weight: ranking.Literal}, w + " → " + v})
	}
	if h, ok := s.vocab.hyphens[lw]; ok && h != lw {
		out = append(out, variant{alternative{text: h, weight: ranking.Literal, phrase: true}, ""})
	}
	if strings.ContainsAny(lw, "-‐") {
		j := strings.Map(func(r rune) rune {
			if r == '-' || r == '‐' {
				return -1
			}
			return r
		}, lw)
		// The corpus may write the joined form in another form only
		// ("ebook readers" for "e-books"): its terms decide.
		if j != lw && isWord(j) && (s.vocab.df[j] > 0 || s.knownTerms(j)) {
			out = append(out, variant{alternative{text: j, weight: ranking.Literal}, ""})
		}
	}
	// The doer of an action typed in -ing, which the stemmer keeps apart
	// ("contributing", stemmed contribut, and "contributor"); a noun typed
	// whole ("act") is no action ("actor").
	if strings.HasSuffix(lw, "ing") {
		if ts := s.analyze(lw); len(ts) == 1 && s.dict[ts[0]+"or"] > 0 {
			out = append(out, variant{alternative{text: ts[0] + "or", weight: ranking.AgentNoun}, ""})
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

package search

import (
	"strings"
	"unicode"
)

// Expansions (typo corrections, completions of the word being typed, other
// spellings) add recall at the price of drift: a talk found for a word the
// user did not type. A word the corpus has as typed is never expanded
// (mayCorrect, completions and forms look it up first); what is left to
// keep apart here is what looks like a new word and is not one, and the
// expansions whose only index term is mostly other words':
//
//   - a name typed without its accents ("Monig") is the corpus word with
//     them ("Mönig"), matched as itself, neither corrected nor completed
//     ("monitoring");
//   - in a query shaped as a name ("Jens Monig"), corrections and
//     completions are words of speakers' names when any are;
//   - a correction or completion whose stem other words share far more
//     often ("localizaton" corrected to "localization", stemmed "local"
//     as "local" is) would find those words' talks, not its own: it is
//     left out. A spelling variant (variants.go) is kept even so: it is
//     the word itself, the talks written the other way are found by it
//     alone, and what its stem merges ("localization" → "local") is the
//     stemmer's doing.

// driftRatio is how many times more talks an expansion's index term may
// have than the expansion itself as written before the term stands for
// other words.
const driftRatio = 3

// folds returns the corpus words that w is with its accents restored
// ("monig" → "mönig"), most used first; none when the corpus has w as
// typed.
func (s *snapshot) folds(w string) []string {
	lw := strings.ToLower(w)
	if s.vocab.df[lw] > 0 {
		return nil
	}
	return s.vocab.folded[lw]
}

// drifts says whether the expansion c of the typed word w would match
// mostly talks of other words: its only index term is not w's and the
// talks with that term outnumber those with c as written driftRatio to
// one.
func (s *snapshot) drifts(w, c string) bool {
	ct := s.analyze(c)
	if len(ct) != 1 {
		return false
	}
	if wt := s.analyze(w); len(wt) == 1 && wt[0] == ct[0] {
		return false
	}
	return s.dict[ct[0]] > driftRatio*uint64(s.vocab.df[strings.ToLower(c)])
}

// speakerShaped says whether a query's words look like a person's name:
// two or more, each capitalised and none an acronym ("Jens Monig", not
// "RISC-V boot", nor "Rust GPU").
func speakerShaped(words []string) bool {
	if len(words) < 2 {
		return false
	}
	for _, w := range words {
		rs := []rune(w)
		if !unicode.IsUpper(rs[0]) || strings.ToUpper(w) == w || !isLetters(strings.ToLower(w)) {
			return false
		}
	}
	return true
}

// keepExpansions returns the expansions of w that do not drift (drifts),
// and of a name-shaped query only words of speakers' names when any are
// (all: whether others may stand in for none).
func (s *snapshot) keepExpansions(w string, cands []string, speaker, all bool) []string {
	var kept, names []string
	for _, c := range cands {
		if s.drifts(w, c) {
			continue
		}
		kept = append(kept, c)
		if s.vocab.speakers[strings.ToLower(c)] {
			names = append(names, c)
		}
	}
	if speaker && (len(names) > 0 || !all) {
		return names
	}
	return kept
}

package search

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/talksearch/talksearch/search/synonyms"
)

// The cost model of a query: what one search may spend on its expensive
// parts. A part beyond its budget is searched the plain way, and the
// answer says so (Result.Simplified, Result.Note), so a 400-character
// query of random non-words costs about what a short one does
// (BenchmarkHostileQueries) instead of a scan of the vocabulary per word.
const (
	// maxCorrections: words looked up for typos (an edit-distance scan
	// of the corpus' words each).
	maxCorrections = 3
	// maxCompounds: words of several terms (KV-cache, torch.compile,
	// e-mail) matched as phrases; beyond it their terms match apart.
	maxCompounds = 4
	// maxPhrases: quoted phrases, and separately field clauses and
	// exclusions; beyond it a phrase is its words, any of which may match,
	// and further field clauses and exclusions are left out.
	maxPhrases = 4
	// maxWordClauses: words searched each as itself with its variants,
	// corrections and synonyms; the rest count together as one word.
	maxWordClauses = 12
	// maxProximityWords: the typed words the proximity phrases look at.
	maxProximityWords = 12
	// maxCompletions: corpus words the word being typed may complete to,
	// chosen among at most completionScan words of that prefix.
	maxCompletions = 3
	completionScan = 2000
)

// budget counts a query's expensive parts as compile spends them, and
// what it searched more simply.
type budget struct {
	corrections, compounds int

	uncorrected     []string // words not looked up for typos
	plainCompounds  []string // compound words matched as their terms
	plainWords      []string // words counted together as one
	plainPhrases    []string // phrases matched as their words
	droppedFields   []string // field clauses left out
	droppedExcludes []string // exclusions left out
}

// explain says whether anything was simplified, and what, for people.
func (b *budget) explain() (bool, string) {
	var parts []string
	add := func(what string, items []string) {
		if len(items) > 0 {
			parts = append(parts, fmt.Sprintf("%s: %s", what, strings.Join(items, ", ")))
		}
	}
	add(fmt.Sprintf("not checked for typos (at most %d words are)", maxCorrections), b.uncorrected)
	add(fmt.Sprintf("matched as separate words (at most %d compound words are matched whole)", maxCompounds), b.plainCompounds)
	add(fmt.Sprintf("counted together as one word (at most %d words count each)", maxWordClauses), b.plainWords)
	add(fmt.Sprintf("matched as separate words (at most %d phrases are matched whole)", maxPhrases), b.plainPhrases)
	add(fmt.Sprintf("left out (at most %d field clauses)", maxPhrases), b.droppedFields)
	add(fmt.Sprintf("left out (at most %d exclusions)", maxPhrases), b.droppedExcludes)
	if len(parts) == 0 {
		return false, ""
	}
	return true, "The query was simplified: " + strings.Join(parts, "; ") + "."
}

// mayCorrect says whether w is a candidate for typo correction, cheaply:
// letters only, unknown to the corpus, not an English word.
func (s *snapshot) mayCorrect(w string) bool {
	lw := strings.ToLower(w)
	return isLetters(lw) && s.vocab.df[lw] == 0 && !synonyms.IsEnglishWord(lw) && !s.knownTerms(s.knownForm(w))
}

func isLetters(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return w != ""
}

// completions returns the corpus words that the word being typed may be
// the beginning of ("monr" → "monarch"), the most used first, when w is
// not a word of the corpus itself.
func (s *snapshot) completions(w string) []alternative {
	lw := strings.ToLower(w)
	if len([]rune(lw)) < 3 || s.vocab.df[lw] > 0 || !isWord(lw) {
		return nil
	}
	cands := s.vocab.withPrefix(lw, func(c string) bool { return strings.HasPrefix(c, lw) })
	if rw := []rune(lw); len(cands) == 0 && len(rw) >= 4 {
		// The beginning of a word typed with a slip ("monr" for
		// Monarch): one edit from the word's first letters.
		var rows editRows
		cands = s.vocab.withPrefix(string(rw[:2]), func(c string) bool {
			rc := s.vocab.runes[c]
			for k := len(rw) - 1; k <= len(rw)+1 && k <= len(rc); k++ {
				if rows.distance(rw, rc[:k], 1) <= 1 {
					return true
				}
			}
			return false
		})
	}
	sort.SliceStable(cands, func(a, b int) bool { return s.vocab.df[cands[a]] > s.vocab.df[cands[b]] })
	if len(cands) > maxCompletions {
		cands = cands[:maxCompletions]
	}
	out := make([]alternative, len(cands))
	for k, c := range cands {
		out[k] = alternative{text: c, weight: completionWeight}
	}
	return out
}

// withPrefix returns the words starting with prefix that keep accepts,
// looking at completionScan of them at most.
func (v *vocabulary) withPrefix(prefix string, keep func(string) bool) []string {
	var out []string
	i := sort.SearchStrings(v.sorted, prefix)
	for n := 0; i < len(v.sorted) && n < completionScan && strings.HasPrefix(v.sorted[i], prefix); i, n = i+1, n+1 {
		if keep(v.sorted[i]) {
			out = append(out, v.sorted[i])
		}
	}
	return out
}

// completionWeight: a completion is a guess at the word being typed.
const completionWeight = 0.7

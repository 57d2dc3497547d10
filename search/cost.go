package search

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/search/ranking"
	"github.com/talksearch/talksearch/search/scan"
	"github.com/talksearch/talksearch/search/synonyms"
)

// The cost model of a query: what one search may spend on its expensive
// parts. A part beyond its budget is searched the plain way, and the
// answer says so (Result.Simplified, Result.Note), so a 400-character
// query of random non-words costs about what a short one does
// (BenchmarkHostile) instead of a scan of the vocabulary per word.
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

// maxSearchers: the term searchers Bleve builds for a query (one per
// term and field, a phrase's terms included; a term a field lacks
// costs none, prune.go). The quoted phrases are spent first, and one
// that does not fit is matched as its words. Field clauses, exclusions
// and the clauses of the first maxWordClauses words are always built,
// each bounded by its own count. The optional parts then get what is
// left, in this order: the words beyond maxWordClauses (left out beyond
// it), the proximity phrases, the phrases matched as their words. 48
// leaves the judged queries of the seeds and FOSDEM room, while a
// 400-character query of corpus words (BenchmarkHostile/words), the
// costliest query there is, would build several times as many; a bound
// of 64 would leave those hostile queries more Bleve work for no judged
// query's gain. A variable, so that a test can compare plans without it.
var maxSearchers = 48

// budget counts a query's expensive parts as compile spends them, and
// what it searched more simply.
type budget struct {
	corrections, compounds int
	// searchers spent so far (maxSearchers)
	searchers int

	uncorrected     []string // words not looked up for typos
	plainCompounds  []string // compound words matched as their terms
	plainWords      []string // words counted together as one
	plainPhrases    []string // phrases matched as their words
	droppedFields   []string // field clauses left out
	droppedExcludes []string // exclusions left out
	droppedWords    []string // words beyond the clauses left out (maxSearchers)
	costlyPhrases   []string // phrases matched as their words for the budget of searchers
	droppedPhrases  []string // phrases matched as words left out (maxSearchers)
	noProximity     bool     // proximity phrases left out (maxSearchers)
}

// spent counts the searchers of q, a part that is built whatever the
// budget, and returns q.
func (b *budget) spent(q query.Query) query.Query {
	b.searchers += searchersOf(q)
	return q
}

// spend says whether an optional part q fits in what is left of the
// budget of searchers, and spends it if so.
func (b *budget) spend(q query.Query) bool {
	n := searchersOf(q)
	if b.searchers+n > maxSearchers {
		return false
	}
	b.searchers += n
	return true
}

// searchersOf is the number of term searchers Bleve builds for q.
func searchersOf(q query.Query) int {
	switch x := q.(type) {
	case *query.TermQuery:
		return 1
	case *query.MultiPhraseQuery, scan.Phrase:
		n := 0
		for _, alts := range scan.MultiPhrase(x).Terms {
			n += len(alts)
		}
		return n
	case *query.DisjunctionQuery:
		n := 0
		for _, c := range x.Disjuncts {
			n += searchersOf(c)
		}
		return n
	case *query.ConjunctionQuery:
		n := 0
		for _, c := range x.Conjuncts {
			n += searchersOf(c)
		}
		return n
	case *query.BooleanQuery:
		n := 0
		for _, c := range []query.Query{x.Must, x.Should, x.MustNot} {
			if c != nil {
				n += searchersOf(c)
			}
		}
		return n
	}
	// Match-none, match-all: no term is looked up.
	return 0
}

// affordableWords returns the words beyond the clauses (b.plainWords) that
// fit in what is left of the budget of searchers, in the query's order,
// and keeps them as b.plainWords; the rest are left out.
func (s *snapshot) affordableWords(b *budget) []string {
	var kept []string
	for i, w := range b.plainWords {
		n := 0
		for _, t := range s.analyze(w) {
			for _, fw := range ranking.Fields {
				if s.hasTerm(fw.Field, t) {
					n++
				}
			}
		}
		if b.searchers+n > maxSearchers {
			b.droppedWords = b.plainWords[i:]
			break
		}
		b.searchers += n
		kept = append(kept, w)
	}
	b.plainWords = kept
	return kept
}

// explain says whether anything was simplified, and what, for people.
func (b *budget) explain() (bool, string) {
	var parts []string
	// Formatted only for what was simplified: this runs on every search.
	add := func(what string, limit int, items []string) {
		if len(items) > 0 {
			parts = append(parts, fmt.Sprintf(what, limit)+": "+strings.Join(items, ", "))
		}
	}
	add("not checked for typos (at most %d words are)", maxCorrections, b.uncorrected)
	add("matched as separate words (at most %d compound words are matched whole)", maxCompounds, b.plainCompounds)
	add("counted together as one word (at most %d words count each)", maxWordClauses, b.plainWords)
	add("matched as separate words (at most %d phrases are matched whole)", maxPhrases, b.plainPhrases)
	add("left out (at most %d field clauses)", maxPhrases, b.droppedFields)
	add("left out (at most %d exclusions)", maxPhrases, b.droppedExcludes)
	add("left out (at most %d term lookups a query)", maxSearchers, b.droppedWords)
	add("matched as separate words (at most %d term lookups a query)", maxSearchers, b.costlyPhrases)
	add("phrases left out (at most %d term lookups a query)", maxSearchers, b.droppedPhrases)
	if b.noProximity {
		parts = append(parts, fmt.Sprintf("words side by side not ranked higher (at most %d term lookups a query)", maxSearchers))
	}
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
		out[k] = alternative{text: c, weight: ranking.Completion}
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

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

// maxWordWork bounds the work of the words' disjunction, which every
// talk found must match and which is read through for every talk: the
// postings of its clauses' terms (postingsOf) times its number of
// clauses, as each talk found is scored against every clause (soft
// coordination). The number of searchers does not see it: the same
// clauses read a hundred times the postings on a corpus a hundred times
// as large. Beyond it the least selective words (those whose terms the
// most talks use) are left out, the most selective kept, so that the
// words a query may search shrink as the corpus grows. On the seeds no
// query comes near it; on the FOSDEM archive no judged query does
// (TestJudgedQueriesFitTheWordWork), while a 400-character query of
// common words would do several times as much. A variable, so that a
// test can compare plans without it.
var maxWordWork uint64 = 100_000

// longWordWorkShare divides maxWordWork for a query of more words than
// maxWordClauses. Such a query spends the whole budget of searchers on
// its other parts too (the words counted together, compounds, proximity
// phrases), each of them read for the talks its words find, and it looks
// up corrections and variants for every clause: on a large corpus those
// parts together with its words' work would take several times a short
// query's time. No judged query is that long
// (TestJudgedQueriesFitTheWordWork).
const longWordWorkShare = 2

// typoEdits is the most edits a typo correction looks for in a query of
// n content words. A query of more words than maxWordClauses has its
// corrections looked up within one edit (a slip, a swap of neighbours):
// a scan for two edits measures many more of the vocabulary's words, as
// many more as the vocabulary is large.
func typoEdits(n int) int {
	if n > maxWordClauses {
		return 1
	}
	return 2
}

// wordWork is the budget of work of the words' disjunction for a query
// of n content words.
func wordWork(n int) uint64 {
	if n > maxWordClauses {
		return maxWordWork / longWordWorkShare
	}
	return maxWordWork
}

// maxAssocPostings bounds the talks the associated terms of a query are
// counted over (assoc.go: every talk of each of its rarer words' terms,
// snapshot.dict); beyond it the query has none. The judged queries of the
// FOSDEM archive read at most 3,300; a 400-character query of its words,
// three times as many. A variable, so that a test can compare plans
// without it.
var maxAssocPostings uint64 = 4000

// maxAssocWords bounds the rarer words of a query whose associated terms
// are looked for (assoc.go): a term must go with half of them, which the
// words of a long query rarely share, and each word's associates are
// counted over every talk of its term. No judged query is changed by it
// (TestJudgedQueriesFitTheWordWork). A variable, so that a test can
// compare plans without it.
var maxAssocWords = 8

// wordPart is one clause of the words' disjunction, before the budget of
// work chooses the clauses searched.
type wordPart struct {
	word     string // the query's word, or the words counted together
	q        query.Query
	coord    ranking.Clause
	postings uint64 // postingsOf(q)
}

// work is the work of a disjunction of parts and more (maxWordWork).
func work(parts []wordPart, more ...wordPart) uint64 {
	// Summed in place: affordableClauses asks once per word, and a copy
	// of the parts each time made a long query's compiling allocate
	// quadratically in its words.
	var n uint64
	for _, p := range parts {
		n += p.postings
	}
	for _, p := range more {
		n += p.postings
	}
	return n * uint64(len(parts)+len(more))
}

// affordableClauses keeps, of the words' clauses, the most selective ones
// whose work fits in limit (wordWork), in the query's order, and spends their
// searchers; the first fits whatever its work. The words left out are
// b.costlyWords.
func (s *snapshot) affordableClauses(parts []wordPart, limit uint64, b *budget) []wordPart {
	byCost := make([]int, len(parts))
	for i := range byCost {
		byCost[i] = i
	}
	sort.SliceStable(byCost, func(x, y int) bool { return parts[byCost[x]].postings < parts[byCost[y]].postings })
	keep := make([]bool, len(parts))
	var kept []wordPart
	for n, i := range byCost {
		if n > 0 && work(kept, parts[i]) > limit {
			break
		}
		kept = append(kept, parts[i])
		keep[i] = true
	}
	kept = kept[:0]
	for i, p := range parts {
		if !keep[i] {
			b.costlyWords = append(b.costlyWords, p.word)
			continue
		}
		b.spent(p.q)
		kept = append(kept, p)
	}
	return kept
}

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
	costlyWords     []string // the least selective words left out (maxWordWork)
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
	n := 0
	visitTerms(q, func(string) { n++ })
	return n
}

// postingsOf estimates the postings Bleve reads for q: for every term
// searcher, the talks using its term (snapshot.dict, which counts a talk
// once whatever field: an upper bound of the field's). A disjunction
// reads each of its terms' lists through; a conjunction or phrase may
// skip, so this is what it reads at most.
func (s *snapshot) postingsOf(q query.Query) uint64 {
	var n uint64
	visitTerms(q, func(t string) { n += s.dict[t] })
	return n
}

// visitTerms calls visit with the term of each term searcher Bleve builds
// for q (one per term and field, a phrase's terms included). Match-none
// and match-all look up no term.
func visitTerms(q query.Query, visit func(term string)) {
	switch x := q.(type) {
	case *query.TermQuery:
		visit(x.Term)
	case *query.MultiPhraseQuery, scan.Phrase:
		for _, alts := range scan.MultiPhrase(x).Terms {
			for _, t := range alts {
				visit(t)
			}
		}
	case *query.DisjunctionQuery:
		for _, c := range x.Disjuncts {
			visitTerms(c, visit)
		}
	case scan.Fields:
		for _, c := range x.Disjuncts {
			visitTerms(c, visit)
		}
	case scan.Concepts:
		for _, c := range x.Disjuncts {
			visitTerms(c, visit)
		}
	case *query.ConjunctionQuery:
		for _, c := range x.Conjuncts {
			visitTerms(c, visit)
		}
	case *query.BooleanQuery:
		for _, c := range []query.Query{x.Must, x.Should, x.MustNot} {
			if c != nil {
				visitTerms(c, visit)
			}
		}
	}
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
	if len(b.costlyWords) > 0 {
		parts = append(parts, "left out as used by too many talks to search each (the rarer words are searched): "+strings.Join(b.costlyWords, ", "))
	}
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

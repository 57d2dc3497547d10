package synonyms

import (
	_ "embed"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/analysis"
)

// Query-time synonyms. The index holds the words the talks use; a query is
// searched as typed AND with alternative phrasings of its words (MoE ↔
// mixture of experts). Expanding queries rather than the index keeps the
// index small, lets a synonym change apply without a rebuild, and lets a
// response say which synonyms applied.
//
// The groups come from three places:
//   - synonyms.txt, a curated list (acronyms, spellings);
//   - the corpus itself: every "long form (ACRONYM)" it writes, such as
//     "Mixture-of-Experts (MoE)" or "Expert Parallelism (EP)";
//   - the corpus's CamelCase names, one way: "flex attention" also searches
//     "FlexAttention" (the analyzer keeps flexattention one term);
//   - the corpus's aliases, one way: "postgres" also searches PostgreSQL,
//     "k8s" Kubernetes (MineAliases).

//go:embed synonyms.txt
var curatedSynonyms string

// Where a synonym group comes from.
const (
	SourceCurated = "curated" // synonyms.txt
	SourceCorpus  = "corpus"  // "long form (ACRONYM)" in a talk
	SourceName    = "name"    // a CamelCase name of the corpus, split
	SourceAlias   = "alias"   // a short form the corpus writes beside its long form (MineAliases)
)

// SynonymGroup is one set of phrases that mean the same.
type SynonymGroup struct {
	// Phrases as written in the data file or the corpus; the first is the
	// one the group is known by (the acronym, where there is one).
	Phrases []string
	// OneWay groups apply from Phrases[0] to the others only.
	OneWay bool
	// Sources lists where the phrases came from (Source* constants), sorted.
	Sources []string
}

// Expansion is one synonym group that applied to a query.
type Expansion struct {
	// Start and End delimit the query words that matched: words[Start:End].
	Start, End int
	// Matched is the group's phrase those words are ("MoE").
	Matched string
	// Alternatives are the group's other phrases, to search as phrases in
	// place of (in addition to) words[Start:End].
	Alternatives []string
	// Sources of the group (Source* constants).
	Sources []string
}

// String says what applied, for logs and the CLI: "MoE → mixture of experts".
func (e Expansion) String() string {
	return e.Matched + " → " + strings.Join(e.Alternatives, ", ")
}

// Thesaurus finds synonyms of query words. It is immutable after
// NewThesaurus and safe for concurrent use.
type Thesaurus struct {
	groups []SynonymGroup
	// byKey maps the analysed key of a phrase to the groups it triggers.
	byKey map[string][]phraseRef
	// maxTerms is the longest key in terms, bounding the match window.
	maxTerms int
	// terms analyse the query words Expand is given, with a stem cache
	// that lives as long as the thesaurus (one index generation).
	terms *analysis.Terms
}

type phraseRef struct {
	group, phrase int
}

// NewThesaurus returns the curated synonyms plus those mined from talks.
func NewThesaurus(talks []index.Talk) *Thesaurus {
	return NewThesaurusUsing(talks, analysis.NewTerms())
}

// NewThesaurusUsing is NewThesaurus analysing the query words it expands
// with terms, whose stem cache an engine shares among the parts of one
// index generation.
func NewThesaurusUsing(talks []index.Talk, terms *analysis.Terms) *Thesaurus {
	return NewThesaurusOf(index.Whole(talks), terms)
}

// MaxMinedTalks is the most talks the thesaurus's mining reads: a larger
// corpus mines every MinedStep-th talk, in its order. Acronyms and aliases
// a corpus writes often enough to trust are in such a sample as well; what
// mining a whole corpus costs (its words numbered talk by talk, every text
// read three times) grows with it, and was most of a large corpus's start.
// Every corpus of at most this many talks is mined whole.
const MaxMinedTalks = 100_000

// MinedStep is the step of the talks mined from a corpus of n talks: 1 up
// to MaxMinedTalks, else the least that mines at most MaxMinedTalks.
func MinedStep(n int) int {
	if n <= MaxMinedTalks {
		return 1
	}
	return (n + MaxMinedTalks - 1) / MaxMinedTalks
}

// NewThesaurusOf is NewThesaurusUsing of a corpus whose texts may be in a
// store (index.Slim), mining a sample of a large one (MinedStep).
func NewThesaurusOf(c index.Slim, terms *analysis.Terms) *Thesaurus {
	step := MinedStep(c.Len())
	b := newThesaurusBuilder()
	for _, line := range strings.Split(curatedSynonyms, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var phrases []string
		for _, p := range strings.Split(line, "|") {
			if p = strings.TrimSpace(p); p != "" {
				phrases = append(phrases, p)
			}
		}
		b.add(phrases, false, SourceCurated)
	}
	// An acronym the corpus spells out in several ways keeps the long
	// form most of its talks use, and none when each is one talk's: one
	// talk's "open-source (OS)" must not make "open source" search every
	// talk about an operating system. Tracks are mined too: an acronym
	// whose expansion only a track name gives is still found.
	type longForm struct {
		text  string
		talks int
	}
	var acronyms []string
	forms := map[string][]*longForm{} // acronym → its long forms, first seen first
	short := map[string]string{}      // acronym key → the acronym as first written
	c.EachEvery(step, func(_ int, t *index.Talk) {
		seen := map[string]bool{}
		for _, text := range []string{t.Title, t.Abstract, t.Track} {
			for _, pair := range MineAcronyms(text) {
				ak, lk := keyOf(pair[0]), keyOf(pair[1])
				if ak == "" || lk == "" || seen[ak+"|"+lk] {
					continue
				}
				seen[ak+"|"+lk] = true
				// Copies: the texts may be the caller's scratch
				// (index.Slim.Each).
				if _, ok := short[ak]; !ok {
					short[ak] = strings.Clone(pair[0])
					acronyms = append(acronyms, ak)
				}
				found := false
				for _, f := range forms[ak] {
					if keyOf(f.text) == lk {
						f.talks++
						found = true
					}
				}
				if !found {
					forms[ak] = append(forms[ak], &longForm{strings.Clone(pair[1]), 1})
				}
			}
			for _, name := range camelNames(text) {
				b.add([]string{splitCamel(name), strings.Clone(name)}, true, SourceName)
			}
		}
	})
	for _, ak := range acronyms {
		most, tied := 0, 0
		for _, f := range forms[ak] {
			switch {
			case f.talks > most:
				most, tied = f.talks, 1
			case f.talks == most:
				tied++
			}
		}
		if most == 1 && tied > 1 {
			// Two talks, two meanings (OS: "operating system" and
			// "open-source"): nothing says which a query means.
			continue
		}
		for _, f := range forms[ak] {
			if f.talks == most {
				b.add([]string{short[ak], f.text}, false, SourceCorpus)
			}
		}
	}
	// One way: a talk that writes "k8s" writes "Kubernetes" too (that is
	// the evidence), so "kubernetes" gains nothing from "k8s". A short form
	// the curated list or the corpus's "long form (ACRONYM)" already spells
	// out longer keeps that: "SDN" is software-defined networking, not the
	// "software defined" its letters also abbreviate; "wasm" is Web Assembly
	// there and WebAssembly here.
	for _, a := range mineAliases(c, step) {
		if !b.spellsOut(a.Short, a.Long) {
			b.add([]string{a.Short, a.Long}, true, SourceAlias)
		}
	}
	return b.build(terms)
}

// Groups returns every synonym group, curated first, then in corpus order.
func (th *Thesaurus) Groups() []SynonymGroup {
	return slices.Clone(th.groups)
}

// Expand finds the synonym groups that apply to words, the plain words of
// a query in order (no operators or quotes). Matches cover whole words and
// do not overlap; the longest match wins from left to right, so "mixture
// of experts" is one match, not "experts" alone.
func (th *Thesaurus) Expand(words []string) []Expansion {
	type term struct {
		text        string
		word        int
		first, last bool // first/last term of its word
	}
	var terms []term
	for i, w := range words {
		ks := th.terms.Key(w)
		for j, k := range ks {
			terms = append(terms, term{k, i, j == 0, j == len(ks)-1})
		}
	}
	var out []Expansion
	// The key of each run of terms is written into one buffer and looked
	// up without making a string of it: most runs are no key.
	var key []byte
	for s := 0; s < len(terms); {
		if !terms[s].first {
			s++
			continue
		}
		matched := 0
		for n := min(th.maxTerms, len(terms)-s); n > 0 && matched == 0; n-- {
			if !terms[s+n-1].last {
				continue
			}
			key = key[:0]
			for i := range n {
				if i > 0 {
					key = append(key, ' ')
				}
				key = append(key, terms[s+i].text...)
			}
			for _, ref := range th.byKey[string(key)] {
				g := th.groups[ref.group]
				var alts []string
				for i, p := range g.Phrases {
					if i != ref.phrase {
						alts = append(alts, p)
					}
				}
				out = append(out, Expansion{
					Start: terms[s].word, End: terms[s+n-1].word + 1,
					Matched: g.Phrases[ref.phrase], Alternatives: alts, Sources: slices.Clone(g.Sources),
				})
				matched = n
			}
		}
		s += max(matched, 1)
	}
	return out
}

func keyOf(phrase string) string { return strings.Join(analysis.KeyTerms(phrase), " ") }

type thesaurusBuilder struct {
	groups []SynonymGroup
	// symmetric maps a key to the symmetric group holding it, so the same
	// acronym from the data file and from three talks is one group.
	symmetric map[string]int
	oneWay    map[string]bool // "from key → to key" already added
	// seen holds the phrase lists already added, as written: a corpus
	// repeats its names and acronyms, and analysing them again is most of
	// the cost of a large corpus.
	seen map[string]bool
}

func newThesaurusBuilder() *thesaurusBuilder {
	return &thesaurusBuilder{symmetric: map[string]int{}, oneWay: map[string]bool{}, seen: map[string]bool{}}
}

func (b *thesaurusBuilder) add(phrases []string, oneWay bool, source string) {
	if len(phrases) < 2 {
		return
	}
	raw := strings.Join(phrases, "|") + "|" + source
	if b.seen[raw] {
		return
	}
	b.seen[raw] = true
	if oneWay {
		from, to := keyOf(phrases[0]), keyOf(phrases[1])
		id := from + "→" + to
		if b.oneWay[id] || from == to {
			return
		}
		b.oneWay[id] = true
		b.groups = append(b.groups, SynonymGroup{Phrases: phrases, OneWay: true, Sources: []string{source}})
		return
	}
	g := -1
	for _, p := range phrases {
		if i, ok := b.symmetric[keyOf(p)]; ok {
			g = i
			break
		}
	}
	if g < 0 {
		g = len(b.groups)
		b.groups = append(b.groups, SynonymGroup{})
	}
	grp := &b.groups[g]
	for _, p := range phrases {
		k := keyOf(p)
		if k == "" {
			continue
		}
		if _, ok := b.symmetric[k]; !ok {
			b.symmetric[k] = g
			grp.Phrases = append(grp.Phrases, p)
		}
	}
	if !slices.Contains(grp.Sources, source) {
		grp.Sources = append(grp.Sources, source)
		slices.Sort(grp.Sources)
	}
}

// spellsOut says whether a symmetric group has short with a long form that
// begins with long (and goes on).
func (b *thesaurusBuilder) spellsOut(short, long string) bool {
	g, ok := b.symmetric[keyOf(short)]
	if !ok {
		return false
	}
	lk := keyOf(long)
	for _, p := range b.groups[g].Phrases {
		if pk := keyOf(p); pk != lk && strings.HasPrefix(pk, lk+" ") {
			return true
		}
	}
	return false
}

func (b *thesaurusBuilder) build(terms *analysis.Terms) *Thesaurus {
	th := &Thesaurus{byKey: map[string][]phraseRef{}, terms: terms}
	for _, g := range b.groups {
		if len(g.Phrases) < 2 {
			continue
		}
		th.groups = append(th.groups, g)
		triggers := len(g.Phrases)
		if g.OneWay {
			triggers = 1
		}
		for i, p := range g.Phrases[:triggers] {
			k := th.terms.Key(p)
			key := strings.Join(k, " ")
			th.byKey[key] = append(th.byKey[key], phraseRef{len(th.groups) - 1, i})
			th.maxTerms = max(th.maxTerms, len(k))
		}
	}
	return th
}

var (
	// acronymInParens is "(MoE)", "(EP)", "(VLMs)": a short word of
	// letters in parentheses.
	acronymInParens = regexp.MustCompile(`\(([A-Za-z]{2,10})\)`)
	// minorWords may sit inside a long form without a letter in the acronym
	// (Mixture of Experts → ME is rare; MoE takes the "o").
	minorWords = map[string]bool{"of": true, "and": true, "for": true, "the": true, "to": true,
		"in": true, "on": true, "with": true, "a": true, "an": true, "from": true}
)

// MineAcronyms returns the [acronym, long form] pairs text defines by
// writing "long form (ACRONYM)", such as ["MoE", "Mixture-of-Experts"].
// The acronym must have two capitals and its letters must be the initials
// of the long form's words, in order, optionally followed by more letters
// of the same word (Async in "Asynchronous"); small words may be skipped.
// The shortest such long form is taken. The method follows Schwartz &
// Hearst (2003), made stricter on word initials.
func MineAcronyms(text string) [][2]string {
	var pairs [][2]string
	for _, m := range acronymInParens.FindAllStringSubmatchIndex(text, -1) {
		short := text[m[2]:m[3]]
		if n := len(short); short[n-1] == 's' && analysis.IsAcronymPlural([]byte(short)) {
			short = short[:n-1]
		}
		if countUpper(short) < 2 {
			continue
		}
		before := text[:m[0]]
		if i := strings.LastIndexAny(before, ".;:!?()\n\"“”"); i >= 0 {
			before = before[i+1:]
		}
		words := strings.Fields(before)
		for i, w := range words {
			words[i] = strings.Trim(w, ",'’\"")
		}
		limit := min(len(words), len(short)+3)
		for n := 1; n <= limit; n++ {
			cand := words[len(words)-n:]
			if minorWords[strings.ToLower(cand[0])] {
				continue
			}
			if coversInitials(cand, strings.ToLower(short)) {
				pairs = append(pairs, [2]string{short, strings.Join(cand, " ")})
				break
			}
		}
	}
	return pairs
}

// coversInitials says whether the words spell acronym (lower-case): each
// word that is not minor gives a non-empty run of its letters, starting
// with its initial; minor words give their initial or nothing.
func coversInitials(words []string, acronym string) bool {
	if len(words) == 0 {
		return acronym == ""
	}
	w := strings.ToLower(words[0])
	rest := words[1:]
	if minorWords[w] && coversInitials(rest, acronym) {
		return true
	}
	if acronym == "" || w == "" || w[0] != acronym[0] {
		return false
	}
	// Take acronym[:k] from w: the initial, then a subsequence of w.
	for k := 1; k <= len(acronym); k++ {
		if isSubsequence(acronym[1:k], w[1:]) && coversInitials(rest, acronym[k:]) {
			return true
		}
	}
	return false
}

func isSubsequence(sub, s string) bool {
	for i := 0; i < len(sub); i++ {
		j := strings.IndexByte(s, sub[i])
		if j < 0 {
			return false
		}
		s = s[j+1:]
	}
	return true
}

func countUpper(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsUpper(r) {
			n++
		}
	}
	return n
}

// camelNames returns the names of text made of two or more capitalised
// words run together: FlexAttention, TorchTitan. Names with an acronym
// inside (TorchJD, vLLM) or a plural acronym (ViTs) are left out: their
// split would not be what a reader types. (A hand-written scan: the
// equivalent regexp over every text of a large corpus would cost more than
// the rest of NewThesaurus.)
func camelNames(text string) []string {
	var names []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if isCamelName(w) {
			names = append(names, w)
		}
	}
	return names
}

// isCamelName: [A-Z][a-z]+ followed by one or more [A-Z][a-z]{2,}, ASCII.
func isCamelName(w string) bool {
	humps, run := 0, 0 // capitalised words so far; lower-case letters in the current one
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case 'A' <= c && c <= 'Z':
			if i > 0 && (run < 1 || (humps > 1 && run < 2)) {
				return false
			}
			humps, run = humps+1, 0
		case 'a' <= c && c <= 'z':
			if i == 0 {
				return false
			}
			run++
		default:
			return false
		}
	}
	return humps >= 2 && run >= 2
}

// splitCamel is "flex attention" for "FlexAttention".
func splitCamel(name string) string {
	var b strings.Builder
	for i, r := range name {
		if i > 0 && unicode.IsUpper(r) {
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

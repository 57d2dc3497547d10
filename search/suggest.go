package search

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/analysis"
	"github.com/talksearch/talksearch/search/synonyms"
	"github.com/talksearch/talksearch/search/syntax"
)

// vocabulary is the words of the corpus as written (lower-cased, not
// stemmed), with the number of talks using each: what typos are corrected
// to. Correcting against surface words rather than stems keeps suggestions
// readable ("speculative", not "specul") and lets a misspelling whose stem
// differs from the right word's ("speculativ") still find it.
type vocabulary struct {
	df map[string]int
	// lengths are byLen's words with their runes and letter signatures
	// (fuzzy.go).
	lengths lengthTable
	// hyphens maps a joined form to the hyphenated word the corpus writes
	// ("pretraining" → "pre-training", variants.go).
	hyphens map[string]string
	byLen   map[int][]string  // words by rune length, for the edit-distance scan
	runes   map[string][]rune // each word's runes, decoded once
	sorted  []string          // every word, for prefix ranges
	// folded maps a word with accents as typed without them to the corpus
	// words it stands for ("monig" → "mönig", drift.go).
	folded map[string][]string
	// speakers are the words of speakers' names (drift.go).
	speakers map[string]bool
}

func newVocabulary(talks []index.Talk) *vocabulary { return newVocabularyOf(index.Whole(talks)) }

// newVocabularyOf is newVocabulary of a corpus whose texts may be in a
// store: every talk is read, so typos are corrected to any word of it.
func newVocabularyOf(c index.Slim) *vocabulary {
	v := &vocabulary{df: map[string]int{}, hyphens: map[string]string{}, byLen: map[int][]string{}, runes: map[string][]rune{}, speakers: map[string]bool{}}
	seen := map[string]bool{}
	c.Each(func(_ int, t *index.Talk) {
		clear(seen)
		add := func(text string) {
			eachSurfaceWord(text, func(w string) {
				if !seen[w] {
					n, known := v.df[w]
					if !known {
						// A copy: w may be a substring of a scratch
						// talk's text (index.Slim.Each), and a word
						// kept would hold its whole text.
						w = strings.Clone(w)
					}
					seen[w] = true
					v.df[w] = n + 1
				}
			})
		}
		add(t.Title)
		add(t.Abstract)
		add(t.Description)
		add(t.Track)
		add(t.Room)
		v.addHyphenated(t.Title)
		v.addHyphenated(t.Abstract)
		v.addHyphenated(t.DescriptionText())
		for _, sp := range t.Speakers {
			add(sp.Name)
			add(sp.Affiliation)
			eachSurfaceWord(sp.Name, func(w string) { v.speakers[w] = true })
		}
	})
	for w := range v.df {
		rs := []rune(w)
		v.runes[w] = rs
		n := len(rs)
		v.byLen[n] = append(v.byLen[n], w)
		v.sorted = append(v.sorted, w)
	}
	sort.Strings(v.sorted)
	v.fold()
	for _, ws := range v.byLen {
		sort.Strings(ws)
	}
	return v
}

// fold fills v.folded from v.sorted: each word with accents under its
// form without them, most used first.
func (v *vocabulary) fold() {
	v.folded = map[string][]string{}
	for _, w := range v.sorted {
		if strings.IndexFunc(w, func(r rune) bool { return r >= utf8.RuneSelf }) < 0 {
			continue
		}
		if f := analysis.FoldText(w); f != w && isWord(f) {
			v.folded[f] = append(v.folded[f], w)
		}
	}
	for _, ws := range v.folded {
		sort.SliceStable(ws, func(i, j int) bool { return v.df[ws[i]] > v.df[ws[j]] })
	}
}

// surfaceWords splits text into lower-cased runs of letters and digits.
func surfaceWords(text string) []string {
	var words []string
	eachSurfaceWord(text, func(w string) { words = append(words, w) })
	return words
}

// eachSurfaceWord calls fn with each of surfaceWords(text) in turn: the
// runs of letters and digits of strings.ToLower(text), without lower-casing
// the whole text first. A word already in lower case is a substring of
// text, not a copy: lower-casing every text before splitting it would
// copy the whole corpus's text once more to build its vocabulary. A
// rune is part of a word when its lower case is a letter or a digit, as in
// the lower-cased text; strings.ToLower maps rune by rune, so a word's
// lower case is the lower-cased text's word.
func eachSurfaceWord(text string, fn func(string)) {
	start, lower := -1, true // the word being read, and whether it is already lower case
	emit := func(end int) {
		if w := text[start:end]; lower {
			fn(w)
		} else {
			fn(strings.ToLower(w))
		}
	}
	for i, r := range text {
		in, isLower := wordRune(r)
		switch {
		case in && start < 0:
			start, lower = i, isLower
		case in:
			lower = lower && isLower
		case start >= 0:
			emit(i)
			start = -1
		}
	}
	if start >= 0 {
		emit(len(text))
	}
}

// wordRune says whether r lower-cased is a letter or a digit, and whether r
// is its own lower case.
func wordRune(r rune) (in, isLower bool) {
	if r < utf8.RuneSelf {
		switch {
		case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
			return true, true
		case 'A' <= r && r <= 'Z':
			return true, false
		}
		return false, true
	}
	l := unicode.ToLower(r)
	return unicode.IsLetter(l) || unicode.IsNumber(l), l == r
}

// maxEdits is how many edits a word of n letters may be away from its
// correction: short words have too many neighbours to guess.
func maxEdits(n int) int {
	switch {
	case n < 5:
		return 0
	case n < 8:
		return 1
	default:
		return 2
	}
}

// correctWithin returns the corpus words closest to w, at most limit edits
// away (a swap of neighbours counting as one), most used first, at most max
// of them; none when w is itself a corpus word.
func (v *vocabulary) correctWithin(w string, limit, max int) []string {
	w = strings.ToLower(w)
	if v.df[w] > 0 || limit <= 0 {
		return nil
	}
	rw := []rune(w)
	// best is the distance of the closest words so far; only words within
	// limit are ever returned, so none further is measured exactly.
	best := limit + 1
	var cands []string
	var rows editRows
	table, sw := v.lengths.of(v), letterSig(rw)
	for n := len(rw) - limit; n <= len(rw)+limit; n++ {
		sl := table[n]
		if sl == nil {
			continue
		}
		for i, sig := range sl.sigs {
			bound := min(best, limit)
			if n-len(rw) > bound || len(rw)-n > bound || sigDistance(sw, sig) > bound {
				continue
			}
			d := rows.distance(rw, sl.runes[i], bound)
			switch {
			case d > bound: // further than a word kept or the limit
			case d < best:
				best = d
				cands = append(cands[:0], sl.words[i])
			case d == best:
				cands = append(cands, sl.words[i])
			}
		}
	}
	if best > limit {
		return nil
	}
	sort.SliceStable(cands, func(i, j int) bool { return v.df[cands[i]] > v.df[cands[j]] })
	if len(cands) > max {
		cands = cands[:max]
	}
	return cands
}

// editRows are the rows of the edit-distance table, reused across the
// words of a scan.
type editRows struct{ a, b, c []int }

func (r *editRows) grow(n int) {
	if cap(r.a) < n {
		r.a, r.b, r.c = make([]int, n), make([]int, n), make([]int, n)
	}
	r.a, r.b, r.c = r.a[:n], r.b[:n], r.c[:n]
}

// distance is the optimal-string-alignment distance of a and b (the
// Levenshtein distance where swapping two neighbours is one edit), or any
// value above bound once it is certain to exceed bound.
func (r *editRows) distance(a, b []rune, bound int) int {
	if d := len(a) - len(b); d > bound || -d > bound {
		return bound + 1
	}
	// Three rows: the one before the previous is needed for swaps.
	r.grow(len(b) + 1)
	prev2, prev, cur := r.a, r.b, r.c
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > bound {
			return bound + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// corrections returns what the user probably meant by w when the index does
// not know w: the closest corpus words. Words with digits or punctuation
// (`mi300x`, `<1ms`) are product names and numbers, never corrected.
// edits caps the edits looked for (typoEdits).
func (s *snapshot) corrections(w string, edits int) []string {
	lw := strings.ToLower(w)
	for _, r := range lw {
		if !unicode.IsLetter(r) {
			return nil
		}
	}
	if s.vocab.df[lw] > 0 || s.knownTerms(s.knownForm(w)) || synonyms.IsEnglishWord(lw) {
		return nil
	}
	if fix := s.vocab.correctWithin(lw, min(edits, maxEdits(len([]rune(lw)))), 2); len(fix) > 0 {
		return fix
	}
	return s.vocab.family(lw, 2)
}

// forms returns the corpus' other forms of an English word the corpus does
// not use ("debugger" → "debugging"): searched beside it as variants, not
// proposed as corrections, since the word is not a typo.
func (s *snapshot) forms(w string) []string {
	lw := strings.ToLower(w)
	if !isWord(lw) || s.vocab.df[lw] > 0 || s.knownTerms(s.knownForm(w)) || !synonyms.IsEnglishWord(lw) {
		return nil
	}
	return s.vocab.family(lw, 2)
}

// family returns corpus words that look like another form of w, whose
// stem the stemmer did not reach ("debugger" → "debugging", "debug"): the
// words sharing the longest prefix with w, of at least five letters and
// all but three of w's, most used first, at most max of them.
func (v *vocabulary) family(w string, max int) []string {
	rw := []rune(w)
	for k := len(rw) - 1; k >= 5 && k >= len(rw)-3; k-- {
		prefix := string(rw[:k])
		i := sort.SearchStrings(v.sorted, prefix)
		var cands []string
		for ; i < len(v.sorted) && strings.HasPrefix(v.sorted[i], prefix); i++ {
			if c := v.sorted[i]; c != w && len(c) <= len(w)+5 {
				cands = append(cands, c)
			}
		}
		if len(cands) == 0 {
			continue
		}
		sort.SliceStable(cands, func(i, j int) bool { return v.df[cands[i]] > v.df[cands[j]] })
		if len(cands) > max {
			cands = cands[:max]
		}
		return cands
	}
	return nil
}

// knownTerms says whether every index term of w occurs in the corpus.
func (s *snapshot) knownTerms(w string) bool {
	terms := s.analyze(w)
	if len(terms) == 0 {
		return false
	}
	for _, t := range terms {
		if s.dict[t] == 0 {
			return false
		}
	}
	return true
}

// suggestQuery proposes another query when one found nothing: each word the
// corpus does not know (in phrases and field clauses too) replaced by its
// closest corpus word, allowing four-letter words the one edit a search
// does not guess by itself. "" when there is nothing better to propose.
func (s *snapshot) suggestQuery(p syntax.Query) string {
	var words []string
	words = append(words, p.Words...)
	for _, ph := range p.Phrases {
		words = append(words, strings.Fields(ph)...)
	}
	for _, fc := range p.Fields {
		if fc.Prefix != "track" {
			words = append(words, strings.Fields(fc.Value)...)
		}
	}
	var fixes [][2]string
	lookups := 0
	for _, w := range words {
		lw := strings.ToLower(w)
		if s.vocab.df[lw] > 0 || s.knownTerms(w) || len([]rune(lw)) < 4 || synonyms.IsEnglishWord(lw) {
			continue
		}
		// The cost model's bound on typo lookups (cost.go).
		if lookups++; lookups > maxCorrections {
			break
		}
		if fix := s.vocab.correctWithin(lw, max(1, maxEdits(len([]rune(lw)))), 1); len(fix) > 0 {
			fixes = append(fixes, [2]string{w, fix[0]})
		}
	}
	return replaceWords(p.Raw, fixes)
}

// replaceWords returns query with each word fixes[i][0] replaced by
// fixes[i][1], keeping quotes, prefixes and the other words as typed; ""
// when nothing changes.
func replaceWords(query string, fixes [][2]string) string {
	if len(fixes) == 0 {
		return ""
	}
	fields := strings.Fields(query)
	changed := false
	for i, f := range fields {
		for _, fx := range fixes {
			// The word may carry a quote or a prefix: replace inside.
			if j := strings.Index(f, fx[0]); j >= 0 && fx[0] != fx[1] {
				fields[i] = f[:j] + sameCase(fx[1], fx[0]) + f[j+len(fx[0]):]
				changed = true
				break
			}
		}
	}
	if !changed {
		return ""
	}
	return strings.Join(fields, " ")
}

// sameCase writes word, a lower-case corpus word, in the case of typed:
// "Monrach" is corrected to "Monarch", "MONRACH" to "MONARCH".
func sameCase(word, typed string) string {
	rs := []rune(typed)
	switch {
	case len(rs) > 1 && strings.ToUpper(typed) == typed && strings.ToLower(typed) != typed:
		return strings.ToUpper(word)
	case len(rs) > 0 && unicode.IsUpper(rs[0]):
		w := []rune(word)
		w[0] = unicode.ToUpper(w[0])
		return string(w)
	}
	return word
}

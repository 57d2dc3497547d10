package overlap

import (
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/talksearch/talksearch/index/analysis"
)

// titleBoost is how many abstract occurrences one title occurrence is worth:
// a title states what the talk is about, an abstract also says how.
const titleBoost = 3

// textAnalyzer turns text into the index's terms, token by token, so a term
// can be traced back to the words that produced it (for passages and for
// showing "Monarch" rather than "monarch").
type textAnalyzer struct {
	stop    map[string]bool
	cache   map[string][]string // lower-cased token -> its non-stop terms
	phrases map[string][]phrase // last word -> phrases ending with it
}

// phrases name one thing in several ways; each way adds the thing's own
// term, so "RL" and "reinforcement learning", or "CUDAGraphs" and "CUDA
// Graphs", make two talks share a term. The term is what the analyzer makes
// of the one-word name, so it also matches talks that use that name.
var phraseNames = []struct{ words, name string }{
	{"reinforcement learning", "rl"},
	{"mixture of experts", "moe"},
	{"large language models", "llm"},
	{"llms", "llm"},
	{"cuda graphs", "cudagraphs"},
	{"post training", "posttraining"},
	{"pre training", "pretraining"},
	{"kv cache", "kvcache"},
	{"hugging face", "huggingface"},
	{"torch.compile", "torchcompile"},
	{"torch compile", "torchcompile"},
}

// phrase is one entry of phraseNames, split into words (plural s removed).
type phrase struct {
	words []string
	term  string
}

func newTextAnalyzer() *textAnalyzer {
	a := &textAnalyzer{stop: map[string]bool{}, cache: map[string][]string{}, phrases: map[string][]phrase{}}
	for _, list := range [][]string{analysis.FunctionWords(), analysis.GenericTerms()} {
		for _, w := range list {
			a.stop[w] = true
			// The stop list must match whatever the analyzer makes of
			// the words (stems), so run them through it.
			for _, t := range analysis.AnalyzeTerms(w) {
				a.stop[t] = true
			}
		}
	}
	for _, p := range phraseNames {
		terms := a.terms(p.name)
		if len(terms) != 1 {
			continue
		}
		words := strings.Fields(p.words)
		for k, w := range words {
			words[k] = phraseWord(w)
		}
		last := words[len(words)-1]
		a.phrases[last] = append(a.phrases[last], phrase{words, terms[0]})
	}
	return a
}

// phraseWord is a word as phrases are matched: lower case, no plural s.
func phraseWord(w string) string {
	w = strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(w), "'s"), "’s")
	if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
		w = w[:len(w)-1]
	}
	return w
}

// occurrence is one term found in a text, carried by the tokens first..last
// (one token, or the words of a phrase).
type occurrence struct {
	first, last int
	term        string
}

// occurrences returns the terms of text in token order: each token's own
// terms, and the term of each phrase that ends at a token.
func (a *textAnalyzer) occurrences(text string, toks []span) []occurrence {
	var out []occurrence
	words := make([]string, len(toks))
	for k, tok := range toks {
		words[k] = phraseWord(text[tok.start:tok.end])
		for _, t := range a.terms(text[tok.start:tok.end]) {
			out = append(out, occurrence{k, k, t})
		}
		for _, p := range a.phrases[words[k]] {
			first := k - len(p.words) + 1
			if first < 0 || !equalWords(words[first:k+1], p.words) {
				continue
			}
			// A phrase naming the token's own term ("LLMs" -> llm) adds
			// nothing new.
			if first == k && containsTerm(a.terms(text[tok.start:tok.end]), p.term) {
				continue
			}
			out = append(out, occurrence{first, k, p.term})
		}
	}
	return out
}

func equalWords(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

func containsTerm(ts []string, t string) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

// terms returns the non-stop index terms of one token.
func (a *textAnalyzer) terms(token string) []string {
	// A possessive is the word itself ("Monarch’s" is about Monarch).
	key := strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(token), "'s"), "’s")
	if ts, ok := a.cache[key]; ok {
		return ts
	}
	var out []string
	for _, t := range analysis.AnalyzeTerms(key) {
		t = strings.TrimFunc(t, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if utf8.RuneCountInString(t) < 2 || a.stop[t] || !hasLetter(t) || strings.ContainsAny(t, "'’") {
			continue
		}
		out = append(out, t)
	}
	a.cache[key] = out
	return out
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// span is a token's byte range in its text.
type span struct{ start, end int }

// tokenize splits text into words the way Bleve's unicode tokenizer does for
// our purposes: letters and digits, joined across '.', '_' and apostrophes
// between them (torch.compile, Monarch’s, 3.2), split on everything else
// (KV-cache is KV and cache, C++ is C).
func tokenize(text string) []span {
	var out []span
	start := -1
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	for i, r := range text {
		if isWord(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && (r == '.' || r == '_' || r == '\'' || r == '’') {
			next, _ := utf8.DecodeRuneInString(text[i+utf8.RuneLen(r):])
			if isWord(next) {
				continue
			}
		}
		if start >= 0 {
			out = append(out, span{start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, span{start, len(text)})
	}
	return out
}

// vector is a talk's weighted terms: ids sorted ascending, weights scaled to
// unit length so a dot product is the cosine.
type vector struct {
	ids []int32
	w   []float32
}

// vocab numbers terms and counts in how many talks each occurs.
type vocab struct {
	ids   map[string]int32
	terms []string
	df    []int32
}

func newVocab() *vocab { return &vocab{ids: map[string]int32{}} }

func (v *vocab) id(term string) int32 {
	if id, ok := v.ids[term]; ok {
		return id
	}
	id := int32(len(v.terms))
	v.ids[term] = id
	v.terms = append(v.terms, term)
	v.df = append(v.df, 0)
	return id
}

// count returns a talk's raw term frequencies, title occurrences boosted,
// as a vector (ids ascending) to be weighed once every talk is counted.
func (a *textAnalyzer) count(v *vocab, title, abstract string) vector {
	c := map[int32]float32{}
	add := func(text string, weight float32) {
		for _, o := range a.occurrences(text, tokenize(text)) {
			c[v.id(o.term)] += weight
		}
	}
	add(title, titleBoost)
	add(abstract, 1)
	vec := vector{ids: make([]int32, 0, len(c)), w: make([]float32, len(c))}
	for id := range c {
		vec.ids = append(vec.ids, id)
		v.df[id]++
	}
	slices.Sort(vec.ids)
	for i, id := range vec.ids {
		vec.w[i] = c[id]
	}
	return vec
}

// idf is smoothed so that a term in every talk still weighs a little: with
// two submissions, ln(N/df) would make their shared words worth nothing.
func idf(n int, df int32) float64 { return math.Log(1 + float64(n)/float64(df)) }

// weigh turns the counts of vec into unit-length weights, in place, with
// sublinear tf and idf.
func weigh(vec vector, v *vocab, n int) {
	var norm float64
	for i, id := range vec.ids {
		w := (1 + math.Log(float64(vec.w[i]))) * idf(n, v.df[id])
		vec.w[i] = float32(w)
		norm += w * w
	}
	norm = math.Sqrt(norm)
	for i := range vec.w {
		vec.w[i] = float32(float64(vec.w[i]) / norm)
	}
}

// dot is the cosine of two unit vectors.
func dot(a, b vector) float64 {
	s, _ := dotSecond(a, b)
	return s
}

// dotSecond is the cosine of two unit vectors and the second largest
// contribution of one shared term to it: whether a pair rests on one word
// is known in the same pass.
func dotSecond(a, b vector) (cos, second float64) {
	var first float64
	ai, aw, bi, bw := a.ids, a.w, b.ids, b.w
	i, j := 0, 0
	for i < len(ai) && j < len(bi) {
		switch x, y := ai[i], bi[j]; {
		case x < y:
			i++
		case x > y:
			j++
		default:
			p := float64(aw[i]) * float64(bw[j])
			cos += p
			if p > first {
				first, second = p, first
			} else if p > second {
				second = p
			}
			i++
			j++
		}
	}
	return cos, second
}

// sharedTerm is a term both talks have, with its part of their cosine.
type sharedTerm struct {
	id     int32
	weight float64
}

// shared lists the terms of a and b, largest contribution first.
func shared(a, b vector) []sharedTerm {
	var out []sharedTerm
	i, j := 0, 0
	for i < len(a.ids) && j < len(b.ids) {
		switch {
		case a.ids[i] < b.ids[j]:
			i++
		case a.ids[i] > b.ids[j]:
			j++
		default:
			out = append(out, sharedTerm{a.ids[i], float64(a.w[i]) * float64(b.w[j])})
			i++
			j++
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].weight > out[j].weight })
	return out
}

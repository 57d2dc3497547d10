package termvec

import (
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/talksearch/talksearch/index/analysis"
)

// TitleWeight is how many abstract occurrences one title occurrence of a
// term is worth: a title states what the talk is about, an abstract also
// says how.
const TitleWeight = 3

// Vector is a text's weighted terms: IDs (of one Vocab) ascending, W their
// weights. Once weighed (Vocab.Weigh) it has unit length.
type Vector struct {
	IDs []int32
	W   []float32
}

// Len is the number of distinct terms.
func (v Vector) Len() int { return len(v.IDs) }

// Vocab numbers terms and holds the number of documents each occurs in.
// Count adds terms; a Vocab that only Lookup and Weigh read is safe for
// concurrent use.
type Vocab struct {
	ids   map[string]int32
	terms []string
	df    []int32
}

// NewVocab returns a vocabulary of the given document frequencies, terms
// numbered in sorted order (so ties broken by id are broken by term).
func NewVocab[N int | int32 | uint64](df map[string]N) *Vocab {
	terms := make([]string, 0, len(df))
	for t := range df {
		terms = append(terms, t)
	}
	slices.Sort(terms)
	v := &Vocab{ids: make(map[string]int32, len(terms)), terms: terms, df: make([]int32, len(terms))}
	for i, t := range terms {
		v.ids[t] = int32(i)
		v.df[i] = int32(min(uint64(df[t]), math.MaxInt32))
	}
	return v
}

// Lookup returns the id of term.
func (v *Vocab) Lookup(term string) (int32, bool) {
	id, ok := v.ids[term]
	return id, ok
}

// Term returns the term of id.
func (v *Vocab) Term(id int32) string { return v.terms[id] }

// DF returns the document frequency of every term, by id. The slice is the
// vocabulary's own: read it, do not change it.
func (v *Vocab) DF() []int32 { return v.df }

// Occurrence is one term of a text and what it counts for (1 in an
// abstract, TitleWeight in a title).
type Occurrence struct {
	Term   string
	Weight float32
}

// Count returns the raw term frequencies of one document as a vector (W
// holds the weighted counts), numbering new terms, and counts the document
// in the df of each of its terms. Weigh it once every document is counted.
func (v *Vocab) Count(occs []Occurrence) Vector {
	if v.ids == nil {
		v.ids = map[string]int32{}
	}
	c := map[int32]float32{}
	for _, o := range occs {
		id, ok := v.ids[o.Term]
		if !ok {
			id = int32(len(v.terms))
			v.ids[o.Term] = id
			v.terms = append(v.terms, o.Term)
			v.df = append(v.df, 0)
		}
		c[id] += o.Weight
	}
	vec := counted(c)
	for _, id := range vec.IDs {
		v.df[id]++
	}
	return vec
}

// CountKnown is Count for a vocabulary whose frequencies are given
// (NewVocab): terms it does not know are left out, and df is not changed.
func (v *Vocab) CountKnown(occs []Occurrence) Vector {
	c := map[int32]float32{}
	for _, o := range occs {
		if id, ok := v.ids[o.Term]; ok {
			c[id] += o.Weight
		}
	}
	return counted(c)
}

func counted(c map[int32]float32) Vector {
	vec := Vector{IDs: make([]int32, 0, len(c)), W: make([]float32, len(c))}
	for id := range c {
		vec.IDs = append(vec.IDs, id)
	}
	slices.Sort(vec.IDs)
	for i, id := range vec.IDs {
		vec.W[i] = c[id]
	}
	return vec
}

// IDF is the smoothed inverse document frequency of a term in df of n
// documents: ln(1 + n/df), so that a term in every talk still weighs a
// little; with two submissions, ln(n/df) would make their shared words
// worth nothing.
func IDF(n int, df int32) float64 { return math.Log(1 + float64(n)/float64(df)) }

// Weigh turns the raw counts of vec into unit-length weights, (1 + ln tf) ×
// IDF × boost(id), over n documents. A nil boost is 1 for every term; a
// term whose boost is 0 or less is left out. vec's slices are reused.
func (v *Vocab) Weigh(vec Vector, n int, boost func(id int32) float64) Vector {
	out := Vector{IDs: vec.IDs[:0], W: vec.W[:0]}
	var norm float64
	for i, id := range vec.IDs {
		b := 1.0
		if boost != nil {
			if b = boost(id); b <= 0 {
				continue
			}
		}
		w := (1 + math.Log(float64(vec.W[i]))) * IDF(n, v.df[id]) * b
		out.IDs = append(out.IDs, id)
		out.W = append(out.W, float32(w))
		norm += w * w
	}
	norm = math.Sqrt(norm)
	for i := range out.W {
		out.W[i] = float32(float64(out.W[i]) / norm)
	}
	return out
}

// Cosine is the cosine of two weighed vectors.
func Cosine(a, b Vector) float64 {
	s, _ := CosineSecond(a, b)
	return s
}

// CosineSecond is the cosine of two weighed vectors and the second largest
// contribution of one shared term to it: whether a pair rests on one word
// is known in the same pass.
func CosineSecond(a, b Vector) (cos, second float64) {
	var first float64
	ai, aw, bi, bw := a.IDs, a.W, b.IDs, b.W
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

// Share is a term and its weight: its part of a cosine (Shared) or its
// weight in one vector (Top).
type Share struct {
	ID     int32
	Weight float64
}

// Shared lists the terms of a and b with their part of the cosine, largest
// first, ties by id.
func Shared(a, b Vector) []Share {
	var out []Share
	i, j := 0, 0
	for i < len(a.IDs) && j < len(b.IDs) {
		switch {
		case a.IDs[i] < b.IDs[j]:
			i++
		case a.IDs[i] > b.IDs[j]:
			j++
		default:
			out = append(out, Share{a.IDs[i], float64(a.W[i]) * float64(b.W[j])})
			i++
			j++
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Weight > out[j].Weight })
	return out
}

// Top returns the k heaviest terms of v, heaviest first, ties by id: the
// terms that tell a text apart.
func Top(v Vector, k int) []Share {
	out := make([]Share, len(v.IDs))
	for i, id := range v.IDs {
		out[i] = Share{id, float64(v.W[i])}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Weight > out[j].Weight })
	return out[:min(k, len(out))]
}

// Content reports whether an index term can say what a text is about: at
// least two characters with a letter among them (no numbers), no
// apostrophe (the rest of a contraction), and none of the English function
// words or the words nearly every talk at a machine-learning conference
// uses (analysis.FunctionWords, analysis.GenericTerms), as typed or as the
// analyzer makes them. Without the second list two talks that share only
// "PyTorch", "training" and "GPU" look alike: on about a hundred talks
// their idf is not low enough.
func Content(term string) bool {
	return utf8.RuneCountInString(term) >= 2 && !filler()[term] && hasLetter(term) && !strings.ContainsAny(term, "'’")
}

// filler is the set Content excludes. One word at a time: the analyzer
// treats a word differently alone and in a run of stop words.
var filler = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, list := range [][]string{analysis.FunctionWords(), analysis.GenericTerms()} {
		for _, w := range list {
			out[w] = true
			for _, t := range analysis.AnalyzeTerms(w) {
				out[t] = true
			}
		}
	}
	return out
})

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// NameWords returns the words of text written as names: with a capital
// letter not at the start of a sentence, or a capital inside (vLLM,
// FlexAttention, ROCm). Talks about the same product are related more
// surely than talks sharing common words; callers boost the terms of
// these words (NameBoost).
func NameWords(text string) []string {
	var out []string
	sentenceStart := true
	for _, f := range strings.Fields(text) {
		w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if rs := []rune(w); len(rs) > 0 {
			name := unicode.IsUpper(rs[0]) && !sentenceStart
			for _, r := range rs[1:] {
				name = name || unicode.IsUpper(r)
			}
			if name {
				out = append(out, w)
			}
		}
		sentenceStart = strings.ContainsAny(f[len(f)-1:], ".?!:")
	}
	return out
}

// NameBoost multiplies the weight of a name's term (NameWords).
const NameBoost = 2

package analysis

import (
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
)

// AnalyzeTerms returns the index terms of text as the talk analyzer makes
// them (lower-cased, stemmed, technical tokens kept), in text order.
// Overlap detection and related talks use it so their terms are the index's.
// A model variant gives two terms at one position (mi300x, mi300): both are
// returned, in that order.
func AnalyzeTerms(text string) []string { return dataTerms.Analyze(text) }

// KeyTerms are the terms a phrase is compared by (the thesaurus keys its
// phrases by them): the talk analyzer without
// stop-word removal ("of" counts in "mixture of experts"), one term per
// position (a model variant's family is not part of the key).
func KeyTerms(phrase string) []string { return dataTerms.Key(phrase) }

// Terms are AnalyzeTerms and KeyTerms with a stem cache of their own: a
// thesaurus that analyses query words holds one per index generation, so
// no query word outlives the index it was asked of.
type Terms struct {
	analyzer *analysis.DefaultAnalyzer
	key      []analysis.TokenFilter
}

// TermsOf returns Terms sharing the stem cache of a talk analyzer (one of
// NewAnalyzer or Bleve's AnalyzerName), so that the parts of one index
// generation stem each word once; for any other analyzer, NewTerms.
func TermsOf(a analysis.Analyzer) *Terms {
	if d, ok := a.(*analysis.DefaultAnalyzer); ok && len(d.TokenFilters) > 0 {
		if f, ok := d.TokenFilters[len(d.TokenFilters)-1].(snowballFilter); ok {
			return newTerms(f.stems)
		}
	}
	return NewTerms()
}

// NewTerms returns Terms with an empty, bounded stem cache.
func NewTerms() *Terms { return newTerms(newStemCache()) }

func newTerms(stems *stemCache) *Terms {
	return &Terms{
		analyzer: newAnalyzer(stems),
		key:      []analysis.TokenFilter{en.NewPossessiveFilter(), normalizeFilter{}, snowballFilter{stems}},
	}
}

// dataTerms serve AnalyzeTerms and KeyTerms, which only ever see data-set
// text (talks, submissions, the thesaurus): their stem cache is bounded
// like every other and holds the corpus's words.
var dataTerms = NewTerms()

// Analyze is AnalyzeTerms.
func (t *Terms) Analyze(text string) []string {
	return termsOf(t.analyzer.Analyze([]byte(text)))
}

// Key is KeyTerms.
func (t *Terms) Key(phrase string) []string {
	ts := newTalkTokenizer().Tokenize([]byte(phrase))
	for _, f := range t.key {
		ts = f.Filter(ts)
	}
	var terms []string
	last := 0
	for _, tok := range ts {
		if tok.Position != last {
			terms = append(terms, string(tok.Term))
			last = tok.Position
		}
	}
	return terms
}

// Token is one index term of a text: the bytes of the text that carry it
// (text[Start:End], "C++" for cpp) and its position. A model variant's
// family shares the position of the variant (mi300x, mi300); a removed
// stop word leaves a gap.
type Token struct {
	Term       string
	Start, End int
	Position   int
}

// Tokens returns the index terms of text with where the text writes them,
// in text order: AnalyzeTerms for callers that show or mark the words
// behind a term (overlap's shared terms and passages).
func Tokens(text string) []Token {
	ts := dataTerms.analyzer.Analyze([]byte(text))
	out := make([]Token, len(ts))
	for i, tok := range ts {
		out[i] = Token{Term: string(tok.Term), Start: tok.Start, End: tok.End, Position: tok.Position}
	}
	return out
}

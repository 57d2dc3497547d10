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
func AnalyzeTerms(text string) []string {
	return termsOf(talkAnalyzer.Analyze([]byte(text)))
}

// KeyTerms are the terms a phrase is compared by (the thesaurus keys its
// phrases by them): the talk analyzer without
// stop-word removal ("of" counts in "mixture of experts"), one term per
// position (a model variant's family is not part of the key).
func KeyTerms(phrase string) []string {
	ts := newTalkTokenizer().Tokenize([]byte(phrase))
	for _, f := range keyFilters {
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

var keyFilters = []analysis.TokenFilter{en.NewPossessiveFilter(), normalizeFilter{}, snowballFilter{}}

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
	ts := talkAnalyzer.Analyze([]byte(text))
	out := make([]Token, len(ts))
	for i, tok := range ts {
		out[i] = Token{Term: string(tok.Term), Start: tok.Start, End: tok.End, Position: tok.Position}
	}
	return out
}

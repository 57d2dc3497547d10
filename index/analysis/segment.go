package analysis

import (
	"bytes"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	bleveunicode "github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
)

// uaxWords returns the tokens of Bleve's unicode (UAX#29) tokenizer, the
// same terms, offsets, positions and types (TestUAXWordsAreBlevesTokens
// holds them equal on every seed and FOSDEM text and on fuzzed input). The
// segmenter behind Bleve's tokenizer (github.com/blevesearch/segment) runs
// a state machine over the full Unicode tables for every byte: a large
// share of a big build, in text that is nearly all ASCII. So the text is
// split at spaces, where UAX#29 always breaks (no word contains one, and
// the scanner starts afresh on each), and a piece that is all ASCII is
// segmented here by the rules UAX#29 has for ASCII; any other piece goes
// to Bleve's tokenizer. Invalid UTF-8 goes to Bleve's tokenizer whole:
// its segmenter stops at the first invalid byte, and so must we.
func uaxWords(base *bleveunicode.UnicodeTokenizer, input []byte) analysis.TokenStream {
	if !utf8.Valid(input) {
		return base.Tokenize(input)
	}
	toks := make([]analysis.Token, 0, len(input)/6+1)
	for start := 0; start < len(input); {
		end := bytes.IndexByte(input[start:], ' ')
		if end < 0 {
			end = len(input)
		} else {
			end += start
		}
		if piece := input[start:end]; isASCII(piece) {
			toks = appendASCIIWords(toks, input, start, end)
		} else {
			for _, tok := range base.Tokenize(piece) {
				tok.Start += start
				tok.End += start
				toks = append(toks, *tok)
			}
		}
		start = end + 1
	}
	out := make(analysis.TokenStream, len(toks))
	for i := range toks {
		toks[i].Position = i + 1
		out[i] = &toks[i]
	}
	return out
}

// The UAX#29 word break properties of ASCII (Unicode 8, as the segment
// package implements them); every other ASCII byte is Other, CR, LF or
// Newline, which end a word and make no token.
const (
	wbOther     byte = iota
	wbLetter         // ALetter: A-Z a-z
	wbNumeric        // 0-9
	wbExtendNum      // ExtendNumLet: _
	wbMidLetter      // MidLetter: ':' joins letters only
	wbMidNumLet      // MidNumLet and Single_Quote: '.' and '\'' join letters or digits
	wbMidNum         // MidNum: ',' ';' join digits only
)

var wordBreak = func() (t [utf8.RuneSelf]byte) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = wbLetter, wbLetter
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = wbNumeric
	}
	t['_'], t[':'], t['.'], t['\''], t[','], t[';'] = wbExtendNum, wbMidLetter, wbMidNumLet, wbMidNumLet, wbMidNum, wbMidNum
	return t
}()

// appendASCIIWords appends the words of input[from:to], all ASCII. A word
// is a run of letters, digits and "_" (WB5, WB8-WB10, WB13a/b, and the
// segment package's "_" × "_"), in which a mid character stands between two
// letters (WB6/7: ":", ".", "'") or two digits (WB11/12: ",", ";", ".",
// "'"). It is Numeric when it has a digit and no letter (the segment
// package's WordNumeric wins the tie of equal length), AlphaNumeric
// otherwise.
func appendASCIIWords(toks []analysis.Token, input []byte, from, to int) []analysis.Token {
	for i := from; i < to; {
		switch wordBreak[input[i]] {
		case wbLetter, wbNumeric, wbExtendNum:
		default:
			i++
			continue
		}
		letters, digits := false, false
		j := i
	word:
		for ; j < to; j++ {
			switch wordBreak[input[j]] {
			case wbLetter:
				letters = true
			case wbNumeric:
				digits = true
			case wbExtendNum:
			case wbMidLetter:
				if !between(input, j, to, wbLetter) {
					break word
				}
			case wbMidNumLet:
				if !between(input, j, to, wbLetter) && !between(input, j, to, wbNumeric) {
					break word
				}
			case wbMidNum:
				if !between(input, j, to, wbNumeric) {
					break word
				}
			default:
				break word
			}
		}
		typ := analysis.AlphaNumeric
		if digits && !letters {
			typ = analysis.Numeric
		}
		toks = append(toks, analysis.Token{Term: input[i:j], Start: i, End: j, Type: typ})
		i = j
	}
	return toks
}

// between says whether the mid character at j has a character of class c
// on both sides (j > from always holds: a word never starts with one).
func between(input []byte, j, to int, c byte) bool {
	return j+1 < to && wordBreak[input[j-1]] == c && wordBreak[input[j+1]] == c
}

package analysis

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	bleveunicode "github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
)

// sameTokens compares uaxWords with Bleve's tokenizer on one text.
func sameTokens(t *testing.T, text []byte) bool {
	t.Helper()
	base := bleveunicode.NewUnicodeTokenizer()
	want, got := base.Tokenize(text), uaxWords(base, text)
	if len(got) != len(want) {
		t.Errorf("%q: %d tokens, Bleve's tokenizer %d\n got %s\nwant %s", text, len(got), len(want), tokensString(got), tokensString(want))
		return false
	}
	for i := range want {
		g, w := got[i], want[i]
		if !bytes.Equal(g.Term, w.Term) || g.Start != w.Start || g.End != w.End || g.Position != w.Position || g.Type != w.Type {
			t.Errorf("%q: token %d is %q [%d,%d) #%d type %d, Bleve's %q [%d,%d) #%d type %d",
				text, i, g.Term, g.Start, g.End, g.Position, g.Type, w.Term, w.Start, w.End, w.Position, w.Type)
			return false
		}
	}
	return true
}

func tokensString(ts analysis.TokenStream) string {
	var b bytes.Buffer
	for _, t := range ts {
		b.WriteString(string(t.Term))
		b.WriteByte('|')
	}
	return b.String()
}

// TestUAXWordsAreBlevesTokens holds the fast path to Bleve's tokenizer on
// real text: the seed dumps and every line of the shared datasets (FOSDEM's
// XML, a frab JSON, an iCalendar file), markup and entities included.
func TestUAXWordsAreBlevesTokens(t *testing.T) {
	files, _ := filepath.Glob("../../seeds/*.txt")
	if len(files) != 5 {
		t.Fatalf("seed dumps: %v", files)
	}
	shared, _ := filepath.Glob("../../../shared/datasets/*/*")
	if len(shared) == 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("no ../shared/datasets under CI")
		}
		t.Log("../shared/datasets absent: the seed dumps only")
	}
	lines, nonASCII := 0, 0
	for _, f := range append(files, shared...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !sameTokens(t, data) { // a whole file: a text of any length
			continue
		}
		for _, line := range bytes.Split(data, []byte("\n")) {
			lines++
			if !isASCII(line) {
				nonASCII++
			}
			if !sameTokens(t, line) {
				break
			}
		}
	}
	// The fast path must meet both kinds of piece often.
	wantLines, wantNonASCII := 1_800, 250 // the seed dumps
	if len(shared) > 0 {
		wantLines, wantNonASCII = 100_000, 1_000
	}
	if lines < wantLines || nonASCII < wantNonASCII {
		t.Errorf("%d lines, %d with non-ASCII text: want %d and %d", lines, nonASCII, wantLines, wantNonASCII)
	}
}

// wordAlphabet is the characters whose word break rules differ, and some
// that have none: letters, digits, "_", every mid character, quotes,
// separators and non-ASCII letters, marks, quotes, digits and ideographs
// next to them.
var wordAlphabet = []string{
	"a", "Z", "q", "0", "7", "_", ":", ".", "'", ",", ";", "\"", "-", "/", "+", "#", "(", " ", " ", "\t",
	"\n", "\r", "\r\n", "\v", "é", "ß", "\u0301", "\u00ad", "’", "“", "—", "٣", "日本", "カタ", "한", "א", "🙂",
}

// TestUAXWordsOnRandomText compares random strings of the alphabet, short
// enough that every neighbourhood of two or three characters occurs.
func TestUAXWordsOnRandomText(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 100_000 {
		var b []byte
		for range 1 + r.IntN(12) {
			b = append(b, wordAlphabet[r.IntN(len(wordAlphabet))]...)
		}
		if !sameTokens(t, b) {
			return
		}
	}
}

// TestUAXWordsOfInvalidUTF8: Bleve's segmenter stops at an invalid byte,
// dropping the words after it; so does the fast path.
func TestUAXWordsOfInvalidUTF8(t *testing.T) {
	for _, text := range []string{"good words \xff then more", "a\xc3", "\xe2\x80 x y", "ok.\xffno"} {
		sameTokens(t, []byte(text))
	}
	if got := uaxWords(bleveunicode.NewUnicodeTokenizer(), []byte("good words \xff then more")); len(got) > 3 {
		t.Errorf("invalid UTF-8: %s", tokensString(got))
	}
}

func FuzzUAXWords(f *testing.F) {
	for _, s := range []string{"torch.compile's 2.5 v0.6.0", "a:b 1,000;2 x_y __ _1 a_.b 1.a", "naïve “quoted” text—dash", "\xffbad"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) { sameTokens(t, text) })
}

func BenchmarkUAXWords(b *testing.B) {
	data, err := os.ReadFile("../../../shared/datasets/fosdem/fosdem-2020.xml")
	if err != nil {
		b.Skip(err)
	}
	base := bleveunicode.NewUnicodeTokenizer()
	for _, impl := range []struct {
		name string
		run  func([]byte) analysis.TokenStream
	}{
		{"bleve", base.Tokenize},
		{"uax", func(in []byte) analysis.TokenStream { return uaxWords(base, in) }},
	} {
		b.Run(impl.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				for _, line := range bytes.Split(data, []byte("\n")) {
					impl.run(line)
				}
			}
		})
	}
}

package highlight

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"regexp"
	"testing"
	"unicode/utf8"

	bhighlight "github.com/blevesearch/bleve/v2/search/highlight"
	"github.com/blevesearch/bleve/v2/search/highlight/fragmenter/simple"
)

// TestRuneFragmenterIsBlevesSimpleFragmenter: on every seed talk's title
// and abstract (half of the abstracts are not ASCII), and on texts with
// invalid UTF-8 and U+FFFD, for match sets of every kind (none, one, every
// word, every third, random ones, overlapping ones) and fragment sizes of
// an abstract, a title and a few runes, runeFragmenter makes exactly the
// fragments of Bleve's simple fragmenter.
func TestRuneFragmenterIsBlevesSimpleFragmenter(t *testing.T) {
	talks := seedTalks(t)
	texts := []string{
		"caf\xe9 au lait \xff\xfe is not UTF-8, and neither is this \xc3",
		"a replacement \uFFFD character stops Bleve's walk \uFFFD twice",
		"ünïcödé wörds – with “quotes” and emoji 🙂 around matched words",
	}
	for _, tk := range talks {
		texts = append(texts, tk.Title, tk.Abstract)
	}
	word := regexp.MustCompile(`[\pL\pN]+`)
	r := rand.New(rand.NewPCG(1, 2))
	nonASCII, compared := 0, 0
	for _, text := range texts {
		orig := []byte(text)
		var all bhighlight.TermLocations
		for _, loc := range word.FindAllIndex(orig, -1) {
			all = append(all, &bhighlight.TermLocation{Term: "t", Start: loc[0], End: loc[1]})
		}
		sets := []bhighlight.TermLocations{nil, all}
		if len(all) > 0 {
			sets = append(sets, all[:1], all[len(all)-1:])
			var third, some, overlapping bhighlight.TermLocations
			for i, tl := range all {
				if i%3 == 0 {
					third = append(third, tl)
				}
				if r.IntN(8) == 0 {
					some = append(some, tl)
				}
				if i%4 == 0 {
					// A match inside the previous one, as a compound's
					// part inside the whole.
					overlapping = append(overlapping, tl, &bhighlight.TermLocation{Term: "u", Start: tl.Start, End: tl.Start + 1})
				}
			}
			sets = append(sets, third, some, overlapping)
		}
		for _, size := range []int{abstractFragmentRunes, titleFragmentRunes, 7} {
			for _, ot := range sets {
				want := simple.NewFragmenter(size).Fragment(orig, ot)
				got := runeFragmenter{size}.Fragment(orig, ot)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%q, size %d, %d matches:\n got %v\nwant %v", text, size, len(ot), spans(got), spans(want))
				}
				compared++
			}
		}
		if !isASCII(text) {
			nonASCII++
		}
	}
	if nonASCII < 30 || compared < 1000 {
		t.Errorf("compared %d fragmentings of %d texts not ASCII", compared, nonASCII)
	}
}

func spans(fs []*bhighlight.Fragment) [][2]int {
	out := make([][2]int, len(fs))
	for i, f := range fs {
		out[i] = [2]int{f.Start, f.End}
	}
	return out
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// TestASCIIRuns: the word-at-a-time counts of leading and trailing ASCII
// bytes are the byte-at-a-time ones, for every length up to 40, every
// position of one non-ASCII byte, and every limit.
func TestASCIIRuns(t *testing.T) {
	for n := range 41 {
		for at := -1; at < n; at++ {
			b := bytes.Repeat([]byte{'a'}, n)
			if at >= 0 {
				b[at] = 0xc3
			}
			lead, trail := 0, 0
			for lead < n && b[lead] < utf8.RuneSelf {
				lead++
			}
			for trail < n && b[n-1-trail] < utf8.RuneSelf {
				trail++
			}
			if got := asciiRun(b); got != lead {
				t.Fatalf("asciiRun(%q) = %d, want %d", b, got, lead)
			}
			for limit := range n + 2 {
				if got := asciiRunBefore(b, limit); got != min(trail, limit) {
					t.Fatalf("asciiRunBefore(%q, %d) = %d, want %d", b, limit, got, min(trail, limit))
				}
			}
		}
	}
}

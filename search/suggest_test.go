package search

import (
	"os"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/talksearch/talksearch/index"
)

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b  string
		bound int
		want  int
	}{
		{"monarch", "monarch", 2, 0},
		{"monrach", "monarch", 2, 1}, // a swap of neighbours is one edit
		{"torchtittan", "torchtitan", 2, 1},
		{"flexatention", "flexattention", 2, 1},
		{"speculativ", "speculative", 2, 1},
		{"kitten", "sitting", 3, 3},
		{"kitten", "sitting", 1, 2}, // anything above the bound
		{"", "abc", 3, 3},
		{"abc", "", 3, 3},
		{"ab", "abcdef", 2, 3},
		{"日本語", "日本", 2, 1},
	}
	var r editRows
	for _, tt := range tests {
		got := r.distance([]rune(tt.a), []rune(tt.b), tt.bound)
		if got != tt.want && !(tt.want > tt.bound && got > tt.bound) {
			t.Errorf("distance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.bound, got, tt.want)
		}
	}
}

func TestVocabularyCorrections(t *testing.T) {
	v := newVocabulary([]index.Talk{
		{Title: "Monarch and Monarch", Abstract: "FlexAttention, speculative decoding, debugging and debug tools"},
		{Title: "Monarchs", Abstract: "speculative decoding for LLMs; a debugging story"},
		{Title: "Torchtitan", Abstract: "March madness"},
	})
	tests := []struct {
		word   string
		fix    []string
		family []string
	}{
		{"monrach", []string{"monarch"}, nil},
		{"torchtittan", []string{"torchtitan"}, nil},
		{"flexatention", []string{"flexattention"}, nil},
		{"speculativ", []string{"speculative"}, nil},
		{"monarch", nil, nil}, // known: nothing to correct
		{"mrach", []string{"march"}, nil},
		{"qqqqqqq", nil, nil},
		{"debugger", nil, []string{"debugging"}}, // the longest shared prefix wins
		{"llm", nil, nil},                        // too short to guess
	}
	for _, tt := range tests {
		got := v.correctWithin(tt.word, maxEdits(len([]rune(tt.word))), 2)
		if diff := cmp.Diff(tt.fix, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("correct(%q) (-want +got):\n%s", tt.word, diff)
		}
		if tt.family != nil {
			if diff := cmp.Diff(tt.family, v.family(tt.word, 2)); diff != "" {
				t.Errorf("family(%q) (-want +got):\n%s", tt.word, diff)
			}
		}
	}
}

// lowerThenSplit is what surfaceWords means: the lower-cased text's runs of
// letters and digits.
func lowerThenSplit(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	})
}

// surfaceWordsCases are texts where lower-casing and splitting could part:
// capitals whose lower case is no letter of the same shape (İ, ǅ), digits of
// other scripts, Roman numerals, combining marks, invalid UTF-8.
var surfaceWordsCases = []string{
	"", "   ", "PyTorch 2.5: KV-cache, torch.compile & FSDP2!", "İstanbul ǅemal ΣΊΣΥΦΟΣ Straße",
	"ⅫⅣ Ⓐ ٣٤ x²", "e\u0301cole naïve", "bad \xff\xfe bytes\xc3", "ÀB-c_d", "MiXeD123Case", "ﬁnance Ǆ",
}

// TestSurfaceWordsAsLowerThenSplit: the words of every text of the seeds
// and of FOSDEM 2024+2025 (when present), and of the odd cases, are those
// of the lower-cased text split at every rune that is no letter or digit.
func TestSurfaceWordsAsLowerThenSplit(t *testing.T) {
	texts := slices.Clone(surfaceWordsCases)
	talks := seedTalksOf(t)
	if _, err := os.Stat(fosdemFiles[0]); err == nil {
		talks = append(talks, loadFOSDEM(t).Talks...)
	}
	for _, tk := range talks {
		texts = append(texts, tk.Title, tk.Abstract, tk.Track, tk.Room)
		for _, sp := range tk.Speakers {
			texts = append(texts, sp.Name, sp.Affiliation)
		}
	}
	for _, text := range texts {
		if got, want := surfaceWords(text), lowerThenSplit(text); !slices.Equal(got, want) {
			t.Fatalf("surfaceWords(%q) = %q, want %q", text, got, want)
		}
	}
}

func FuzzSurfaceWords(f *testing.F) {
	for _, s := range surfaceWordsCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := surfaceWords(text), lowerThenSplit(text); !slices.Equal(got, want) {
			t.Fatalf("surfaceWords(%q) = %q, want %q", text, got, want)
		}
	})
}

// A snapshot is served warm: the table the first typo's scan reads is
// built with it, on a start and on a re-index alike, not by that query.
func TestSnapshotServedWarm(t *testing.T) {
	e := fixtureEngine(t)
	if e.snap.Load().vocab.lengths.byLen == nil {
		t.Fatal("the words by length are not built at the start")
	}
	talks := e.Talks()
	if err := e.Replace(talks[:len(talks)-1]); err != nil {
		t.Fatal(err)
	}
	if e.snap.Load().vocab.lengths.byLen == nil {
		t.Fatal("the words by length are not built before a re-index is served")
	}
}

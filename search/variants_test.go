package search

import (
	"maps"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search/ranking"
)

// TestAddHyphenatedAsRegexp: the hyphen walk records what the regular
// expression it replaced found, on every title and abstract of the seeds
// and on the edges of the pattern.
func TestAddHyphenatedAsRegexp(t *testing.T) {
	re := regexp.MustCompile(`[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+`)
	oracle := func(text string) map[string]string {
		out := map[string]string{}
		for _, m := range re.FindAllString(strings.ToLower(text), -1) {
			j := strings.ReplaceAll(m, "-", "")
			if _, ok := out[j]; !ok {
				out[j] = m
			}
		}
		return out
	}
	texts := []string{
		"pre-training and End-to-End", "a-b--c", "-lead trail- mid-dle-", "x--y", "--", "-", "a-", "-a",
		"Ünïcödé-Wörter und 3-D", "GPT-4o-mini, FP8-fähig; CUDA‐12 (U+2010 is no hyphen)", "a-b-c-d e-f",
		"in-\nline", "π-calculus 2-3-4", "no hyphens at all",
	}
	_, c := seedEngine(t)
	for _, tk := range c.Talks {
		texts = append(texts, tk.Title, tk.Abstract)
	}
	found := 0
	for _, text := range texts {
		v := &vocabulary{hyphens: map[string]string{}}
		v.addHyphenated(text)
		want := oracle(text)
		found += len(want)
		if diff := cmp.Diff(want, v.hyphens); diff != "" {
			t.Errorf("%.60q (-regexp +walk):\n%s", text, diff)
		}
	}
	if found < 100 {
		t.Errorf("only %d hyphenated words in the texts: the comparison proves little", found)
	}
	v := &vocabulary{hyphens: map[string]string{}}
	v.addHyphenated("Pre-Training, pre-training")
	if want := map[string]string{"pretraining": "pre-training"}; !maps.Equal(v.hyphens, want) {
		t.Errorf("got %v, want %v", v.hyphens, want)
	}
}

// TestAgentNounVariant: an action typed in -ing matches the doer the
// corpus names ("contributing" → contributor, which the stemmer keeps
// apart) at ranking.AgentNoun; a word not in -ing ("act") gets no such
// variant, nor a word whose doer the corpus lacks.
func TestAgentNounVariant(t *testing.T) {
	checkVariants(t, []index.Talk{
		{ID: "a", Kind: index.KindTalk, Title: "Onboarding new contributors", Abstract: "A contributor's path."},
		{ID: "b", Kind: index.KindTalk, Title: "The EU AI Act", Abstract: "What the actors must do."},
		{ID: "c", Kind: index.KindTalk, Title: "Packaging Python", Abstract: "Wheels."},
	}, map[string][]alternative{
		"contributing": {{text: "contributor", weight: ranking.AgentNoun}},
		"act":          nil,
		"packaging":    nil,
	})
}

// TestJoinedVariantByStem: a hyphenated query word's joined form is a
// variant when the corpus has it as a term, in any form ("e-books" →
// ebooks, where the talks say "ebook readers"); a joined form the corpus
// lacks is none.
func TestJoinedVariantByStem(t *testing.T) {
	checkVariants(t, []index.Talk{
		{ID: "a", Kind: index.KindTalk, Title: "WebKit on ebook readers", Abstract: "Electronic ink."},
		{ID: "b", Kind: index.KindTalk, Title: "Autocrypt", Abstract: "Automating email encryption."},
	}, map[string][]alternative{
		"e-books": {{text: "ebooks", weight: ranking.Literal}},
		"e-mail":  {{text: "email", weight: ranking.Literal}},
		"e-paper": nil,
	})
}

// checkVariants asserts the variants an engine over talks gives each word.
func checkVariants(t *testing.T, talks []index.Talk, want map[string][]alternative) {
	t.Helper()
	e := newEngineT(t, talks, Options{})
	s, done, err := e.acquire()
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	for word, w := range want {
		var got []alternative
		for _, v := range s.variants(word) {
			got = append(got, v.alt)
		}
		if diff := cmp.Diff(w, got, cmp.AllowUnexported(alternative{})); diff != "" {
			t.Errorf("%s: variants (-want +got):\n%s", word, diff)
		}
	}
}

package search

import (
	"maps"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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

package index

import (
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/google/go-cmp/cmp"

	talkanalysis "github.com/talksearch/talksearch/index/analysis"
)

// The mapping refers to the analyzer by name: it must be the registered one.
func TestAnalyzerRegisteredInMapping(t *testing.T) {
	m := NewMapping()
	if m.AnalyzerNamed(talkanalysis.AnalyzerName) == nil {
		t.Fatalf("analyzer %q not found through the mapping", talkanalysis.AnalyzerName)
	}
	got, err := m.(*mapping.IndexMappingImpl).AnalyzeText(talkanalysis.AnalyzerName, []byte("KV-caching for LLMs"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"kv", "cach", "llm"}, termsOf(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func termsOf(ts analysis.TokenStream) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = string(t.Term)
	}
	return out
}

package search

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
)

// TestTalkInTwoLanguages: a talk given in two languages ("de, en") counts
// under each in the language facet, and a selection of either finds it;
// the other facets count it once.
func TestTalkInTwoLanguages(t *testing.T) {
	talks := []index.Talk{
		{ID: "both", Title: "Kernels on GPUs", Abstract: "Scheduling kernels.", Language: "de, en", Track: "Systems", Kind: index.KindTalk},
		{ID: "en", Title: "Kernels in English", Abstract: "Kernels explained.", Language: "en", Track: "Systems", Kind: index.KindTalk},
		{ID: "de", Title: "Kernels auf Deutsch", Abstract: "Kernels erklärt.", Language: "de", Track: "Other", Kind: index.KindTalk},
		{ID: "none", Title: "Kernels, no language", Abstract: "Kernels.", Track: "Other", Kind: index.KindTalk},
	}
	for _, onePass := range []int{0, -1} {
		e, err := NewWithOptions(talks, Options{OnePassMax: onePass, CacheSize: -1})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		counts := func(vs []FacetValue) map[string]int {
			out := map[string]int{}
			for _, v := range vs {
				out[v.Value] = v.Count
			}
			return out
		}
		r, err := e.Search(ctx, Request{Query: "kernels"})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[string]int{"de": 2, "en": 2}, counts(r.Facets.Language)); diff != "" || r.Facets.Missing["language"] != 1 {
			t.Errorf("OnePassMax %d: languages (-want +got):\n%s missing %d", onePass, diff, r.Facets.Missing["language"])
		}
		if diff := cmp.Diff(map[string]int{"Systems": 2, "Other": 2}, counts(r.Facets.Track)); diff != "" {
			t.Errorf("OnePassMax %d: tracks (-want +got):\n%s", onePass, diff)
		}
		for lang, want := range map[string][]string{"en": {"both", "en"}, "de": {"both", "de"}} {
			r, err := e.Search(ctx, Request{Query: "kernels", Languages: []string{lang}, Sort: SortTime})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range r.Hits {
				got = append(got, h.ID)
			}
			slices.Sort(got)
			if !slices.Equal(got, want) || r.Total != uint64(len(want)) {
				t.Errorf("OnePassMax %d, language %s: %v (total %d), want %v", onePass, lang, got, r.Total, want)
			}
			// The language facet ignores its own selection; the
			// others count the selected talks only.
			if diff := cmp.Diff(map[string]int{"de": 2, "en": 2}, counts(r.Facets.Language)); diff != "" {
				t.Errorf("OnePassMax %d, language %s: languages (-want +got):\n%s", onePass, lang, diff)
			}
		}
		// A browse counts alike.
		b, err := e.Search(ctx, Request{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[string]int{"de": 2, "en": 2}, counts(b.Facets.Language)); diff != "" {
			t.Errorf("OnePassMax %d, browse: languages (-want +got):\n%s", onePass, diff)
		}
		e.Close()
	}
}

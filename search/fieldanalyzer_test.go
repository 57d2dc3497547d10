package search

import (
	"testing"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search/ranking"
)

// TestQueryFieldsShareTitleAnalyzer: a query text is analysed once, with
// the title field's analyzer (snapshot.analyzer), and its terms looked for
// in every field a clause names (fieldQueryOf): the fields' own analyzers
// must be that one, or a field's terms would be looked up in another
// form than it indexes them.
func TestQueryFieldsShareTitleAnalyzer(t *testing.T) {
	m := index.NewMapping()
	title := m.AnalyzerNameForPath(index.FieldTitle)
	if title == "" {
		t.Fatal("no analyzer for the title")
	}
	fields := append([]string{}, pairFields...)
	for _, fw := range ranking.Fields {
		fields = append(fields, fw.Field)
	}
	for _, f := range fields {
		if a := m.AnalyzerNameForPath(f); a != title {
			t.Errorf("field %s is analysed by %q, the query by %q", f, a, title)
		}
	}
}

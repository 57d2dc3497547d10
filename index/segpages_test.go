package index_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/synthetic"
)

// Dropping the segments' pages while the batches come in and while they
// are merged changes nothing in the index: built with drops every
// millisecond (racing with every batch and the merge) and without any, the
// same talks give the same terms in every field and the same hits.
func TestBuildDroppingSegmentPagesSameIndex(t *testing.T) {
	talks := synthetic.Talks(seedTalks(t), 7_001, 3) // large enough to drop (releaseMemoryMin)
	build := func(every time.Duration) bleve.Index {
		t.Helper()
		defer index.SetSegmentPagesEvery(index.SetSegmentPagesEvery(every))
		idx, err := index.Build(talks)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { idx.Close() })
		return idx
	}
	kept, dropped := build(0), build(time.Millisecond)

	var queries []string // terms of each field, some common, some rare
	for _, field := range []string{index.FieldTitle, index.FieldAbstract, index.FieldSpeakers, index.FieldTrackText, index.FieldKind} {
		want, got := fieldTerms(t, kept, field), fieldTerms(t, dropped, field)
		if len(want) == 0 {
			t.Fatalf("field %s has no terms", field)
		}
		if !slices.Equal(got, want) {
			t.Errorf("field %s: %d terms with drops, %d without, or their counts differ", field, len(got), len(want))
		}
		for _, i := range []int{0, len(want) / 3, len(want) / 2, len(want) - 1} {
			term, _, _ := strings.Cut(want[i], "\x00")
			queries = append(queries, field+"\x00"+term)
		}
	}
	for _, fq := range queries {
		field, q, _ := strings.Cut(fq, "\x00")
		tq := bleve.NewTermQuery(q)
		tq.SetField(field)
		req := bleve.NewSearchRequestOptions(tq, len(talks), 0, false)
		a, err := kept.Search(req)
		if err != nil {
			t.Fatal(err)
		}
		b, err := dropped.Search(req)
		if err != nil {
			t.Fatal(err)
		}
		if a.Total == 0 {
			t.Fatalf("%s %q finds nothing", field, q)
		}
		if a.Total != b.Total || len(a.Hits) != int(a.Total) {
			t.Fatalf("%s %q: %d hits with drops, %d without (%d returned)", field, q, b.Total, a.Total, len(a.Hits))
		}
		// Two batches in flight make the talks' order in the index differ
		// from one build to the next: ties come back in either order.
		if want, got := hitList(a), hitList(b); !slices.Equal(got, want) {
			t.Errorf("%s %q: other hits or scores with drops", field, q)
		}
	}
}

// hitList is every hit of res as "score id", ordered.
func hitList(res *bleve.SearchResult) []string {
	out := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		out[i] = strconv.FormatFloat(h.Score, 'g', -1, 64) + " " + h.ID
	}
	slices.Sort(out)
	return out
}

// fieldTerms is every term of field with its document count, in order.
func fieldTerms(t *testing.T, idx bleve.Index, field string) []string {
	t.Helper()
	d, err := idx.FieldDict(field)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var out []string
	for {
		e, err := d.Next()
		if err != nil {
			t.Fatal(err)
		}
		if e == nil {
			return out
		}
		out = append(out, e.Term+"\x00"+strconv.FormatUint(e.Count, 10))
	}
}

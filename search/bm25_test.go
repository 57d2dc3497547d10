package search

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/index"
)

// TestBM25MeanLengths: the snapshot scores with the seeds' mean field
// lengths in tokens (abstracts 94, where Bleve's own figure, distinct
// terms per talk, is far smaller), and Bleve's BM25 really uses them: its
// explanation of a score names them.
func TestBM25MeanLengths(t *testing.T) {
	e, _ := seedEngine(t)
	s, done, err := e.acquire()
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	want := map[string]int{index.FieldTitle: 8, index.FieldAbstract: 94, index.FieldSpeakers: 5, index.FieldTrackText: 2, index.FieldRoomText: 2}
	for f, mean := range want {
		if got := float64(s.bm25.FieldCardinality[f]) / s.bm25.DocCount; got != float64(mean) {
			t.Errorf("%s: mean length %.2f, want %d", f, got, mean)
		}
	}
	q := query.NewTermQuery("monarch")
	q.SetField(index.FieldAbstract)
	req := bleve.NewSearchRequest(q)
	req.Explain = true
	res, err := s.idx.SearchInContext(s.withBM25(context.Background()), req)
	if err != nil || len(res.Hits) == 0 {
		t.Fatalf("search: %v, %d hits", err, len(res.Hits))
	}
	b, err := json.Marshal(res.Hits[0].Expl)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "avgFieldLength=94.000000") {
		t.Errorf("Bleve's explanation does not score with the mean abstract length 94: %s", b)
	}
}

// TestBM25EmptyCorpus: an engine over no talks answers a query with no
// hits, not with Bleve's error for statistics lacking the query's fields.
func TestBM25EmptyCorpus(t *testing.T) {
	e, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	r, err := e.Search(context.Background(), Request{Query: "monarch kernels"})
	if err != nil {
		t.Fatalf("search of an empty corpus: %v", err)
	}
	if r.Total != 0 {
		t.Errorf("%d hits in an empty corpus", r.Total)
	}
}

package scan

import (
	"context"
	"sync"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/index/synthetic"
	"github.com/talksearch/talksearch/search/ranking"
	"github.com/talksearch/talksearch/seeds"
)

// fixture is an index of a corpus made from the seeds, numbered, with the
// BM25 statistics of the engine's searches.
type fixture struct {
	idx   bleve.Index
	sc    *Index
	talks []index.Talk
	ctx   context.Context
}

// syntheticSize is large enough for terms of more than one chunk of
// postings (1,024 talks) and for a scan in several parts.
const syntheticSize = 3000

var fixtureOnce = sync.OnceValues(func() (*fixture, error) {
	c, err := ingest.Load(seeds.FS)
	if err != nil {
		return nil, err
	}
	talks := synthetic.Talks(c.Talks, syntheticSize, 11)
	idx, err := index.Build(talks)
	if err != nil {
		return nil, err
	}
	ids := map[string]bool{}
	damping := map[string]ranking.Damping{}
	for i, t := range talks {
		ids[t.ID], damping[t.ID] = true, ranking.DampingOf(&talks[i])
	}
	sc, err := Open(idx, func(id string, _ uint64) (bool, ranking.Damping) { return ids[id], damping[id] }, Options{})
	if err != nil {
		return nil, err
	}
	m := idx.Mapping()
	an := m.AnalyzerNamed(m.AnalyzerNameForPath(index.FieldTitle))
	st, err := ranking.BM25Stats(idx, talks, an)
	if err != nil {
		return nil, err
	}
	return &fixture{idx: idx, sc: sc, talks: talks, ctx: ranking.WithBM25(context.Background(), st)}, nil
})

// synthetic is the shared fixture of the package's tests.
func syntheticIndex(t testing.TB) *fixture {
	t.Helper()
	f, err := fixtureOnce()
	if err != nil {
		t.Fatalf("synthetic index: %v", err)
	}
	return f
}

// TestFastPathTaken: an index as index.Build makes it (one merged
// segment of zapx's current version) takes the fast path, and a scan of a
// plan-shaped query evaluates it itself. When a Bleve or zapx upgrade
// changes a type the fast path asserts, this fails rather than every
// search quietly taking Bleve's slower searchers.
func TestFastPathTaken(t *testing.T) {
	f := syntheticIndex(t)
	if err := f.sc.FastPath(); err != nil {
		t.Fatal(err)
	}
	var words []query.Query
	for _, w := range []string{"pytorch", "kernel", "distribut"} {
		var fields []query.Query
		for _, fw := range ranking.Fields {
			q := query.NewTermQuery(w)
			q.SetField(fw.Field)
			q.SetBoost(fw.Weight)
			fields = append(fields, q)
		}
		words = append(words, query.NewDisjunctionQuery(fields))
	}
	q := query.NewBooleanQuery([]query.Query{query.NewDisjunctionQuery(words)}, nil, nil)
	tree, err := f.sc.TreeScans(f.ctx, q)
	if err != nil || !tree {
		t.Fatalf("a query of disjunctions of terms is not tree-scanned (%v)", err)
	}
	v, err := f.sc.VerifyTree(f.ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if v.Matches < syntheticSize/4 {
		t.Errorf("%d matches compared: too few to prove anything", v.Matches)
	}
	slow, err := Open(f.idx, func(string, uint64) (bool, ranking.Damping) { return true, 0 }, Options{NoTree: true})
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	if tree, _ := slow.TreeScans(f.ctx, q); tree {
		t.Error("an Index with NoTree tree-scans")
	}
}

// TestFlatKeepsTheRoot: the root searcher computes the query norm of the
// terms below it; a term searched alone has none, and its scores can differ
// in the last bits (boost × idf × 1/√(boost × idf)² is not always 1). So a
// root conjunction of one term stays, and scores as before.
func TestFlatKeepsTheRoot(t *testing.T) {
	f := syntheticIndex(t)
	differ := 0
	for _, term := range []string{"pytorch", "kernel", "cach", "monarch", "infer", "train", "distribut", "model"} {
		for _, boost := range []float64{0.2, 0.6000000000000001, 1, 1.5, 2, 3, 4.5, 6, 7} {
			tq := query.NewTermQuery(term)
			tq.SetField(index.FieldAbstract)
			tq.SetBoost(boost)
			root := query.NewConjunctionQuery([]query.Query{query.NewDisjunctionQuery([]query.Query{tq})})
			want, err := f.sc.searchAll(f.ctx, root, false)
			if err != nil {
				t.Fatal(err)
			}
			alone, err := f.sc.searchAll(f.ctx, tq, false)
			if err != nil {
				t.Fatal(err)
			}
			if alone != want {
				differ++
			}
			if _, _, err := f.sc.VerifyFlat(f.ctx, root); err != nil {
				t.Errorf("%s^%v: %v", term, boost, err)
			}
			if _, ok := flat(root).(*query.ConjunctionQuery); !ok {
				t.Fatalf("flat(root) is %T, want the root conjunction", flat(root))
			}
		}
	}
	if differ == 0 {
		t.Error("no term scores alone otherwise than under a root: the test shows nothing")
	}
}

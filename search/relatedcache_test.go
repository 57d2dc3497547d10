package search

import (
	"context"
	"reflect"
	"testing"
)

// TestRelatedCacheBounded: a crowd visiting the talks of a corpus too
// large to precompute (its first relatedVisited in schedule order) keeps the related talks and term vectors within the
// caches' bytes, and each talk's related talks are the same lists as
// when everything is kept.
func TestRelatedCacheBounded(t *testing.T) {
	s := syntheticScanned(t)
	related, vectors := s.related, s.vectors
	t.Cleanup(func() { s.related, s.vectors = related, vectors })
	ctx := context.Background()
	every := func() map[string][]Related {
		t.Helper()
		out := make(map[string][]Related, relatedVisited)
		for _, d := range s.byTime[:relatedVisited] {
			rel, err := s.relatedOf(ctx, d)
			if err != nil {
				t.Fatalf("related talks of %s: %v", d.talk.ID, err)
			}
			out[d.talk.ID] = rel
		}
		return out
	}

	s.related, s.vectors = newRelatedCache(1<<30), newVectorCache(1<<30)
	want := every()
	if n := s.related.len(); n != relatedVisited {
		t.Fatalf("an unbounded cache kept %d lists, want one per talk visited, %d", n, relatedVisited)
	}
	t.Logf("%d talks' related talks: %d bytes; %d vectors: %d bytes", s.related.len(), s.related.weight(), s.vectors.len(), s.vectors.weight())
	const relatedBudget, vectorBudget = 64 << 10, 128 << 10
	if w := s.related.weight(); w <= 4*relatedBudget {
		t.Fatalf("every talk's related talks weigh %d bytes: too few to test a bound of %d", w, relatedBudget)
	}
	if w := s.vectors.weight(); w <= 4*vectorBudget {
		t.Fatalf("every talk's vector weighs %d bytes: too few to test a bound of %d", w, vectorBudget)
	}
	related0 := 0
	for _, rel := range want {
		if len(rel) == 0 {
			related0++
		}
	}
	if related0 == len(want) {
		t.Fatal("no talk has related talks")
	}

	s.related, s.vectors = newRelatedCache(relatedBudget), newVectorCache(vectorBudget)
	got := every()
	if w := s.related.weight(); w > relatedBudget {
		t.Errorf("related talks kept: %d bytes, bound %d", w, relatedBudget)
	}
	if w := s.vectors.weight(); w > vectorBudget {
		t.Errorf("term vectors kept: %d bytes, bound %d", w, vectorBudget)
	}
	if n := s.related.len(); n == 0 || n >= relatedVisited {
		t.Errorf("bounded cache kept %d lists of %d talks", n, relatedVisited)
	}
	diff := 0
	for id, rel := range want {
		if !reflect.DeepEqual(got[id], rel) {
			if diff++; diff <= 3 {
				t.Errorf("related talks of %s: %+v, want %+v", id, got[id], rel)
			}
		}
	}
	if diff > 0 {
		t.Errorf("%d of %d talks' related talks differ within the bound", diff, len(want))
	}
}

// relatedVisited is how many talks TestRelatedCacheBounded visits: enough
// to outgrow its small bounds many times over.
const relatedVisited = 600

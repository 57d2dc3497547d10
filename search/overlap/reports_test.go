package overlap

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/talksearch/talksearch/index"
)

// servedCorpus is a corpus whose generation a test moves on.
type servedCorpus struct {
	gen    uint64
	talks  []index.Talk
	copies int
}

func (c *servedCorpus) Generation() uint64 { return c.gen }
func (c *servedCorpus) Corpus() (uint64, []index.Talk) {
	c.copies++
	return c.gen, c.talks
}

func TestReportsCachedPerGenerationAndMin(t *testing.T) {
	c := &servedCorpus{gen: 1, talks: []index.Talk{
		{ID: "a", Title: "Monarch actors on GPUs", Abstract: "Monarch meshes of actors make fault tolerance simple on a cluster of GPUs."},
		{ID: "b", Title: "Monarch meshes on GPUs", Abstract: "Monarch actors and meshes make fault tolerance simple on GPUs."},
	}}
	r := NewReports(c)
	ctx := context.Background()
	a, err := r.Overlaps(ctx, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.Overlaps(ctx, 0.3)
	if err != nil || a != b {
		t.Errorf("second call: %v, same report %v", err, a == b)
	}
	// Minimums that round to the same two decimals share one report, so
	// clients cannot grow the cache without bound.
	same, err := r.Overlaps(ctx, 0.30000001)
	if err != nil || same != a {
		t.Errorf("min 0.30000001: %v, same report as 0.3: %v", err, same == a)
	}
	if c.copies != 1 {
		t.Errorf("the talks were copied %d times for one report, want 1", c.copies)
	}
	for _, bad := range []float64{1.5, -0.1, math.NaN()} {
		if _, err := r.Overlaps(ctx, bad); !errors.Is(err, ErrInvalidMin) {
			t.Errorf("min %v: %v, want ErrInvalidMin", bad, err)
		}
	}
	// A new generation is a new corpus: its report is made anew.
	c.gen, c.talks = 2, c.talks[:1]
	fresh, err := r.Overlaps(ctx, 0.3)
	if err != nil || fresh == a || len(fresh.Pairs) != 0 {
		t.Errorf("after a new generation: %v, same report %v, %d pairs (want 0)", err, fresh == a, len(fresh.Pairs))
	}
	if len(a.Pairs) != 1 {
		t.Errorf("first generation: %d pairs, want 1", len(a.Pairs))
	}
}

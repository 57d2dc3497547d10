package overlap

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

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

func TestReportsCachedPerGeneration(t *testing.T) {
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
	for _, bad := range []float64{1.5, -0.1, math.NaN(), 0.05} {
		if _, err := r.Overlaps(ctx, bad); !errors.Is(err, ErrInvalidMin) {
			t.Errorf("min %v: %v, want ErrInvalidMin", bad, err)
		}
	}
	// A new generation is a new corpus: its report is made anew.
	c.gen, c.talks = 2, c.talks[:1]
	fresh, err := r.Overlaps(ctx, 0.3)
	if err != nil || len(fresh.Pairs) != 0 {
		t.Errorf("after a new generation: %v, %d pairs (want 0)", err, len(fresh.Pairs))
	}
	if len(a.Pairs) != 1 {
		t.Errorf("first generation: %d pairs, want 1", len(a.Pairs))
	}
	if c.copies != 2 {
		t.Errorf("the talks were copied %d times for two generations, want 2", c.copies)
	}
}

// Fifty distinct minimums, asked at once, cost one detection: each is a
// filter over the report at Floor, and each answer is what Detect at that
// minimum makes, pairs, counts and clusters alike.
func TestReportsFiftyMinimumsOneDetection(t *testing.T) {
	talks := seedTalks(t)
	c := &servedCorpus{gen: 1, talks: talks}
	r := NewReports(c)
	ctx := context.Background()
	mins := make([]float64, 50)
	for k := range mins {
		mins[k] = Floor + float64(k)/100
	}
	got := make([]*Report, len(mins))
	var wg sync.WaitGroup
	for k, m := range mins {
		wg.Go(func() {
			rep, err := r.Overlaps(ctx, m)
			if err != nil {
				t.Errorf("min %v: %v", m, err)
			}
			got[k] = rep
		})
	}
	wg.Wait()
	if c.copies != 1 {
		t.Fatalf("%d detections for %d minimums, want 1", c.copies, len(mins))
	}
	// Once made, a minimum is a filter: a thousand more answers take far
	// less than one detection (which takes tens of milliseconds on the
	// seeds), so nobody waits behind them.
	start := time.Now()
	for k := range 1000 {
		if _, err := r.Overlaps(ctx, mins[k%len(mins)]+0.001); err != nil {
			t.Fatal(err)
		}
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("1000 filtered answers took %v", el)
	}
	for _, k := range []int{0, 3, 10, 25, 49} {
		want := Detect(talks, Options{Min: mins[k]})
		if got[k].More != want.More || len(got[k].Pairs) != len(want.Pairs) || len(got[k].Clusters) != len(want.Clusters) {
			t.Errorf("min %.2f: %d pairs (+%d), %d clusters; Detect: %d (+%d), %d", mins[k],
				len(got[k].Pairs), got[k].More, len(got[k].Clusters), len(want.Pairs), want.More, len(want.Clusters))
			continue
		}
		for i := range want.Pairs {
			if got[k].Pairs[i].A != want.Pairs[i].A || got[k].Pairs[i].B != want.Pairs[i].B {
				t.Errorf("min %.2f pair %d: %s-%s, Detect %s-%s", mins[k], i, got[k].Pairs[i].A, got[k].Pairs[i].B, want.Pairs[i].A, want.Pairs[i].B)
			}
		}
	}
	if n := len(got[0].Pairs); n <= len(got[3].Pairs) || len(got[49].Pairs) >= len(got[3].Pairs) {
		t.Errorf("pairs at 0.10, 0.13, 0.59: %d, %d, %d: want fewer as the minimum rises", n, len(got[3].Pairs), len(got[49].Pairs))
	}
}

func TestScoreBuckets(t *testing.T) {
	var c scoreCounts
	for _, s := range []float64{0.1, 0.13, 0.1299999, 0.29, 0.3, 1} {
		c.add(s)
	}
	for _, tt := range []struct {
		min  float64
		want int
	}{{0.1, 6}, {0.13, 4}, {0.3, 2}, {0.31, 1}, {1, 1}} {
		if got := c.atLeast(tt.min); got != tt.want {
			t.Errorf("atLeast(%v) = %d, want %d", tt.min, got, tt.want)
		}
	}
}

// A served report applies the committee's decisions file, read again with
// each generation.
func TestReportsApplyDecisionsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "decisions.csv")
	if err := os.WriteFile(path, []byte("a,b,decision\ns01,s04,not-an-overlap\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &servedCorpus{gen: 1, talks: readFile(t, "testdata/submissions.csv")}
	r := NewReports(c)
	r.DecisionsFile = path
	rep, err := r.Overlaps(context.Background(), 0)
	if err != nil || rep.Applied != 1 || rep.Totals().Pairs != 6 {
		t.Fatalf("%v: applied %d, %d pairs; want 1, 6", err, rep.Applied, rep.Totals().Pairs)
	}
	if err := os.WriteFile(path, []byte("a,b,decision\ns01,s04,not-an-overlap\ns02,s04,not-an-overlap\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.gen = 2
	if rep, err = r.Overlaps(context.Background(), 0); err != nil || rep.Applied != 2 || rep.Totals().Pairs != 5 {
		t.Errorf("after a reload: %v, applied %d, %d pairs; want 2, 5", err, rep.Applied, rep.Totals().Pairs)
	}
	if err := os.WriteFile(path, []byte("a,b,decision\ns01,s04,perhaps\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.gen = 3
	if _, err = r.Overlaps(context.Background(), 0); err == nil || !strings.Contains(err.Error(), "decisions.csv:2: decision \"perhaps\"") {
		t.Errorf("a broken decisions file: %v", err)
	}
}

package overlap

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/talksearch/talksearch/index"
)

// ErrInvalidMin: a minimum score outside [Floor,1] (or NaN; 0 means
// DefaultMin) was asked for. The web layer answers it with 400.
var ErrInvalidMin = errors.New("invalid overlap minimum")

// Corpus is what Reports reads: the talks being served and the generation
// that numbers them (search.Engine.Corpus), taken from one snapshot so a
// report never mixes two.
type Corpus interface {
	Generation() uint64
	Corpus() (generation uint64, talks []index.Talk)
}

// Reports computes the overlap report of a served corpus once per
// generation, at Floor, and answers every minimum by filtering it
// (Report.AtLeast): no choice of minimum makes the detection run again.
// Safe for concurrent use.
type Reports struct {
	c   Corpus
	mu  sync.Mutex
	gen uint64
	rep *Report
	// DecisionsFile, when set, is the committee's decisions file, read
	// again with each generation (a reload applies its edits); ds and
	// dsErr are what the last reading gave.
	DecisionsFile string
	ds            []Decision
	dsErr         error
}

// NewReports returns the reports of c's corpus.
func NewReports(c Corpus) *Reports { return &Reports{c: c} }

// Overlaps returns the report of the corpus served now for minimum score
// min (0 means DefaultMin). A minimum outside [Floor,1] is an error
// wrapping ErrInvalidMin.
func (r *Reports) Overlaps(_ context.Context, min float64) (*Report, error) {
	min, err := RoundMin(min)
	if err != nil {
		return nil, err
	}
	base, ds, err := r.base()
	if err != nil {
		return nil, err
	}
	rep, err := base.AtLeast(min)
	if err != nil {
		return nil, err
	}
	return rep.Apply(ds), nil
}

// base is the report at Floor of the generation served now, made by the
// first request that needs it while the others wait for it.
func (r *Reports) base() (*Report, []Decision, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.rep != nil && r.gen == r.c.Generation() {
		return r.rep, r.ds, r.dsErr
	}
	// The talks are copied only when a report is to be made.
	gen, talks := r.c.Corpus()
	r.gen, r.rep = gen, detect(talks, Options{Min: Floor})
	if r.DecisionsFile != "" {
		r.ds, r.dsErr = ReadDecisionsFile(r.DecisionsFile)
	}
	return r.rep, r.ds, r.dsErr
}

// RoundMin validates a minimum score and rounds it to two decimals, as
// Reports applies it; 0 is DefaultMin, and a value outside [Floor,1] is
// an error wrapping ErrInvalidMin.
func RoundMin(min float64) (float64, error) {
	if min == 0 {
		return DefaultMin, nil
	}
	if !(min >= 0 && min <= 1) { // also refuses NaN
		return 0, fmt.Errorf("overlap minimum %v not in [%.2f,1]: %w", min, Floor, ErrInvalidMin)
	}
	min = math.Round(min*100) / 100
	if min < Floor {
		return 0, fmt.Errorf("overlap minimum %v below %.2f, the lowest a report is made at: %w", min, Floor, ErrInvalidMin)
	}
	return min, nil
}

// AtLeast is the report with only the pairs scoring min or more, and the
// clusters whose strongest pair does; clashes, conflicts and
// resubmissions have thresholds of their own and are kept. min must not
// be below the minimum the report was made at (Floor for a served one):
// that is an error wrapping ErrInvalidMin. The result shares the
// report's lists, which neither may change.
func (r *Report) AtLeast(min float64) (*Report, error) {
	if min < r.min-1e-9 || min > 1 || min != min {
		return nil, fmt.Errorf("overlap minimum %v: the report holds pairs from %.2f: %w", min, r.min, ErrInvalidMin)
	}
	out := *r
	n := len(r.Pairs)
	for n > 0 && r.pairScores[n-1] < min {
		n--
	}
	out.Pairs, out.pairScores = r.Pairs[:n], r.pairScores[:n]
	out.More = r.scores.atLeast(min) - n
	out.Clusters, out.clusterBest = []Cluster{}, nil
	for k, c := range r.Clusters {
		if r.clusterBest[k] >= min {
			out.Clusters = append(out.Clusters, c)
			out.clusterBest = append(out.clusterBest, r.clusterBest[k])
		}
	}
	out.min = min
	return &out, nil
}

// scoreCounts counts pair scores by hundredth: bucket k holds the scores s
// with k/100 <= s < (k+1)/100, so the pairs reaching a minimum of two
// decimals are a sum of buckets, without keeping the pairs.
type scoreCounts [101]int

func (c *scoreCounts) add(score float64) { c[bucket(score)]++ }

func (c *scoreCounts) merge(o *scoreCounts) {
	for k, n := range o {
		c[k] += n
	}
}

// atLeast is how many counted scores reach min, a multiple of 0.01.
func (c *scoreCounts) atLeast(min float64) int {
	n := 0
	for k := bucket(min); k < len(c); k++ {
		n += c[k]
	}
	return n
}

// bucket is the largest k in 0..100 with k/100 <= s, computed by the same
// division the minimum is compared with, so float rounding cannot put a
// score on the wrong side of it.
func bucket(s float64) int {
	k := int(math.Floor(s * 100))
	k = max(0, min(100, k))
	for k < 100 && s >= float64(k+1)/100 {
		k++
	}
	for k > 0 && s < float64(k)/100 {
		k--
	}
	return k
}

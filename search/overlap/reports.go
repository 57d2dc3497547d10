package overlap

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/talksearch/talksearch/index"
)

// ErrInvalidMin: a minimum score outside [0,1] (or NaN) was asked for. The
// web layer answers it with 400.
var ErrInvalidMin = errors.New("invalid overlap minimum")

// Corpus is what Reports reads: the talks being served and the generation
// that numbers them (search.Engine.Corpus), taken from one snapshot so a
// report never mixes two.
type Corpus interface {
	Generation() uint64
	Corpus() (generation uint64, talks []index.Talk)
}

// Reports computes the overlap report of a served corpus once per
// generation and minimum score, and shares it between requests. The
// minimum is rounded to two decimals, which bounds the reports kept per
// generation to 101 whatever clients send. Safe for concurrent use.
type Reports struct {
	c   Corpus
	mu  sync.Mutex
	gen uint64
	by  map[float64]*Report
}

// NewReports returns the reports of c's corpus.
func NewReports(c Corpus) *Reports { return &Reports{c: c} }

// Overlaps returns the report of the corpus served now for minimum score
// min (0 means DefaultMin). A minimum outside [0,1] is an error wrapping
// ErrInvalidMin.
func (r *Reports) Overlaps(_ context.Context, min float64) (*Report, error) {
	min, err := RoundMin(min)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if rep, ok := r.by[min]; ok && r.gen == r.c.Generation() {
		return rep, nil
	}
	// The talks are copied only when a report is to be made.
	gen, talks := r.c.Corpus()
	if gen != r.gen || r.by == nil {
		r.gen, r.by = gen, map[float64]*Report{}
	}
	rep := Detect(talks, Options{Min: min})
	r.by[min] = rep
	return rep, nil
}

// RoundMin validates a minimum score and rounds it as Reports does; a value
// outside [0,1] is an error wrapping ErrInvalidMin.
func RoundMin(min float64) (float64, error) {
	if !(min >= 0 && min <= 1) { // also refuses NaN
		return 0, fmt.Errorf("overlap minimum %v not in [0,1]: %w", min, ErrInvalidMin)
	}
	return math.Round(min*100) / 100, nil
}

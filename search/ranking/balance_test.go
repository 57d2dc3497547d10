package ranking

import (
	"math"
	"testing"
)

// TestBalance: a talk saying every concept scores Bleve's disjunction
// score times the evenness of its concepts' scores to BalancePower; a
// talk missing one keeps the disjunction's score.
func TestBalance(t *testing.T) {
	for _, c := range []struct {
		name             string
		sum, squares     float64
		matched, clauses int
		want             float64
	}{
		{"even", 2, 2, 2, 2, 2},
		{"one and two", 3, 5, 2, 2, 3 * math.Pow(8.0/9, BalancePower)},
		{"one far above", 1.01, 1.0001, 2, 2, 1.01 * math.Pow(2*(1-1.0001/(1.01*1.01)), BalancePower)},
		{"one of two", 3, 9, 1, 2, 1.5},
		{"nothing", 0, 0, 0, 2, 0},
	} {
		if got := Balance(c.sum, c.squares, c.matched, c.clauses); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: Balance(%g, %g, %d, %d) = %g, want %g", c.name, c.sum, c.squares, c.matched, c.clauses, got, c.want)
		}
	}
	if got := Balance(1.01, 1.0001, 2, 2); got > 0.5 {
		t.Errorf("a concept said a hundred times less than the other: %g, want at most half the sum", got)
	}
}

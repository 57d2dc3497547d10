package ranking

import (
	"math"
	"strings"
	"testing"

	bsearch "github.com/blevesearch/bleve/v2/search"
)

// TestFactorsAreSoftCoord: the factor kept per clause mask is SoftCoord's
// for that mask, weighted for a talk and unweighted for a break (one memo
// holds both), read from a match's list of matched terms as from a mask,
// and a break's is damped by Break, a cancelled talk's by Cancelled.
func TestFactorsAreSoftCoord(t *testing.T) {
	clauses := []Clause{
		{Terms: []string{"rust"}, Weight: 4.2},
		{Terms: []string{"kernel", "kernels"}, Weight: 3.1},
		{Terms: []string{"state"}, Weight: 0.7},
	}
	f := NewFactors(clauses)
	for mask := uint32(1); mask < 8; mask++ {
		var locs []bsearch.FieldTermLocation
		for i, c := range clauses {
			if mask&(1<<i) != 0 {
				locs = append(locs, bsearch.FieldTermLocation{Field: "abstract", Term: c.Terms[len(c.Terms)-1]})
			}
		}
		if got := f.Mask(locs); got != mask {
			t.Errorf("Mask of the terms of %03b = %03b", mask, got)
		}
		matched := func(i int) bool { return mask&(1<<i) != 0 }
		talk := SoftCoord(clauses, matched, true)
		brk := SoftCoord(clauses, matched, false) * Break
		// Twice: the second from the memo.
		for range 2 {
			if got := f.Of(mask, 0); got != talk {
				t.Errorf("Of(%03b, talk) = %v, want %v", mask, got, talk)
			}
			if got := f.Of(mask, DampBreak); got != brk {
				t.Errorf("Of(%03b, break) = %v, want %v", mask, got, brk)
			}
			if got := f.Of(mask, DampCancelled); got != talk*Cancelled {
				t.Errorf("Of(%03b, cancelled) = %v, want %v", mask, got, talk*Cancelled)
			}
			if got := f.Of(mask, DampBreak|DampCancelled); got != brk*Cancelled {
				t.Errorf("Of(%03b, cancelled break) = %v, want %v", mask, got, brk*Cancelled)
			}
			if got, want := f.Explain(mask, DampBreak|DampCancelled).Value, brk*Cancelled; got != want {
				t.Errorf("Explain(%03b, cancelled break) = %v, want %v", mask, got, want)
			}
		}
	}
	if f.Of(0b011, 0) == f.Of(0b011, DampBreak)/Break {
		t.Fatal("weighted and unweighted factors agree: the check above could not tell them apart")
	}
	// A talk matching every clause keeps its score; one matching only the
	// vague word loses most of it.
	if got := f.Of(0b111, 0); got != 1 {
		t.Errorf("every clause: factor %v, want 1", got)
	}
	if got, want := f.Of(0b100, 0), math.Pow(0.7/8.0, Power)*3; math.Abs(got-want) > 1e-15 {
		t.Errorf("the vague word only: factor %v, want %v", got, want)
	}
}

// TestFactorsOfLongQueries: past the clauses a dense table holds, factors
// are memoised alike, and clauses past MaxClauses are not coordinated.
func TestFactorsOfLongQueries(t *testing.T) {
	many := make([]Clause, MaxClauses+4)
	for i := range many {
		many[i] = Clause{Terms: []string{string(rune('a' + i))}, Weight: float64(i + 1)}
	}
	f := NewFactors(many)
	if len(f.Clauses()) != MaxClauses {
		t.Fatalf("%d clauses coordinated, want %d", len(f.Clauses()), MaxClauses)
	}
	mask := uint32(1) | 1<<(MaxClauses-1)
	want := SoftCoord(many[:MaxClauses], func(i int) bool { return mask&(1<<i) != 0 }, true)
	for range 2 {
		if got := f.Of(mask, 0); got != want {
			t.Errorf("Of(first and last) = %v, want %v", got, want)
		}
	}
	if got := f.TermMask(string(rune('a' + MaxClauses))); got != 0 {
		t.Errorf("a term of a clause past MaxClauses has mask %b", got)
	}
}

// TestExplanationWithoutDocIDs: Bleve's messages lose the raw internal id
// of the document they name, and keep the rest.
func TestExplanationWithoutDocIDs(t *testing.T) {
	for in, want := range map[string]string{
		"weight(title:offload^3.000000 in \x00\x00\x00\x00\x00\x00\x00\x09), product of:":              "weight(title:offload^3.000000), product of:",
		"fieldWeight(abstract:kv in \x00\x00\x00\x00\x00\x00\x01\x11), as per bm25 model, product of:": "fieldWeight(abstract:kv), as per bm25 model, product of:",
		"sum of:": "sum of:",
		"weight(title:join in a row), product of:": "weight(title:join in a row), product of:",
	} {
		if got := FromBleve(&bsearch.Explanation{Message: in}).Description; got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// TestAskedWeight: a question's word keeps its rarity beyond a common
// word's and AskedFloor of its own, so a word of middle frequency weighs
// beside a rare one little more than half than its rarity alone says, a word as
// common as a common word keeps only the floor, and the order of words'
// weights is kept.
func TestAskedWeight(t *testing.T) {
	const common = 1.6
	for _, tt := range []struct{ idf, want float64 }{
		{4.4, 2.8 + 0.88},
		{2.1, 0.5 + 0.42},
		{common, 0.32},
		{1.0, 0.2},
		{0, 0},
	} {
		if got := AskedWeight(tt.idf, common); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("AskedWeight(%v, %v) = %v, want %v", tt.idf, common, got, tt.want)
		}
	}
	if r, asked := 2.1/4.4, AskedWeight(2.1, common)/AskedWeight(4.4, common); asked >= 0.6*r {
		t.Errorf("a word of middle frequency weighs %.3f of a rare one asked, %.3f by rarity: want under 0.6 of it", asked, r)
	}
}

// TestAbsentPower: a query with a described word no talk has is
// coordinated at AbsentPower, and its explanation says so; without one,
// at Power.
func TestAbsentPower(t *testing.T) {
	clauses := []Clause{
		{Terms: []string{"footbal"}, Absent: true},
		{Terms: []string{"video"}, Weight: 3},
		{Terms: []string{"analyz"}, Weight: 1},
	}
	if got := CoordPower(clauses); got != AbsentPower {
		t.Fatalf("CoordPower = %v, want AbsentPower %v", got, AbsentPower)
	}
	if got := CoordPower(clauses[1:]); got != Power {
		t.Fatalf("CoordPower without the absent word = %v, want Power %v", got, Power)
	}
	f := NewFactors(clauses)
	// video alone: (3/4)^2 over Bleve's 1/3.
	if got, want := f.Of(0b010, 0), math.Pow(0.75, 2)*3; math.Abs(got-want) > 1e-15 {
		t.Errorf("video only: factor %v, want %v", got, want)
	}
	e := f.Explain(0b010, 0)
	if d := e.Details[0].Description; !strings.Contains(d, "(matched weight / all weight)^2 / (1/3)") {
		t.Errorf("explanation %q does not give the power 2", d)
	}
}

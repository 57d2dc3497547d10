package search

import (
	"testing"

	"github.com/talksearch/talksearch/search/syntax"
)

// TestClauseWeights: a clause of the coordination weighs what its word as
// typed weighs, never what a term no talk has or a rare alternative does.
// On the seeds "football" is in no talk and is an English word (never
// corrected): it weighs nothing; "analysis" is in no talk either
// ("analysi") but its corpus forms are ("analyz"): it weighs theirs,
// not the 5.0 of a term of no talk.
func TestClauseWeights(t *testing.T) {
	e, _ := seedEngine(t)
	s, done, err := e.acquire()
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	pl := s.compile(syntax.Parse("football video analysis"))
	if len(pl.coord) != 3 {
		t.Fatalf("%d clauses, want 3: %+v", len(pl.coord), pl.coord)
	}
	for i, want := range []float64{0, s.idf("video"), s.idf("analyz")} {
		if got := pl.coord[i].Weight; got != want {
			t.Errorf("clause %d %v: weight %.3f, want %.3f", i, pl.coord[i].Terms, got, want)
		}
	}
	if s.dict["analyz"] == 0 || s.dict["analysi"] != 0 || s.dict["footbal"] != 0 {
		t.Fatalf("seed document frequencies changed: analyz %d, analysi %d, footbal %d", s.dict["analyz"], s.dict["analysi"], s.dict["footbal"])
	}
}

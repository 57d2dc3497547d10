package search

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search/ranking"
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

// TestAbsentClauses: a described word no talk has ("football" on the
// seeds) marks its clause Absent, which coordinates the query at
// ranking.AbsentPower; the same kind of word in a question ("survive")
// weighs nothing but is not Absent: a question keeps ranking.Power.
func TestAbsentClauses(t *testing.T) {
	e, _ := seedEngine(t)
	s, done, err := e.acquire()
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	absent := func(q string) []bool {
		var out []bool
		for _, c := range s.compile(syntax.Parse(q)).coord {
			out = append(out, c.Absent)
		}
		return out
	}
	if diff := cmp.Diff([]bool{true, false, false}, absent("football video analysis")); diff != "" {
		t.Errorf("football video analysis: Absent (-want +got):\n%s", diff)
	}
	pl := s.compile(syntax.Parse("how can my training runs survive node failures"))
	if got := ranking.CoordPower(pl.coord); got != ranking.Power {
		t.Errorf("question: power %v, want %v", got, ranking.Power)
	}
	if pl.coord[0].Weight != 0 || pl.coord[0].Absent {
		t.Errorf("question's clause %v: weight %.3f, Absent %v; want 0, false", pl.coord[0].Terms, pl.coord[0].Weight, pl.coord[0].Absent)
	}
	if diff := cmp.Diff([]bool{false, false}, absent("video analysis")); diff != "" {
		t.Errorf("video analysis: Absent (-want +got):\n%s", diff)
	}
}

// TestQuestionWeights: the clauses of a question weigh their words'
// rarity beyond a common word's (ranking.AskedWeight); the same words not
// asked weigh their rarity. "images" is in 3 of the 20 talks (below
// ranking.CommonShare: not a common word), "container" in 1.
func TestQuestionWeights(t *testing.T) {
	talks := []index.Talk{
		{ID: "c", Title: "Container internals", Kind: index.KindTalk},
		{ID: "i1", Title: "Images of gardening", Kind: index.KindTalk},
		{ID: "i2", Title: "Disk images", Kind: index.KindTalk},
		{ID: "i3", Title: "Images in the browser", Kind: index.KindTalk},
	}
	for i := range 16 {
		talks = append(talks, index.Talk{ID: fmt.Sprintf("other-%d", i), Title: fmt.Sprintf("Talk number %d", i), Kind: index.KindTalk})
	}
	e := newEngineT(t, talks, Options{})
	s, done, err := e.acquire()
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	if s.common("images") || s.dict["imag"] != 3 || s.dict["contain"] != 1 {
		t.Fatalf("document frequencies: imag %d, contain %d", s.dict["imag"], s.dict["contain"])
	}
	common := ranking.IDF(20, 4)
	for _, tt := range []struct {
		query string
		want  []float64
	}{
		{"container images", []float64{s.idf("contain"), s.idf("imag")}},
		{"how are container images built", []float64{ranking.AskedWeight(s.idf("contain"), common), ranking.AskedWeight(s.idf("imag"), common), 0}},
	} {
		pl := s.compile(syntax.Parse(tt.query))
		var got []float64
		for _, c := range pl.coord {
			got = append(got, c.Weight)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%q: clause weights (-want +got):\n%s", tt.query, diff)
		}
	}
}

package search

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/talksearch/talksearch/index"
)

// assocTalks is a corpus made for the associations: "container" goes with
// "docker" in six talks and with "image" in six others, and "docker" never
// goes with "image"; eight other topics of seven talks each keep
// "container" below the common words' share. Talk "docker-only" says
// docker without container, "container-only" container without either
// query word. It is far smaller than a corpus that is mined
// (assocMinTalksMined): the test lowers the bound while it runs.
func assocTalks(t *testing.T) []index.Talk {
	keep := assocMinTalksMined
	assocMinTalksMined = 0
	t.Cleanup(func() { assocMinTalksMined = keep })
	var ts []index.Talk
	add := func(id, title, abstract string) {
		ts = append(ts, index.Talk{ID: id, Title: title, Abstract: abstract})
	}
	for i := range 6 {
		add(fmt.Sprintf("docker-%d", i), "Docker in practice", "We use docker and container tooling daily.")
		add(fmt.Sprintf("image-%d", i), "Slim image builds", "Every image is a container layer stack.")
	}
	add("docker-only", "Docker in practice", "We use docker and shell tooling daily.")
	add("container-only", "Orchestration", "Scheduling each container on many nodes.")
	for k, topic := range []string{"rust firmware", "postgres replication", "matrix chat", "kernel scheduler",
		"python packaging", "browser engines", "solar energy", "legal licensing"} {
		for i := range 7 {
			add(fmt.Sprintf("t%d-%d", k, i), "About "+topic, "A talk on "+topic+" and its community.")
		}
	}
	return ts
}

func TestAssociatedTerms(t *testing.T) {
	for _, onePassMax := range []int{0, -1} {
		t.Run(fmt.Sprint("onePassMax=", onePassMax), func(t *testing.T) {
			e, err := NewWithOptions(assocTalks(t), Options{OnePassMax: onePassMax})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			ctx := context.Background()
			// Neither word is the corpus's as typed (it says "docker",
			// "image"): the words are expanded.
			r, err := e.Search(ctx, Request{Query: "dockers images", Limit: 20})
			if err != nil {
				t.Fatal(err)
			}
			if want := "dockers, images → container"; !slices.Contains(r.Synonyms, want) {
				t.Errorf("synonyms %q, want %q among them", r.Synonyms, want)
			}
			var ids []string
			for _, h := range r.Hits {
				ids = append(ids, h.ID)
			}
			// Never a gate: the talk with only the associated term is not
			// found; the talk with docker but not container is found, below
			// the six that also say container.
			if slices.Contains(ids, "container-only") {
				t.Errorf("container-only found by an associated term alone: %v", ids)
			}
			if r.Total != 13 {
				t.Errorf("total %d, want 13 (6 docker, 6 image, docker-only): %v", r.Total, ids)
			}
			at := slices.Index(ids, "docker-only")
			for i := range 6 {
				if j := slices.Index(ids, fmt.Sprintf("docker-%d", i)); j < 0 || j > at {
					t.Errorf("docker-%d at %d, docker-only at %d: %v", i, j, at, ids)
				}
			}
			// One word has no associations: which of its associates the
			// user means is a guess. Words the corpus has as typed have
			// none either (drift.go).
			for _, q := range []string{"docker", "dockers", "docker image"} {
				r, err = e.Search(ctx, Request{Query: q})
				if err != nil {
					t.Fatal(err)
				}
				for _, s := range r.Synonyms {
					if strings.Contains(s, "container") {
						t.Errorf("%q expanded: %q", q, r.Synonyms)
					}
				}
			}
		})
	}
}

// TestAssociatesOfTerm checks the mining itself: docker's associates are
// container (six of its seven talks) and "daily" (all seven, and no other
// talk), never "image", which no docker talk says, nor a word of the other
// topics.
func TestAssociatesOfTerm(t *testing.T) {
	e, err := New(assocTalks(t))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s := e.snap.Load()
	var got []string
	for _, a := range s.associates("docker") {
		got = append(got, s.stats.voc.Term(a.id))
	}
	if want := []string{"daili", "contain"}; !slices.Equal(got, want) {
		t.Errorf("associates of docker %v, want %v", got, want)
	}
}

// BenchmarkAssocIndex: what mining the associations adds to building an
// engine on the FOSDEM archive (12,262 talks): each talk's terms read once.
// The associates of a term are counted on first use (BenchmarkSearchFOSDEM).
//
//	go test ./search -run '^$' -bench AssocIndex -benchtime 5x
func BenchmarkAssocIndex(b *testing.B) {
	e := archiveEngine(b)
	s := e.snap.Load()
	talks := e.Talks()
	runTimed(b, 1, func(int) error {
		newAssocIndex(talks, s.stats)
		return nil
	})
}

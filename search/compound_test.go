package search

import (
	"fmt"
	"strings"
	"testing"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search/ranking"
)

// compoundTalks say "docker images" side by side in two of the three
// talks holding both words, and docker and hosts apart.
func compoundTalks() []index.Talk {
	talks := []index.Talk{
		{ID: "slim", Title: "Slim docker images", Kind: index.KindTalk,
			Abstract: "How to build small docker images for production."},
		{ID: "layers", Title: "Layers of a docker image", Kind: index.KindTalk,
			Abstract: "What a registry stores."},
		{ID: "apart", Title: "Docker in the classroom", Kind: index.KindTalk,
			Abstract: "Students share images and run docker on the hosts of the lab."},
		{ID: "satellite", Title: "Satellite images", Kind: index.KindTalk,
			Abstract: "Processing images from orbit."},
	}
	for i, w := range strings.Fields("gardening astronomy cooking sailing chess pottery knitting cycling") {
		talks = append(talks, index.Talk{ID: fmt.Sprintf("other-%d", i), Title: "All about " + w, Kind: index.KindTalk,
			Abstract: "An introduction to " + w + " for beginners."})
	}
	return talks
}

// TestAskedCompounds: the first word of two typed one after the other
// that the corpus mostly writes side by side weighs in the coordination
// no more than the second; not when the second weighs less than
// ranking.CompoundRarity of it, not when the corpus writes them apart,
// not when they are not typed together.
func TestAskedCompounds(t *testing.T) {
	e := newEngineT(t, compoundTalks(), Options{})
	s, done, err := e.acquire()
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	partsOf := func(words []string, weights []float64) []wordPart {
		ps := make([]wordPart, len(words))
		for i, w := range words {
			ps[i] = wordPart{word: w, coord: ranking.Clause{Weight: weights[i]}}
		}
		return ps
	}
	for _, tt := range []struct {
		typed   string
		words   []string
		weights []float64
		want    []float64
	}{
		{"how can I make my docker images smaller", []string{"docker", "images", "smaller"}, []float64{4, 2.5, 3}, []float64{2.5, 2.5, 3}},
		{"how can I make my docker images smaller", []string{"docker", "images", "smaller"}, []float64{4, 1.5, 3}, []float64{4, 1.5, 3}},
		{"how do I secure docker hosts", []string{"docker", "hosts"}, []float64{4, 3}, []float64{4, 3}},
		{"how do images of docker work", []string{"images", "docker"}, []float64{4, 3}, []float64{4, 3}},
		{"how do docker and images differ", []string{"docker", "images"}, []float64{4, 3}, []float64{4, 3}},
	} {
		ps := partsOf(tt.words, tt.weights)
		s.askedCompounds(strings.Fields(tt.typed), ps)
		for i, p := range ps {
			if p.coord.Weight != tt.want[i] {
				t.Errorf("%q %v: %s weighs %g, want %g", tt.typed, tt.weights, p.word, p.coord.Weight, tt.want[i])
			}
		}
	}
}

// TestAskedCompoundsKeepVerdict: the corpus's verdict on a pair of typed
// words is read once per snapshot, not again for every question with it;
// a pair written apart is kept as no compound.
func TestAskedCompoundsKeepVerdict(t *testing.T) {
	e := newEngineT(t, compoundTalks(), Options{})
	s, done, err := e.acquire()
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	ask := func(typed string, words ...string) []wordPart {
		ps := []wordPart{{word: words[0], coord: ranking.Clause{Weight: 4}}, {word: words[1], coord: ranking.Clause{Weight: 3}}}
		s.askedCompounds(strings.Fields(typed), ps)
		return ps
	}
	for range 2 {
		if ps := ask("how can I make my docker images smaller", "docker", "images"); ps[0].coord.Weight != 3 {
			t.Errorf("docker images: docker weighs %g, want 3", ps[0].coord.Weight)
		}
		if ps := ask("how do I secure docker hosts", "docker", "hosts"); ps[0].coord.Weight != 4 {
			t.Errorf("docker hosts: docker weighs %g, want 4", ps[0].coord.Weight)
		}
	}
	want := map[string]bool{"docker\x00imag": true, "docker\x00host": false}
	if n := s.compounds.len(); n != len(want) {
		t.Errorf("%d verdicts kept, want %d", n, len(want))
	}
	for key, c := range want {
		if got, ok := s.compounds.get(key); !ok || got != c {
			t.Errorf("verdict of %q: %v (kept %v), want %v", key, got, ok, c)
		}
	}
}

package search

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
)

// TestWordInManyFieldsBelowMoreWords: in a query of three concepts, a
// talk that says one of them in its title, abstract, description, track
// and room, and the others once in its description, ranks below a talk
// with two of them in its title and all three in its abstract. With Bleve's share of the
// fields matched, the first word's five fields counted about 25 times one
// field (ranking.CombineFields).
func TestWordInManyFieldsBelowMoreWords(t *testing.T) {
	talk := func(id, title, abstract, description, track string) index.Talk {
		return index.Talk{ID: id, Conference: index.Conference{ID: "c", Name: "C"}, Title: title,
			Abstract: abstract, Description: description, Track: track, Kind: index.KindTalk,
			Room: track, Sources: []string{"hand.json"}}
	}
	talks := []index.Talk{
		talk("repeats", "Sandboxes for embedded boards", "Sandboxes run each application of the board apart.",
			"A tour of sandboxes on small boards, with one slide on signing the firmware.", "Sandboxes"),
		talk("all", "Firmware for sandboxes", "Signing the firmware of sandboxes on boards.", "", "Hardware"),
	}
	// Other talks, so that no word is in most of the corpus.
	for i := range 12 {
		talks = append(talks, talk(fmt.Sprintf("other%d", i), fmt.Sprintf("Compilers part %d", i),
			"Register allocation and instruction selection.", "", "Compilers"))
	}
	e := newEngineT(t, talks, Options{})
	r, err := e.Search(context.Background(), Request{Query: "sandboxes firmware signing"})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"all", "repeats"}, hitIDs(r)); d != "" {
		t.Fatalf("hits (-want +got):\n%s", d)
	}
}

package search

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
)

// namedTalks are two talks given by Ada Byron, one that names her in its
// title and abstract (given by someone else), and two about other things.
func namedTalks() []index.Talk {
	talk := func(id string, h int, title, abstract, speaker string) index.Talk {
		start := time.Date(2026, 4, 8, h, 0, 0, 0, time.UTC)
		end := start.Add(time.Hour)
		return index.Talk{ID: id, Conference: index.Conference{ID: "c", Name: "C"}, Title: title,
			Abstract: abstract, Speakers: []index.Speaker{{Name: speaker}}, Kind: index.KindTalk,
			Start: &start, End: &end, Scheduled: true, Room: "A", Sources: []string{"hand.json"}}
	}
	return []index.Talk{
		talk("about", 9, "Can we make Ada Byron run a tiling window manager?",
			"Ada Byron likes floating windows. Ada Byron will be shown the light.", "Grace Hopper"),
		talk("by-engines", 10, "Analytical engines", "Punched cards and loops.", "Ada Byron"),
		talk("by-notes", 11, "Notes on a translation", "What the notes added to the paper.", "Ada Byron"),
		talk("compilers", 12, "Compilers for everyone", "A compiler written in a weekend.", "Grace Hopper"),
		talk("mesh", 13, "Mesh networks", "Radios on rooftops.", "Alan Turing"),
	}
}

// TestNamedSpeakerTalksFirst: a query that is a speaker's name finds the
// talks the speaker gives before a talk naming them in its title, in one
// pass and scanned.
func TestNamedSpeakerTalksFirst(t *testing.T) {
	for _, o := range []Options{{}, {OnePassMax: -1}} {
		e := newEngineT(t, namedTalks(), o)
		r, err := e.Search(context.Background(), Request{Query: "Ada Byron"})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]string{"by-engines", "by-notes", "about"}, hitIDs(r)); d != "" {
			t.Errorf("OnePassMax %d: hits (-want +got):\n%s", o.OnePassMax, d)
		}
		// Not a speaker's name: the talk saying the words in its title first.
		r, err = e.Search(context.Background(), Request{Query: "Tiling Window"})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]string{"about"}, hitIDs(r)); d != "" {
			t.Errorf("OnePassMax %d: hits (-want +got):\n%s", o.OnePassMax, d)
		}
	}
}

// TestNamedSpeakerNonASCII: a name with letters beyond ASCII ("Zoë
// Ørsted") is a speaker's name as an ASCII one is, in one pass and
// scanned.
func TestNamedSpeakerNonASCII(t *testing.T) {
	talks := namedTalks()
	for i := range talks {
		for j := range talks[i].Speakers {
			if talks[i].Speakers[j].Name == "Ada Byron" {
				talks[i].Speakers[j].Name = "Zoë Ørsted"
			}
		}
		talks[i].Title = strings.ReplaceAll(talks[i].Title, "Ada Byron", "Zoë Ørsted")
		talks[i].Abstract = strings.ReplaceAll(talks[i].Abstract, "Ada Byron", "Zoë Ørsted")
	}
	for _, o := range []Options{{}, {OnePassMax: -1}} {
		e := newEngineT(t, talks, o)
		s, done, err := e.acquire()
		if err != nil {
			t.Fatal(err)
		}
		named := s.speakersName([]string{"Zoë", "Ørsted"})
		done()
		if !named {
			t.Errorf("OnePassMax %d: Zoë Ørsted is no speaker's name", o.OnePassMax)
		}
		r, err := e.Search(context.Background(), Request{Query: "Zoë Ørsted"})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]string{"by-engines", "by-notes", "about"}, hitIDs(r)); d != "" {
			t.Errorf("OnePassMax %d: hits (-want +got):\n%s", o.OnePassMax, d)
		}
	}
}

package search

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/talksearch/talksearch/index"
)

// formTalks are four sponsors' slots: two activities with short titles and
// two sessions, one saying so in its title, one in its track.
func formTalks() []index.Talk {
	return []index.Talk{
		{ID: "activity-a", Title: "Sponsor Activity: Lobster Trap", Kind: index.KindTalk, Abstract: "A booth demo."},
		{ID: "activity-b", Title: "Sponsor Activity: Validating CPUs", Kind: index.KindTalk, Abstract: "A booth demo of inference."},
		{ID: "session", Title: "Sponsored Session: Fault-Tolerant Training for Reliable Clusters of Many Machines", Kind: index.KindTalk,
			Abstract: "Clusters that survive failures.", Track: "Training Systems"},
		{ID: "keynote", Title: "Sponsored Keynote: Open Source Infrastructure for the Native Era", Kind: index.KindTalk,
			Abstract: "Infrastructure for everyone.", Track: "Keynote Sessions"},
		{ID: "other", Title: "Parallel training", Kind: index.KindTalk, Abstract: "A session on parallelism.", Track: "Training Systems"},
	}
}

// The form word typed beside a query's one content word ranks the talks
// that word finds; it finds no talk on its own, and beside two content
// words it is filler.
func TestFormWordsRankOneWordsTalks(t *testing.T) {
	e := newEngineT(t, formTalks(), Options{})
	for _, tt := range []struct {
		query string
		want  []string
	}{
		{"sponsored", []string{"activity-a", "activity-b", "keynote", "session"}},
		{"sponsored sessions", []string{"session", "keynote", "activity-a", "activity-b"}},
		{"sponsored talks", []string{"activity-a", "activity-b", "keynote", "session"}},
	} {
		r, err := e.Search(context.Background(), Request{Query: tt.query})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, hitIDs(r)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.query, diff)
		}
	}
	s, release, err := e.acquire()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	for _, tt := range []struct {
		typed, content []string
		want           bool
	}{
		{[]string{"sponsored", "sessions"}, []string{"sponsored"}, true},
		{[]string{"sessions"}, []string{"sessions"}, false},
		{[]string{"lightning", "talks", "about", "rust"}, []string{"lightning", "rust"}, false},
		{[]string{"sponsored", "keynotes"}, []string{"sponsored", "keynotes"}, false},
	} {
		if got := s.formClause(tt.typed, tt.content) != nil; got != tt.want {
			t.Errorf("formClause(%q, %q) != nil: %v, want %v", tt.typed, tt.content, got, tt.want)
		}
	}
}

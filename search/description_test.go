package search

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/talksearch/talksearch/index"
)

// descriptionTalks are the fixture talks and three whose text is partly or
// wholly a description (FOSDEM's <description>): one with nothing else,
// one with an abstract beside it, one whose description repeats its
// abstract. "bundled" is in an abstract; "Bundler" only in descriptions.
func descriptionTalks(t *testing.T) []index.Talk {
	talks := fixtureTalks(t)
	return append(talks,
		index.Talk{ID: "desc-only", Title: "Packaging Ruby gems", Kind: index.KindTalk,
			Description: "Bundler resolves every dependency of an application.\n\nWe show <script>alert(2)</script> in a Gemfile."},
		index.Talk{ID: "desc-beside", Title: "Dependency hell", Kind: index.KindTalk,
			Abstract: "How language ecosystems lock their versions.", Description: "Examples from Bundler, Cargo and npm."},
		index.Talk{ID: "desc-repeat", Title: "Static binaries", Kind: index.KindTalk,
			Abstract: "Runtimes bundled into one file.", Description: "Runtimes bundled into one file."},
	)
}

func TestDescriptionIsSearched(t *testing.T) {
	e := newEngineT(t, descriptionTalks(t), Options{})
	ctx := context.Background()
	tests := []struct {
		query      string
		want       []string // sorted
		didYouMean string
	}{
		// A word only in descriptions finds their talks, and is not
		// "corrected" to the abstract's bundled.
		{"bundler", []string{"desc-beside", "desc-only"}, ""},
		{"gemfile", []string{"desc-only"}, ""},
		// A misspelling of a word only in descriptions is corrected to it
		// (bundled, as near, is searched as well, and suggested less).
		{"bundlre", []string{"desc-beside", "desc-only", "desc-repeat"}, "bundler"},
		{"gemfiel", []string{"desc-only"}, "gemfile"},
		// A description repeating the abstract counts once.
		{"bundled", []string{"desc-repeat"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			r, err := e.Search(ctx, Request{Query: tt.query})
			if err != nil {
				t.Fatal(err)
			}
			got := hitIDs(r)
			slices.Sort(got)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("hits (-want +got):\n%s", diff)
			}
			if r.Total != uint64(len(tt.want)) {
				t.Errorf("total %d, want %d", r.Total, len(tt.want))
			}
			if r.DidYouMean != tt.didYouMean {
				t.Errorf("did_you_mean = %q, want %q", r.DidYouMean, tt.didYouMean)
			}
		})
	}
}

func TestDescriptionRanksBelowAbstract(t *testing.T) {
	talks := []index.Talk{
		{ID: "in-abstract", Title: "One", Kind: index.KindTalk, Abstract: "Sandboxing with seccomp filters."},
		{ID: "in-description", Title: "Two", Kind: index.KindTalk, Description: "Sandboxing with seccomp filters."},
	}
	e := newEngineT(t, talks, Options{})
	r, err := e.Search(context.Background(), Request{Query: "seccomp"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"in-abstract", "in-description"}, hitIDs(r)); diff != "" {
		t.Errorf("hits (-want +got):\n%s", diff)
	}
}

func TestDescriptionHighlights(t *testing.T) {
	e := newEngineT(t, descriptionTalks(t), Options{})
	tests := []struct {
		query, id string
		want      Highlights
	}{
		// The description's text is escaped like the abstract's: only the
		// marks are markup.
		{"script alert", "desc-only", Highlights{Title: []string{}, Abstract: []string{}, Speakers: []string{},
			Description: []string{"Bundler resolves every dependency of an application.\n\nWe show &lt;<mark>script</mark>&gt;<mark>alert</mark>(2)&lt;/<mark>script</mark>&gt; in a Gemfile."}}},
		{"cargo", "desc-beside", Highlights{Title: []string{}, Abstract: []string{}, Speakers: []string{},
			Description: []string{"Examples from Bundler, <mark>Cargo</mark> and npm."}}},
		// A description repeating the abstract is not indexed, so its
		// words are marked in the abstract only.
		{"runtimes", "desc-repeat", Highlights{Title: []string{}, Speakers: []string{}, Description: []string{},
			Abstract: []string{"<mark>Runtimes</mark> bundled into one file."}}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			r, err := e.Search(context.Background(), Request{Query: tt.query})
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range r.Hits {
				if h.ID == tt.id {
					if diff := cmp.Diff(tt.want, h.Highlights); diff != "" {
						t.Errorf("highlights (-want +got):\n%s", diff)
					}
					return
				}
			}
			t.Fatalf("%s not in %v", tt.id, hitIDs(r))
		})
	}
}

// TestDescriptionOnArchive: in the FOSDEM archive, 83 talks have no text
// but their description, and two descriptions (and no abstract) say
// Bundler: the word is searched as typed, not corrected to bundled.
func TestDescriptionOnArchive(t *testing.T) {
	e := archiveEngine(t)
	only := 0
	for _, tk := range e.Talks() {
		if tk.Abstract == "" && tk.DescriptionText() != "" {
			only++
		}
	}
	if only != 83 {
		t.Errorf("%d talks with a description only, want 83", only)
	}
	r, err := e.Search(context.Background(), Request{Query: "bundler"})
	if err != nil {
		t.Fatal(err)
	}
	got := hitIDs(r)
	slices.Sort(got)
	if diff := cmp.Diff([]string{"foreign-packages-in-gnu-guix-59a3db", "how-mediawiki-is-tested-d81c55"}, got); diff != "" {
		t.Errorf("hits (-want +got):\n%s", diff)
	}
	if r.DidYouMean != "" {
		t.Errorf("did_you_mean = %q, want none", r.DidYouMean)
	}
	for _, h := range r.Hits {
		if len(h.Highlights.Abstract) != 0 || len(h.Highlights.Description) != 1 ||
			!strings.Contains(strings.ToLower(h.Highlights.Description[0]), "<mark>bundler</mark>") {
			t.Errorf("%s: highlights %+v, want Bundler marked in one description fragment", h.ID, h.Highlights)
		}
	}
}

package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/talksearch/talksearch/index"
)

// descriptionHandler serves three talks: one whose only text is a
// description (with markup in it that must show as text), one with an
// abstract and a description, one with neither.
func descriptionHandler(t *testing.T) http.Handler {
	t.Helper()
	talks := []index.Talk{
		{ID: "desc-only", Title: "Packaging Ruby gems", Kind: index.KindTalk,
			Description: "Bundler resolves every dependency.\n\nWe show <script>alert(2)</script> in a Gemfile."},
		{ID: "both", Title: "Dependency hell", Kind: index.KindTalk,
			Abstract: "How ecosystems lock their versions.", Description: "Examples from Cargo and npm."},
		{ID: "bare", Title: "Lightning talks", Kind: index.KindTalk},
	}
	return talksHandler(t, talks)
}

func TestTalkPageShowsDescription(t *testing.T) {
	h := descriptionHandler(t)
	tests := []struct {
		id      string
		want    []string
		notWant []string
	}{
		{"desc-only",
			[]string{`<h2 id="description-h">Description</h2>`, `<p dir="auto">Bundler resolves every dependency.</p>`,
				`<p dir="auto">We show &lt;script&gt;alert(2)&lt;/script&gt; in a Gemfile.</p>`},
			[]string{"No abstract was published", `id="abstract-h"`, "<script>alert(2)"}},
		{"both",
			[]string{`<h2 id="abstract-h">Abstract</h2>`, `<p dir="auto">How ecosystems lock their versions.</p>`,
				`<h2 id="description-h">Description</h2>`, `<p dir="auto">Examples from Cargo and npm.</p>`},
			[]string{"No abstract was published"}},
		{"bare", []string{`<h2 id="abstract-h">Abstract</h2>`, "No abstract was published for this session."},
			[]string{`id="description-h"`}},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			rec := get(t, h, "/talks/"+tt.id)
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d", rec.Code)
			}
			body := rec.Body.String()
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("page lacks %q", w)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(body, w) {
					t.Errorf("page has %q", w)
				}
			}
		})
	}
}

func TestResultCardShowsDescriptionFragment(t *testing.T) {
	h := descriptionHandler(t)
	rec := get(t, h, "/?q=gemfile+script")
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d", rec.Code)
	}
	body := rec.Body.String()
	frag := `<p class="frag" dir="auto">Bundler resolves every dependency.` + "\n\n" +
		`We show &lt;<mark>script</mark>&gt;alert(2)&lt;/<mark>script</mark>&gt; in a <mark>Gemfile</mark>.</p>`
	if n := strings.Count(body, `<p class="frag"`); n != 1 {
		t.Errorf("%d fragments, want 1", n)
	}
	if !strings.Contains(body, frag) {
		t.Errorf("card lacks the description's fragment %q", frag)
	}
	if strings.Contains(body, "<script>alert(2)") {
		t.Error("the description's markup is not escaped")
	}

	// The JSON gives the description's fragments in their own list.
	rec = get(t, h, "/api/search?q=cargo")
	var doc struct {
		Hits []struct {
			ID         string
			Highlights HighlightsDoc
		}
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		ID         string
		Highlights HighlightsDoc
	}{{"both", HighlightsDoc{Title: []string{}, Abstract: []string{}, Speakers: []string{},
		Description: []string{"Examples from <mark>Cargo</mark> and npm."}}}}
	if diff := cmp.Diff(want, doc.Hits); diff != "" {
		t.Errorf("hits (-want +got):\n%s", diff)
	}
}

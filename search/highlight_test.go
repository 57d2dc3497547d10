package search

import (
	"cmp"
	"context"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	bsearch "github.com/blevesearch/bleve/v2/search"
	bhighlight "github.com/blevesearch/bleve/v2/search/highlight"
	htmlformat "github.com/blevesearch/bleve/v2/search/highlight/format/html"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/search/syntax"
)

// TestHighlightWholeWords: abstract fragments start and end on word
// boundaries, keep every matched word, and only the title is whole.
func TestHighlightWholeWords(t *testing.T) {
	long := strings.Repeat("alpha beta gamma delta epsilon ", 10) + "the zeta-function matters " + strings.Repeat("eta theta iota kappa lambda ", 10)
	e, err := New(&ingest.Corpus{Talks: []index.Talk{
		{ID: "a", Title: "A Talk About Zeta", Abstract: long, Kind: index.KindTalk},
		{ID: "b", Title: "Another", Abstract: "nothing here", Kind: index.KindTalk},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	r, err := e.Search(context.Background(), Request{Query: "zeta"})
	if err != nil || len(r.Hits) != 1 {
		t.Fatalf("%v, %+v", err, r)
	}
	h := r.Hits[0].Highlights
	if len(h.Title) != 1 || h.Title[0] != "A Talk About <mark>Zeta</mark>" {
		t.Errorf("title highlight %q", h.Title)
	}
	if len(h.Abstract) != 1 {
		t.Fatalf("abstract highlights %q", h.Abstract)
	}
	frag := h.Abstract[0]
	if !strings.Contains(frag, "<mark>zeta</mark>-function") {
		t.Errorf("fragment lacks the match: %q", frag)
	}
	inner := strings.NewReplacer("<mark>", "", "</mark>", "").Replace(strings.Trim(frag, "…"))
	if !strings.HasPrefix(frag, "…") || !strings.HasSuffix(frag, "…") {
		t.Errorf("fragment of a long abstract not marked as cut: %q", frag)
	}
	words := strings.Fields(long)
	first, lastW := strings.Fields(inner)[0], strings.Fields(inner)[len(strings.Fields(inner))-1]
	if !slices.Contains(words, first) || !slices.Contains(words, lastW) {
		t.Errorf("fragment %q starts with %q or ends with %q, not whole words", frag, first, lastW)
	}
}

// TestFragmentStartsAreBounded: a field's candidate fragments start at
// each matched position once, at most maxFragmentStarts of them, spread
// over the field from its first match.
func TestFragmentStartsAreBounded(t *testing.T) {
	var ot bhighlight.TermLocations
	for i := range 40 {
		// Two terms at every position: a word and its stem.
		ot = append(ot, &bhighlight.TermLocation{Term: "w", Start: 10 * i, End: 10*i + 4},
			&bhighlight.TermLocation{Term: "s", Start: 10 * i, End: 10*i + 4})
	}
	few := fragmentStarts(ot[:10])
	if len(few) != 5 || few[0].Start != 0 || few[4].Start != 40 {
		t.Errorf("5 positions of 10 locations: got %d starts %v", len(few), starts(few))
	}
	many := fragmentStarts(ot)
	want := []int{0, 20, 50, 70, 100, 120, 150, 170, 200, 220, 250, 270, 300, 320, 350, 370}
	if !slices.Equal(starts(many), want) {
		t.Errorf("40 positions: starts %v, want %v", starts(many), want)
	}
}

func starts(ot bhighlight.TermLocations) []int {
	out := make([]int, len(ot))
	for i, tl := range ot {
		out[i] = tl.Start
	}
	return out
}

// TestHighlightOfManyMatches: an abstract where every word matches still
// gets its two best fragments, each of whole words, every matched word
// inside them marked.
func TestHighlightOfManyMatches(t *testing.T) {
	words := strings.Fields("alpha beta gamma delta epsilon zeta theta iota kappa lambda")
	var b strings.Builder
	for i := range 300 {
		b.WriteString(words[i%len(words)] + " ")
	}
	e, err := New(&ingest.Corpus{Talks: []index.Talk{
		{ID: "a", Title: "Greek", Abstract: b.String(), Kind: index.KindTalk},
		{ID: "b", Title: "Another", Abstract: "nothing here", Kind: index.KindTalk},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	r, err := e.Search(context.Background(), Request{Query: strings.Join(words, " ")})
	if err != nil || len(r.Hits) != 1 {
		t.Fatalf("%v, %+v", err, r)
	}
	frags := r.Hits[0].Highlights.Abstract
	if len(frags) != abstractFragments {
		t.Fatalf("abstract fragments %q", frags)
	}
	for _, f := range frags {
		for _, w := range strings.Fields(strings.Trim(f, "…")) {
			if !strings.HasPrefix(w, "<mark>") || !strings.HasSuffix(w, "</mark>") || !slices.Contains(words, strings.TrimSuffix(strings.TrimPrefix(w, "<mark>"), "</mark>")) {
				t.Errorf("fragment %q: word %q is not a whole marked word", f, w)
			}
		}
	}
}

// TestMarkFormatterIsBlevesHTMLFormatter: on every seed talk's title and
// abstract (quotes, ampersands and angle brackets among them), with every
// third word matched and merged overlaps, the formatter writes exactly what
// Bleve's html formatter writes, for the whole text and for a middle part.
func TestMarkFormatterIsBlevesHTMLFormatter(t *testing.T) {
	_, c := seedEngine(t)
	bleves := htmlformat.NewFragmentFormatter(MarkOpen, MarkClose)
	word := regexp.MustCompile(`[\pL\pN]+`)
	compared, escaped := 0, 0
	for _, tk := range c.Talks {
		for _, text := range []string{tk.Title, tk.Abstract} {
			orig := []byte(text)
			var ot bhighlight.TermLocations
			for i, loc := range word.FindAllIndex(orig, -1) {
				if i%3 == 0 {
					ot = append(ot, &bhighlight.TermLocation{Term: "t", Start: loc[0], End: loc[1]})
					// An overlapping match, as a stem and its word give.
					ot = append(ot, &bhighlight.TermLocation{Term: "u", Start: loc[0], End: loc[1]})
				}
			}
			ot.MergeOverlapping()
			for _, fr := range []bhighlight.Fragment{
				{Orig: orig, Start: 0, End: len(orig)},
				{Orig: orig, Start: len(orig) / 3, End: 2 * len(orig) / 3},
			} {
				want := bleves.Format(&fr, ot)
				if got := (markFormatter{}).Format(&fr, ot); got != want {
					t.Fatalf("talk %s [%d:%d]:\n got %q\nwant %q", tk.ID, fr.Start, fr.End, got, want)
				}
				compared++
				if strings.ContainsAny(want, "&") {
					escaped++
				}
			}
		}
	}
	if compared != 4*len(c.Talks) || escaped == 0 {
		t.Errorf("compared %d fragments (%d escaped), want %d with some escaped", compared, escaped, 4*len(c.Talks))
	}
}

// TestLocationsAreCompletesMap: for the hits of the bench requests and of
// hostile queries on the seeds, locations gives Bleve's own map of the
// matched terms (DocumentMatch.Complete) for the highlighted fields, and
// the highlights made from either are the same.
// (Complete's lists are in position order, locations' in the order Bleve
// found them.)
func TestLocationsAreCompletesMap(t *testing.T) {
	e, _ := seedEngine(t)
	s := e.snap.Load()
	qs := []string{}
	for _, r := range benchRequests {
		qs = append(qs, r.Query)
	}
	g := newHostileGen(3, seedTitles(t))
	for _, shape := range hostileShapes {
		qs = append(qs, g.query(shape.next))
	}
	hits := 0
	for _, q := range qs {
		pl := s.compile(syntax.Parse(q))
		ms, _, err := s.candidates(context.Background(), pl)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			if m.hit == nil {
				continue
			}
			own := bsearch.DocumentMatch{FieldTermLocations: slices.Clone(m.hit.FieldTermLocations)}
			own.Complete(nil)
			got := locations(m.hit)
			for _, f := range highlightedFields {
				if len(got[f]) != len(own.Locations[f]) {
					t.Fatalf("%q, talk %s, %s: %d terms, Complete %d", q, m.d.talk.ID, f, len(got[f]), len(own.Locations[f]))
				}
				for term, locs := range own.Locations[f] {
					// In any order: the highlighter orders them itself.
					byPos := func(a, b *bsearch.Location) int { return cmp.Compare(a.Pos, b.Pos) }
					slices.SortFunc(got[f][term], byPos)
					if !slices.EqualFunc(got[f][term], locs, func(a, b *bsearch.Location) bool { return a.Pos == b.Pos && a.Start == b.Start && a.End == b.End }) {
						t.Fatalf("%q, talk %s, %s %q: %v, Complete %v", q, m.d.talk.ID, f, term, got[f][term], locs)
					}
				}
			}
			byComplete := *m.hit
			byComplete.Locations = own.Locations
			if a, b := highlight(m.hit, m.d.talk), highlight(&byComplete, m.d.talk); !reflect.DeepEqual(a, b) {
				t.Fatalf("%q, talk %s: highlights %+v, from Complete's map %+v", q, m.d.talk.ID, a, b)
			}
			hits++
		}
	}
	if hits < 400 {
		t.Errorf("only %d hits compared", hits)
	}
}

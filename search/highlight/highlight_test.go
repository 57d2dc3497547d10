package highlight

import (
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/document"
	bsearch "github.com/blevesearch/bleve/v2/search"
	bhighlight "github.com/blevesearch/bleve/v2/search/highlight"
	htmlformat "github.com/blevesearch/bleve/v2/search/highlight/format/html"
	simplehl "github.com/blevesearch/bleve/v2/search/highlight/highlighter/simple"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/seeds"
)

var seedTalksOnce = sync.OnceValues(func() ([]index.Talk, error) {
	c, err := ingest.Load(seeds.FS)
	if err != nil {
		return nil, err
	}
	return c.Talks, nil
})

// seedTalks are the talks of the embedded seeds.
func seedTalks(t testing.TB) []index.Talk {
	t.Helper()
	talks, err := seedTalksOnce()
	if err != nil {
		t.Fatalf("seeds: %v", err)
	}
	return talks
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
	few := fragmentStarts(nil, ot[:10])
	if len(few) != 5 || few[0].Start != 0 || few[4].Start != 40 {
		t.Errorf("5 positions of 10 locations: got %d starts %v", len(few), starts(few))
	}
	many := fragmentStarts(nil, ot)
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

// TestMarkFormatterIsBlevesHTMLFormatter: on every seed talk's title and
// abstract (quotes, ampersands and angle brackets among them), with every
// third word matched and merged overlaps, the formatter writes exactly what
// Bleve's html formatter writes, for the whole text and for a middle part.
func TestMarkFormatterIsBlevesHTMLFormatter(t *testing.T) {
	talks := seedTalks(t)
	bleves := htmlformat.NewFragmentFormatter(MarkOpen, MarkClose)
	word := regexp.MustCompile(`[\pL\pN]+`)
	compared, escaped := 0, 0
	for _, tk := range talks {
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
	if compared != 4*len(talks) || escaped == 0 {
		t.Errorf("compared %d fragments (%d escaped), want %d with some escaped", compared, escaped, 4*len(talks))
	}
}

// TestHighlightIsBlevesHighlighter: for the hits of every word of the
// seeds' titles and of a few phrases and multi-word queries, searched by
// Bleve over the seeds' index, Talk makes the fragments Bleve's simple
// highlighter makes, from the hit's map of matched words as from the list
// a searcher gives (the form an engine's one pass keeps), and leaves the
// hit alone (it is shared by concurrent searches). Where two matched words
// of a field start together and end apart ("torch" and "torch.compile"),
// Bleve's marks depend on a map's order; those hits are counted, not
// compared (TestHighlightMarksTheLongestWord).
func TestHighlightIsBlevesHighlighter(t *testing.T) {
	talks := seedTalks(t)
	idx, err := index.Build(talks)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	byID := map[string]*index.Talk{}
	for i := range talks {
		byID[talks[i].ID] = &talks[i]
	}
	qs := []string{"kv cache", "distributed training on gpus", "torch.compile", "monarch actors", "inference at scale", "the future of pytorch"}
	seen := map[string]bool{}
	word := regexp.MustCompile(`[\pL\pN]+`)
	for i, tk := range talks {
		if i%10 == 0 {
			// A whole title: a query of many words, many matched per hit.
			qs = append(qs, tk.Title)
		}
		for _, w := range word.FindAllString(tk.Title, -1) {
			if w = strings.ToLower(w); !seen[w] {
				seen[w] = true
				qs = append(qs, w)
			}
		}
	}
	hits, fragments, ambiguous := 0, 0, 0
	for _, q := range qs {
		var fields []query.Query
		for _, f := range Fields {
			m := query.NewMatchQuery(q)
			m.SetField(f)
			fields = append(fields, m)
		}
		req := bleve.NewSearchRequestOptions(query.NewDisjunctionQuery(fields), len(talks), 0, false)
		req.IncludeLocations = true
		res, err := idx.Search(req)
		if err != nil {
			t.Fatal(err)
		}
		for _, completed := range res.Hits {
			tk := byID[completed.ID]
			got := Talk(completed, tk)
			// The list form of the same matched words.
			listed := &bsearch.DocumentMatch{}
			for field, terms := range completed.Locations {
				for term, locs := range terms {
					for _, l := range locs {
						listed.FieldTermLocations = append(listed.FieldTermLocations, bsearch.FieldTermLocation{Field: field, Term: term, Location: *l})
					}
				}
			}
			before := slices.Clone(listed.FieldTermLocations)
			if fromList := Talk(listed, tk); !reflect.DeepEqual(got, fromList) {
				t.Fatalf("%q, talk %s: highlights %+v, from the list %+v", q, tk.ID, got, fromList)
			}
			if listed.Locations != nil || !reflect.DeepEqual(listed.FieldTermLocations, before) {
				t.Fatalf("%q, talk %s: the hit changed", q, tk.ID)
			}
			if startTogether(completed.Locations) {
				ambiguous++
				continue
			}
			if want := blevesHighlight(completed, tk); !reflect.DeepEqual(got, want) {
				t.Fatalf("%q, talk %s:\n got %+v\nwant %+v", q, tk.ID, got, want)
			}
			hits++
			fragments += len(got.Title) + len(got.Abstract) + len(got.Speakers)
		}
	}
	if hits < 3000 || fragments < hits || ambiguous > hits/10 {
		t.Errorf("compared %d hits (%d fragments), %d not compared: want 3,000 hits or more, most compared, a fragment each at least", hits, fragments, ambiguous)
	}
}

// startTogether reports whether two matched words of a highlighted field
// start at the same byte and end apart.
func startTogether(m bsearch.FieldTermLocationMap) bool {
	for _, f := range Fields {
		ends := map[uint64]uint64{}
		for _, locs := range m[f] {
			for _, l := range locs {
				if end, ok := ends[l.Start]; ok && end != l.End {
					return true
				}
				ends[l.Start] = l.End
			}
		}
	}
	return false
}

// blevesHighlight is highlight done by Bleve's simple highlighter over a
// document of the talk's fields, with the same fragmenters and formatter:
// what highlight did before it made Bleve's fragments itself.
func blevesHighlight(h *bsearch.DocumentMatch, t *index.Talk) Fragments {
	title := simplehl.NewHighlighter(titleFragmenter, markFormatter{}, fragmentSeparator)
	abstract := simplehl.NewHighlighter(abstractFragmenter, markFormatter{}, fragmentSeparator)
	own := *h
	own.Fragments = nil
	h = &own
	doc := document.NewDocument(t.ID)
	hl := Fragments{Title: []string{}, Abstract: []string{}, Description: []string{}, Speakers: []string{}}
	if len(h.Locations[index.FieldTitle]) > 0 {
		doc.AddField(document.NewTextField(index.FieldTitle, nil, []byte(t.Title)))
		hl.Title = marked(title.BestFragmentsInField(h, doc, index.FieldTitle, 1))
	}
	if len(h.Locations[index.FieldAbstract]) > 0 {
		doc.AddField(document.NewTextField(index.FieldAbstract, nil, []byte(t.Abstract)))
		hl.Abstract = marked(abstract.BestFragmentsInField(h, doc, index.FieldAbstract, abstractFragments))
	}
	if len(h.Locations[index.FieldDescription]) > 0 {
		doc.AddField(document.NewTextField(index.FieldDescription, nil, []byte(t.DescriptionText())))
		hl.Description = marked(abstract.BestFragmentsInField(h, doc, index.FieldDescription, abstractFragments))
	}
	if len(t.Speakers) > 0 && len(h.Locations[index.FieldSpeakers]) > 0 {
		doc.AddField(document.NewTextField(index.FieldSpeakers, nil, []byte(index.SpeakersText(t))))
		for _, f := range title.BestFragmentsInField(h, doc, index.FieldSpeakers, 1) {
			hl.Speakers = append(hl.Speakers, marked(strings.Split(f, "\n"))...)
		}
	}
	return hl
}

// TestHighlightMarksTheLongestWord: matched words that start together
// ("torch", and the compound "torch.compile" it begins) are marked as the
// longest of them, however the hit lists them; words matched twice are
// marked once, and the title's list of its words keeps them apart from
// the abstract's.
func TestHighlightMarksTheLongestWord(t *testing.T) {
	tk := &index.Talk{ID: "a", Title: "torch.compile rocks", Abstract: "Use torch.compile and torch."}
	ftls := []bsearch.FieldTermLocation{
		{Field: index.FieldTitle, Term: "torch", Location: bsearch.Location{Pos: 1, Start: 0, End: 5}},
		{Field: index.FieldTitle, Term: "torchcompile", Location: bsearch.Location{Pos: 3, Start: 0, End: 13}},
		{Field: index.FieldTitle, Term: "compile", Location: bsearch.Location{Pos: 2, Start: 6, End: 13}},
		{Field: index.FieldAbstract, Term: "torch", Location: bsearch.Location{Pos: 5, Start: 22, End: 27}},
		{Field: index.FieldAbstract, Term: "torch", Location: bsearch.Location{Pos: 5, Start: 22, End: 27}},
		{Field: index.FieldAbstract, Term: "torchcompile", Location: bsearch.Location{Pos: 4, Start: 4, End: 17}},
		{Field: index.FieldAbstract, Term: "torch", Location: bsearch.Location{Pos: 2, Start: 4, End: 9}},
	}
	for _, order := range [][]int{{0, 1, 2, 3, 4, 5, 6}, {6, 5, 4, 3, 2, 1, 0}, {2, 1, 0, 5, 6, 4, 3}} {
		h := &bsearch.DocumentMatch{}
		for _, i := range order {
			h.FieldTermLocations = append(h.FieldTermLocations, ftls[i])
		}
		got := Talk(h, tk)
		want := Fragments{
			Title:       []string{"<mark>torch.compile</mark> rocks"},
			Abstract:    []string{"Use <mark>torch.compile</mark> and <mark>torch</mark>."},
			Description: []string{},
			Speakers:    []string{},
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("order %v:\n got %+v\nwant %+v", order, got, want)
		}
	}
}

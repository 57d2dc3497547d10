package search

import (
	"strings"

	"github.com/blevesearch/bleve/v2/document"
	bsearch "github.com/blevesearch/bleve/v2/search"
	htmlformat "github.com/blevesearch/bleve/v2/search/highlight/format/html"
	"github.com/blevesearch/bleve/v2/search/highlight/fragmenter/simple"
	simplehl "github.com/blevesearch/bleve/v2/search/highlight/highlighter/simple"

	"github.com/talksearch/talksearch/index"
)

// Highlighting uses Bleve's simple highlighter with its html formatter
// (which escapes everything but the <mark> it adds), driven directly rather
// than through a search request: the title wants one fragment of the whole
// title and the abstract wants two, where a request gives one fragment of a
// single size per field. The text comes from the talks in memory, which
// is the text that was indexed, so no stored document is loaded.
const (
	markOpen  = "<mark>"
	markClose = "</mark>"
	// abstractFragmentRunes is the length of an abstract fragment, about
	// two lines of a result page.
	abstractFragmentRunes = 200
	abstractFragments     = 2
	// titleFragmentRunes is longer than any title, so the title fragment
	// is the whole title.
	titleFragmentRunes = 1 << 16
)

var (
	titleHighlighter    = simplehl.NewHighlighter(simple.NewFragmenter(titleFragmentRunes), htmlformat.NewFragmentFormatter(markOpen, markClose), "…")
	abstractHighlighter = simplehl.NewHighlighter(simple.NewFragmenter(abstractFragmentRunes), htmlformat.NewFragmentFormatter(markOpen, markClose), "…")
)

// highlight marks the matched words of h in the talk's title and abstract.
// Only fragments with a match are kept.
func highlight(h *bsearch.DocumentMatch, t *index.Talk) Highlights {
	doc := document.NewDocument(t.ID)
	doc.AddField(document.NewTextField(index.FieldTitle, nil, []byte(t.Title)))
	doc.AddField(document.NewTextField(index.FieldAbstract, nil, []byte(t.Abstract)))
	return Highlights{
		Title:    marked(titleHighlighter.BestFragmentsInField(h, doc, index.FieldTitle, 1)),
		Abstract: marked(abstractHighlighter.BestFragmentsInField(h, doc, index.FieldAbstract, abstractFragments)),
	}
}

// marked keeps the fragments that contain a match: the highlighter returns
// the start of a field even when nothing in it matched.
func marked(frags []string) []string {
	out := make([]string, 0, len(frags))
	for _, f := range frags {
		if strings.Contains(f, markOpen) {
			out = append(out, f)
		}
	}
	return out
}

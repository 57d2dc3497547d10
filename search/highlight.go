package search

import (
	"bytes"
	"slices"
	"strings"
	"unicode"

	"github.com/blevesearch/bleve/v2/document"
	bsearch "github.com/blevesearch/bleve/v2/search"
	bhighlight "github.com/blevesearch/bleve/v2/search/highlight"
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
// MarkOpen and MarkClose surround a matched word in a highlight fragment;
// the web layer keeps exactly these tags when it re-escapes a fragment.
const (
	MarkOpen  = "<mark>"
	MarkClose = "</mark>"
)

const (
	// abstractFragmentRunes is the length of an abstract fragment, about
	// two lines of a result page.
	abstractFragmentRunes = 200
	abstractFragments     = 2
	// titleFragmentRunes is longer than any title, so the title fragment
	// is the whole title.
	titleFragmentRunes = 1 << 16
)

var (
	titleHighlighter    = simplehl.NewHighlighter(simple.NewFragmenter(titleFragmentRunes), htmlformat.NewFragmentFormatter(MarkOpen, MarkClose), "…")
	abstractHighlighter = simplehl.NewHighlighter(wordFragmenter{simple.NewFragmenter(abstractFragmentRunes)}, htmlformat.NewFragmentFormatter(MarkOpen, MarkClose), "…")
)

// wordFragmenter trims the fragments of Bleve's simple fragmenter, which
// cut at a rune count, to whole words ("…orchestrators" rather than
// "…rchestrators"), never past a matched word.
type wordFragmenter struct{ bhighlight.Fragmenter }

func (f wordFragmenter) Fragment(orig []byte, ot bhighlight.TermLocations) []*bhighlight.Fragment {
	frags := f.Fragmenter.Fragment(orig, ot)
	for _, fr := range frags {
		first, last := fr.End, fr.Start
		for _, tl := range ot {
			if tl.Start >= fr.Start && tl.End <= fr.End {
				first, last = min(first, tl.Start), max(last, tl.End)
			}
		}
		if fr.Start > 0 && !unicode.IsSpace(rune(orig[fr.Start-1])) {
			if i := bytes.IndexAny(orig[fr.Start:first], " \t\n"); i >= 0 {
				fr.Start += i + 1
			}
		}
		if fr.End < len(orig) && !unicode.IsSpace(rune(orig[fr.End])) {
			if i := bytes.LastIndexAny(orig[last:fr.End], " \t\n"); i >= 0 {
				fr.End = last + i
			}
		}
	}
	return frags
}

// highlight marks the matched words of h in the talk's title and abstract.
// Only fragments with a match are kept.
func highlight(h *bsearch.DocumentMatch, t *index.Talk) Highlights {
	// The highlighter stores its fragments in the match it is given, and
	// matches are shared between searches (matchesOf): it gets a copy.
	own := *h
	own.Fragments = nil
	own.Locations = locations(h)
	h = &own
	doc := document.NewDocument(t.ID)
	// A field without matched words has no fragment to keep (marked):
	// it is not fragmented and formatted for nothing (a seventh of the
	// highlighting of the seeds' bench mix, title-only and abstract-only
	// matches).
	hl := Highlights{Title: []string{}, Abstract: []string{}, Speakers: []string{}}
	if len(h.Locations[index.FieldTitle]) > 0 {
		doc.AddField(document.NewTextField(index.FieldTitle, nil, []byte(t.Title)))
		hl.Title = marked(titleHighlighter.BestFragmentsInField(h, doc, index.FieldTitle, 1))
	}
	if len(h.Locations[index.FieldAbstract]) > 0 {
		doc.AddField(document.NewTextField(index.FieldAbstract, nil, []byte(t.Abstract)))
		hl.Abstract = marked(abstractHighlighter.BestFragmentsInField(h, doc, index.FieldAbstract, abstractFragments))
	}
	if len(t.Speakers) > 0 && len(h.Locations[index.FieldSpeakers]) > 0 {
		doc.AddField(document.NewTextField(index.FieldSpeakers, nil, []byte(index.SpeakersText(t))))
		// One fragment of the whole text, cut at its lines: a line is a
		// speaker, and a match never spans two.
		for _, f := range titleHighlighter.BestFragmentsInField(h, doc, index.FieldSpeakers, 1) {
			hl.Speakers = append(hl.Speakers, marked(strings.Split(f, "\n"))...)
		}
	}
	return hl
}

// marked keeps the fragments that contain a match: the highlighter returns
// the start of a field even when nothing in it matched.
func marked(frags []string) []string {
	out := make([]string, 0, len(frags))
	for _, f := range frags {
		if strings.Contains(f, MarkOpen) {
			out = append(out, f)
		}
	}
	return out
}

// locations returns the matched terms of h by field and term, what the
// highlighter reads. A one-pass search keeps its hits' matched terms as
// Bleve's list (scanner.located); DocumentMatch.Complete makes the map of
// it, and rewrites the list it is given, which other searches may be
// reading: it completes a copy.
func locations(h *bsearch.DocumentMatch) bsearch.FieldTermLocationMap {
	if h.Locations != nil || len(h.FieldTermLocations) == 0 {
		return h.Locations
	}
	own := bsearch.DocumentMatch{FieldTermLocations: slices.Clone(h.FieldTermLocations)}
	own.Complete(nil)
	return own.Locations
}

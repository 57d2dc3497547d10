package search

import (
	"bytes"
	"html"
	"slices"
	"strings"
	"unicode"
	"unsafe"

	"github.com/blevesearch/bleve/v2/document"
	bsearch "github.com/blevesearch/bleve/v2/search"
	bhighlight "github.com/blevesearch/bleve/v2/search/highlight"
	simplehl "github.com/blevesearch/bleve/v2/search/highlight/highlighter/simple"

	"github.com/talksearch/talksearch/index"
)

// Highlighting uses Bleve's simple highlighter, with the fragments of its
// simple fragmenter (fragment.go) and the output of its html formatter
// (markFormatter: everything escaped but the <mark> added), driven directly rather
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
	titleHighlighter    = simplehl.NewHighlighter(runeFragmenter{titleFragmentRunes}, markFormatter{}, "…")
	abstractHighlighter = simplehl.NewHighlighter(wordFragmenter{runeFragmenter{abstractFragmentRunes}}, markFormatter{}, "…")
)

// markFormatter writes a fragment as Bleve's html formatter does (its
// text escaped by html.EscapeString, each matched word in MarkOpen and
// MarkClose), into one builder: Bleve's adds to a string four times per
// matched word, which copies the fragment so far each time, and a long
// query's highlighting allocated a third of its search's memory there.
type markFormatter struct{}

func (markFormatter) Format(f *bhighlight.Fragment, ordered bhighlight.TermLocations) string {
	var b strings.Builder
	b.Grow(f.End - f.Start + 64)
	curr := f.Start
	for _, tl := range ordered {
		if tl == nil || !tl.ArrayPositions.Equals(f.ArrayPositions) || tl.Start < curr {
			continue
		}
		if tl.End > f.End {
			break
		}
		b.WriteString(html.EscapeString(string(f.Orig[curr:tl.Start])))
		b.WriteString(MarkOpen)
		b.WriteString(html.EscapeString(string(f.Orig[tl.Start:tl.End])))
		b.WriteString(MarkClose)
		curr = tl.End
	}
	b.WriteString(html.EscapeString(string(f.Orig[curr:f.End])))
	return b.String()
}

// wordFragmenter trims the fragments of runeFragmenter, which cut at a
// rune count, to whole words ("…orchestrators" rather than
// "…rchestrators"), never past a matched word.
type wordFragmenter struct{ bhighlight.Fragmenter }

func (f wordFragmenter) Fragment(orig []byte, ot bhighlight.TermLocations) []*bhighlight.Fragment {
	frags := f.Fragmenter.Fragment(orig, fragmentStarts(ot))
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

// maxFragmentStarts bounds the candidate fragments of one field. Bleve's
// fragmenter makes one per matched word and the scorer compares each with
// every match, quadratic in the matches: a 400-character query of corpus
// words matches a hundred words of an abstract, and its highlighting was a
// fifth of its cost. Sixteen starts, spread over the field, still find the
// densest two-line stretch of any real query's matches.
const maxFragmentStarts = 16

// fragmentStarts is where candidate fragments start, in text order: each
// matched position once (a word matched by several terms, its stem and its
// typo correction, is one start), at most maxFragmentStarts of them,
// evenly spread. The fragments are still scored and marked with every
// match.
func fragmentStarts(ot bhighlight.TermLocations) bhighlight.TermLocations {
	starts := make(bhighlight.TermLocations, 0, min(len(ot), 2*maxFragmentStarts))
	for _, tl := range ot {
		if n := len(starts); n == 0 || starts[n-1].Start != tl.Start {
			starts = append(starts, tl)
		}
	}
	if len(starts) <= maxFragmentStarts {
		return starts
	}
	spread := make(bhighlight.TermLocations, maxFragmentStarts)
	for i := range spread {
		spread[i] = starts[i*len(starts)/maxFragmentStarts]
	}
	return spread
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
		doc.AddField(document.NewTextField(index.FieldTitle, nil, textBytes(t.Title)))
		hl.Title = marked(titleHighlighter.BestFragmentsInField(h, doc, index.FieldTitle, 1))
	}
	if len(h.Locations[index.FieldAbstract]) > 0 {
		doc.AddField(document.NewTextField(index.FieldAbstract, nil, textBytes(t.Abstract)))
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

// textBytes is the bytes of a talk's text without a copy: the highlighter
// only reads its field's value (the fragmenter walks it, the formatter
// copies the fragments out), and an abstract copied for each hit was a
// tenth of what a hostile query allocated.
func textBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

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

// highlightedFields are the fields highlight marks.
var highlightedFields = []string{index.FieldTitle, index.FieldAbstract, index.FieldSpeakers}

// locations returns the matched terms of h by field and term, what the
// highlighter reads, for the highlighted fields only. A one-pass search
// keeps its hits' matched terms as Bleve's list (scanner.located); this is
// DocumentMatch.Complete's map of it without the fields nobody highlights
// (track and room names), and without changing the list, which other
// searches may be reading. A term's repeated location (a word matched by
// two clauses) is kept once, as Complete keeps it.
func locations(h *bsearch.DocumentMatch) bsearch.FieldTermLocationMap {
	if h.Locations != nil || len(h.FieldTermLocations) == 0 {
		return h.Locations
	}
	n := 0
	for _, ftl := range h.FieldTermLocations {
		if slices.Contains(highlightedFields, ftl.Field) {
			n++
		}
	}
	out := make(bsearch.FieldTermLocationMap, len(highlightedFields))
	locs := make([]bsearch.Location, 0, n)
	for _, ftl := range h.FieldTermLocations {
		if !slices.Contains(highlightedFields, ftl.Field) {
			continue
		}
		tlm := out[ftl.Field]
		if tlm == nil {
			tlm = bsearch.TermLocationMap{}
			out[ftl.Field] = tlm
		}
		if slices.ContainsFunc(tlm[ftl.Term], func(l *bsearch.Location) bool { return l.Pos == ftl.Location.Pos }) {
			continue
		}
		locs = append(locs, ftl.Location)
		tlm[ftl.Term] = append(tlm[ftl.Term], &locs[len(locs)-1])
	}
	return out
}

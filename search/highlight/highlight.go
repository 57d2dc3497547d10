package highlight

import (
	"bytes"
	"cmp"
	"container/heap"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unsafe"

	bsearch "github.com/blevesearch/bleve/v2/search"
	bhighlight "github.com/blevesearch/bleve/v2/search/highlight"
	simplehl "github.com/blevesearch/bleve/v2/search/highlight/highlighter/simple"

	"github.com/talksearch/talksearch/index"
)

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

// fragmentSeparator marks a fragment that does not start or end its text,
// as Bleve's highlighter does.
const fragmentSeparator = "…"

var (
	titleFragmenter    = runeFragmenter{titleFragmentRunes}
	abstractFragmenter = wordFragmenter{runeFragmenter{abstractFragmentRunes}}
)

// markFormatter writes a fragment as Bleve's html formatter does (its
// text escaped by html.EscapeString, each matched word in MarkOpen and
// MarkClose), into one buffer: Bleve's adds to a string four times per
// matched word, which copies the fragment so far each time, so that a long
// query's highlighting copies each fragment over and over.
type markFormatter struct{}

func (markFormatter) Format(f *bhighlight.Fragment, ordered bhighlight.TermLocations) string {
	var b bytes.Buffer
	b.Grow(f.End - f.Start + 64)
	writeMarked(&b, f, ordered)
	return b.String()
}

// writeMarked writes f as markFormatter formats it.
func writeMarked(b *bytes.Buffer, f *bhighlight.Fragment, ordered bhighlight.TermLocations) {
	curr := f.Start
	for _, tl := range ordered {
		if tl == nil || !tl.ArrayPositions.Equals(f.ArrayPositions) || tl.Start < curr {
			continue
		}
		if tl.End > f.End {
			break
		}
		writeEscaped(b, f.Orig[curr:tl.Start])
		b.WriteString(MarkOpen)
		writeEscaped(b, f.Orig[tl.Start:tl.End])
		b.WriteString(MarkClose)
		curr = tl.End
	}
	writeEscaped(b, f.Orig[curr:f.End])
}

// htmlEscaper escapes the five characters html.EscapeString escapes, as it
// escapes them, writing into the fragment's builder rather than returning
// a string (a copy of each piece of every fragment).
var htmlEscaper = strings.NewReplacer(`&`, "&amp;", `'`, "&#39;", `<`, "&lt;", `>`, "&gt;", `"`, "&#34;")

// writeEscaped writes text to b, escaped as html.EscapeString escapes it.
// text is read in place: fragments are of a talk's text, never changed.
func writeEscaped(b *bytes.Buffer, text []byte) {
	htmlEscaper.WriteString(b, unsafe.String(unsafe.SliceData(text), len(text)))
}

// wordFragmenter trims the fragments of runeFragmenter, which cut at a
// rune count, to whole words ("…orchestrators" rather than
// "…rchestrators"), never past a matched word.
type wordFragmenter struct{ runeFragmenter }

func (f wordFragmenter) Fragment(orig []byte, ot bhighlight.TermLocations) []*bhighlight.Fragment {
	return f.fragment(nil, orig, ot)
}

// fragment is Fragment in sc's buffers (runeFragmenter.fragment).
func (f wordFragmenter) fragment(sc *scratch, orig []byte, ot bhighlight.TermLocations) []*bhighlight.Fragment {
	frags := f.runeFragmenter.fragment(sc, orig, fragmentStarts(sc, ot))
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
func fragmentStarts(sc *scratch, ot bhighlight.TermLocations) bhighlight.TermLocations {
	var starts bhighlight.TermLocations
	if sc != nil {
		starts = sc.starts[:0]
		defer func() { sc.starts = starts }()
	}
	if starts == nil {
		starts = make(bhighlight.TermLocations, 0, min(len(ot), 2*maxFragmentStarts))
	}
	for _, tl := range ot {
		if n := len(starts); n == 0 || starts[n-1].Start != tl.Start {
			starts = append(starts, tl)
		}
	}
	if len(starts) <= maxFragmentStarts {
		return starts
	}
	// In place: starts[i*len/max] is at or after i, read before written.
	for i := range maxFragmentStarts {
		starts[i] = starts[i*len(starts)/maxFragmentStarts]
	}
	return starts[:maxFragmentStarts]
}

// Fragments are HTML fragments of a talk's fields: data-set text is
// escaped and the matched words are wrapped in MarkOpen and MarkClose, the
// only markup they may contain.
type Fragments struct {
	Title    []string
	Abstract []string
	// Description is fragments of the description (index.Talk.
	// DescriptionText), cut as the abstract's are.
	Description []string
	// Speakers are the speakers with a matched word in their name or
	// affiliation, each as "Name, Affiliation", in the talk's order.
	Speakers []string
}

// Talk marks the matched words of h in the talk's title, abstract,
// description and speakers. Only fragments with a match are kept. h is read, not changed:
// other searches may be reading it.
func Talk(h *bsearch.DocumentMatch, t *index.Talk) Fragments {
	hl := Fragments{Title: []string{}, Abstract: []string{}, Description: []string{}, Speakers: []string{}}
	// The buffers of the work (matched words, candidate fragments, their
	// queue) are reused from hit to hit and search to search: only the
	// fragments kept are new.
	sc := scratches.Get().(*scratch)
	defer sc.release()
	words := &sc.words
	// A field without matched words has no fragment to keep (marked):
	// it is not fragmented and formatted for nothing (common: many
	// matches are title-only or abstract-only).
	if ot := words.of(h, index.FieldTitle); len(ot) > 0 {
		hl.Title = marked(sc.bestFragments(textBytes(t.Title), ot, titleFragmenter, 1))
	}
	if ot := words.of(h, index.FieldAbstract); len(ot) > 0 {
		hl.Abstract = marked(sc.bestFragments(textBytes(t.Abstract), ot, abstractFragmenter, abstractFragments))
	}
	if ot := words.of(h, index.FieldDescription); len(ot) > 0 {
		// The indexed text (DescriptionText): the term locations are of it.
		hl.Description = marked(sc.bestFragments(textBytes(t.DescriptionText()), ot, abstractFragmenter, abstractFragments))
	}
	if ot := words.of(h, index.FieldSpeakers); len(t.Speakers) > 0 && len(ot) > 0 {
		// One fragment of the whole text, cut at its lines: a line is a
		// speaker, and a match never spans two.
		for _, f := range sc.bestFragments([]byte(index.SpeakersText(t)), ot, titleFragmenter, 1) {
			hl.Speakers = append(hl.Speakers, marked(strings.Split(f, "\n"))...)
		}
	}
	return hl
}

// scratch is the buffers of one Talk call, pooled.
type scratch struct {
	words  matchedWords
	frags  []bhighlight.Fragment
	ptrs   []*bhighlight.Fragment
	starts bhighlight.TermLocations
	queue  simplehl.FragmentQueue
	best   []*bhighlight.Fragment
	text   bytes.Buffer // a fragment as it is marked
}

var scratches = sync.Pool{New: func() any { return new(scratch) }}

// fragments returns empty buffers with room for n fragments.
func (sc *scratch) fragments(n int) ([]bhighlight.Fragment, []*bhighlight.Fragment) {
	if cap(sc.frags) < n {
		sc.frags, sc.ptrs = make([]bhighlight.Fragment, 0, n), make([]*bhighlight.Fragment, 0, n)
	}
	return sc.frags[:0], sc.ptrs[:0]
}

// release forgets what the buffers point to (a talk's text, a hit's
// terms) and pools them again.
func (sc *scratch) release() {
	clear(sc.frags[:cap(sc.frags)])
	clear(sc.ptrs[:cap(sc.ptrs)])
	clear(sc.starts[:cap(sc.starts)])
	clear(sc.queue[:cap(sc.queue)])
	clear(sc.best[:cap(sc.best)])
	clear(sc.words.locs[:cap(sc.words.locs)])
	clear(sc.words.ordered[:cap(sc.words.ordered)])
	scratches.Put(sc)
}

// fragmenter is what bestFragments cuts a text with: runeFragmenter or
// wordFragmenter, into a scratch's buffers.
type fragmenter interface {
	fragment(sc *scratch, orig []byte, ot bhighlight.TermLocations) []*bhighlight.Fragment
}

// bestFragments is Bleve's simple highlighter's BestFragmentsInField over
// the text orig whose matched words are ordered (matchedWords.of): the num
// best fragments of fragmenter's, by the distinct terms each holds, that do
// not overlap, in the order of their scores, marked, with the separator
// where one is cut from its text. The fragments are ranked in Bleve's own
// queue, so fragments of equal score come in its order.
func (sc *scratch) bestFragments(orig []byte, ordered bhighlight.TermLocations, fragmenter fragmenter, num int) []string {
	frags := fragmenter.fragment(sc, orig, ordered)
	// The queue is the scratch's own: a local one would escape to the
	// heap through heap.Interface.
	fq := &sc.queue
	*fq = (*fq)[:0]
	for _, f := range frags {
		f.Score = distinctTerms(ordered, f)
		heap.Push(fq, f)
	}
	best := sc.best[:0]
	for len(best) < num && len(*fq) > 0 {
		c := heap.Pop(fq).(*bhighlight.Fragment)
		if !slices.ContainsFunc(best, c.Overlaps) {
			best = append(best, c)
		}
	}
	sc.best = best
	ordered.MergeOverlapping()
	out := make([]string, len(best))
	for i, f := range best {
		// Written in the scratch's buffer: the fragment's string is its
		// one allocation.
		b := &sc.text
		b.Reset()
		if f.Start != 0 {
			b.WriteString(fragmentSeparator)
		}
		writeMarked(b, f, ordered)
		if f.End != len(f.Orig) {
			b.WriteString(fragmentSeparator)
		}
		out[i] = b.String()
	}
	return out
}

// distinctTerms is the score Bleve's fragment scorer gives f: how many
// distinct terms have a matched word inside it.
func distinctTerms(ordered bhighlight.TermLocations, f *bhighlight.Fragment) float64 {
	var seen [8]string
	terms := seen[:0]
	for _, tl := range ordered {
		if tl.Start >= f.Start && tl.End <= f.End && !slices.Contains(terms, tl.Term) {
			terms = append(terms, tl.Term)
		}
	}
	return float64(len(terms))
}

// textBytes is the bytes of a talk's text without a copy: the highlighter
// only reads its field's value (the fragmenter walks it, the formatter
// copies the fragments out), and copying the abstract for each hit would
// allocate text that is only read.
func textBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// marked keeps the fragments that contain a match: the highlighter returns
// the start of a field even when nothing in it matched.
func marked(frags []string) []string {
	// frags are the caller's own, new: filtered in place.
	return slices.DeleteFunc(frags, func(f string) bool { return !strings.Contains(f, MarkOpen) })
}

// Fields are the fields Talk marks: a query's words matched elsewhere
// (the track and room names) need no positions.
var Fields = []string{index.FieldTitle, index.FieldAbstract, index.FieldDescription, index.FieldSpeakers}

// matchedWords holds the matched words of one field of a hit, reused from
// field to field.
type matchedWords struct {
	locs    []bhighlight.TermLocation
	ordered bhighlight.TermLocations
}

// of returns the matched words of h in field in the order Bleve's
// highlighter puts them (by start in the text), each term's word once. They
// come from the hit's list of matched terms (a one-pass search keeps it,
// scanner.located) or from its map once completed (scanner.locate); the hit
// is not changed, as other searches may be reading it. A word matched by
// two clauses is in the list twice and is kept once, as Complete keeps it.
//
// Words that start together are ordered by their ends, the shorter first:
// "torch" before "torch.compile", so that merging the overlap marks the
// whole of "torch.compile". Bleve's highlighter leaves that order to a
// map's and an unstable sort's, and marks either.
func (w *matchedWords) of(h *bsearch.DocumentMatch, field string) bhighlight.TermLocations {
	// Room for every matched word of the hit, once for its three fields.
	if n := len(h.FieldTermLocations); cap(w.locs) < n {
		w.locs, w.ordered = make([]bhighlight.TermLocation, 0, n), make(bhighlight.TermLocations, 0, n)
	}
	w.locs = w.locs[:0]
	if h.Locations != nil {
		for term, ls := range h.Locations[field] {
			for _, l := range ls {
				w.locs = append(w.locs, bhighlight.TermLocation{Term: term, Pos: int(l.Pos), Start: int(l.Start), End: int(l.End)})
			}
		}
	} else {
		for i := range h.FieldTermLocations {
			ftl := &h.FieldTermLocations[i]
			if ftl.Field == field {
				l := &ftl.Location
				w.locs = append(w.locs, bhighlight.TermLocation{Term: ftl.Term, Pos: int(l.Pos), Start: int(l.Start), End: int(l.End)})
			}
		}
	}
	slices.SortFunc(w.locs, func(a, b bhighlight.TermLocation) int {
		// Terms are compared only where start and end tie: rarely.
		if a.Start != b.Start {
			return cmp.Compare(a.Start, b.Start)
		}
		if a.End != b.End {
			return cmp.Compare(a.End, b.End)
		}
		return cmp.Or(strings.Compare(a.Term, b.Term), cmp.Compare(a.Pos, b.Pos))
	})
	w.locs = slices.CompactFunc(w.locs, func(a, b bhighlight.TermLocation) bool { return a.Term == b.Term && a.Pos == b.Pos })
	w.ordered = w.ordered[:0]
	for i := range w.locs {
		w.ordered = append(w.ordered, &w.locs[i])
	}
	return w.ordered
}

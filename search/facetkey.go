package search

import (
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/talksearch/talksearch/index"
	talkanalysis "github.com/talksearch/talksearch/index/analysis"
)

// A conference's tracks and rooms are spelt differently from one edition
// to the next ("MySQL & friends devroom", "MySQL and Friends"), and a
// person filtering one subject across the years means one value. The
// facets therefore count, and a selection matches, the folded form of a
// value (facetKey); a talk itself keeps its source's spelling. Only
// spelling is folded, never a different name: "MySQL, MariaDB and
// Friends" stays apart from "MySQL and Friends".

// trackSuffixes end a track's name without naming its subject ("Rust
// devroom", "Rust dev room", "Rust track"), as folded words.
var trackSuffixes = [][]string{{"devroom"}, {"dev", "room"}, {"track"}}

// foldTrack is the key of a track's name: case, accents, punctuation,
// spaces and "&" for "and" folded ("Cross-distro", "CrossDistro"), and a
// trailing "devroom", "dev room" or "track" dropped unless it is the whole
// name.
func foldTrack(s string) string {
	ws := foldWords(strings.ReplaceAll(s, "&", " and "))
	for stripped := true; stripped; {
		stripped = false
		for _, suf := range trackSuffixes {
			if len(ws) > len(suf) && slices.Equal(ws[len(ws)-len(suf):], suf) {
				ws, stripped = ws[:len(ws)-len(suf)], true
			}
		}
	}
	return strings.Join(ws, "")
}

// foldRoom is the key of a room's name: case, accents, punctuation and
// spaces folded ("J.1.106" and "J1.106" are one room).
func foldRoom(s string) string { return strings.Join(foldWords(s), "") }

// foldWords are the words of s in match form: case and accents folded,
// every character but a letter, a digit, '+' and '#' separating words.
// '+' and '#' are kept where they end a word because they name subjects
// ("C++" and "C#" are not "C"); elsewhere they are punctuation ("BSD +
// PostgreSQL", "BSD+PostgreSQL").
func foldWords(s string) []string {
	rs := []rune(talkanalysis.FoldText(s))
	word := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	for i, r := range rs {
		if (r == '+' || r == '#') && (i == 0 || !word(rs[i-1]) && rs[i-1] != r || i+1 < len(rs) && word(rs[i+1])) {
			rs[i] = ' '
		}
	}
	return strings.FieldsFunc(string(rs), func(r rune) bool { return !word(r) && r != '+' && r != '#' })
}

// The facets whose values are folded, as indexes of facetNames.
const (
	trackFacet = 0
	roomFacet  = 2
)

// facetKey is what a facet's values are compared by: folded for tracks
// and rooms, as they are for the others.
func facetKey(facet int, v string) string {
	switch facet {
	case trackFacet:
		return foldTrack(v)
	case roomFacet:
		return foldRoom(v)
	}
	return v
}

// shownValues gathers, while a snapshot reads its talks, the value each
// folded key of a facet is shown as: the spelling of the talk that starts
// last, so a track is named as its latest edition names it.
type shownValues [nFacets]map[string]spelling

// spelling is the value shown for a key so far and the start of the talk
// it was read from.
type spelling struct {
	value string
	start *time.Time
}

func newShownValues() *shownValues {
	var sv shownValues
	sv[trackFacet] = map[string]spelling{}
	sv[roomFacet] = map[string]spelling{}
	return &sv
}

// add notes talk t's value v of facet i and says whether the facet is a
// folded one; it is not added to the facet's values then (keys does).
func (sv *shownValues) add(i int, v string, t *index.Talk) bool {
	if sv[i] == nil {
		return false
	}
	k := facetKey(i, v)
	if k == "" {
		// All punctuation: nothing to fold by, so it stands alone.
		k = v
	}
	if cur, ok := sv[i][k]; !ok || later(t.Start, v, cur.start, cur.value) {
		sv[i][k] = spelling{v, t.Start}
	}
	return true
}

// later says whether value a of a talk starting at ta is shown before
// value b starting at tb: the later start, a talk with a start before one
// without, and on a tie the smaller value, so that the choice does not
// depend on the order of the talks.
func later(ta *time.Time, a string, tb *time.Time, b string) bool {
	switch {
	case ta != nil && tb != nil && !ta.Equal(*tb):
		return ta.After(*tb)
	case (ta == nil) != (tb == nil):
		return ta != nil
	}
	return a < b
}

// keys returns each folded facet's values by key.
func (sv *shownValues) keys() [nFacets]map[string]string {
	var out [nFacets]map[string]string
	for i, m := range sv {
		if m == nil {
			continue
		}
		out[i] = make(map[string]string, len(m))
		for k, sp := range m {
			out[i][k] = sp.value
		}
	}
	return out
}

// shownValue is the value facet i shows for a talk's value v: the value
// standing for every spelling of v's key in a folded facet, v itself in
// the others and where the corpus has no talk with v's key.
func (s *snapshot) shownValue(i int, v string) string {
	if s.shown[i] == nil || v == "" {
		return v
	}
	k := facetKey(i, v)
	if k == "" {
		k = v
	}
	if shown, ok := s.shown[i][k]; ok {
		return shown
	}
	return v
}

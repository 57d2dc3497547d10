package overlap

import (
	"strings"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/analysis"
	"github.com/talksearch/talksearch/search/termvec"
)

// Boilerplate is learnt from the corpus, not listed: a sentence that
// recurs in the abstracts of talks by boilerplateTalks different speakers
// or more (a track's standard blurb, a call to join the devroom's chat, a
// welcome's wording), within one conference or across its editions, says
// nothing of any one talk, and carries no weight in similarity or
// clashes. One speaker's text sent three times is a duplicate, not
// boilerplate, and talks without speakers teach nothing. Sentences of
// fewer than boilerplateMinWords words are left alone: a short sentence
// repeated is a coincidence.
const (
	boilerplateTalks    = 3
	boilerplateMinWords = 4
)

// A title word is boilerplate when the openings of many tracks use it:
// it is in the titles of short slots (shortSlot or less) of
// boilerplateTracks tracks or more, and at least half the titles that
// use it are short slots ("Welcome to the … devroom", "… devroom intro").
// A subject word seldom passes both: it is in one track's short slots, or
// mostly in talks.
const boilerplateTracks = 6

// boilerplate is a corpus's recurring sentences, by their folded words,
// and its boilerplate terms.
type boilerplate struct {
	sentences map[string]bool
	terms     map[string]bool
}

// learnTerms finds the corpus's boilerplate title terms.
func (b *boilerplate) learnTerms(talks []index.Talk, an *textAnalyzer) {
	type use struct {
		titles, short int
		tracks        map[string]bool
	}
	uses := map[string]*use{}
	for _, t := range talks {
		short := t.Start != nil && t.End != nil && t.End.Sub(*t.Start) <= shortSlot
		seen := map[string]bool{}
		for _, o := range an.occurrences(t.Title) {
			if seen[o.term] {
				continue
			}
			seen[o.term] = true
			u := uses[o.term]
			if u == nil {
				u = &use{tracks: map[string]bool{}}
				uses[o.term] = u
			}
			u.titles++
			if short {
				u.short++
				u.tracks[strings.ToLower(strings.TrimSpace(t.Track))] = true
			}
		}
	}
	for term, u := range uses {
		if len(u.tracks) >= boilerplateTracks && 2*u.short >= u.titles {
			b.terms[term] = true
		}
	}
}

// filter drops the boilerplate terms of a talk's occurrences.
func (b *boilerplate) filter(occs []termvec.Occurrence) []termvec.Occurrence {
	if len(b.terms) == 0 {
		return occs
	}
	kept := occs[:0]
	for _, o := range occs {
		if !b.terms[o.Term] {
			kept = append(kept, o)
		}
	}
	return kept
}

// learnBoilerplate finds the sentences of talks' abstracts that recur
// in talks of boilerplateTalks speakers or more, and the title terms of
// the tracks' openings.
func learnBoilerplate(talks []index.Talk, an *textAnalyzer) *boilerplate {
	titles := map[string]map[string]bool{} // by sentence, the first speakers
	for _, t := range talks {
		if len(t.Speakers) == 0 {
			continue
		}
		tk := normName(t.Speakers[0].Name)
		for _, sp := range sentences(t.Abstract) {
			key := sentenceKey(t.Abstract[sp.start:sp.end])
			if key == "" {
				continue
			}
			m := titles[key]
			if m == nil {
				m = map[string]bool{}
				titles[key] = m
			}
			if len(m) < boilerplateTalks {
				m[tk] = true
			}
		}
	}
	b := &boilerplate{sentences: map[string]bool{}, terms: map[string]bool{}}
	for key, m := range titles {
		if len(m) >= boilerplateTalks {
			b.sentences[key] = true
		}
	}
	b.learnTerms(talks, an)
	return b
}

// strip is text without its boilerplate sentences.
func (b *boilerplate) strip(text string) string {
	if len(b.sentences) == 0 {
		return text
	}
	var kept []string
	changed := false
	for _, sp := range sentences(text) {
		s := text[sp.start:sp.end]
		if b.sentences[sentenceKey(s)] {
			changed = true
			continue
		}
		kept = append(kept, s)
	}
	if !changed {
		return text
	}
	return strings.Join(kept, " ")
}

// sentenceKey is a sentence's words folded, "" for one too short to count.
func sentenceKey(s string) string {
	words := analysis.MatchWords(s)
	if len(words) < boilerplateMinWords {
		return ""
	}
	return strings.Join(words, " ")
}

// SmallCall is the size under which a call for papers has too few texts
// for its own term statistics: a word two of its eight proposals use
// looks rare and a topic word looks common. Such a call counts document
// frequencies over Options.Background too.
const SmallCall = 50

// borrow adds the background's texts to the document frequencies, without
// making them talks of the report.
func (d *detector) borrow(background []index.Talk) {
	for _, t := range background {
		if t.Kind == index.KindBreak {
			continue
		}
		d.voc.Count(d.boiler.filter(d.an.terms(t.Title, d.boiler.strip(t.Abstract))))
		d.docs++
	}
}

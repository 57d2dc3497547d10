package overlap

import (
	"strings"

	"github.com/talksearch/talksearch/index/analysis"
	"github.com/talksearch/talksearch/search/synonyms"
	"github.com/talksearch/talksearch/search/termvec"
)

// textAnalyzer finds the terms of a text as the index makes them
// (analysis.Tokens), keeps those that say what a talk is about
// (termvec.Content), and adds the one-word term of each name the text
// writes in words (synonyms.Names): "reinforcement learning" also counts as
// "rl", so a talk saying RL shares it. Each term keeps the bytes of the text
// that carry it, so a term can be traced back to the words that produced it
// (for passages and for showing "Monarch" rather than "monarch").
type textAnalyzer struct {
	// phrases are the names' phrases, by the term at their first position.
	phrases map[string][]phrase
}

// phrase is one way of writing a name in words: its terms at their
// positions relative to the first (a stop word inside leaves a gap, as it
// does in the text), and the term of the name.
type phrase struct {
	terms   []string
	offsets []int
	term    string
}

func newTextAnalyzer() *textAnalyzer {
	a := &textAnalyzer{phrases: map[string][]phrase{}}
	for _, n := range synonyms.Names() {
		name := analysis.AnalyzeTerms(n.Name)
		if len(name) != 1 {
			continue
		}
		for _, p := range n.Phrases {
			toks := analysis.Tokens(p)
			if len(toks) < 2 {
				continue
			}
			ph := phrase{term: name[0]}
			for _, tok := range toks {
				ph.terms = append(ph.terms, tok.Term)
				ph.offsets = append(ph.offsets, tok.Position-toks[0].Position)
			}
			a.phrases[ph.terms[0]] = append(a.phrases[ph.terms[0]], ph)
		}
	}
	return a
}

// occurrence is one term found in a text, carried by text[start:end] (one
// word, or the words of a phrase).
type occurrence struct {
	start, end int
	term       string
}

// occurrences returns the content terms of text in text order, and the
// term of each name written in words after the terms of its last word.
func (a *textAnalyzer) occurrences(text string) []occurrence {
	toks := analysis.Tokens(text)
	var out, pending []occurrence
	for k, tok := range toks {
		for _, p := range a.phrases[tok.Term] {
			if end, ok := p.match(toks, k); ok {
				pending = append(pending, occurrence{tok.Start, end, p.term})
			}
		}
		if termvec.Content(tok.Term) {
			out = append(out, occurrence{tok.Start, tok.End, tok.Term})
		}
		kept := pending[:0]
		for _, o := range pending {
			if o.end <= tok.End {
				out = append(out, o)
			} else {
				kept = append(kept, o)
			}
		}
		pending = kept
	}
	return out
}

// match says whether the phrase starts at toks[k], and where it ends.
func (p phrase) match(toks []analysis.Token, k int) (end int, ok bool) {
	end = toks[k].End
	next := k + 1
	for i := 1; i < len(p.terms); i++ {
		pos := toks[k].Position + p.offsets[i]
		found := false
		for next < len(toks) && toks[next].Position <= pos {
			if toks[next].Position == pos && toks[next].Term == p.terms[i] {
				found = true
				end = toks[next].End
			}
			next++
		}
		if !found {
			return 0, false
		}
	}
	return end, true
}

// terms returns a talk's terms as termvec counts them, title occurrences
// weighing termvec.TitleWeight.
func (a *textAnalyzer) terms(title, abstract string) []termvec.Occurrence {
	var occs []termvec.Occurrence
	for _, o := range a.occurrences(title) {
		occs = append(occs, termvec.Occurrence{Term: o.term, Weight: termvec.TitleWeight})
	}
	for _, o := range a.occurrences(abstract) {
		occs = append(occs, termvec.Occurrence{Term: o.term, Weight: 1})
	}
	return occs
}

// form is the words of text that carry an occurrence, as written, without
// a possessive ("Monarch’s" is shown as Monarch).
func (o occurrence) form(text string) string {
	return strings.TrimSuffix(strings.TrimSuffix(text[o.start:o.end], "'s"), "’s")
}

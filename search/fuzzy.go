package search

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"sync"
	"unicode/utf8"

	"github.com/blevesearch/vellum"
	"github.com/blevesearch/vellum/levenshtein"
)

// Typo corrections look words up in an FST of the vocabulary with a
// Levenshtein automaton (vellum, which Bleve's own fuzzy queries use),
// which visits only the words within the allowed edits: scanning every
// word of a similar length cost 6–9 ms per unknown word on the FOSDEM
// archive's vocabulary (BenchmarkSearchFOSDEMEach), most of a typo query.
// The automaton counts a swap of neighbours as one edit, as editRows does.

// maxFuzzyEdits is the most edits the automata are built for (maxEdits).
const maxFuzzyEdits = 2

// fuzzyBuilders make the automata of 1 and 2 edits (an automaton matches
// up to its builder's distance, whatever BuildDfa is told); building them
// costs a few milliseconds, once per process.
var fuzzyBuilders = sync.OnceValues(func() ([maxFuzzyEdits + 1]*levenshtein.LevenshteinAutomatonBuilder, error) {
	var bs [maxFuzzyEdits + 1]*levenshtein.LevenshteinAutomatonBuilder
	for d := 1; d <= maxFuzzyEdits; d++ {
		b, err := levenshtein.NewLevenshteinAutomatonBuilder(uint8(d), true)
		if err != nil {
			return bs, fmt.Errorf("levenshtein automaton builder of %d edits: %w", d, err)
		}
		bs[d] = b
	}
	return bs, nil
})

// vocabFST is the FST of a vocabulary's words, built on the first
// correction: a restart or a corpus without typos never pays for it.
type vocabFST struct {
	once sync.Once
	fst  *vellum.FST
	err  error
}

func (f *vocabFST) of(sorted []string) (*vellum.FST, error) {
	f.once.Do(func() {
		var buf bytes.Buffer
		b, err := vellum.New(&buf, nil)
		if err != nil {
			f.err = fmt.Errorf("vocabulary FST: %w", err)
			return
		}
		for _, w := range sorted {
			if err := b.Insert([]byte(w), 0); err != nil {
				f.err = fmt.Errorf("vocabulary FST: word %q: %w", w, err)
				return
			}
		}
		if err := b.Close(); err != nil {
			f.err = fmt.Errorf("vocabulary FST: %w", err)
			return
		}
		f.fst, f.err = vellum.Load(buf.Bytes())
	})
	return f.fst, f.err
}

// within returns the vocabulary's words at most limit edits from w (a swap
// of neighbours counting as one; limit at most maxFuzzyEdits), each with
// its distance.
func (v *vocabulary) within(w string, limit int) ([]string, []int, error) {
	fst, err := v.fuzzy.of(v.sorted)
	if err != nil {
		return nil, nil, err
	}
	if limit < 1 || limit > maxFuzzyEdits {
		return nil, nil, fmt.Errorf("fuzzy lookup of %q: %d edits, not 1 to %d", w, limit, maxFuzzyEdits)
	}
	lbs, err := fuzzyBuilders()
	if err != nil {
		return nil, nil, err
	}
	dfa, err := lbs[limit].BuildDfa(w, uint8(limit))
	if err != nil {
		return nil, nil, fmt.Errorf("levenshtein automaton of %q: %w", w, err)
	}
	var words []string
	var dists []int
	var rows editRows
	rw := []rune(w)
	it, err := fst.Search(dfa, nil, nil)
	for err == nil {
		k, _ := it.Current()
		// The distance of the definition corrections keep (editRows),
		// not the automaton's estimate.
		if d := rows.distance(rw, []rune(string(k)), limit); d <= limit {
			words = append(words, string(k))
			dists = append(dists, d)
		}
		err = it.Next()
	}
	if !errors.Is(err, vellum.ErrIteratorDone) {
		return nil, nil, fmt.Errorf("fuzzy lookup of %q: %w", w, err)
	}
	return words, dists, nil
}

// closest keeps the words at the smallest of dists, in the order of the
// scan correctWithin made before the FST (rune length, then bytes), so
// that ties of use break as they did.
func closest(words []string, dists []int) []string {
	best := -1
	var out []string
	for i, w := range words {
		switch {
		case best < 0 || dists[i] < best:
			best = dists[i]
			out = append(out[:0], w)
		case dists[i] == best:
			out = append(out, w)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if a, b := utf8.RuneCountInString(out[i]), utf8.RuneCountInString(out[j]); a != b {
			return a < b
		}
		return out[i] < out[j]
	})
	return out
}

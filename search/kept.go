package search

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	bsearch "github.com/blevesearch/bleve/v2/search"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search/ranking"
	"github.com/talksearch/talksearch/search/synonyms"
)

// What the engine derives from a corpus beyond the index and keeps with an
// on-disk index (index.Sidecar), so that a restart on the same talks reads
// it rather than deriving it again. Related lists are not kept: a corpus
// above Options.PrecomputeRelatedMax computes each on first use, and a
// smaller one computes them all in less time than reading them would save.
const (
	keptVocabulary = "vocabulary"
	keptThesaurus  = "thesaurus"
	// keptAssociations: assoc.go, on corpora that are mined.
	keptAssociations = "associations"
	// keptBM25: the fields' mean lengths (ranking.BM25Stats), an analysis
	// of up to 2,000 talks' text.
	keptBM25 = "bm25"
)

// Kept says where the engine's derivations of the corpus it serves came
// from (Engine.Kept), for the caller to log and tests to assert.
type Kept struct {
	// Loaded are the derivations read from the index's sidecar.
	Loaded []string
	// Derived are those computed from the talks; with an on-disk index
	// they are saved for the next start.
	Derived []string
	// Problems say why a kept derivation was not used (damaged, written
	// for other talks or another build) or could not be saved; a
	// derivation not kept yet is no problem.
	Problems []string
}

// Kept reports where the derivations of the corpus being served came from.
func (e *Engine) Kept() Kept {
	s := e.snap.Load()
	if s == nil {
		return Kept{}
	}
	return s.kept
}

// derive fills the snapshot's vocabulary and thesaurus from sc, when it
// holds them, or from the talks, the two concurrently.
func (s *snapshot) derive(talks index.Slim, sc *index.Sidecar) {
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		report = &s.kept
	)
	note := func(name string, loaded bool, problems ...error) {
		mu.Lock()
		defer mu.Unlock()
		if loaded {
			report.Loaded = append(report.Loaded, name)
		} else {
			report.Derived = append(report.Derived, name)
		}
		for _, p := range problems {
			if p != nil && !errors.Is(p, errNotKept) {
				report.Problems = append(report.Problems, p.Error())
			}
		}
	}
	wg.Go(func() {
		var k keptVocab
		loadErr := loadKept(sc, keptVocabulary, &k)
		if loadErr == nil {
			if v, err := k.vocabulary(); err == nil {
				s.vocab = v
				note(keptVocabulary, true)
				return
			} else {
				loadErr = fmt.Errorf("sidecar %s: %w", keptVocabulary, err)
			}
		}
		s.vocab = newVocabularyOf(talks)
		note(keptVocabulary, false, loadErr, saveKept(sc, keptVocabulary, s.vocab.kept()))
	})
	if !s.opts.NoSynonyms {
		wg.Go(func() {
			var groups []synonyms.SynonymGroup
			loadErr := loadKept(sc, keptThesaurus, &groups)
			if loadErr == nil {
				s.thesaurus = synonyms.ThesaurusOf(groups, s.terms)
				note(keptThesaurus, true)
				return
			}
			s.thesaurus = synonyms.NewThesaurusOf(talks, s.terms)
			note(keptThesaurus, false, loadErr, saveKept(sc, keptThesaurus, s.thesaurus.Groups()))
		})
	}
	wg.Wait()
	sort.Strings(report.Loaded)
	sort.Strings(report.Derived)
	sort.Strings(report.Problems)
}

// bm25Of returns the BM25 statistics sc keeps for these talks, else
// measures them (ranking.BM25Stats) and keeps them in sc. loaded says
// which; problems are why a kept copy was not used or could not be kept.
func bm25Of(idx bleve.Index, talks index.Slim, an analysis.Analyzer, sc *index.Sidecar) (st *bsearch.BM25Stats, loaded bool, problems []error, err error) {
	var k bsearch.BM25Stats
	loadErr := loadKept(sc, keptBM25, &k)
	if loadErr == nil {
		if n, err := idx.DocCount(); err == nil && float64(n) == k.DocCount {
			return &k, true, nil, nil
		}
		loadErr = fmt.Errorf("sidecar %s: kept for another number of talks", keptBM25)
	}
	if st, err = ranking.BM25StatsOf(idx, talks, an); err != nil {
		return nil, false, nil, err
	}
	problems = append(problems, loadErr)
	if st != nil {
		problems = append(problems, saveKept(sc, keptBM25, st))
	}
	return st, false, problems, nil
}

// note adds a derivation to the report: loaded or derived, and its
// problems but "not kept yet".
func (k *Kept) note(name string, loaded bool, problems ...error) {
	if loaded {
		k.Loaded = append(k.Loaded, name)
		sort.Strings(k.Loaded)
	} else {
		k.Derived = append(k.Derived, name)
		sort.Strings(k.Derived)
	}
	for _, p := range problems {
		if p != nil && !errors.Is(p, errNotKept) {
			k.Problems = append(k.Problems, p.Error())
		}
	}
	sort.Strings(k.Problems)
}

// loadKept reads name from sc into v: nil when it did, errNotKept when
// there is nothing to read, otherwise why what is there is not usable.
func loadKept(sc *index.Sidecar, name string, v any) error {
	if sc == nil {
		return errNotKept
	}
	err := sc.Load(name, "", v)
	if errors.Is(err, fs.ErrNotExist) {
		return errNotKept
	}
	return err
}

// saveKept keeps v under name in sc, if there is one.
func saveKept(sc *index.Sidecar, name string, v any) error {
	if sc == nil {
		return nil
	}
	return sc.Save(name, "", v)
}

// errNotKept is loadKept's "nothing there": no problem to report.
var errNotKept = errors.New("not kept")

// keptVocab is a vocabulary as it is kept: its words sorted, each one's
// talk count, the hyphenated forms as pairs (joined, hyphenated), and the
// words of speakers' names, sorted (HasSpeakers: kept by a version that
// keeps them).
type keptVocab struct {
	Words       []string
	DF          []int32
	Hyphens     []string
	Speakers    []string
	HasSpeakers bool
}

func (v *vocabulary) kept() keptVocab {
	k := keptVocab{Words: v.sorted, DF: make([]int32, len(v.sorted)), HasSpeakers: true}
	for w := range v.speakers {
		k.Speakers = append(k.Speakers, w)
	}
	sort.Strings(k.Speakers)
	for i, w := range v.sorted {
		k.DF[i] = int32(v.df[w])
	}
	joined := make([]string, 0, len(v.hyphens))
	for j := range v.hyphens {
		joined = append(joined, j)
	}
	sort.Strings(joined)
	for _, j := range joined {
		k.Hyphens = append(k.Hyphens, j, v.hyphens[j])
	}
	return k
}

// vocabulary rebuilds what newVocabulary would: the words come sorted, so
// each length's list is sorted as it fills.
func (k keptVocab) vocabulary() (*vocabulary, error) {
	if len(k.DF) != len(k.Words) || len(k.Hyphens)%2 != 0 || !slices.IsSorted(k.Words) {
		return nil, fmt.Errorf("inconsistent: %d words, %d counts, %d hyphen entries", len(k.Words), len(k.DF), len(k.Hyphens))
	}
	if !k.HasSpeakers {
		return nil, errors.New("no words of speakers' names: kept by an older version")
	}
	v := &vocabulary{
		df:       make(map[string]int, len(k.Words)),
		hyphens:  make(map[string]string, len(k.Hyphens)/2),
		byLen:    map[int][]string{},
		runes:    make(map[string][]rune, len(k.Words)),
		sorted:   k.Words,
		speakers: make(map[string]bool, len(k.Speakers)),
	}
	for _, w := range k.Speakers {
		v.speakers[w] = true
	}
	for i, w := range k.Words {
		v.df[w] = int(k.DF[i])
		rs := []rune(w)
		v.runes[w] = rs
		v.byLen[len(rs)] = append(v.byLen[len(rs)], w)
	}
	for i := 0; i < len(k.Hyphens); i += 2 {
		v.hyphens[k.Hyphens[i]] = k.Hyphens[i+1]
	}
	v.fold()
	return v, nil
}

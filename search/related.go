package search

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/analysis"
	"github.com/talksearch/talksearch/search/ranking"
	"github.com/talksearch/talksearch/search/synonyms"
	"github.com/talksearch/talksearch/search/termvec"
)

// Related talks are found in two steps. Bleve has no "more like this", so
// as Elasticsearch's more_like_this does, the talk's own distinctive terms
// (frequent in the talk, rare in the corpus) are searched as a weighted
// disjunction to find candidates. The candidates are then ranked by the
// cosine of their term vectors with the talk's: Bleve's disjunction scales
// a score by the share of terms matched, which favours talks sharing many
// ordinary terms over a talk sharing the one name that matters (the talk
// built on Monarch actors shares "Monarch", and little else, with the
// Monarch talks).
const (
	// relatedTerms is how many distinctive terms of a talk make up its
	// candidate query: enough to describe it, few enough to stay on topic.
	relatedTerms = 25
	// relatedCandidates is how many candidates are ranked by cosine.
	relatedCandidates = 50
	// sharedTermsShown is how many shared terms explain a related talk.
	sharedTermsShown = 6
)

// termStats weigh talks for related talks: the corpus-wide document
// frequencies of index terms in titles and abstracts, read from the index's
// own term dictionaries, numbered once per snapshot (read-only afterwards,
// so vectors are made concurrently).
type termStats struct {
	n   int
	voc *termvec.Vocab
	// terms analyse talk text with a stem cache of this snapshot's, and
	// words keep the terms of single words (wordTerms): related talks look
	// at every word of every talk on their own (names, display forms),
	// and a corpus repeats a few thousand words.
	terms *analysis.Terms
	words *boundedCache[[]string]
	// acronyms are the terms of the thesaurus's all-capital phrases
	// ("AI", "OS"): short terms that still name something.
	acronyms map[string]bool
}

// wordCacheSize bounds termStats.words: the vocabulary of a conference.
const wordCacheSize = 50_000

func newTermStats(n int, df map[string]uint64, terms *analysis.Terms, th *synonyms.Thesaurus) *termStats {
	ts := &termStats{n: n, voc: termvec.NewVocab(df), terms: terms, words: newBoundedCache[[]string](wordCacheSize), acronyms: map[string]bool{}}
	if th != nil {
		for _, g := range th.Groups() {
			for _, p := range g.Phrases {
				if isAllCaps(p) {
					if t := ts.wordTerms(p); len(t) == 1 {
						ts.acronyms[t[0]] = true
					}
				}
			}
		}
	}
	return ts
}

// isAllCaps reports whether w is one word in capitals, digits allowed
// ("AI", "X11"): the way an acronym is written.
func isAllCaps(w string) bool {
	letters := 0
	for _, r := range w {
		switch {
		case unicode.IsUpper(r):
			letters++
		case !unicode.IsDigit(r):
			return false
		}
	}
	return letters >= 2
}

// termVector is a talk's term vector and its distinctive terms.
type termVector struct {
	termvec.Vector
	// top are the heaviest terms, best first: the talk's distinctive terms.
	top []termvec.Share
}

// vector returns the talk's term vector (termvec's weighting), its names
// weighing termvec.NameBoost times more. Terms no other talk has cannot
// relate it to anything and are left out, as are terms that say nothing
// about a talk (termvec.Content).
func (ts *termStats) vector(t *index.Talk) *termVector {
	var occs []termvec.Occurrence
	for _, term := range ts.terms.Analyze(t.Title) {
		occs = append(occs, termvec.Occurrence{Term: term, Weight: termvec.TitleWeight})
	}
	for _, term := range ts.terms.Analyze(t.Abstract) {
		occs = append(occs, termvec.Occurrence{Term: term, Weight: 1})
	}
	names := map[string]bool{}
	for _, w := range termvec.NameWords(t.Title + ". " + t.Abstract) {
		for _, term := range ts.wordTerms(w) {
			names[term] = true
		}
	}
	df := ts.voc.DF()
	vec := ts.voc.Weigh(ts.voc.CountKnown(occs), ts.n, func(id int32) float64 {
		term := ts.voc.Term(id)
		switch {
		case df[id] < 2 || !termvec.Content(term):
			return 0
		case names[term]:
			return termvec.NameBoost
		}
		return 1
	})
	return &termVector{Vector: vec, top: termvec.Top(vec, relatedTerms)}
}

// RelatedCacheBytes and VectorCacheBytes bound, as approximate bytes, what
// a snapshot keeps of the related talks and term vectors it computed on
// first use: every talk a crowd visits would otherwise keep its list and
// the vectors of its candidates for the generation's life, growing with
// the corpus. A conference of a few thousand talks fits whole (its lists
// are computed when the engine is built, Options.PrecomputeRelatedMax);
// a larger corpus keeps the talks asked for most, as the other caches do,
// and computes the others again: the same lists.
const (
	RelatedCacheBytes = 8 << 20
	VectorCacheBytes  = 16 << 20
)

// newRelatedCache keeps related talks lists up to maxBytes.
func newRelatedCache(maxBytes int) *boundedCache[[]Related] {
	return newWeighedCache(maxBytes, func(id string, rel []Related) int {
		n := entryOverhead + len(id)
		for _, r := range rel {
			n += relatedBytes + len(r.ID) + len(r.Title) + len(r.Room)
			for _, t := range r.SharedTerms {
				n += 16 + len(t)
			}
		}
		return n
	})
}

// relatedBytes is what a Related costs beyond its strings' bytes: its
// fields, the start and end times, the slice of shared terms.
const relatedBytes = 160

// newVectorCache keeps term vectors up to maxBytes.
func newVectorCache(maxBytes int) *boundedCache[*termVector] {
	return newWeighedCache(maxBytes, func(id string, v *termVector) int {
		// An id and a weight per term, a share (id, weight) per top term.
		return entryOverhead + len(id) + 8*cap(v.IDs) + 16*cap(v.top)
	})
}

// relatedOf returns the talks most similar to d, kept in the snapshot's
// related cache.
func (s *snapshot) relatedOf(ctx context.Context, d *doc) ([]Related, error) {
	if rel, ok := s.related.get(d.talk.ID); ok {
		return rel, nil
	}
	rel, err := s.computeRelated(ctx, d)
	if err != nil {
		return nil, err
	}
	s.related.put(d.talk.ID, rel)
	return rel, nil
}

// vectorOf returns the term vector of d, kept in the snapshot's vector
// cache.
func (s *snapshot) vectorOf(d *doc) *termVector {
	if v, ok := s.vectors.get(d.talk.ID); ok {
		return v
	}
	v := s.stats.vector(s.full(d))
	s.vectors.put(d.talk.ID, v)
	return v
}

func (s *snapshot) computeRelated(ctx context.Context, d *doc) ([]Related, error) {
	out := []Related{}
	va := s.vectorOf(d)
	if len(va.top) == 0 {
		return out, nil
	}
	clauses := make([]query.Query, 0, 2*len(va.top))
	for _, wt := range va.top {
		for _, f := range []string{index.FieldTitle, index.FieldAbstract} {
			q := query.NewTermQuery(s.stats.voc.Term(wt.ID))
			q.SetField(f)
			q.SetBoost(wt.Weight)
			clauses = append(clauses, q)
		}
	}
	breaks := query.NewTermQuery(string(index.KindBreak))
	breaks.SetField(index.FieldKind)
	q := query.NewBooleanQuery(
		[]query.Query{query.NewDisjunctionQuery(clauses)},
		nil,
		[]query.Query{query.NewDocIDQuery([]string{d.talk.ID}), breaks},
	)
	// The candidates are the best of the scan, ties in talk order: Bleve's
	// own top n breaks ties by document number, and Bleve numbers a batch's
	// documents in the order their analysis finishes, so a tie at the cut
	// made the related talks of two builds of the same talks differ.
	ms, _, err := s.scan.Matches(ctx, q, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("related candidates: %w", err)
	}
	defer s.scan.Recycle(ms)
	type cand struct {
		d      *doc
		v      *termVector
		shared []string
		score  float64
	}
	page := s.pageOf(ms, SortRelevance, 0, relatedCandidates)
	cands := make([]cand, 0, len(page))
	full := s.full(d)
	display := s.stats.displayWords(full)
	short := s.stats.shortTermsOK(full)
	for _, m := range page {
		o := s.docs[m.Num]
		if o.talk.Kind == index.KindBreak || o == d {
			continue
		}
		vb := s.vectorOf(o)
		cos := termvec.Cosine(va.Vector, vb.Vector)
		if cos <= 0 {
			continue
		}
		terms, distinctive := s.sharedTerms(va, vb, display, short, s.stats.shortTermsOK(s.full(o)))
		need := ranking.RelatedMinShared
		if sameTrackOrSpeaker(d, o) {
			need = 1
		}
		if distinctive < need {
			continue
		}
		cands = append(cands, cand{o, vb, terms, cos * editionFactor(d.talk, o.talk)})
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score > cands[j].score
		}
		if a, b := startOf(cands[i].d.talk), startOf(cands[j].d.talk); !a.Equal(b) {
			return a.After(b)
		}
		return cands[i].d.ord < cands[j].d.ord
	})
	for _, c := range cands[:min(len(cands), s.opts.RelatedCount)] {
		out = append(out, Related{
			ID:          c.d.talk.ID,
			Title:       c.d.talk.Title,
			Score:       round3(c.score),
			SharedTerms: c.shared,
			Room:        c.d.talk.Room,
			Start:       c.d.talk.Start,
			End:         c.d.talk.End,
			Clash:       d.talk.Clashes(*c.d.talk),
		})
	}
	return out, nil
}

// sameTrackOrSpeaker reports whether two talks are in the same track (by
// name, whatever the edition) or share a speaker.
func sameTrackOrSpeaker(a, b *doc) bool {
	if a.track != 0 && a.track == b.track {
		return true
	}
	for _, sa := range a.talk.Speakers {
		for _, sb := range b.talk.Speakers {
			if sa.Name != "" && strings.EqualFold(sa.Name, sb.Name) {
				return true
			}
		}
	}
	return false
}

// editionFactor prefers talks of the same edition, then newer ones: a
// talk of the same conference scores ranking.RelatedSameEdition times
// more, one older than t loses ranking.RelatedYearDecay per year.
func editionFactor(t, o *index.Talk) float64 {
	f := 1.0
	if t.Conference.ID != "" && t.Conference.ID == o.Conference.ID {
		f = ranking.RelatedSameEdition
	}
	if t.Start != nil && o.Start != nil {
		if years := t.Start.Year() - o.Start.Year(); years > 0 {
			f *= math.Pow(ranking.RelatedYearDecay, float64(years))
		}
	}
	return f
}

func startOf(t *index.Talk) time.Time {
	if t.Start == nil {
		return time.Time{}
	}
	return *t.Start
}

// displayWords maps the index terms of a talk to the words the talk writes
// them as ("specul" → "speculative"), so shared terms read as words.
func (ts *termStats) displayWords(t *index.Talk) map[string]string {
	out := map[string]string{}
	for _, text := range []string{t.Title, t.Abstract} {
		for _, w := range surfaceWords(text) {
			if terms := ts.wordTerms(w); len(terms) == 1 {
				if _, ok := out[terms[0]]; !ok {
					out[terms[0]] = w
				}
			}
		}
	}
	return out
}

// sharedTerms are the terms both vectors have, those adding most to their
// cosine first, written as the source talk writes them, and how many of
// them are distinctive (ranking.RelatedGenericShare). A term shorter than
// ranking.RelatedMinTermLetters is left out unless it is an acronym: of
// the thesaurus, or written in capitals by one of the talks (okA, okB).
func (s *snapshot) sharedTerms(a, b *termVector, display map[string]string, okA, okB map[string]bool) ([]string, int) {
	out := []string{}
	distinctive := 0
	df := s.stats.voc.DF()
	generic := max(ranking.RelatedGenericShare*float64(s.stats.n), ranking.RelatedGenericTalks)
	for _, st := range termvec.Shared(a.Vector, b.Vector) {
		term := s.stats.voc.Term(st.ID)
		if utf8.RuneCountInString(term) < ranking.RelatedMinTermLetters && !s.stats.acronyms[term] && !okA[term] && !okB[term] {
			continue
		}
		if float64(df[st.ID]) <= generic {
			distinctive++
		}
		if len(out) < sharedTermsShown {
			w, ok := display[term]
			if !ok {
				w = term
			}
			out = append(out, w)
		}
	}
	return out, distinctive
}

// shortTermsOK are the terms of the words a talk writes in capitals
// ("OS", "AI"): its acronyms, however short.
func (ts *termStats) shortTermsOK(t *index.Talk) map[string]bool {
	out := map[string]bool{}
	for _, text := range []string{t.Title, t.Abstract} {
		for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if utf8.RuneCountInString(w) < ranking.RelatedMinTermLetters && isAllCaps(w) {
				if terms := ts.wordTerms(w); len(terms) == 1 {
					out[terms[0]] = true
				}
			}
		}
	}
	return out
}

// wordTerms is the analysis of one word, kept in the snapshot's bounded
// word cache.
func (ts *termStats) wordTerms(w string) []string {
	if v, ok := ts.words.get(w); ok {
		return v
	}
	terms := ts.terms.Analyze(w)
	ts.words.put(w, terms)
	return terms
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

package search

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	bsearch "github.com/blevesearch/bleve/v2/search"

	"github.com/talksearch/talksearch/index"
	talkanalysis "github.com/talksearch/talksearch/index/analysis"
	"github.com/talksearch/talksearch/search/ranking"
	"github.com/talksearch/talksearch/search/scan"
	"github.com/talksearch/talksearch/search/synonyms"
)

// Limits of a Request.
const (
	DefaultLimit = 20
	MaxLimit     = 100
	MaxOffset    = 10000
	// MaxQueryLen bounds the query in characters: a search box never
	// needs more, and parsing and fuzzy matching grow with it. The web
	// layer and its search boxes use the same bound.
	MaxQueryLen = 400
	// MaxFacetValues bounds the values of one facet a request may select.
	MaxFacetValues = 32
)

// Options tune an Engine; the zero value is the default.
type Options struct {
	// CacheSize is the number of search results kept per corpus (cache.go),
	// and an eighth of it (rounded down) the number of queries whose
	// matches are kept (results.go); 0 means DefaultCacheSize, a negative
	// value disables both.
	CacheSize int
	// RelatedCount is the number of related talks per talk; 0 means
	// DefaultRelatedCount.
	RelatedCount int
	// PrecomputeRelatedMax: corpora of at most this many talks get every
	// talk's related list computed when the engine is built; larger ones
	// compute each list on first use. 0 means DefaultPrecomputeRelatedMax.
	PrecomputeRelatedMax int
	// Index returns the Bleve index of talks, for New and every Replace;
	// nil means index.Build (in memory). An on-disk index reused across
	// runs is index.Open:
	//
	//	Index: func(ts []index.Talk) (bleve.Index, error) {
	//		idx, _, err := index.Open(dir, ts)
	//		return idx, err
	//	}
	//
	// The engine closes each index when it is replaced or closed. An
	// index from index.Open keeps the engine's vocabulary and thesaurus in
	// its sidecar for the next start (kept.go, Engine.Kept).
	Index func(talks []index.Talk) (bleve.Index, error)
	// IndexSlim is Index for a corpus given as an index.Slim (NewSlim,
	// ReplaceSlim), whose talks lack their texts: index.BuildSlim and
	// index.OpenSlim read them from its store. nil means index.BuildSlim;
	// a Slim corpus with its texts in a store needs it when Index is set.
	IndexSlim func(talks index.Slim) (bleve.Index, error)
	// OnePassMax is the largest corpus whose searches run in one Bleve
	// pass that also collects the positions of the matched words for
	// highlights: cheaper than building the query's searchers a second
	// time while a query matches at most a few thousand talks. Larger
	// corpora scan their matches without positions (scan.go) and locate
	// the words of the page's talks only. 0 means DefaultOnePassMax; a
	// negative value scans every corpus (tests compare the two paths).
	OnePassMax int
	// Scan tunes the execution of queries (scan.Options): the tests that
	// hold the fast path to Bleve's searchers turn it off.
	Scan scan.Options
	// NoSynonyms searches the words as typed only, without the thesaurus
	// (synonyms.Thesaurus): to measure what synonyms add.
	NoSynonyms bool
	// OneShot is for a process that answers one query and exits (the
	// command line's search): what only many searches repay is not
	// prepared at the start (the thesaurus's phrases read once for the
	// scans, the words by length for typos), and a query that needs it
	// reads it as it would have been read, with the same answers.
	OneShot bool
}

// TokenCacheBytes bounds each snapshot's cache of analysed query text.
const TokenCacheBytes = 4 << 20

// derivedHeap is the heap a large corpus's derivations may reach, in times
// the heap live when they start (index.TightenGC): what they build adds
// about a third to it, and the collector gets two thirds of that.
const derivedHeap = 2.25

// Defaults of Options.
const (
	DefaultCacheSize            = 1024
	DefaultRelatedCount         = 5
	DefaultPrecomputeRelatedMax = 2000
	DefaultOnePassMax           = 2000
)

func (o Options) withDefaults() Options {
	if o.CacheSize == 0 {
		o.CacheSize = DefaultCacheSize
	}
	if o.RelatedCount <= 0 {
		o.RelatedCount = DefaultRelatedCount
	}
	if o.PrecomputeRelatedMax <= 0 {
		o.PrecomputeRelatedMax = DefaultPrecomputeRelatedMax
	}
	if o.OnePassMax == 0 {
		o.OnePassMax = DefaultOnePassMax
	}
	return o
}

// Engine answers searches, talk lookups, related talks and overlaps over one
// corpus. It is safe for concurrent use. Everything it knows about a corpus
// lives in an immutable snapshot, so Replace can swap in a re-indexed corpus
// while searches run: each call uses the snapshot current when it started.
type Engine struct {
	opts Options
	snap atomic.Pointer[snapshot]
	// swapMu orders swaps, so generations only ever grow.
	swapMu      sync.Mutex
	generations uint64
}

// New indexes the talks and returns an engine over them, with default
// Options.
func New(talks []index.Talk) (*Engine, error) { return NewWithOptions(talks, Options{}) }

// NewWithOptions indexes the talks and returns an engine over them.
func NewWithOptions(talks []index.Talk, o Options) (*Engine, error) {
	e := &Engine{opts: o.withDefaults()}
	if err := e.Replace(talks); err != nil {
		return nil, err
	}
	return e, nil
}

// NewSlim is NewWithOptions of a corpus whose texts may be in a store
// (ReplaceSlim).
func NewSlim(talks index.Slim, o Options) (*Engine, error) {
	e := &Engine{opts: o.withDefaults()}
	if err := e.ReplaceSlim(talks); err != nil {
		return nil, err
	}
	return e, nil
}

// Replace indexes talks and, once everything is built, makes them the
// corpus of later calls. On error the engine keeps its current corpus.
func (e *Engine) Replace(talks []index.Talk) error { return e.ReplaceSlim(index.Whole(talks)) }

// ReplaceSlim is Replace of a corpus read as a stream: its talks without
// their abstracts and descriptions, which are in its store (index.Slim),
// so that a large corpus is never on the heap whole. The engine owns both
// from the call on: it keeps the talks as they are and closes the store
// with the snapshot, or at once on error.
func (e *Engine) ReplaceSlim(talks index.Slim) error {
	s, err := newSnapshotOf(talks, e.opts)
	if err != nil {
		return fmt.Errorf("search engine: %w", err)
	}
	e.swapMu.Lock()
	e.generations++
	s.gen = e.generations
	old := e.snap.Swap(s)
	e.swapMu.Unlock()
	if old != nil {
		// Searches still running on the old snapshot finish first: the
		// index is closed only when they let go of it.
		old.release()
	}
	return nil
}

// Generation numbers the corpus being served: 1 for the first, one more
// after each Replace, 0 once the engine is closed. Equal generations and
// equal requests get equal answers, so a caller may reuse what it made from
// an answer (a rendered page, say) for as long as the generation holds.
func (e *Engine) Generation() uint64 {
	if s := e.snap.Load(); s != nil {
		return s.gen
	}
	return 0
}

// Close releases the index. The engine must not be used afterwards.
func (e *Engine) Close() error {
	if s := e.snap.Swap(nil); s != nil {
		s.release()
	}
	return nil
}

// acquire returns the current snapshot, held until done is called.
func (e *Engine) acquire() (*snapshot, func(), error) {
	for {
		s := e.snap.Load()
		if s == nil {
			return nil, nil, fmt.Errorf("search engine is closed")
		}
		if s.hold() {
			return s, s.unhold, nil
		}
		// s was replaced and drained between Load and hold: retry with
		// the new one.
	}
}

// Search runs a user's search. Invalid requests (limits, sort, a query
// longer than MaxQueryLen) are errors wrapping ErrInvalid; a query's syntax
// never is. Equal requests are answered from a per-corpus cache, so the
// Result's slices may be shared with other calls: read them, do not modify
// them.
func (e *Engine) Search(ctx context.Context, r Request) (*Result, error) {
	start := time.Now()
	r, err := r.Normalize()
	if err != nil {
		return nil, err
	}
	s, done, err := e.acquire()
	if err != nil {
		return nil, err
	}
	defer done()
	key := r.cacheKey()
	if res, ok := s.cache.get(key); ok {
		out := *res
		out.TookMS = msSince(start)
		return &out, nil
	}
	res, err := s.search(ctx, r)
	if err != nil {
		return nil, err
	}
	// A simplified query's answer is not kept: such queries are a
	// hostile client's, new every time, and kept they would push out the
	// answers people ask for again (TestSimplifiedResultsAreNotKept).
	if !res.Simplified {
		s.cache.put(key, res)
	}
	out := *res
	out.TookMS = msSince(start)
	return &out, nil
}

// Talk returns one talk with its related talks, or ErrNotFound.
func (e *Engine) Talk(ctx context.Context, id string) (*TalkDetail, error) {
	s, done, err := e.acquire()
	if err != nil {
		return nil, err
	}
	defer done()
	d, ok := s.lookUp(id)
	if !ok {
		return nil, fmt.Errorf("talk %q: %w", id, ErrNotFound)
	}
	rel, err := s.relatedOf(ctx, d)
	if err != nil {
		return nil, fmt.Errorf("related talks of %s: %w", id, err)
	}
	return &TalkDetail{Talk: *s.full(d), Related: rel}, nil
}

// Talks returns every talk of the corpus in schedule order (start time,
// unscheduled last, then title).
func (e *Engine) Talks() []index.Talk {
	_, talks := e.Corpus()
	return talks
}

// Corpus returns the generation served and its talks in schedule order,
// both of one snapshot: what a cache of answers derived from the whole
// corpus (an overlap report) keys on.
func (e *Engine) Corpus() (generation uint64, talks []index.Talk) {
	s, done, err := e.acquire()
	if err != nil {
		return 0, nil
	}
	defer done()
	out := make([]index.Talk, len(s.byTime))
	for i, d := range s.byTime {
		out[i] = *d.talk
		s.texts.Fill(int(d.text), &out[i])
	}
	return s.gen, out
}

// Listing returns every talk of the corpus in schedule order, as Talks
// does, but without their abstracts and descriptions (Texts reads them),
// and shared: the slice is the engine's own, the same for every caller of
// one generation, and must not be modified. Pages that list talks by
// time, room or speaker need no texts, and a copy of every talk per
// caller would double the talks' memory.
func (e *Engine) Listing() []index.Talk {
	s, done, err := e.acquire()
	if err != nil {
		return nil
	}
	defer done()
	return s.listing
}

// Texts are a talk's long texts, which Listing leaves out.
type Texts struct {
	Abstract, Description string
}

// Texts returns the abstract and description of the talks with ids, in
// their order; an id the corpus lacks has none.
func (e *Engine) Texts(ids []string) []Texts {
	out := make([]Texts, len(ids))
	s, done, err := e.acquire()
	if err != nil {
		return out
	}
	defer done()
	for i, id := range ids {
		if d, ok := s.lookUp(id); ok {
			out[i] = Texts{s.texts.Abstract(int(d.text)), s.texts.Description(int(d.text))}
		}
	}
	return out
}

// full is d's talk with its abstract and description, which d.talk lacks
// (snapshot.texts): a copy of the caller's.
func (s *snapshot) full(d *doc) *index.Talk {
	t := *d.talk
	s.texts.Fill(int(d.text), &t)
	return &t
}

func msSince(t time.Time) float64 {
	return float64(time.Since(t).Microseconds()) / 1000
}

// doc is what a snapshot knows of one talk beyond the index. There is one
// per talk, so its numbers are as small as a corpus allows.
type doc struct {
	// talk is the talk without its abstract and description, which are
	// in the snapshot's texts at text (snapshot.full).
	talk *index.Talk
	// num is the talk's internal document number in the snapshot's
	// scan.Index.
	num  uint64
	text int32
	ord  int32 // position in the corpus order of byTime
	// newest is the position newest edition first (the conference's first
	// start descending, then the corpus order), which breaks ties of score.
	newest int32
	// startMin is the talk's start in minutes into its own day, -1 for
	// none (timeFilter).
	startMin int32
	// track is the talk's track as the facet shows it (snapshot.shown),
	// which a track: clause selects by: 1 + its place in the facet's
	// values, 0 for none (snapshot.facets).
	track int32
	// damping repeats ranking.DampingOf(talk) where a scan of every
	// match reads it without loading the talk.
	damping ranking.Damping
}

// snapshot is everything built from one corpus; it never changes after
// newSnapshot returns, except for its caches.
type snapshot struct {
	// gen is the engine's Generation while this snapshot is served.
	gen uint64
	idx bleve.Index
	// scan runs the queries over the index (package scan).
	scan *scan.Index
	// docs are the talks by document number (layOut); nil where no talk.
	docs []*doc
	// small: the corpus has at most Options.OnePassMax talks (onePass).
	small bool
	opts  Options
	// byID are the talks' places in byTime in the order of their ids
	// (lookUp): a map of every id would be many times their size.
	byID   []int32
	byTime []*doc // every talk, ordered by start, unscheduled last, title
	// texts are the talks' abstracts and descriptions, off the Go heap
	// (index.TextStore): the docs' talks are copies without them, so a
	// large corpus's text is not heap the collector doubles.
	texts *index.TextStore
	// listing are the talks without their texts in schedule order, which
	// the docs' talks point into (Listing).
	listing []index.Talk
	vocab   *vocabulary
	// thesaurus expands query words with synonyms and acronyms; nil
	// means none.
	thesaurus *synonyms.Thesaurus
	// analyzer is the title field's: what query words become. terms share
	// its stem cache (thesaurus, related talks): one per generation.
	analyzer analysis.Analyzer
	terms    *talkanalysis.Terms
	dict     map[string]uint64 // index term → talks using it (title, abstract, speakers, track, room)
	// inField says which of textFields have an index term (bit i for
	// textFields[i]): a clause on a field lacking its term is known to
	// match nothing before Bleve is asked (prune.go).
	inField map[string]uint8
	stats   *termStats
	// assoc counts which terms go together in the talks (assoc.go).
	assoc *assocIndex
	// bm25 are the statistics the snapshot's searches score with
	// (bm25.go); nil leaves them to Bleve.
	bm25   *bsearch.BM25Stats
	values map[string][]string // facet name → its known values, sorted
	// shown are the values of the folded facets (track, room) by their
	// folded key (facetkey.go): the one value in values that stands for
	// every spelling of the key.
	shown [nFacets]map[string]string
	// names are the rooms' and tracks' names a query may be (scope.go),
	// made on the first search.
	names func() *names
	// facets are each talk's facet values by document number (layOut),
	// as 1 + their index in values, 0 for none: a facet count reads them
	// for every match, and read from the docs they would be a cache miss
	// per match.
	facets [][nFacets]int32
	// moreLanguages are the languages of a talk after its first, by
	// document number, as indexes like facets'; nil when no talk has
	// more than one.
	moreLanguages [][]int32
	// conferenceNames are the names of the conference ids.
	conferenceNames map[string]string
	// facetCounts recycles the facet counters' arrays (newFacetCounter).
	facetCounts sync.Pool

	cache   *boundedCache[*Result]       // normalized request → its result
	matches *boundedCache[*queryMatches] // query → its plan and matches (results.go)

	// related and vectors are the talks' related talks and term vectors
	// as pages ask for them, bounded in bytes (related.go).
	related *boundedCache[[]Related]   // talk id → its related talks
	vectors *boundedCache[*termVector] // talk id → its term vector

	// tokenCache is the analysis of query text (query.go tokens).
	tokenCache *boundedCache[analysed]
	// pairs are the verdicts of twoConcepts by the pair of terms
	// (pair.go), each a read of the pair's postings.
	pairs *boundedCache[bool]
	// compounds are the verdicts of askedCompounds by the pair of terms
	// (compound.go), each a read of the pair's postings.
	compounds *boundedCache[bool]

	kept Kept // where vocab and thesaurus came from

	// refs counts holders; releasing the snapshot closes the index once
	// no search holds it. A negative count means closed.
	refMu sync.Mutex
	refs  int
	dead  bool
}

func newSnapshot(talks []index.Talk, o Options) (*snapshot, error) {
	return newSnapshotOf(index.Whole(talks), o)
}

// newSnapshotOf builds the snapshot of a corpus whose texts may be in a
// store (Engine.ReplaceSlim); it closes the store on error.
func newSnapshotOf(corpus index.Slim, o Options) (*snapshot, error) {
	var (
		idx bleve.Index
		err error
	)
	switch {
	case o.IndexSlim != nil:
		idx, err = o.IndexSlim(corpus)
	case o.Index != nil && corpus.Texts == nil:
		idx, err = o.Index(corpus.Talks)
	case o.Index != nil:
		err = errors.New("the talks' texts are in a store, which Options.Index cannot read: set Options.IndexSlim")
	default:
		idx, err = index.BuildSlim(context.Background(), corpus, nil)
	}
	if err != nil {
		if corpus.Texts != nil {
			corpus.Texts.Close()
		}
		return nil, fmt.Errorf("build index: %w", err)
	}
	// The derivations below are short-lived garbage over the talks and
	// the mapped index, as the batches were: a large corpus derives them
	// under a bound on the heap, as the build does. What they keep live
	// beside the talks is smaller than a batch, and the merged index,
	// mapped and read, takes memory of its own outside the heap.
	defer index.TightenGC(corpus.Len(), derivedHeap)()
	talks := corpus.Talks // whole, or without their texts: only the fields beside them are read here
	s := &snapshot{
		idx:     idx,
		opts:    o,
		byTime:  make([]*doc, 0, len(talks)),
		cache:   newResultCache(o.CacheSize),
		matches: newBoundedCache[*queryMatches](o.CacheSize / 8),
		related: newRelatedCache(RelatedCacheBytes),
		vectors: newVectorCache(VectorCacheBytes),
		// Query text is the client's: bounded in bytes, whatever it sends.
		tokenCache: newWeighedCache(TokenCacheBytes, func(text string, a analysed) int {
			n := len(text) + entryOverhead
			for _, t := range a.tokens {
				n += len(t.term) + 40 // string headers (token and terms) and position
			}
			return n
		}),
		pairs:     newBoundedCache[bool](pairCacheSize),
		compounds: newBoundedCache[bool](pairCacheSize),
		values:    map[string][]string{},

		conferenceNames: map[string]string{},
	}
	seen := map[string]map[string]bool{}
	for _, name := range facetNames {
		seen[name] = map[string]bool{}
	}
	shown := newShownValues()
	slim := talks
	if corpus.Texts != nil {
		s.texts = corpus.Texts
	} else {
		s.texts = index.NewTextStore("", talks)
		slim = make([]index.Talk, len(talks))
	}
	for i := range talks {
		t := &slim[i]
		if corpus.Texts == nil {
			*t = talks[i]
			t.Abstract, t.Description = "", ""
		}
		d := &doc{talk: t, text: int32(i), damping: ranking.DampingOf(t), startMin: int32(startMinute(t))}
		s.byTime = append(s.byTime, d)
		for i, v := range talkFacetValues(t) {
			if v == "" || shown.add(i, v, t) {
				continue // a folded facet's values are added below
			}
			if name := facetNames[i]; !seen[name][v] {
				seen[name][v] = true
				s.values[name] = append(s.values[name], v)
			}
		}
		for _, v := range moreLanguages(t) {
			if name := facetNames[languageFacet]; !seen[name][v] {
				seen[name][v] = true
				s.values[name] = append(s.values[name], v)
			}
		}
		if t.Conference.ID != "" {
			s.conferenceNames[t.Conference.ID] = t.Conference.Name
		}
	}
	s.shown = shown.keys()
	s.names = sync.OnceValue(s.readNames)
	for i, byKey := range s.shown {
		for _, v := range byKey {
			s.values[facetNames[i]] = append(s.values[facetNames[i]], v)
		}
	}
	for _, vs := range s.values {
		sort.Strings(vs)
	}
	sort.SliceStable(s.byTime, func(i, j int) bool { return timeLess(s.byTime[i].talk, s.byTime[j].talk) })
	if id, dup := s.sortIDs(); dup {
		s.closeIndex()
		return nil, fmt.Errorf("duplicate talk id %q", id)
	}
	// The talks are laid out again in schedule order, in one array that
	// Listing hands out as it is (a server's pages list them without a
	// copy of their own), sharing the values they repeat.
	s.listing = make([]index.Talk, len(s.byTime))
	at := make([]int32, len(s.byTime)) // where each talk of the corpus is listed
	sh := newSharer()
	for i, d := range s.byTime {
		d.ord = int32(i)
		s.listing[i] = *d.talk
		sh.share(&s.listing[i])
		d.talk = &s.listing[i]
		at[d.text] = int32(i)
	}
	if corpus.Texts != nil {
		// The derivations below read the corpus (in its own order)
		// through the listing: the array of talks it was read into, as
		// large as the listing, is garbage from here on rather than
		// held beside it through the start.
		corpus = index.Slim{Talks: s.listing, Texts: corpus.Texts}.Moved(at)
	}
	// Newest first means the newest edition first; within one edition the
	// schedule order stays, so a one-conference corpus ranks as before.
	opens := map[string]time.Time{} // a conference's first start
	for _, d := range s.byTime {
		if st := d.talk.Start; st != nil {
			if o, ok := opens[d.talk.Conference.ID]; !ok || st.Before(o) {
				opens[d.talk.Conference.ID] = *st
			}
		}
	}
	recent := slices.Clone(s.byTime)
	sort.SliceStable(recent, func(i, j int) bool {
		a, aok := opens[recent[i].talk.Conference.ID]
		b, bok := opens[recent[j].talk.Conference.ID]
		if !aok || !bok {
			return aok && !bok // an edition without dates last
		}
		return a.After(b)
	})
	for i, d := range recent {
		d.newest = int32(i)
	}
	m := idx.Mapping()
	if s.analyzer = m.AnalyzerNamed(m.AnalyzerNameForPath(index.FieldTitle)); s.analyzer == nil {
		s.closeIndex()
		return nil, fmt.Errorf("no analyzer for field %s", index.FieldTitle)
	}
	s.terms = talkanalysis.TermsOf(s.analyzer)
	// The mean field lengths (an analysis of a sample of the talks, or
	// what the sidecar keeps of it) are measured beside the rest of the
	// start, which needs them only from the known phrases on, on a second
	// core; every way out waits for them before closing the index.
	var (
		bm25Err      error
		bm25Loaded   bool
		bm25Problems []error
	)
	bm25Done := make(chan struct{})
	go func() {
		defer close(bm25Done)
		s.bm25, bm25Loaded, bm25Problems, bm25Err = bm25Of(idx, corpus, s.analyzer, index.SidecarOf(idx))
	}()
	fail := func(err error) (*snapshot, error) {
		<-bm25Done
		s.closeIndex()
		return nil, err
	}
	// The term dictionaries are read while the vocabulary and thesaurus
	// are derived or loaded: neither needs the other.
	var (
		dictErr   error
		relatedDF map[string]uint64
	)
	dictsDone := make(chan struct{})
	go func() {
		defer close(dictsDone)
		if s.dict, s.inField, dictErr = termDict(idx, textFields...); dictErr == nil {
			relatedDF, _, dictErr = termDict(idx, index.FieldTitle, index.FieldAbstract)
		}
	}()
	s.derive(corpus, index.SidecarOf(idx)) // vocab, thesaurus (kept.go)
	if <-dictsDone; dictErr != nil {
		return fail(dictErr)
	}
	s.stats = newTermStats(len(s.listing), relatedDF, s.terms, s.thesaurus)
	if assocTerms > 0 {
		s.assoc = s.assocIndexOf(corpus, index.SidecarOf(idx))
	}
	s.small = len(s.listing) <= o.OnePassMax
	talk := func(id string, n uint64) (bool, ranking.Damping) {
		d, ok := s.lookUp(id)
		if !ok {
			return false, 0
		}
		d.num = n
		for uint64(len(s.docs)) <= n {
			s.docs = append(s.docs, nil)
		}
		s.docs[n] = d
		return true, d.damping
	}
	if s.scan, err = scan.Open(idx, talk, o.Scan); err != nil {
		return fail(err)
	}
	if err := s.layOut(); err != nil {
		<-bm25Done
		s.closeIndex()
		return nil, err
	}
	if <-bm25Done; bm25Err != nil {
		s.closeIndex()
		return nil, bm25Err
	}
	s.kept.note(keptBM25, bm25Loaded, bm25Problems...)
	if !o.OneShot {
		if err := s.scan.KnowPhrases(s.withBM25(context.Background()), s.thesaurusPhrases()); err != nil {
			s.closeIndex()
			return nil, fmt.Errorf("the thesaurus's phrases: %w", err)
		}
		// What a first typo would build is built before the snapshot is
		// served: a start is ready, and a reload swapped in, only once
		// warm.
		s.vocab.lengths.of(s.vocab)
	}
	if len(s.listing) <= o.PrecomputeRelatedMax {
		ctx := context.Background()
		for _, d := range s.byTime {
			if _, err := s.relatedOf(ctx, d); err != nil {
				s.closeIndex()
				return nil, fmt.Errorf("related talks of %s: %w", d.talk.ID, err)
			}
		}
	}
	// The start's garbage (the talks' analysis, the thesaurus's mining)
	// is several times what the snapshot keeps.
	index.ReleaseMemory(len(s.listing))
	return s, nil
}

// layOut moves the docs into one array in document-number order and
// numbers their facet values (snapshot.facets). A scan visits its matches
// in that order, and so does the facet count after it;
// docs allocated one by one lie in the order of the corpus, which Bleve's
// numbering shuffles, and a doc read at random is a cache miss per match.
//
// Every talk must have a document number: a browse lists the talks by
// their numbers.
func (s *snapshot) layOut() error {
	all := make([]doc, 0, len(s.byTime))
	s.facets = make([][nFacets]int32, len(s.docs))
	for n, d := range s.docs {
		if d != nil {
			all = append(all, *d) // within its capacity: the pointers stay
			s.docs[n] = &all[len(all)-1]
			for i, v := range talkFacetValues(d.talk) {
				if v != "" {
					k, _ := slices.BinarySearch(s.values[facetNames[i]], s.shownValue(i, v))
					s.facets[n][i] = int32(k + 1)
				}
			}
			s.docs[n].track = s.facets[n][trackFacet]
			for _, v := range moreLanguages(d.talk) {
				if s.moreLanguages == nil {
					s.moreLanguages = make([][]int32, len(s.docs))
				}
				k, _ := slices.BinarySearch(s.values[facetNames[languageFacet]], v)
				s.moreLanguages[n] = append(s.moreLanguages[n], int32(k+1))
			}
		}
	}
	// Each talk has one number at most, so every talk has one when the
	// counts agree; then its number finds its new place.
	if missing := len(s.byTime) - len(all); missing > 0 {
		for _, d := range s.byTime {
			if n := d.num; n >= uint64(len(s.docs)) || s.docs[n] == nil || s.docs[n].talk != d.talk {
				return fmt.Errorf("%d of %d talks are not in the index (%s is one)", missing, len(s.byTime), d.talk.ID)
			}
		}
	}
	for i, d := range s.byTime {
		moved := s.docs[d.num]
		s.byTime[i] = moved
	}
	return nil
}

// sortIDs orders byID, the talks by id, once byTime is in its order;
// two talks with one id are an error: it returns the id.
func (s *snapshot) sortIDs() (string, bool) {
	s.byID = make([]int32, len(s.byTime))
	for i := range s.byID {
		s.byID[i] = int32(i)
	}
	id := func(k int32) string { return s.byTime[k].talk.ID }
	slices.SortFunc(s.byID, func(a, b int32) int { return strings.Compare(id(a), id(b)) })
	for k := 1; k < len(s.byID); k++ {
		if id(s.byID[k]) == id(s.byID[k-1]) {
			return id(s.byID[k]), true
		}
	}
	return "", false
}

// lookUp is the doc of the talk with id.
func (s *snapshot) lookUp(id string) (*doc, bool) {
	k, ok := sort.Find(len(s.byID), func(k int) int { return strings.Compare(id, s.byTime[s.byID[k]].talk.ID) })
	if !ok {
		return nil, false
	}
	return s.byTime[s.byID[k]], true
}

// onePass says whether the snapshot's searches collect the positions of
// the matched words in their one pass over the matches (Options.OnePassMax)
// rather than for the page only.
func (s *snapshot) onePass() bool { return s.small }

// timeLess orders talks by start time, unscheduled (no start) last, then by
// title and id so the order is total.
func timeLess(a, b *index.Talk) bool {
	switch {
	case a.Start != nil && b.Start != nil && !a.Start.Equal(*b.Start):
		return a.Start.Before(*b.Start)
	case (a.Start == nil) != (b.Start == nil):
		return a.Start != nil
	case a.Title != b.Title:
		return a.Title < b.Title
	}
	return a.ID < b.ID
}

// termDict reads the index's term dictionaries of fields: the terms a query
// can match, with the most talks any one of the fields has them in, and
// which of the fields (bit i for fields[i]) have each.
func termDict(idx bleve.Index, fields ...string) (map[string]uint64, map[string]uint8, error) {
	out := map[string]uint64{}
	in := map[string]uint8{}
	for i, f := range fields {
		fd, err := idx.FieldDict(f)
		if err != nil {
			return nil, nil, fmt.Errorf("term dictionary of %s: %w", f, err)
		}
		for {
			e, err := fd.Next()
			if err != nil {
				fd.Close()
				return nil, nil, fmt.Errorf("term dictionary of %s: %w", f, err)
			}
			if e == nil {
				break
			}
			out[e.Term] = max(out[e.Term], e.Count)
			in[e.Term] |= 1 << i
		}
		if err := fd.Close(); err != nil {
			return nil, nil, fmt.Errorf("term dictionary of %s: %w", f, err)
		}
	}
	return out, in, nil
}

func (s *snapshot) hold() bool {
	s.refMu.Lock()
	defer s.refMu.Unlock()
	if s.dead {
		return false
	}
	s.refs++
	return true
}

func (s *snapshot) unhold() {
	s.refMu.Lock()
	s.refs--
	closeNow := s.dead && s.refs == 0
	s.refMu.Unlock()
	if closeNow {
		s.closeIndex()
	}
}

// release marks the snapshot replaced; the index closes when the last
// holder lets go.
func (s *snapshot) release() {
	s.refMu.Lock()
	s.dead = true
	closeNow := s.refs == 0
	s.refMu.Unlock()
	if closeNow {
		s.closeIndex()
	}
}

// closeIndex closes the scan's reader, then the index it reads, and
// closes the talks' texts.
func (s *snapshot) closeIndex() {
	if s.scan != nil {
		s.scan.Close()
	}
	s.idx.Close()
	if s.texts != nil {
		s.texts.Close()
	}
}

// Normalize validates r and fills its defaults, as Search does, so that
// equal searches have equal requests (and cache keys). An invalid request
// is an error wrapping ErrInvalid. Exported for other Searchers (web's test
// fake) to refuse what the engine refuses.
func (r Request) Normalize() (Request, error) {
	if n := utf8.RuneCountInString(r.Query); n > MaxQueryLen {
		return r, fmt.Errorf("the query is %d characters long; the limit is %d: %w", n, MaxQueryLen, ErrInvalid)
	}
	r.Query = strings.Join(strings.Fields(strings.ToValidUTF8(r.Query, " ")), " ")
	switch {
	case r.Limit < 0:
		return r, fmt.Errorf("limit %d is negative: %w", r.Limit, ErrInvalid)
	case r.Limit > MaxLimit:
		return r, fmt.Errorf("limit %d is above %d: %w", r.Limit, MaxLimit, ErrInvalid)
	case r.Limit == 0:
		r.Limit = DefaultLimit
	}
	if r.Offset < 0 || r.Offset > MaxOffset {
		return r, fmt.Errorf("offset %d not in [0,%d]: %w", r.Offset, MaxOffset, ErrInvalid)
	}
	switch strings.ToLower(strings.TrimSpace(r.Sort)) {
	case "", SortRelevance:
		r.Sort = SortRelevance
	case SortTime, SortNewest:
		r.Sort = strings.ToLower(strings.TrimSpace(r.Sort))
	default:
		return r, fmt.Errorf("sort %q is not %q, %q or %q: %w", r.Sort, SortRelevance, SortTime, SortNewest, ErrInvalid)
	}
	var err error
	if r.Tracks, err = cleanValues("track", r.Tracks); err != nil {
		return r, err
	}
	if r.Levels, err = cleanValues("level", r.Levels); err != nil {
		return r, err
	}
	if r.Rooms, err = cleanValues("room", r.Rooms); err != nil {
		return r, err
	}
	return normalizeFilters(r)
}

// cleanValues trims, drops empty and duplicate values and sorts them: the
// selection is a set.
func cleanValues(facet string, vs []string) ([]string, error) {
	if len(vs) > MaxFacetValues {
		return nil, fmt.Errorf("%d %s values, more than %d: %w", len(vs), facet, MaxFacetValues, ErrInvalid)
	}
	var out []string
	for _, v := range vs {
		v = strings.TrimSpace(v)
		if v != "" && utf8.RuneCountInString(v) <= MaxQueryLen {
			out = append(out, v)
		}
	}
	sort.Strings(out)
	out = slices.Compact(out)
	return out, nil
}

func (r Request) cacheKey() string {
	// The key of every request: strconv's quoting (what %q writes) into
	// one buffer, as fmt would write it, without fmt's work per value.
	var buf [256]byte
	b := bytes.NewBuffer(buf[:0])
	b.Write(strconv.AppendQuote(b.AvailableBuffer(), r.Query))
	b.WriteByte('|')
	b.WriteString(r.Sort)
	b.WriteByte('|')
	b.Write(strconv.AppendInt(b.AvailableBuffer(), int64(r.Limit), 10))
	b.WriteByte('|')
	b.Write(strconv.AppendInt(b.AvailableBuffer(), int64(r.Offset), 10))
	b.WriteByte('|')
	b.Write(strconv.AppendBool(b.AvailableBuffer(), r.Explain))
	for _, vs := range [][]string{r.Tracks, r.Levels, r.Rooms} {
		writeQuotedValues(b, vs)
	}
	r.filtersKey(b)
	return b.String()
}

// writeQuotedValues writes a '|' and each of vs quoted, followed by a
// comma: a part of Request.cacheKey.
func writeQuotedValues(b *bytes.Buffer, vs []string) {
	b.WriteByte('|')
	for _, v := range vs {
		b.Write(strconv.AppendQuote(b.AvailableBuffer(), v))
		b.WriteByte(',')
	}
}

// withBM25 is ctx carrying the snapshot's BM25 statistics for Bleve.
func (s *snapshot) withBM25(ctx context.Context) context.Context {
	return ranking.WithBM25(ctx, s.bm25)
}

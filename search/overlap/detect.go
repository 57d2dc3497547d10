package overlap

import (
	"container/heap"
	"hash/fnv"
	"math"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/analysis"
	"github.com/talksearch/talksearch/search/termvec"
)

// Explanations: at most maxShared terms per pair, and none that carries
// less than minShareOfScore of the pair's score (a word the two talks
// happen to share is not a reason they overlap).
const (
	maxShared       = 8
	minShareOfScore = 0.02
	// reasonShare is the part of a pair's cosine a term must carry to count
	// as one of the pair's reasons.
	reasonShare = 0.1
)

// A topical pair that rests on one word (a project name shared by two
// short sessions) is a coincidence of naming more than an overlap of
// content: its score is halved. Likewise a talk with fewer than minTerms
// distinct terms (a title without an abstract) says too little to overlap
// with anything for sure; its pairs are scaled by how much it does say.
const (
	oneWordPenalty = 0.5
	minTerms       = 8
)

// termShare is one shared term and its part of a pair's cosine.
type termShare struct {
	term, surface string
	weight        float64
}

// pairInfo is a pair while it is being scored and explained; i<j index the
// detector's talks.
type pairInfo struct {
	i, j     int
	cos, jac float64
	exact    bool
	score    float64
	kind     string
	shared   []termShare
}

// detector holds one run's analysed talks.
type detector struct {
	talks []index.Talk // breaks left out
	an    *textAnalyzer
	voc   *termvec.Vocab
	vecs  []termvec.Vector
	keys  []uint64 // hash of each talk's textKey, 0 for none
	// shs are the talks' shingles, made on first use (see shingles).
	shs    [][]uint64
	shOnce []sync.Once
	texts  []*talkText // filled in when a talk's first pair is explained
	// spk are the talks' speakers (speakers.go), titleKeys their folded
	// titles hashed (resubmissions.go).
	spk       []speakerSet
	titleKeys []uint64
	generic   []bool // per term (generic.go)
	// clashable marks the talks that can clash (findings.go).
	clashable []bool
	// boiler are the corpus's boilerplate sentences (boilerplate.go).
	boiler *boilerplate
	// docs is how many texts the document frequencies count: the talks,
	// and a small call's background (borrow).
	docs int
}

// Detect finds the overlapping pairs, clusters and clashes among talks.
// Breaks are never paired. Pairs are scored 0..1: 1 for the same text,
// the larger of word-shingle resemblance and term cosine for an edited
// copy, the cosine of tf-idf weighted analyzer terms (title counted
// thrice) for talks on the same topic.
//
// A minimum from Floor up is a filter over the report at Floor
// (Report.AtLeast), so Detect at any such minimum and a served report
// filtered to it are the same report.
func Detect(talks []index.Talk, opts Options) *Report {
	minScore := opts.Min
	if minScore <= 0 {
		minScore = DefaultMin
	}
	base := opts
	base.Min = math.Min(minScore, Floor)
	rep := detect(talks, base)
	if minScore <= base.Min {
		return rep
	}
	out, _ := rep.AtLeast(minScore) // minScore is in (Floor, 1]: no error
	return out
}

// detect makes the report at opts.Min, which is not 0.
func detect(talks []index.Talk, opts Options) *Report {
	minScore := opts.Min
	clashMin := opts.ClashMin
	if clashMin <= 0 {
		clashMin = DefaultClashMin
	}
	maxPairs := opts.MaxPairs
	if maxPairs <= 0 {
		maxPairs = DefaultMaxPairs
	}
	d := newDetector(talks, opts.Background)
	found := d.pairs(minScore, clashMin, maxPairs, keepViews(opts))

	rep := &Report{Pairs: []Pair{}, Clusters: []Cluster{}, Clashes: []Clash{}, Merged: merged(d.talks),
		min: minScore, scores: found.scores, talks: talkInfos(d.talks)}
	rep.More = found.count - len(found.top)
	for k := range found.top {
		d.explain(&found.top[k])
		rep.Pairs = append(rep.Pairs, d.reportPair(found.top[k]))
		rep.pairScores = append(rep.pairScores, found.top[k].score)
	}
	// Clusters group the pairs at DefaultMin whatever the filter: a higher
	// minimum shows the clusters whose strongest pair reaches it.
	groupMin := DefaultMin
	if minScore < Floor {
		groupMin = minScore
	}
	grouped := found.top
	for len(grouped) > 0 && grouped[len(grouped)-1].score < groupMin {
		grouped = grouped[:len(grouped)-1]
	}
	rep.Clusters, rep.clusterBest = d.buildClusters(grouped, groupMin, math.Min(groupMin, clashMin))
	clashes := found.clashes
	if len(clashes) > maxPairs {
		rep.MoreClashes = len(clashes) - maxPairs
		clashes = clashes[:maxPairs]
	}
	rep.Clashes = d.buildClashes(clashes)
	rep.Conflicts = d.conflicts(rep.Clashes)
	rep.scheduleConflicts = len(rep.Conflicts) - len(rep.Clashes)
	if len(rep.Conflicts) > maxPairs {
		// Speakers first: a person in two rooms is the conflict to keep.
		rep.MoreConflicts = len(rep.Conflicts) - maxPairs
		rep.Conflicts = rep.Conflicts[:maxPairs]
	}
	rep.Resubmissions, rep.MoreResubmissions = d.buildResubmissions(found.resubs, maxPairs)
	rep.Recurring = d.buildRecurring(found.recurring)
	if keepViews(opts) {
		rep.similar = &similarIndex{d: keepDetector(d), near: found.near, byID: map[string]int{}, done: map[[2]int]Pair{}}
		for k, t := range d.talks {
			rep.similar.byID[t.ID] = k
		}
	}
	return rep
}

func newDetector(talks, background []index.Talk) *detector {
	d := &detector{an: newTextAnalyzer(), voc: &termvec.Vocab{}}
	for _, t := range talks {
		if t.Kind != index.KindBreak {
			d.talks = append(d.talks, t)
		}
	}
	d.vecs = make([]termvec.Vector, len(d.talks))
	d.keys = make([]uint64, len(d.talks))
	d.boiler = learnBoilerplate(d.talks, d.an)
	d.count()
	d.docs = len(d.talks)
	if len(d.talks) < SmallCall {
		d.borrow(background)
	}
	for k, t := range d.talks {
		if key := textKey(t); key != "" {
			h := fnv.New64a()
			h.Write([]byte(key))
			d.keys[k] = h.Sum64() | 1 // never 0, which means no key
		}
	}
	for k, v := range d.vecs {
		d.vecs[k] = d.voc.Weigh(v, d.docs, nil)
	}
	d.generic = d.genericTerms()
	d.spk = make([]speakerSet, len(d.talks))
	d.titleKeys = make([]uint64, len(d.talks))
	for k, t := range d.talks {
		d.spk[k], d.titleKeys[k] = newSpeakerSet(t), titleKey(t.Title)
	}
	d.clashable = make([]bool, len(d.talks))
	for k := range d.talks {
		d.clashable[k] = d.clashCandidate(k)
	}
	d.texts = make([]*talkText, len(d.talks))
	d.shs = make([][]uint64, len(d.talks))
	d.shOnce = make([]sync.Once, len(d.talks))
	return d
}

// analysisChunk is how many talks count analyses at once.
const analysisChunk = 512

// count makes the talks' raw term vectors. Analysing the texts is most of
// the cost of a large run, so it runs on every core, a chunk of talks at a
// time (only one chunk's terms are held at once); the terms are then
// numbered in talk order, as on one goroutine.
func (d *detector) count() {
	workers := searchWorkers(len(d.talks))
	occs := make([][]termvec.Occurrence, min(analysisChunk, len(d.talks)))
	for base := 0; base < len(d.talks); base += analysisChunk {
		n := min(analysisChunk, len(d.talks)-base)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for i := w; i < n; i += workers {
					t := d.talks[base+i]
					occs[i] = d.boiler.filter(d.an.terms(t.Title, d.boiler.strip(t.Abstract)))
				}
			})
		}
		wg.Wait()
		for i := range n {
			d.vecs[base+i] = d.voc.Count(occs[i])
			occs[i] = nil
		}
	}
}

// shingles returns talk k's shingles, made on first use: they are needed
// only for pairs close enough to be copies, and at 50k talks they would
// take more memory than the term vectors.
func (d *detector) shingles(k int) []uint64 {
	d.shOnce[k].Do(func() { d.shs[k] = analysis.Shingles(d.talks[k].Title + "\n" + d.talks[k].Abstract) })
	return d.shs[k]
}

// sameText reports whether talks i and j are the same submission.
func (d *detector) sameText(i, j int) bool {
	return d.keys[i] != 0 && d.keys[i] == d.keys[j] && textKey(d.talks[i]) == textKey(d.talks[j])
}

// pairs scores every pair that could reach minScore or clashMin, from the
// term index search and the groups of identical texts, and keeps the best
// maxPairs, the count of those reaching minScore, and the clashes.
func (d *detector) pairs(minScore, clashMin float64, maxPairs int, keep bool) *pairSet {
	t := math.Min(minScore, clashMin)
	newSet := func() *pairSet {
		s := &pairSet{minScore: minScore, clashMin: clashMin, max: maxPairs, talks: d.talks, clashable: d.clashable,
			classify: d.classify}
		if keep {
			s.near = make([][]pairInfo, len(d.talks))
		}
		return s
	}
	// Identical texts are paired from their keys: the term search leaves
	// out the commonest terms at scale and could miss a pair made only of them.
	exact := map[[2]int]bool{}
	group := map[uint64][]int{}
	for k, key := range d.keys {
		if key != 0 {
			group[key] = append(group[key], k)
		}
	}
	all := newSet()
	for _, ks := range group {
		for x := range ks {
			for y := x + 1; y < len(ks); y++ {
				if !d.sameText(ks[x], ks[y]) {
					continue // a hash collision
				}
				exact[[2]int{ks[x], ks[y]}] = true
				all.add(pairInfo{i: ks[x], j: ks[y], cos: 1, score: 1, kind: KindDuplicate})
			}
		}
	}
	workers := searchWorkers(len(d.vecs))
	sets := make([]*pairSet, workers)
	for w := range sets {
		sets[w] = newSet()
	}
	topicalPairs(d.vecs, d.voc.DF(), t, workers, func(w, i, j int, cos, second float64) {
		if !exact[[2]int{i, j}] {
			sets[w].add(d.score(i, j, cos, second))
		}
	})
	for _, s := range sets {
		all.merge(s)
	}
	all.finish()
	return all
}

// score classifies a pair of different texts and scores it, from their
// cosine and the second largest contribution of a shared term to it.
func (d *detector) score(i, j int, cos, second float64) pairInfo {
	p := pairInfo{i: i, j: j, cos: cos, kind: KindTopical, score: cos}
	if cos >= nearDupCos {
		jac, contain := resemblance(d.shingles(i), d.shingles(j))
		if jac >= nearDupMin || contain >= nearDupContainment {
			p.kind, p.score = KindNearDuplicate, math.Max(cos, jac)
			return p
		}
	}
	// Fewer than two terms carry a real part of the cosine.
	if second < reasonShare*cos {
		p.score *= oneWordPenalty
	}
	if n := min(d.vecs[i].Len(), d.vecs[j].Len()); n < minTerms {
		p.score *= float64(n) / minTerms
	}
	d.genericScore(&p)
	d.speakerScore(&p)
	return p
}

// pairScore scores any pair, found by the search or not (cluster links).
func (d *detector) pairScore(i, j int) float64 {
	if i > j {
		i, j = j, i
	}
	if d.sameText(i, j) {
		return 1
	}
	cos, second := termvec.CosineSecond(d.vecs[i], d.vecs[j])
	return d.score(i, j, cos, second).score
}

// pairSet keeps what Detect needs of the scored pairs without holding them
// all: on 10k synthetic submissions millions of pairs pass a low threshold.
type pairSet struct {
	minScore, clashMin float64
	max                int
	talks              []index.Talk
	top                pairHeap // the best max pairs reaching minScore
	count              int      // pairs reaching minScore
	scores             scoreCounts
	clashes            []pairInfo
	// near and resubs are similar.go's and resubmissions.go's (see extra).
	near   [][]pairInfo
	resubs []pairInfo
	// classify names each pair (findings.go); recurring are the pairs of
	// recurring sessions, kept apart; clashable the clash candidates.
	classify  func(pairInfo) pairInfo
	recurring []pairInfo
	clashable []bool
}

func (s *pairSet) add(p pairInfo) {
	if s.classify != nil {
		p = s.classify(p)
	}
	s.extra(p)
	if p.kind == KindRecurring {
		s.recurring = append(s.recurring, p)
		return
	}
	if p.score >= s.clashMin && s.clashable[p.i] && s.clashable[p.j] && s.talks[p.i].Clashes(s.talks[p.j]) {
		s.clashes = append(s.clashes, p)
	}
	if p.score < s.minScore {
		return
	}
	s.count++
	s.scores.add(p.score)
	s.push(p)
}

func (s *pairSet) push(p pairInfo) {
	if len(s.top) < s.max {
		heap.Push(&s.top, p)
	} else if better(p, s.top[0]) {
		s.top[0] = p
		heap.Fix(&s.top, 0)
	}
}

func (s *pairSet) merge(o *pairSet) {
	for _, p := range o.top {
		s.push(p)
	}
	s.count += o.count
	s.scores.merge(&o.scores)
	s.recurring = append(s.recurring, o.recurring...)
	s.clashes = append(s.clashes, o.clashes...)
	s.mergeExtra(o)
}

// finish sorts top and clashes best first.
func (s *pairSet) finish() {
	sort.Slice(s.top, func(a, b int) bool { return better(s.top[a], s.top[b]) })
	sort.Slice(s.clashes, func(a, b int) bool { return better(s.clashes[a], s.clashes[b]) })
}

// better orders pairs by score, then by position, so output is stable.
func better(a, b pairInfo) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if a.i != b.i {
		return a.i < b.i
	}
	return a.j < b.j
}

// pairHeap is a min-heap: the worst kept pair on top, to be replaced.
type pairHeap []pairInfo

func (h pairHeap) Len() int           { return len(h) }
func (h pairHeap) Less(a, b int) bool { return better(h[b], h[a]) }
func (h pairHeap) Swap(a, b int)      { h[a], h[b] = h[b], h[a] }
func (h *pairHeap) Push(x any)        { *h = append(*h, x.(pairInfo)) }
func (h *pairHeap) Pop() any {
	old := *h
	p := old[len(old)-1]
	*h = old[:len(old)-1]
	return p
}

// textKey is a talk's words, lower-cased, without punctuation: two talks
// with the same key are the same submission. Talks with no abstract have no
// key, since a shared title alone (a repeated session) is not a duplicate.
func textKey(t index.Talk) string {
	if strings.TrimSpace(t.Abstract) == "" {
		return ""
	}
	words := strings.FieldsFunc(strings.ToLower(t.Title+" "+t.Abstract), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	return strings.Join(words, " ")
}

// merged lists the talks ingestion found in several dumps.
func merged(talks []index.Talk) []Merged {
	out := []Merged{}
	for _, t := range talks {
		if len(t.Sources) > 1 {
			out = append(out, Merged{ID: t.ID, Title: t.Title, Sources: t.Sources})
		}
	}
	return out
}

// round keeps scores readable and the JSON stable across platforms.
func round(x float64) float64 { return math.Round(x*1000) / 1000 }

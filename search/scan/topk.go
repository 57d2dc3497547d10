package scan

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/talksearch/talksearch/search/ranking"
)

// A request ranked by score shows a page of the best talks, and its total
// and facets count every match: a scan need not score every match, only
// every talk that could be among the best. MatchesTop finds the matches
// from the postings bitmaps of the query's terms (no frequencies, norms or
// positions read), and bounds each match's score from which of the
// query's terms it has: a term scores less than idf × k1 × its query
// weight however often it stands in however short a field (BM25's
// saturation), the query's disjunctions and conjunctions combine the
// bounds as they combine scores, and the factor of the clauses the talk
// matches (ranking.Factors) is known exactly from the clause masks. Soft
// coordination's power makes that factor small for a talk missing a rare
// word, and a disjunction's share of clauses small for a talk with one
// field of several, so most matches of a common word are bounded below
// the scores of the best talks. The talks of the highest bounds are scored
// exactly (the tree scan restricted to them), the k-th best of those
// scores is a threshold, and every other match bounded at or above it is
// scored too: a match left unscored scores less than k talks that are
// scored, so the best k, their order and their scores are the full scan's
// (VerifyTop).

// Unscored is the score MatchesTop leaves a match it did not score: below
// every score (scores are never negative).
const Unscored = -1.0

// maxTopLeaves bounds the terms, phrases and searchers of a query whose
// matches MatchesTop bounds (one bit each in a uint64); a longer query is
// scanned whole.
const maxTopLeaves = 64

// maxDenseLeaves bounds the queries whose bounds by set of terms are kept
// in a slice rather than a map.
const maxDenseLeaves = 12

// boundSlack covers the rounding of the scores summed in another order
// than the bounds.
const boundSlack = 1 + 1e-9

// MatchesTop is Matches for a request that shows the best k matches by
// score: every match is returned, those that could be among the best k
// with their scores (at least k of them, or all), the others with
// Unscored. k <= 0, or a query the tree scan does not evaluate or bound,
// scores every match (Matches).
func (sc *Index) MatchesTop(ctx context.Context, q query.Query, clauses []ranking.Clause, keep func(n uint64) bool, k int) (ms []Match, weight float64, err error) {
	return sc.matchesTop(ctx, q, clauses, keep, k, sc.parts())
}

// matchesTop is MatchesTop with the index split in parts.
func (sc *Index) matchesTop(ctx context.Context, q query.Query, clauses []ranking.Clause, keep func(n uint64) bool, k, parts int) (ms []Match, weight float64, err error) {
	if k <= 0 || sc.opts.NoTree {
		return sc.Matches(ctx, q, clauses, keep)
	}
	sctx := sc.scoringContext(ctx)
	tq, err := sc.treeScan(sctx, flat(q))
	if err != nil {
		return nil, 0, fmt.Errorf("search: %w", err)
	}
	var leaves []*treeNode
	if tq != nil {
		leaves = tq.leaves(tq.root, nil)
	}
	if tq == nil || len(leaves) < 2 || len(leaves) > maxTopLeaves || !boundable(leaves) {
		// One term bounds every match alike: nothing to leave out.
		return sc.matches(sctx, q, tq, clauses, keep)
	}
	masks, done, err := sc.masksOf(sctx, clauses)
	if err != nil {
		return nil, 0, err
	}
	defer done()
	ts := &topScan{sc: sc, tq: tq, leaves: leaves, f: ranking.NewFactors(clauses), masks: masks, keep: keep}
	for k := range parts {
		from, to := uint64(len(sc.talks)*k/parts), uint64(len(sc.talks)*(k+1)/parts)
		ts.evals = append(ts.evals, sc.evaluator(sctx, tq, from, to))
	}
	ms, err = ts.run(sctx, k)
	if err != nil {
		// Not kept: a node cut short (a deadline) leaves scores in acc and cnt.
		return nil, 0, fmt.Errorf("search: %w", err)
	}
	for _, e := range ts.evals {
		e.ctx, e.only, e.excluded = nil, nil, nil
		sc.evalPool.Put(e)
	}
	return ms, tq.root.weight, nil
}

// leaves appends the terms, phrases and searchers of n's tree to out,
// numbering them.
func (tq *treeQuery) leaves(n *treeNode, out []*treeNode) []*treeNode {
	switch n.op {
	case opTerm, opPhrase, opSearcher:
		n.leaf = len(out)
		return append(out, n)
	case opDisjunction, opConjunction:
		for _, c := range n.children {
			out = tq.leaves(c, out)
		}
	}
	return out
}

// boundable says whether every term's score has the bound of BM25's
// saturation: a positive query weight.
func boundable(leaves []*treeNode) bool {
	for _, l := range leaves {
		if l.op == opTerm && !(l.qweight > 0 && l.idf >= 0 && !math.IsInf(l.qweight, 0)) {
			return false
		}
	}
	return true
}

// topScan is one MatchesTop.
type topScan struct {
	sc *Index
	tq *treeQuery
	// evals evaluate the parts of the index, in document order.
	evals  []*treeEval
	leaves []*treeNode
	f      *ranking.Factors
	masks  []uint32
	keep   func(n uint64) bool
	// dense and memo are the bound of each set of leaves (treeBound), NaN
	// in dense until computed.
	dense []float64
	memo  map[uint64]float64
}

// run returns the matches, the best k scored.
func (ts *topScan) run(ctx context.Context, k int) ([]Match, error) {
	sc := ts.sc
	err := ts.parallel(func(e *treeEval) error { return e.exclude(ts.tq) })
	if err != nil {
		return nil, err
	}
	var excluded *roaring.Bitmap
	for _, e := range ts.evals {
		if e.excluded != nil {
			if excluded == nil {
				excluded = roaring.New()
			}
			excluded.Or(e.excluded)
		}
	}
	// Each leaf's documents, and its bound: a term's from BM25's
	// saturation; a phrase's or searcher's, read exactly here (their
	// matches need positions or their own searcher), its best score.
	docs := make([]*roaring.Bitmap, len(ts.leaves))
	for i, l := range ts.leaves {
		if l.op != opTerm {
			continue
		}
		or, ok := l.postings.(interface{ OrInto(*roaring.Bitmap) })
		if !ok {
			return nil, fmt.Errorf("postings: a %T is not a bitmap", l.postings)
		}
		docs[i] = roaring.New()
		or.OrInto(docs[i])
		l.bound = l.idf * bsearch.BM25_k1 * l.qweight
	}
	exact := make([][]*scoredDocs, len(ts.evals))
	err = ts.parallel(func(e *treeEval) error {
		for _, l := range ts.leaves {
			if l.op == opTerm {
				continue
			}
			sd := &scoredDocs{}
			err := e.each(l, func(d uint32, s float64) {
				sd.docs = append(sd.docs, d)
				sd.scores = append(sd.scores, s)
			})
			if err != nil {
				return err
			}
			exact[ts.part(e)] = append(exact[ts.part(e)], sd)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	j := 0
	for i, l := range ts.leaves {
		if l.op == opTerm {
			continue
		}
		sd := &scoredDocs{}
		for _, part := range exact {
			sd.docs = append(sd.docs, part[j].docs...)
			sd.scores = append(sd.scores, part[j].scores...)
		}
		j++
		for _, s := range sd.scores {
			l.bound = max(l.bound, s)
		}
		l.exact = sd
		docs[i] = roaring.New()
		docs[i].AddMany(sd.docs)
	}
	for i, l := range ts.leaves {
		l.docs = docs[i]
	}
	all := roaring.FastOr(docs...)
	all.RemoveRange(uint64(len(sc.talks)), math.MaxUint32+1)
	// The deleted and excluded documents have their leaves marked too,
	// and cleared apart.
	gone := roaring.New()
	for _, b := range []*roaring.Bitmap{ts.tq.deleted, excluded} {
		if b != nil {
			gone.Or(roaring.And(all, b))
		}
	}
	all.AndNot(gone)
	// Which leaves each document has, as bits.
	pp, _ := sc.patPool.Get().(*[]uint64)
	if pp == nil || len(*pp) != len(sc.talks) {
		p := make([]uint64, len(sc.talks))
		pp = &p
	}
	pats := *pp
	defer sc.patPool.Put(pp)
	buf := make([]uint32, 256)
	for i, b := range docs {
		bit := uint64(1) << i
		it := b.ManyIterator()
		for n := it.NextMany(buf); n > 0; n = it.NextMany(buf) {
			for _, d := range buf[:n] {
				if int(d) < len(pats) {
					pats[d] |= bit
				}
			}
		}
	}
	if len(ts.leaves) <= maxDenseLeaves {
		ts.dense = make([]float64, 1<<len(ts.leaves))
		for i := range ts.dense {
			ts.dense[i] = math.NaN()
		}
	} else {
		ts.memo = map[uint64]float64{}
	}
	// Every match, its bound for now as its score.
	out := sc.buffer()
	it := all.ManyIterator()
	for n := it.NextMany(buf); n > 0; n = it.NextMany(buf) {
		for _, d := range buf[:n] {
			p := pats[d]
			pats[d] = 0
			if !sc.isTalk(uint64(d), ts.keep) {
				continue
			}
			bound := ts.bound(p)
			if bound < 0 {
				continue // the tree does not match it
			}
			var mask uint32
			if ts.masks != nil {
				mask = ts.masks[d]
			}
			factor := ts.f.Of(mask, sc.damping[d])
			out = append(out, Match{Num: uint64(d), Score: bound * factor * boundSlack, Factor: factor})
		}
	}
	for it := gone.Iterator(); it.HasNext(); {
		pats[it.Next()] = 0
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	bp, _ := sc.boundPool.Get().(*[]float64)
	if bp == nil {
		bp = new([]float64)
	}
	defer sc.boundPool.Put(bp)
	bounds := slices.Grow((*bp)[:0], len(out))[:len(out)]
	*bp = bounds
	for i, m := range out {
		bounds[i] = m.Score
		out[i].Score = Unscored
	}
	// The talks of the highest bounds, at least k of them, scored first.
	first := firstCut(bounds, k)
	var cands []int
	for i, b := range bounds {
		if b >= first {
			cands = append(cands, i)
		}
	}
	if err := ts.score(out, cands); err != nil {
		return nil, err
	}
	if len(cands) < len(out) {
		// The k-th best score of them: a match bounded below it is
		// below k scored ones.
		scores := make([]float64, 0, len(cands))
		for _, i := range cands {
			scores = append(scores, out[i].Score)
		}
		slices.Sort(scores)
		threshold := scores[len(scores)-min(k, len(scores))]
		cands = cands[:0]
		for i, b := range bounds {
			if out[i].Score == Unscored && b >= threshold {
				cands = append(cands, i)
			}
		}
		if err := ts.score(out, cands); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// firstCut is a bound with at least k of bounds at or above it, or all
// when there are not k: the one of the highest bounds within a 64th of an
// octave (a histogram of their float bits, not a sort of them).
func firstCut(bounds []float64, k int) float64 {
	if len(bounds) <= k {
		return math.Inf(-1)
	}
	top := math.Inf(-1)
	for _, b := range bounds {
		top = max(top, b)
	}
	if !(top > 0) {
		return math.Inf(-1)
	}
	tb := math.Float64bits(top)
	const buckets = 1024
	var hist [buckets]int
	bucket := func(b float64) int {
		if !(b > 0) {
			return buckets - 1
		}
		return int(min((tb-math.Float64bits(b))>>46, buckets-1))
	}
	for _, b := range bounds {
		hist[bucket(b)]++
	}
	sum := 0
	for i, c := range hist {
		sum += c
		if sum >= k {
			if i == buckets-1 || uint64(i+1)<<46 > tb {
				return math.Inf(-1)
			}
			// The smallest bound in bucket i.
			return math.Float64frombits(tb - (uint64(i+1)<<46 - 1))
		}
	}
	return math.Inf(-1)
}

// bound is the most the tree scores a document with the leaves of p (bit
// i: leaf i), or -1 when the tree does not match it.
func (ts *topScan) bound(p uint64) float64 {
	if ts.dense != nil {
		if b := ts.dense[p]; !math.IsNaN(b) {
			return b
		}
	} else if b, ok := ts.memo[p]; ok {
		return b
	}
	b, ok := treeBound(ts.tq.root, p)
	if !ok {
		b = -1
	}
	if ts.dense != nil {
		ts.dense[p] = b
	} else {
		ts.memo[p] = b
	}
	return b
}

// treeBound is the most n scores a document with the leaves of p, as
// eval combines scores, and whether n matches it.
func treeBound(n *treeNode, p uint64) (float64, bool) {
	switch n.op {
	case opTerm, opPhrase, opSearcher:
		return n.bound, p&(1<<n.leaf) != 0
	case opDisjunction, opConjunction:
	default:
		return 0, false
	}
	if len(n.children) == 1 {
		return treeBound(n.children[0], p)
	}
	var sum float64
	matched := 0
	for _, c := range n.children {
		b, ok := treeBound(c, p)
		if ok {
			sum += b
			matched++
		} else if n.op == opConjunction {
			return 0, false
		}
	}
	if matched == 0 {
		return 0, false
	}
	if n.op == opDisjunction {
		sum *= float64(matched) / float64(len(n.children))
	}
	return sum, true
}

// score gives the matches of out at cands (in document order) their
// scores, the tree scan's restricted to them, each part of the index
// scored on its own goroutine.
func (ts *topScan) score(out []Match, cands []int) error {
	if len(cands) == 0 {
		return nil
	}
	return ts.parallel(func(e *treeEval) error {
		lo, _ := slices.BinarySearchFunc(cands, e.from, func(i int, n uint64) int { return cmp.Compare(out[i].Num, n) })
		hi, _ := slices.BinarySearchFunc(cands, e.to, func(i int, n uint64) int { return cmp.Compare(out[i].Num, n) })
		mine := cands[lo:hi]
		if len(mine) == 0 {
			return nil
		}
		only := roaring.New()
		for _, i := range mine {
			only.Add(uint32(out[i].Num))
		}
		e.only = only
		defer func() { e.only = nil }()
		l, err := e.eval(ts.tq.root)
		if err != nil {
			return err
		}
		defer e.release(l)
		if len(l.docs) != len(mine) {
			return fmt.Errorf("top matches: %d of %d candidates scored", len(l.docs), len(mine))
		}
		for j, d := range l.docs {
			k, found := slices.BinarySearchFunc(mine, uint64(d), func(i int, n uint64) int { return cmp.Compare(out[i].Num, n) })
			if !found {
				return fmt.Errorf("top matches: document %d scored but not a candidate", d)
			}
			i := mine[k]
			out[i].Score = l.scores[j] * out[i].Factor
		}
		return nil
	})
}

// parallel runs do with the evaluator of each part of the index, each on
// its own goroutine when there are several.
func (ts *topScan) parallel(do func(e *treeEval) error) error {
	if len(ts.evals) == 1 {
		return do(ts.evals[0])
	}
	errs := make([]error, len(ts.evals))
	var wg sync.WaitGroup
	for k, e := range ts.evals {
		wg.Go(func() { errs[k] = do(e) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// part is the number of e among ts's evaluators.
func (ts *topScan) part(e *treeEval) int { return slices.Index(ts.evals, e) }

// eachOnly is each for a scan restricted to e.only: a term's postings are
// read at the candidates it has only, a phrase's or searcher's matches
// are those read before.
func (e *treeEval) eachOnly(n *treeNode, at func(d uint32, score float64)) error {
	if n.exact != nil {
		sd := n.exact
		for i, d := range sd.docs {
			if e.only.Contains(d) {
				at(d, sd.scores[i])
			}
		}
		return nil
	}
	if n.op != opTerm || n.docs == nil {
		return fmt.Errorf("top matches: a %d node without its documents", n.op)
	}
	cands := roaring.And(e.only, n.docs)
	it := n.postings.Iterator(true, true, false, nil)
	ci := cands.Iterator()
	for ci.HasNext() {
		d := uint64(ci.Next())
		p, err := seek(it, n.chunk, d)
		if err != nil {
			return fmt.Errorf("postings: %w", err)
		}
		if p == nil || p.Number() != d {
			return fmt.Errorf("postings: document %d is not in a term's postings", d)
		}
		at(uint32(d), e.score(n, p))
	}
	return nil
}

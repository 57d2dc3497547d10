package scan

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/scorer"
	bleveidx "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	zap "github.com/blevesearch/zapx/v17"
	"github.com/talksearch/talksearch/search/ranking"
)

// A scan of a large corpus reads every match of its query, and Bleve's
// searchers pass each match up a tree of searchers: a pooled match per
// term and level, the disjunctions' merges, a scorer call apiece, which
// for a query matching most of the corpus (`pytorch`) costs more than
// reading the postings themselves. A query made of
// conjunctions, disjunctions, terms and phrases is evaluated here a term
// at a time instead: each term's postings are read straight from the
// index's one segment and added into a score per document, and each
// conjunction and disjunction combines its clauses' scores by document
// number. A phrase's candidates are the talks in all of its terms'
// postings bitmaps, and positions are read at those talks only. The
// scores are Bleve's, to the bit: the same BM25 of each term (the
// TermQueryScorer's formula and query weight), the same query norm, a
// disjunction's sum times the share of its clauses matched, a
// conjunction's sum, each summed in the order Bleve's searchers sum their
// clauses (sorted by count). A clause of another kind (a fuzzy phrase) is
// read through its Bleve searcher as a term is through its postings.
// TestTreeScanIsBlevesScan and FuzzTreeScan hold the matches, scores and
// weight to Bleve's.

type treeOp uint8

const (
	opNone treeOp = iota
	opTerm
	opSearcher
	opPhrase
	opDisjunction
	opConjunction
	// opFields is a word's clause over its fields (Fields): a
	// disjunction scored by ranking.CombineFields.
	opFields
	// opConcepts is the clause of a query's concepts (Concepts): a
	// disjunction scored by ranking.Balance.
	opConcepts
)

// treeNode is one searcher of a compiled query: what Bleve would build
// for it, reduced to what scoring needs.
type treeNode struct {
	op treeOp
	// children are in the order Bleve's searcher sums them.
	children []*treeNode
	// count is Bleve's Count() of the searcher, which orders its parent's
	// clauses; weight is its Weight(), the sum of squared term weights.
	count  uint64
	weight float64

	// opTerm
	postings segment.PostingsList
	chunk    uint64 // postingsChunk, for seek
	idf      float64
	avgLen   float64
	boost    float64
	qweight  float64 // boost × idf × query norm, as SetQueryNorm makes it

	// opSearcher
	q query.Query

	// opPhrase: the phrase's terms in its order, and the position of
	// each in the phrase (gaps between them); its children are the same
	// terms in the order the phrase's conjunction sums them, sumOrder
	// their indices in slots.
	slots    []*treeNode
	offsets  []uint64
	sumOrder []int
	// known is what a phrase of the thesaurus matches (knownPhrases).
	known *knownPhrase
}

// treeQuery is a query compiled for a tree scan.
type treeQuery struct {
	root *treeNode
	// not matches the documents to leave out (a Boolean query's must-not
	// clauses); nil for none.
	not  *treeNode
	norm float64
	// deleted are the segment's deleted documents.
	deleted *roaring.Bitmap
}

// maxTreeClauses bounds a disjunction the tree scan evaluates: Bleve sums
// more than DisjunctionHeapTakeover clauses in the order of its heap, not
// of their counts, and a match's clauses are counted in a uint16.
const maxTreeClauses = 10

// treeScan compiles q for a tree scan of sc's index, or returns nil when q
// is not one: another reader than one zap segment, a query kind or a
// scoring model this does not score as Bleve does.
func (sc *Index) treeScan(ctx context.Context, q query.Query) (*treeQuery, error) {
	c, ok := sc.treeCompiler(ctx)
	if !ok {
		return nil, nil
	}
	tq := &treeQuery{deleted: c.deleted}
	must := q
	if b, ok := q.(*query.BooleanQuery); ok {
		if b.Should != nil || b.Must == nil || b.Filter != nil {
			return nil, nil
		}
		must = b.Must
		if b.MustNot != nil {
			not, err := c.node(b.MustNot)
			if err != nil || not == nil {
				return nil, err
			}
			if not.op != opNone {
				tq.not = not
			}
		}
	}
	root, err := c.node(must)
	if err != nil || root == nil {
		return nil, err
	}
	if root.op != opDisjunction && root.op != opConjunction {
		// A lone term is scored without a query norm, which no query
		// of a plan is.
		return nil, nil
	}
	tq.root = root
	// The root searcher's norm, which it tells every searcher below.
	tq.norm = 1.0 / math.Sqrt(root.weight)
	tq.setNorm(root)
	return tq, nil
}

func (tq *treeQuery) setNorm(n *treeNode) {
	if n.op == opTerm {
		n.qweight = n.boost * n.idf * tq.norm
	}
	for _, c := range n.children {
		tq.setNorm(c)
	}
}

// treeCompiler returns a compiler of queries for tree scans of sc's index
// with the BM25 statistics of ctx, or false where there is no tree scan:
// another reader than one zap segment, another scoring model.
func (sc *Index) treeCompiler(ctx context.Context) (*treeCompiler, bool) {
	stats, ok := ctx.Value(bsearch.BM25StatsKey).(*bsearch.BM25Stats)
	if !ok || sc.scoring != bleveidx.BM25Scoring {
		return nil, false
	}
	snap, ok := sc.reader.(*scorch.IndexSnapshot)
	if !ok || len(snap.Segments()) != 1 {
		return nil, false
	}
	seg := snap.Segments()[0]
	return &treeCompiler{segmentPostings: newSegmentPostings(seg.Segment()), ctx: ctx, sc: sc, deleted: seg.Deleted(), stats: stats}, true
}

type treeCompiler struct {
	segmentPostings
	ctx     context.Context
	sc      *Index
	deleted *roaring.Bitmap
	stats   *bsearch.BM25Stats
}

// node compiles q, or returns nil when the tree scan cannot score it.
func (c *treeCompiler) node(q query.Query) (*treeNode, error) {
	switch q := q.(type) {
	case *query.MatchNoneQuery:
		return &treeNode{op: opNone}, nil
	case *query.TermQuery:
		if q.FieldVal == "" {
			return nil, nil
		}
		return c.term(q.FieldVal, q.Term, q.BoostVal.Value())
	case *query.DisjunctionQuery:
		if q.Min > 1 || len(q.Disjuncts) > maxTreeClauses {
			return nil, nil
		}
		return c.composite(opDisjunction, q.Disjuncts)
	case *query.ConjunctionQuery:
		return c.composite(opConjunction, q.Conjuncts)
	case Fields:
		if q.Min > 1 || len(q.Disjuncts) > maxTreeClauses {
			return nil, nil
		}
		return c.composite(opFields, q.Disjuncts)
	case Concepts:
		if q.Min > 1 || len(q.Disjuncts) > maxTreeClauses {
			return nil, nil
		}
		return c.composite(opConcepts, q.Disjuncts)
	case Phrase:
		if n, err := c.phrase(q); err != nil || n != nil {
			return n, err
		}
	}
	// Any other clause through its Bleve searcher.
	return c.searcherNode(q)
}

// phrase compiles a phrase of one term or a gap (any word) at each
// position, as the text phrase's searcher scores it: the conjunction of
// its terms (each with the phrase's boost), of the talks with the terms in
// a row. Other phrases (alternatives, fuzziness) are nil.
func (c *treeCompiler) phrase(q Phrase) (*treeNode, error) {
	if q.Fuzziness != 0 || q.FieldVal == "" {
		return nil, nil
	}
	n := &treeNode{op: opPhrase}
	for i, alts := range trimLeadingGaps(q.Terms) {
		if isGap(alts) {
			continue // any one word
		}
		if len(alts) != 1 {
			return nil, nil
		}
		t, err := c.term(q.FieldVal, alts[0], q.BoostVal.Value())
		if err != nil || t == nil {
			return nil, err
		}
		n.slots = append(n.slots, t)
		n.offsets = append(n.offsets, uint64(i))
	}
	if len(n.slots) < 2 {
		return nil, nil
	}
	n.known = c.sc.phrases[phraseKey(q)]
	n.children = slices.Clone(n.slots)
	sort.Sort(byCount(n.children))
	for _, ch := range n.children {
		n.count += ch.count
		n.weight += ch.weight
		n.sumOrder = append(n.sumOrder, slices.Index(n.slots, ch))
	}
	return n, nil
}

func (c *treeCompiler) composite(op treeOp, qs []query.Query) (*treeNode, error) {
	n := &treeNode{op: op}
	for _, q := range qs {
		ch, err := c.node(q)
		if err != nil || ch == nil {
			return nil, err
		}
		n.children = append(n.children, ch)
	}
	if len(n.children) == 0 {
		return &treeNode{op: opNone}, nil
	}
	// Bleve's searchers sort their clauses by count (sort.Sort of an
	// OrderedSearcherList), then sum weights and scores in that order.
	sort.Sort(byCount(n.children))
	for _, ch := range n.children {
		n.count += ch.count
		n.weight += ch.weight
	}
	return n, nil
}

type byCount []*treeNode

func (b byCount) Len() int           { return len(b) }
func (b byCount) Less(i, j int) bool { return b[i].count < b[j].count }
func (b byCount) Swap(i, j int)      { b[i], b[j] = b[j], b[i] }

// term compiles a term of a field as NewTermSearcher scores it with BM25
// statistics from the context (searcher.bm25ScoreMetrics).
func (c *treeCompiler) term(field, term string, boost float64) (*treeNode, error) {
	card, ok := c.stats.FieldCardinality[field]
	if !ok {
		return nil, nil // Bleve's error, which a Bleve scan reports
	}
	count := uint64(c.stats.DocCount)
	if count == 0 && card == 0 {
		return nil, nil // tf-idf: not scored here
	}
	avg := math.Ceil(float64(card) / float64(count))
	if !(avg > 0) {
		return nil, nil
	}
	pl, err := c.postings(field, []byte(term), c.deleted)
	if err != nil {
		return nil, err
	}
	docTerm := pl.Count()
	// scorer.TermQueryScorer.computeIDF, BM25.
	idf := math.Log(1 + (float64(count)-float64(docTerm)+0.5)/(float64(docTerm)+0.5))
	w := boost * idf
	return &treeNode{op: opTerm, postings: pl, chunk: postingsChunk(c.seg, pl, c.deleted), idf: idf, avgLen: avg, boost: boost, count: docTerm, weight: w * w}, nil
}

// searcherNode is a clause read through its Bleve searcher. Its count and
// weight are the searcher's; each part of a scan makes its own.
func (c *treeCompiler) searcherNode(q query.Query) (*treeNode, error) {
	s, err := q.Searcher(c.ctx, c.sc.reader, c.sc.mapping, bsearch.SearcherOptions{})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return &treeNode{op: opSearcher, q: q, count: s.Count(), weight: s.Weight()}, nil
}

// treeEval evaluates a tree query over the documents numbered from..to of
// one part of a scan. Not safe for concurrent use: one per part.
type treeEval struct {
	ctx      context.Context
	sc       *Index
	norm     float64
	deleted  *roaring.Bitmap
	from, to uint64
	// acc and cnt are the score and clauses matched of each document of
	// the part (index: number - from), zero outside a node's evaluation.
	acc []float64
	cnt []uint16
	// sq is the sum of the squared scores of a clause of concepts'
	// clauses, by document as acc.
	sq []float64
	// free holds lists to reuse.
	free []*scoredDocs
	// lengths are fieldLength's, by length in tokens; 0 where not known.
	lengths []float64
	// excluded are the documents the query leaves out (its must-not
	// clauses) while its clauses are evaluated; nil for none.
	excluded *roaring.Bitmap
}

// scoredDocs are documents with their scores.
type scoredDocs struct {
	docs   []uint32
	scores []float64
}

func (e *treeEval) list() *scoredDocs {
	if n := len(e.free); n > 0 {
		l := e.free[n-1]
		e.free = e.free[:n-1]
		l.docs, l.scores = l.docs[:0], l.scores[:0]
		return l
	}
	return &scoredDocs{}
}

func (e *treeEval) release(l *scoredDocs) { e.free = append(e.free, l) }

// run evaluates tq and calls emit with each matching document and its
// score, in no particular order.
func (e *treeEval) run(tq *treeQuery, emit func(n uint64, score float64)) error {
	size := int(e.to - e.from)
	if cap(e.acc) < size {
		e.acc = make([]float64, size)
		e.cnt = make([]uint16, size)
	}
	e.acc, e.cnt = e.acc[:size], e.cnt[:size]

	var excluded *roaring.Bitmap
	if tq.not != nil {
		var err error
		if excluded, err = e.matching(tq.not); err != nil {
			return err
		}
		// No score of an excluded document is read: phrases leave
		// them out of their candidates.
		e.excluded = excluded
		defer func() { e.excluded = nil }()
	}
	l, err := e.eval(tq.root)
	if err != nil {
		return err
	}
	defer e.release(l)
	for i, d := range l.docs {
		if excluded != nil && excluded.Contains(d) {
			continue
		}
		emit(uint64(d), l.scores[i])
	}
	return nil
}

// matching returns the documents of the part that n matches, for a
// must-not clause, whose scores nothing reads: a term's postings bitmap, a
// disjunction's union, a conjunction's intersection, any other clause
// evaluated.
func (e *treeEval) matching(n *treeNode) (*roaring.Bitmap, error) {
	switch n.op {
	case opNone:
		return roaring.New(), nil
	case opTerm:
		if or, ok := n.postings.(interface{ OrInto(*roaring.Bitmap) }); ok {
			b := roaring.New()
			or.OrInto(b)
			b.RemoveRange(0, e.from)
			b.RemoveRange(e.to, math.MaxUint32+1)
			return b, nil
		}
	case opDisjunction, opConjunction, opFields, opConcepts:
		var out *roaring.Bitmap
		for _, ch := range n.children {
			b, err := e.matching(ch)
			if err != nil {
				return nil, err
			}
			switch {
			case out == nil:
				out = b
			case n.op != opConjunction:
				out.Or(b)
			default:
				out.And(b)
			}
		}
		if out == nil {
			out = roaring.New()
		}
		return out, nil
	}
	l, err := e.eval(n)
	if err != nil {
		return nil, err
	}
	defer e.release(l)
	b := roaring.New()
	b.AddMany(l.docs)
	return b, nil
}

// eval returns the documents of the part that n matches, with n's score.
func (e *treeEval) eval(n *treeNode) (*scoredDocs, error) {
	if err := e.ctx.Err(); err != nil {
		return nil, err
	}
	switch n.op {
	case opNone:
		return e.list(), nil
	case opTerm, opSearcher, opPhrase:
		out := e.list()
		err := e.each(n, func(d uint32, s float64) {
			out.docs = append(out.docs, d)
			out.scores = append(out.scores, s)
		})
		return out, err
	}
	if len(n.children) == 1 {
		// Bleve's score of one clause is the clause's: 0 + s, or s × 1/1.
		return e.eval(n.children[0])
	}
	// The composite clauses first: they use acc and cnt themselves. A
	// clause of concepts sums its clauses' squares too: each of them
	// through a list.
	concepts := n.op == opConcepts
	if concepts && len(e.sq) != len(e.acc) {
		e.sq = make([]float64, len(e.acc))
	}
	lists := make([]*scoredDocs, len(n.children))
	for i, ch := range n.children {
		if concepts || ch.op == opDisjunction || ch.op == opConjunction || ch.op == opFields || ch.op == opConcepts {
			l, err := e.eval(ch)
			if err != nil {
				return nil, err
			}
			lists[i] = l
		}
	}
	out := e.list()
	fields := n.op == opFields
	add := func(d uint32, s float64) {
		k := d - uint32(e.from)
		if e.cnt[k] == 0 {
			out.docs = append(out.docs, d)
		}
		e.acc[k] += s
		e.cnt[k]++
		if concepts {
			e.sq[k] += s * s
		}
	}
	for i, ch := range n.children {
		if ch.op == opNone {
			continue
		}
		if l := lists[i]; l != nil {
			for j, d := range l.docs {
				add(d, l.scores[j])
			}
			e.release(l)
			continue
		}
		if ch.op == opTerm {
			if err := e.sumTerm(ch, out, add); err != nil {
				return nil, err
			}
			continue
		}
		if err := e.each(ch, add); err != nil {
			return nil, err
		}
	}
	// Each match's score as Bleve's scorers combine its clauses'.
	total := uint16(len(n.children))
	keep := out.docs[:0]
	for _, d := range out.docs {
		k := d - uint32(e.from)
		sum, c := e.acc[k], e.cnt[k]
		e.acc[k], e.cnt[k] = 0, 0
		switch {
		case fields:
			sum = ranking.CombineFields(sum, int(c), int(total))
		case concepts:
			sum = ranking.Balance(sum, e.sq[k], int(c), int(total))
			e.sq[k] = 0
		case n.op == opDisjunction:
			sum *= float64(c) / float64(total)
		case c < total:
			continue // a conjunction the document does not match whole
		}
		keep = append(keep, d)
		out.scores = append(out.scores, sum)
	}
	out.docs = keep
	return out, nil
}

// each calls at with every document of the part that the term or
// searcher n matches, in document order, with its score.
func (e *treeEval) each(n *treeNode, at func(d uint32, score float64)) error {
	if err := e.ctx.Err(); err != nil {
		return err
	}
	switch n.op {
	case opSearcher:
		return e.eachOfSearcher(n, at)
	case opPhrase:
		return e.eachOfPhrase(n, at)
	}
	it, p, err := e.postings(n)
	for ; err == nil && p != nil; p, err = it.Next() {
		d := p.Number()
		if d >= e.to {
			return nil
		}
		at(uint32(d), e.score(n, p))
	}
	if err != nil {
		return fmt.Errorf("postings: %w", err)
	}
	return nil
}

// postings returns an iterator of term n's postings and its first posting
// in the part.
func (e *treeEval) postings(n *treeNode) (segment.PostingsIterator, segment.Posting, error) {
	it := n.postings.Iterator(true, true, false, nil)
	if e.from > 0 {
		p, err := seek(it, n.chunk, e.from)
		return it, p, err
	}
	p, err := it.Next()
	return it, p, err
}

// sumTerm is each(n, add) for eval's add of term n's postings to the
// sums of a composite clause: the documents no clause had matched before
// appended to out, the score added to the document's sum in acc, the
// clause counted in cnt. It reads a zap segment's postings without a call
// through a function value or an interface per posting: a disjunction's
// sums are most of what a query matching much of a large corpus costs.
func (e *treeEval) sumTerm(n *treeNode, out *scoredDocs, add func(d uint32, s float64)) error {
	if err := e.ctx.Err(); err != nil {
		return err
	}
	it, p, err := e.postings(n)
	zi, ok := it.(*zap.PostingsIterator)
	if !ok {
		return e.each(n, add)
	}
	from, to := e.from, e.to
	acc, cnt := e.acc, e.cnt
	for ; err == nil && p != nil; p, err = zi.Next() {
		zp, ok := p.(*zap.Posting)
		if !ok {
			return fmt.Errorf("postings: a %T in a zap segment", p)
		}
		d := zp.Number()
		if d >= to {
			return nil
		}
		k := d - from
		if cnt[k] == 0 {
			out.docs = append(out.docs, uint32(d))
		}
		acc[k] += n.bm25(zp.Frequency(), e.fieldLength(zp))
		cnt[k]++
	}
	if err != nil {
		return fmt.Errorf("postings: %w", err)
	}
	return nil
}

// score is the BM25 score of term n's posting p, as
// scorer.TermQueryScorer's Score and docScore compute it.
func (e *treeEval) score(n *treeNode, p segment.Posting) float64 {
	return n.bm25(p.Frequency(), e.fieldLength(p))
}

// bm25 is term n's score in a field of fieldLength where it stands freq
// times.
func (n *treeNode) bm25(freq uint64, fieldLength float64) float64 {
	k1, b := bsearch.BM25_k1, bsearch.BM25_b
	var tf float64
	if freq < scorer.MaxSqrtCache {
		tf = scorer.SqrtCache[int(freq)]
	} else {
		tf = math.Sqrt(float64(freq))
	}
	score := n.idf * (tf * k1) / (tf + k1*(1-b+(b*fieldLength/n.avgLen)))
	if n.qweight != 1.0 {
		score = score * n.qweight
	}
	return score
}

// maxFieldLength bounds the field lengths a treeEval keeps.
const maxFieldLength = 1 << 14

// fieldLength is 1/(norm×norm) of p's norm, the field's length as
// TermQueryScorer reads it back. zap keeps the length in tokens and its
// Norm takes a square root and a division of it per posting, a large part
// of scoring one; a field has few lengths, so e computes each once, from
// zap's Norm of the first posting of that length.
func (e *treeEval) fieldLength(p segment.Posting) float64 {
	zp, ok := p.(*zap.Posting)
	if !ok {
		norm := p.Norm()
		return 1 / (norm * norm)
	}
	l := zp.NormUint64()
	if l < uint64(len(e.lengths)) && e.lengths[l] != 0 {
		return e.lengths[l]
	}
	norm := p.Norm()
	v := 1 / (norm * norm)
	if l < maxFieldLength {
		if l >= uint64(len(e.lengths)) {
			e.lengths = slices.Grow(e.lengths, int(l)+1-len(e.lengths))[:l+1]
		}
		e.lengths[l] = v
	}
	return v
}

// eachOfPhrase calls at with every document of the part that has phrase
// n's terms in a row, and its score. A phrase of the thesaurus has its
// talks and their terms' frequencies and field lengths known
// (knownPhrases), and reads no postings.
func (e *treeEval) eachOfPhrase(n *treeNode, at func(d uint32, score float64)) error {
	if k := n.known; k != nil {
		slots := len(n.slots)
		from, _ := slices.BinarySearch(k.docs, uint32(e.from))
		for j := from; j < len(k.docs) && uint64(k.docs[j]) < e.to; j++ {
			d := k.docs[j]
			if e.excluded != nil && e.excluded.Contains(d) {
				continue
			}
			// The conjunction's sum, in its order of the terms.
			var sum float64
			for _, i := range n.sumOrder {
				sum += n.slots[i].bm25(uint64(k.freqs[j*slots+i]), k.lengths[j*slots+i])
			}
			at(d, sum)
		}
		return nil
	}
	return e.phraseDocs(n, func(d uint32, ps []segment.Posting) {
		var sum float64
		for _, i := range n.sumOrder {
			sum += e.score(n.slots[i], ps[i])
		}
		at(d, sum)
	})
}

// phraseDocs calls at with every document of the part that has phrase n's
// terms in a row, and each term's posting there. The candidates, the talks
// with every term, are the intersection of the terms' postings bitmaps,
// and each term's postings are read with their positions at the
// candidates only: Bleve's conjunction read every posting of each term
// with its positions.
func (e *treeEval) phraseDocs(n *treeNode, at func(d uint32, ps []segment.Posting)) error {
	var cands *roaring.Bitmap
	for _, t := range n.slots {
		or, ok := t.postings.(interface{ OrInto(*roaring.Bitmap) })
		if !ok {
			return fmt.Errorf("phrase postings: a %T is not a bitmap", t.postings)
		}
		b := roaring.New()
		or.OrInto(b)
		if cands == nil {
			cands = b
		} else {
			cands.And(b)
		}
	}
	if e.deleted != nil {
		cands.AndNot(e.deleted)
	}
	if e.excluded != nil {
		cands.AndNot(e.excluded)
	}
	cands.RemoveRange(0, e.from)
	cands.RemoveRange(e.to, math.MaxUint32+1)
	its := make([]segment.PostingsIterator, len(n.slots))
	for i, t := range n.slots {
		its[i] = t.postings.Iterator(true, true, true, nil)
	}
	ps := make([]segment.Posting, len(n.slots))
	it := cands.Iterator()
next:
	for it.HasNext() {
		d := uint64(it.Next())
		for i, pi := range its {
			p, err := seek(pi, n.slots[i].chunk, d)
			if err != nil {
				return fmt.Errorf("phrase postings: %w", err)
			}
			if p == nil || p.Number() != d {
				return fmt.Errorf("phrase postings: document %d is not in a term's postings", d)
			}
			ps[i] = p
			// A talk whose first terms are not in a row needs no
			// positions of the others: their next seeks skip it,
			// reading no positions on the way.
			if i > 0 && !inARow(ps[:i+1], n.offsets[:i+1]) {
				continue next
			}
		}
		at(uint32(d), ps)
	}
	return nil
}

// inARow says whether the postings' terms stand at their offsets in the
// phrase from a position of the first, in one value of the field
// (phrasePaths without alternatives).
func inARow(ps []segment.Posting, offsets []uint64) bool {
next:
	for _, first := range ps[0].Locations() {
		for i, p := range ps[1:] {
			want := first.Pos() + offsets[i+1]
			found := false
			for _, l := range p.Locations() {
				if l.Pos() == want && slices.Equal(l.ArrayPositions(), first.ArrayPositions()) {
					found = true
					break
				}
			}
			if !found {
				continue next
			}
		}
		return true
	}
	return false
}

func (e *treeEval) eachOfSearcher(n *treeNode, at func(d uint32, score float64)) error {
	s, err := n.q.Searcher(e.ctx, e.sc.reader, e.sc.mapping, bsearch.SearcherOptions{})
	if err != nil {
		return err
	}
	defer s.Close()
	s.SetQueryNorm(e.norm)
	sctx := &bsearch.SearchContext{
		DocumentMatchPool: bsearch.NewDocumentMatchPool(s.DocumentMatchPoolSize(), 0),
		IndexReader:       e.sc.reader,
	}
	var dm *bsearch.DocumentMatch
	if e.from > 0 {
		first := make(bleveidx.IndexInternalID, 8)
		binary.BigEndian.PutUint64(first, e.from)
		dm, err = s.Advance(sctx, first)
	} else {
		dm, err = s.Next(sctx)
	}
	for ; err == nil && dm != nil; dm, err = s.Next(sctx) {
		d, _ := docNumber(dm.IndexInternalID)
		if d >= e.to {
			return nil
		}
		at(uint32(d), dm.Score)
		sctx.DocumentMatchPool.Put(dm)
	}
	return err
}

// treePart is scanPart for a tree query: it appends to out the matches of
// tq among documents numbered from to to (exclusive).
func (sc *Index) treePart(ctx context.Context, tq *treeQuery, clauses []ranking.Clause, masks []uint32, keep func(n uint64) bool, from, to uint64, out []Match) ([]Match, float64, error) {
	to = min(to, uint64(len(sc.talks)))
	e, _ := sc.evalPool.Get().(*treeEval)
	if e == nil {
		e = &treeEval{sc: sc}
	}
	e.ctx, e.norm, e.deleted, e.from, e.to = ctx, tq.norm, tq.deleted, from, to
	f := ranking.NewFactors(clauses)
	err := e.run(tq, func(n uint64, score float64) {
		out = sc.appendMatch(out, n, score, f, masks, keep)
	})
	if err != nil {
		// Not kept: a node stopped midway (a request's deadline) leaves
		// its scores and counts in acc and cnt.
		return nil, 0, fmt.Errorf("search: %w", err)
	}
	e.ctx = nil
	sc.evalPool.Put(e)
	return out, tq.root.weight, nil
}

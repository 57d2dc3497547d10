package scan

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	bleveidx "github.com/blevesearch/bleve_index_api"
	"github.com/talksearch/talksearch/search/ranking"
)

// The fast path answers what Bleve's own searchers answer, to the bit. The
// checks here hold it to them for any query, on any index: the engine's
// tests run them over the plans of every judged, bench, hostile and title
// query on the seeds, a synthetic corpus made from them and, where it is
// at hand, the FOSDEM archive. Each returns what it compared and an error
// naming the first difference.

// Verified counts what a check compared.
type Verified struct {
	// Trees are the queries the fast path evaluated itself; Phrases and
	// Known the phrases among their clauses, and those whose talks were
	// known beforehand (KnowPhrases).
	Trees, Phrases, Known int
	// Matches are the talks compared.
	Matches int
}

// VerifyTree compares the tree scan of q, where the fast path takes it,
// with Bleve's searchers over the same reader, in one part and in three:
// the same talks, the same scores to the bit and the same weight. ctx
// carries the BM25 statistics of the searches.
func (sc *Index) VerifyTree(ctx context.Context, q query.Query) (Verified, error) {
	var v Verified
	ctx = sc.scoringContext(ctx)
	tq, err := sc.treeScan(ctx, flat(q))
	if err != nil || tq == nil {
		return v, err
	}
	v.Trees = 1
	v.Phrases = countNodes(tq.root, func(n *treeNode) bool { return n.op == opPhrase })
	v.Known = countNodes(tq.root, func(n *treeNode) bool { return n.known != nil })
	n := uint64(len(sc.talks))
	want, wantW, err := sc.scanPart(ctx, q, nil, nil, nil, 0, n, nil)
	if err != nil {
		return v, err
	}
	for _, cuts := range [][]uint64{{0, n}, {0, n / 3, n / 2, n}} {
		var got []Match
		var gotW float64
		for i := 0; i+1 < len(cuts); i++ {
			part, w, err := sc.treePart(ctx, tq, nil, nil, nil, cuts[i], cuts[i+1], nil)
			if err != nil {
				return v, err
			}
			got, gotW = append(got, part...), w
		}
		if a, b := matchLines(got), matchLines(want); a != b || gotW != wantW {
			return v, fmt.Errorf("%d parts: tree scan, weight %v\n%s\nBleve's, weight %v\n%s", len(cuts)-1, gotW, a, wantW, b)
		}
	}
	v.Matches = len(want)
	return v, nil
}

// VerifyStopped stops a tree scan of q at each of its first nodes (a
// request's deadline) and checks that the next scan, which may reuse the
// evaluator the stopped one left, still finds Bleve's talks and scores. It
// returns how many of the scans stopped.
func (sc *Index) VerifyStopped(ctx context.Context, q query.Query, nodes int) (int, error) {
	ctx = sc.scoringContext(ctx)
	tq, err := sc.treeScan(ctx, flat(q))
	if err != nil || tq == nil {
		return 0, fmt.Errorf("no tree scan (%v)", err)
	}
	n := uint64(len(sc.talks))
	want, _, err := sc.scanPart(ctx, q, nil, nil, nil, 0, n, nil)
	if err != nil {
		return 0, err
	}
	stopped := 0
	for after := range nodes {
		if _, _, err := sc.treePart(&cancelledAfter{ctx, after}, tq, nil, nil, nil, 0, n, nil); err != nil {
			if !errors.Is(err, context.Canceled) {
				return stopped, fmt.Errorf("stopped after %d nodes: %w", after, err)
			}
			stopped++
		}
		got, _, err := sc.treePart(ctx, tq, nil, nil, nil, 0, n, nil)
		if err != nil {
			return stopped, err
		}
		if a, b := matchLines(got), matchLines(want); a != b {
			return stopped, fmt.Errorf("after a scan stopped at node %d: tree scan\n%s\nBleve's\n%s", after+1, a, b)
		}
	}
	return stopped, nil
}

// cancelledAfter is a context whose Err is nil for its first n calls and
// Canceled after: a scan stopped at the n+1st node it enters.
type cancelledAfter struct {
	context.Context
	n int
}

func (c *cancelledAfter) Err() error {
	if c.n--; c.n < 0 {
		return context.Canceled
	}
	return nil
}

// VerifyFlat compares the searcher of flat(q) with q's, with and without
// term vectors: the same talks, scores to the bit, weight and matched
// words. It says whether flat changed q, and how many matches it compared.
func (sc *Index) VerifyFlat(ctx context.Context, q query.Query) (flattened bool, matches int, err error) {
	fq := flat(q)
	flattened = searcherCount(fq) < searcherCount(q)
	for _, vectors := range []bool{false, true} {
		want, err := sc.searchAll(ctx, q, vectors)
		if err != nil {
			return flattened, matches, err
		}
		got, err := sc.searchAll(ctx, fq, vectors)
		if err != nil {
			return flattened, matches, err
		}
		if got != want {
			return flattened, matches, fmt.Errorf("term vectors %v: flattened\n%s\nas built\n%s", vectors, got, want)
		}
		matches += strings.Count(want, "\n")
	}
	return flattened, matches, nil
}

// VerifyMemo compares q's searcher over the memo's term readers (the one
// pass's, memo.go) with its searcher over scorch's, with and without term
// vectors, twice (the first reads the postings into the memo, the second
// from it): the same talks, scores to the bit, weight and matched words
// with their offsets. It returns how many matches it compared.
func (sc *Index) VerifyMemo(ctx context.Context, q query.Query) (int, error) {
	fq := flat(q)
	matches := 0
	for _, vectors := range []bool{false, true, true, false} {
		want, err := sc.searchAllOf(ctx, sc.reader, fq, vectors)
		if err != nil {
			return matches, err
		}
		got, err := sc.searchAllOf(ctx, sc.memoizing(), fq, vectors)
		if err != nil {
			return matches, err
		}
		if got != want {
			return matches, fmt.Errorf("term vectors %v: from the memo\n%s\nfrom the segment\n%s", vectors, got, want)
		}
		matches += strings.Count(want, "\n")
	}
	return matches, nil
}

// searchAll is every match of q's searcher, one a line: document, score
// (its bits) and matched words, then the searcher's weight.
func (sc *Index) searchAll(ctx context.Context, q query.Query, vectors bool) (string, error) {
	return sc.searchAllOf(ctx, sc.reader, q, vectors)
}

// searchAllOf is searchAll with q's searcher over r.
func (sc *Index) searchAllOf(ctx context.Context, r bleveidx.IndexReader, q query.Query, vectors bool) (string, error) {
	ctx = sc.scoringContext(ctx)
	searcher, err := q.Searcher(ctx, r, sc.mapping, bsearch.SearcherOptions{IncludeTermVectors: vectors})
	if err != nil {
		return "", err
	}
	defer searcher.Close()
	sctx := &bsearch.SearchContext{DocumentMatchPool: bsearch.NewDocumentMatchPool(searcher.DocumentMatchPoolSize(), 0), IndexReader: sc.reader}
	var b strings.Builder
	for {
		dm, err := searcher.Next(sctx)
		if err != nil {
			return "", err
		}
		if dm == nil {
			break
		}
		n, _ := docNumber(dm.IndexInternalID)
		fmt.Fprintf(&b, "%d %x", n, math.Float64bits(dm.Score))
		for _, l := range dm.FieldTermLocations {
			fmt.Fprintf(&b, " %s:%s@%d:%d-%d%v", l.Field, l.Term, l.Location.Pos, l.Location.Start, l.Location.End, l.Location.ArrayPositions)
		}
		b.WriteByte('\n')
		sctx.DocumentMatchPool.Put(dm)
	}
	fmt.Fprintf(&b, "weight %x\n", math.Float64bits(searcher.Weight()))
	return b.String(), nil
}

// searcherCount is the number of conjunctions and disjunctions in q.
func searcherCount(q query.Query) int {
	n := 0
	var walk func(q query.Query)
	walk = func(q query.Query) {
		switch r := q.(type) {
		case *query.BooleanQuery:
			walk(r.Must)
			walk(r.Should)
			walk(r.MustNot)
		case *query.ConjunctionQuery:
			n++
			for _, c := range r.Conjuncts {
				walk(c)
			}
		case *query.DisjunctionQuery:
			n++
			for _, c := range r.Disjuncts {
				walk(c)
			}
		case Fields:
			n++
			for _, c := range r.Disjuncts {
				walk(c)
			}
		case Concepts:
			n++
			for _, c := range r.Disjuncts {
				walk(c)
			}
		}
	}
	walk(q)
	return n
}

// VerifyMasks compares the clause masks read from the postings bitmaps of
// the index's one segment with those of walking term field readers. It
// says whether there was anything to compare.
func (sc *Index) VerifyMasks(ctx context.Context, clauses []ranking.Clause) (bool, error) {
	dicts, err := sc.coordDicts()
	if err != nil || dicts == nil {
		return false, fmt.Errorf("no dictionaries of one segment (%v)", err)
	}
	fast, err := sc.masksFrom(ctx, clauses, dicts)
	if err != nil {
		return false, err
	}
	walked, err := sc.masksFrom(ctx, clauses, nil)
	if err != nil {
		return false, err
	}
	defer sc.putMasks(fast)
	defer sc.putMasks(walked)
	if len(clauses) < 2 {
		return false, nil // nothing to coordinate
	}
	if !slices.Equal(*fast, *walked) {
		return true, fmt.Errorf("masks from bitmaps differ from the walked ones")
	}
	return true, nil
}

// VerifyPhrase compares p's searcher with Bleve's phrase searcher of the
// same phrase: the same talks and scores and, asked for them, locations,
// by Next and by Advance. It says whether the phrase matched any talk.
func (sc *Index) VerifyPhrase(ctx context.Context, p Phrase) (bool, error) {
	matched := false
	for _, step := range []uint64{0, 3} {
		for _, vectors := range []bool{false, true} {
			got, err := sc.phraseScores(ctx, p, step, vectors)
			if err != nil {
				return false, err
			}
			want, err := sc.phraseScores(ctx, p.MultiPhraseQuery, step, vectors)
			if err != nil {
				return false, err
			}
			if !maps.Equal(got, want) {
				return false, fmt.Errorf("terms %v, advance step %d, locations %v:\nscan phrase %v\n    Bleve's %v", p.Terms, step, vectors, got, want)
			}
			matched = matched || len(want) > 0
		}
	}
	return matched, nil
}

// phraseScores runs q's searcher over the index: by Next, or (step > 0) by
// Advance to every step-th document number, from where the last stopped.
// It gives each match's score, and with vectors the locations it keeps.
func (sc *Index) phraseScores(ctx context.Context, q query.Query, step uint64, vectors bool) (map[uint64]string, error) {
	srch, err := q.Searcher(sc.scoringContext(ctx), sc.reader, sc.mapping, bsearch.SearcherOptions{IncludeTermVectors: vectors})
	if err != nil {
		return nil, err
	}
	defer srch.Close()
	sctx := &bsearch.SearchContext{DocumentMatchPool: bsearch.NewDocumentMatchPool(srch.DocumentMatchPoolSize(), 0), IndexReader: sc.reader}
	out := map[uint64]string{}
	id := make(bleveidx.IndexInternalID, 8)
	for n := uint64(0); ; n += step {
		var dm *bsearch.DocumentMatch
		if step == 0 {
			dm, err = srch.Next(sctx)
		} else {
			binary.BigEndian.PutUint64(id, n)
			dm, err = srch.Advance(sctx, id)
		}
		if err != nil {
			return nil, err
		}
		if dm == nil {
			return out, nil
		}
		num, _ := docNumber(dm.IndexInternalID)
		out[num] = fmt.Sprint(dm.Score)
		if vectors { // Bleve's leave them even unasked for; a scan reads none
			dm.Complete(nil)
			out[num] += locationsString(dm.Locations)
		}
		n = max(n, num)
		sctx.DocumentMatchPool.Put(dm)
	}
}

// locationsString prints locations in a fixed order.
func locationsString(fl bsearch.FieldTermLocationMap) string {
	var b strings.Builder
	for _, f := range slices.Sorted(maps.Keys(fl)) {
		for _, term := range slices.Sorted(maps.Keys(fl[f])) {
			fmt.Fprintf(&b, " %s:%s", f, term)
			for _, l := range fl[f][term] {
				fmt.Fprintf(&b, " %d[%d,%d)%v", l.Pos, l.Start, l.End, l.ArrayPositions)
			}
		}
	}
	return b.String()
}

// VerifyKnownPhrases compares what KnowPhrases read of each phrase with
// Bleve's phrase searcher: the same talks, a frequency and a length per
// term and talk. It returns how many phrases and talks it compared.
func (sc *Index) VerifyKnownPhrases(ctx context.Context) (phrases int, talks uint64, err error) {
	for _, q := range sc.knownQueries {
		known, ok := sc.phrases[phraseKey(q)]
		if !ok {
			continue // a phrase the tree scan does not read (alternatives)
		}
		searcher, err := q.MultiPhraseQuery.Searcher(sc.scoringContext(ctx), sc.reader, sc.mapping, bsearch.SearcherOptions{})
		if err != nil {
			return phrases, talks, err
		}
		want := roaring.New()
		sctx := &bsearch.SearchContext{DocumentMatchPool: bsearch.NewDocumentMatchPool(searcher.DocumentMatchPoolSize(), 0), IndexReader: sc.reader}
		dm, err := searcher.Next(sctx)
		for ; err == nil && dm != nil; dm, err = searcher.Next(sctx) {
			n, _ := docNumber(dm.IndexInternalID)
			want.Add(uint32(n))
			sctx.DocumentMatchPool.Put(dm)
		}
		searcher.Close()
		if err != nil {
			return phrases, talks, err
		}
		if !slices.Equal(known.docs, want.ToArray()) {
			return phrases, talks, fmt.Errorf("%v in %s: known in %d talks, Bleve's phrase in %d", q.Terms, q.FieldVal, len(known.docs), want.GetCardinality())
		}
		terms := 0
		for _, alts := range trimLeadingGaps(q.Terms) {
			if !isGap(alts) {
				terms++
			}
		}
		if len(known.freqs) != len(known.docs)*terms || len(known.lengths) != len(known.freqs) {
			return phrases, talks, fmt.Errorf("%v in %s: %d talks, %d frequencies, %d lengths", q.Terms, q.FieldVal, len(known.docs), len(known.freqs), len(known.lengths))
		}
		phrases++
		talks += want.GetCardinality()
	}
	return phrases, talks, nil
}

// KnownPhrases is the number of phrases whose talks the Index knows.
func (sc *Index) KnownPhrases() int { return len(sc.phrases) }

// VerifyLocate locates page's matched words (Locate: phrases restricted to
// the page's talks, terms read through readers that seek where the index
// is one segment) and compares them with those of q's plain searcher over
// scorch's reader. It says whether the seeking reader was used.
func (sc *Index) VerifyLocate(ctx context.Context, q query.Query, page []Match) (bool, error) {
	page = slices.Clone(page)
	if err := sc.Locate(ctx, q, page); err != nil {
		return false, err
	}
	plain := slices.Clone(page)
	for i := range plain {
		plain[i].Hit = nil
	}
	searcher, err := sc.searcher(sc.scoringContext(ctx), q, bsearch.SearcherOptions{IncludeTermVectors: true})
	if err != nil {
		return false, err
	}
	sctx := &bsearch.SearchContext{DocumentMatchPool: bsearch.NewDocumentMatchPool(searcher.DocumentMatchPoolSize()+len(plain), 0), IndexReader: sc.reader}
	err = advanceTo(sctx, searcher, plain, true, func(i int, dm *bsearch.DocumentMatch) {
		dm.Complete(nil)
		plain[i].Hit = dm
	})
	searcher.Close()
	if err != nil {
		return false, err
	}
	for i := range page {
		if (page[i].Hit == nil) != (plain[i].Hit == nil) || page[i].Hit != nil && !reflect.DeepEqual(page[i].Hit.Locations, plain[i].Hit.Locations) {
			return false, fmt.Errorf("talk %d located with the page's talks only differs from Bleve's", page[i].Num)
		}
	}
	_, seeking := sc.seeking().(*seekReader)
	return seeking, nil
}

// matchLines is ms in document order, one a line: document and score bits.
func matchLines(ms []Match) string {
	ms = slices.Clone(ms)
	slices.SortFunc(ms, func(a, b Match) int { return cmp.Compare(a.Num, b.Num) })
	var b strings.Builder
	for _, m := range ms {
		fmt.Fprintf(&b, "%d %x\n", m.Num, math.Float64bits(m.Score))
	}
	return b.String()
}

// countNodes is the number of nodes below n (n included) that is says.
func countNodes(n *treeNode, is func(*treeNode) bool) int {
	c := 0
	if is(n) {
		c++
	}
	for _, ch := range n.children {
		c += countNodes(ch, is)
	}
	return c
}

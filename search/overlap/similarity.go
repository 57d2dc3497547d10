package overlap

import (
	"math"
	"runtime"
	"sync"

	"github.com/talksearch/talksearch/search/termvec"
)

// commonFloor and commonShare split the terms: a term in more than
// max(commonFloor, commonShare*N) talks is common. Rare terms go into an
// inverted index; walking the postings of common terms would make the
// search quadratic, so each talk keeps its common terms in a small dense
// vector instead.
const (
	commonFloor = 200
	commonShare = 0.02
)

type posting struct {
	doc int32
	w   float32
}

// topicalPairs calls visit for every pair of vectors whose cosine is at
// least t, without comparing every pair.
//
// A pair is a candidate when the two talks share a rare term: the postings
// of each talk's rare terms accumulate the rare part of its cosine with
// every earlier talk. The common part is a dense dot product over the few
// common terms, computed only when the rare part plus the largest the
// common part can be (the product of the two talks' common-part norms)
// reaches t. A pair sharing no rare term at all is never a candidate: the
// one approximation, bounded by that same product (common terms have a low
// idf, so it is small), and measured against brute force in the tests.
// On the seeds no term is common and the search is exact.
//
// visit gets each pair (i<j) with its cosine and the largest but one
// contribution of a term to it (termvec.CosineSecond). It is called from workers
// goroutines at once; w (0 ≤ w < workers) says which, so each can keep its
// own results without locks.
func topicalPairs(vecs []termvec.Vector, df []int32, t float64, workers int, visit func(w, i, j int, cos, second float64)) {
	n := len(vecs)
	limit := int32(math.Max(commonFloor, commonShare*float64(n)))
	slot := make([]int32, len(df)) // term -> its column among the common terms, or -1
	cols := 0
	for id, f := range df {
		slot[id] = -1
		if f > limit {
			slot[id] = int32(cols)
			cols++
		}
	}
	postings := make([][]posting, len(df))
	common := make([]float32, n*cols)
	commonNorm := make([]float64, n)
	for d, v := range vecs {
		row := common[d*cols : (d+1)*cols]
		for k, id := range v.IDs {
			if c := slot[id]; c >= 0 {
				row[c] = v.W[k]
				commonNorm[d] += float64(v.W[k]) * float64(v.W[k])
			} else {
				postings[id] = append(postings[id], posting{int32(d), v.W[k]})
			}
		}
		commonNorm[d] = math.Sqrt(commonNorm[d])
	}

	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acc := make([]float32, n)
			var touched []int32
			for i := w; i < n; i += workers {
				v := vecs[i]
				touched = touched[:0]
				for k, id := range v.IDs {
					wi := v.W[k]
					for _, p := range postings[id] {
						if int(p.doc) >= i {
							break
						}
						if acc[p.doc] == 0 {
							touched = append(touched, p.doc)
						}
						acc[p.doc] += wi * p.w
					}
				}
				rowI := common[i*cols : (i+1)*cols]
				for _, j := range touched {
					s := float64(acc[j])
					acc[j] = 0
					if s+commonNorm[j]*commonNorm[i] < t {
						continue
					}
					if s+denseDot(common[int(j)*cols:(int(j)+1)*cols], rowI) < t-1e-6 {
						continue
					}
					// The exact cosine, in float64 as everywhere else.
					if cos, second := termvec.CosineSecond(vecs[j], v); cos >= t {
						visit(w, int(j), i, cos, second)
					}
				}
			}
		}()
	}
	wg.Wait()
}

func denseDot(a, b []float32) float64 {
	var s float32
	for k := range a {
		s += a[k] * b[k]
	}
	return float64(s)
}

// searchWorkers is how many goroutines topicalPairs uses for n vectors:
// one per core, but one for small inputs where starting more costs more.
func searchWorkers(n int) int { return min(runtime.GOMAXPROCS(0), max(1, n/500)) }

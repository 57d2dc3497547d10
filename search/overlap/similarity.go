package overlap

import (
	"math"
	"runtime"
	"sort"
	"sync"
)

// scored is a candidate pair i<j (indices into the detector's talks) with
// its cosine.
type scored struct {
	i, j  int
	score float64
}

// dfCapFloor and dfCapShare bound the posting lists walked during candidate
// generation: a term in more than max(dfCapFloor, dfCapShare*N) talks is
// never indexed. Its weight is low (idf) and its postings would make the
// search quadratic; a pair that would only be found through such terms is
// the one approximation of topicalPairs (measured in similarity_test.go).
const (
	dfCapFloor = 200
	dfCapShare = 0.02
)

type posting struct {
	doc int32
	w   float32
}

// topicalPairs returns every pair of vectors whose cosine is at least t,
// without comparing every pair. It follows the all-pairs prefix filter
// (Bayardo et al., WWW 2007): each vector's most common terms, up to a
// weight below t, are left out of the inverted index, because a pair whose
// cosine reaches t must then share one of the indexed, rarer terms. Most
// postings of common terms are thereby never written, and the rest are
// walked only for docs that could still reach t.
func topicalPairs(vecs []vector, df []int32, t float64) []scored {
	n := len(vecs)
	dfCap := int32(math.Max(dfCapFloor, dfCapShare*float64(n)))
	postings := make([][]posting, len(df))
	prefixNorm := make([]float64, n) // norm of each vector's unindexed part
	order := make([]int, 0, 256)
	for d, v := range vecs {
		order = order[:0]
		for k := range v.ids {
			order = append(order, k)
		}
		// Most frequent terms first: they are the cheapest to leave out.
		sort.Slice(order, func(a, b int) bool {
			da, db := df[v.ids[order[a]]], df[v.ids[order[b]]]
			if da != db {
				return da > db
			}
			return v.ids[order[a]] < v.ids[order[b]]
		})
		var mass float64
		exact := true
		for _, k := range order {
			w := float64(v.w[k])
			id := v.ids[k]
			if df[id] > dfCap || (exact && math.Sqrt(mass+w*w) < t) {
				mass += w * w
				continue
			}
			exact = false
			postings[id] = append(postings[id], posting{int32(d), v.w[k]})
		}
		prefixNorm[d] = math.Sqrt(mass)
	}

	workers := min(runtime.GOMAXPROCS(0), max(1, n/500))
	results := make([][]scored, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acc := make([]float32, n)
			var touched []int32
			var out []scored
			for i := w; i < n; i += workers {
				v := vecs[i]
				touched = touched[:0]
				for k, id := range v.ids {
					wi := v.w[k]
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
				for _, j := range touched {
					// What j's unindexed terms can add is at most their norm.
					if float64(acc[j])+prefixNorm[j] >= t {
						if s := dot(vecs[j], v); s >= t {
							out = append(out, scored{int(j), i, s})
						}
					}
					acc[j] = 0
				}
			}
			results[w] = out
		}()
	}
	wg.Wait()
	var all []scored
	for _, r := range results {
		all = append(all, r...)
	}
	return all
}

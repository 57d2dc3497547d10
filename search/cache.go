package search

import "github.com/maypok86/otter/v2"

// boundedCache is every cache of a snapshot: results keyed by the
// normalized request, matches keyed by the query, the analysis of query
// text, the terms of the corpus's words. It belongs to one snapshot, so a
// re-index starts empty, never serves stale answers, and drops what the
// old generation kept. Cached values are shared: callers must not modify
// them.
//
// It is otter's W-TinyLFU rather than an LRU: the long tail of one-off
// requests a crowd sends (unusual filter sets, half-typed words, an
// attacker's random words) is not admitted in place of what is asked for
// again and again.
type boundedCache[V any] struct {
	c *otter.Cache[string, V] // nil: the cache keeps nothing
}

// newBoundedCache returns a cache of at most max values; max <= 0 gives a
// cache that keeps nothing.
func newBoundedCache[V any](max int) *boundedCache[V] {
	if max <= 0 {
		return &boundedCache[V]{}
	}
	return &boundedCache[V]{c: otter.Must(&otter.Options[string, V]{MaximumSize: max})}
}

// newWeighedCache returns a cache of at most maxBytes, as weigh estimates
// the bytes of a key and its value: for values whose size the client
// decides (the analysis of a 400-character query is 60 tokens, of "kv" one).
func newWeighedCache[V any](maxBytes int, weigh func(key string, v V) int) *boundedCache[V] {
	if maxBytes <= 0 {
		return &boundedCache[V]{}
	}
	return &boundedCache[V]{c: otter.Must(&otter.Options[string, V]{
		MaximumWeight: uint64(maxBytes),
		Weigher:       func(k string, v V) uint32 { return uint32(min(weigh(k, v), 1<<31)) },
	})}
}

func (c *boundedCache[V]) get(key string) (v V, ok bool) {
	if c.c == nil {
		return v, false
	}
	return c.c.GetIfPresent(key)
}

// keeps says whether put keeps anything (a cache of size 0 keeps nothing).
func (c *boundedCache[V]) keeps() bool { return c.c != nil }

func (c *boundedCache[V]) put(key string, v V) {
	if c.c != nil {
		c.c.Set(key, v)
	}
}

// len is the number of values kept, once pending evictions are done.
func (c *boundedCache[V]) len() int {
	if c.c == nil {
		return 0
	}
	c.c.CleanUp()
	return c.c.EstimatedSize()
}

// weight is the estimated bytes kept, once pending evictions are done.
func (c *boundedCache[V]) weight() uint64 {
	if c.c == nil {
		return 0
	}
	c.c.CleanUp()
	return c.c.WeightedSize()
}

// entryOverhead is what otter, a string header and a slice header cost per
// entry beyond the bytes of key and value, roughly: it keeps a bound in
// bytes honest for small entries.
const entryOverhead = 128

// resultSlot is the share of the results cache one result takes at least:
// CacheSize results of up to this size fit, larger ones (a page of 100
// hits with highlights weighs several) take as many slots as they weigh, so
// that the cache is bounded in bytes too, whatever the clients ask.
const resultSlot = 16 << 10

// newResultCache keeps at most size results, fewer when they are large.
func newResultCache(size int) *boundedCache[*Result] {
	return newWeighedCache(size*resultSlot, func(key string, r *Result) int {
		return max(resultSlot, len(key)+r.approxBytes())
	})
}

// approxBytes estimates the memory a result holds: its strings and the
// headers around them. Only the cache's bound depends on it.
func (r *Result) approxBytes() int {
	n := 512 + len(r.Query) + len(r.DidYouMean)
	for _, h := range r.Hits {
		n += 256 + len(h.ID) + len(h.Title) + len(h.Track) + len(h.Level) + len(h.Room)
		for _, s := range h.Speakers {
			n += 64 + len(s.Name) + len(s.Affiliation) + len(s.SourceID)
		}
		for _, f := range h.Highlights.Title {
			n += 16 + len(f)
		}
		for _, f := range h.Highlights.Abstract {
			n += 16 + len(f)
		}
		for _, f := range h.Highlights.Description {
			n += 16 + len(f)
		}
	}
	for _, vs := range [][]FacetValue{r.Facets.Track, r.Facets.Level, r.Facets.Room} {
		for _, v := range vs {
			n += 48 + len(v.Value)
		}
	}
	for _, s := range r.Synonyms {
		n += 16 + len(s)
	}
	return n
}

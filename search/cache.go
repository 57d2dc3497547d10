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

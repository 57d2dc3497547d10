package search

import "github.com/maypok86/otter/v2"

// boundedCache keeps what a snapshot derives from requests: results keyed by
// the normalized request, matches keyed by the query. It belongs to one
// snapshot, so a re-index starts empty and never serves stale answers.
// Cached values are shared: callers must not modify them.
//
// It is otter's W-TinyLFU rather than an LRU: the long tail of one-off
// requests a crowd sends (unusual filter sets, half-typed words) is not
// admitted in place of what is asked for again and again.
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

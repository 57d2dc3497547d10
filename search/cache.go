package search

import lru "github.com/hashicorp/golang-lru/v2"

// lruCache is a bounded LRU of what a snapshot derives from requests:
// results keyed by the normalized request, matches keyed by the query. It
// belongs to one snapshot, so a re-index starts empty and never serves
// stale answers. Cached values are shared: callers must not modify them.
type lruCache[V any] struct {
	lru *lru.Cache[string, V] // nil: the cache keeps nothing
}

// newLRUCache returns a cache of at most max values; max <= 0 gives a
// cache that keeps nothing.
func newLRUCache[V any](max int) *lruCache[V] {
	if max <= 0 {
		return &lruCache[V]{}
	}
	c, err := lru.New[string, V](max)
	if err != nil { // only for a size <= 0, excluded above
		panic(err)
	}
	return &lruCache[V]{lru: c}
}

func (c *lruCache[V]) get(key string) (v V, ok bool) {
	if c.lru == nil {
		return v, false
	}
	return c.lru.Get(key)
}

func (c *lruCache[V]) put(key string, v V) {
	if c.lru != nil {
		c.lru.Add(key, v)
	}
}

// len is the number of values kept.
func (c *lruCache[V]) len() int {
	if c.lru == nil {
		return 0
	}
	return c.lru.Len()
}

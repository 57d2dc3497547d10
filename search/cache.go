package search

import lru "github.com/hashicorp/golang-lru/v2"

// resultCache is a bounded LRU of search results keyed by the normalized
// request. It belongs to one snapshot, so a re-index starts empty and never
// serves stale results. Cached results are shared: callers must not modify
// a Result's slices.
type resultCache struct {
	lru *lru.Cache[string, *Result] // nil: the cache keeps nothing
}

// newResultCache returns a cache of at most max results; max <= 0 gives a
// cache that keeps nothing.
func newResultCache(max int) *resultCache {
	if max <= 0 {
		return &resultCache{}
	}
	c, err := lru.New[string, *Result](max)
	if err != nil { // only for a size <= 0, excluded above
		panic(err)
	}
	return &resultCache{lru: c}
}

func (c *resultCache) get(key string) (*Result, bool) {
	if c.lru == nil {
		return nil, false
	}
	return c.lru.Get(key)
}

func (c *resultCache) put(key string, res *Result) {
	if c.lru != nil {
		c.lru.Add(key, res)
	}
}

// len is the number of results kept.
func (c *resultCache) len() int {
	if c.lru == nil {
		return 0
	}
	return c.lru.Len()
}

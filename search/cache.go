package search

import (
	"container/list"
	"sync"
)

// resultCache is a bounded LRU of search results keyed by the normalized
// request. It belongs to one snapshot, so a re-index starts empty and never
// serves stale results. Cached results are shared: callers must not modify
// a Result's slices.
type resultCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // front: most recently used; values are *cacheEntry
	byKey map[string]*list.Element
}

type cacheEntry struct {
	key string
	res *Result
}

// newResultCache returns a cache of at most max results; max <= 0 gives a
// cache that keeps nothing.
func newResultCache(max int) *resultCache {
	return &resultCache{max: max, order: list.New(), byKey: map[string]*list.Element{}}
}

func (c *resultCache) get(key string) (*Result, bool) {
	if c.max <= 0 {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*cacheEntry).res, true
}

func (c *resultCache) put(key string, res *Result) {
	if c.max <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		el.Value.(*cacheEntry).res = res
		c.order.MoveToFront(el)
		return
	}
	c.byKey[key] = c.order.PushFront(&cacheEntry{key: key, res: res})
	if c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byKey, last.Value.(*cacheEntry).key)
	}
}

package web

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/maypok86/otter/v2"
)

// responseCache keeps the bytes of recent answers (API JSON, rendered pages
// and results fragments, gzipped when the client takes gzip), so that the
// searches a crowd repeats between sessions cost a lookup instead of a
// search, a render and a compression. An entry is good only for the index
// generation it was made under (Searcher.Generation): after a re-index
// every lookup misses, and entries are remade as they are asked for again.
//
// It is bounded by bytes (keys and bodies) and is otter's W-TinyLFU, not an
// LRU: a crowd also sends a long tail of one-off requests (a query with an
// unusual set of filters) that would push the popular answers out of an
// LRU; TinyLFU admits a new answer only when it is asked for more often than
// the one it would evict. On the load mix, a small TinyLFU kept searches
// nearer the /healthz ceiling than an LRU twice its size, and about as near
// as a far larger one.
type responseCache struct {
	c        *otter.Cache[string, *response] // nil: the cache keeps nothing
	maxBytes int
}

// response is an answer ready to write.
type response struct {
	gen         uint64 // the generation it was made under
	contentType string
	gzipped     bool
	// body is the whole body. For an API search it is the JSON up to the
	// took_ms number and tail the rest: each answer reports its own time.
	body, tail []byte
	hits       int // for the access log; -1: not a list
}

func (r *response) size() int { return len(r.body) + len(r.tail) }

// newResponseCache keeps at most maxBytes of keys and bodies; maxBytes <= 0
// gives a cache that keeps nothing.
func newResponseCache(maxBytes int) *responseCache {
	c := &responseCache{maxBytes: maxBytes}
	if maxBytes > 0 {
		c.c = otter.Must(&otter.Options[string, *response]{
			MaximumWeight: uint64(maxBytes),
			Weigher:       func(key string, r *response) uint32 { return uint32(len(key) + r.size()) },
		})
	}
	return c
}

// get returns the answer kept for key if it was made under generation gen.
func (c *responseCache) get(key string, gen uint64) (*response, bool) {
	if c.c == nil {
		return nil, false
	}
	r, ok := c.c.GetIfPresent(key)
	if !ok || r.gen != gen {
		return nil, false
	}
	return r, true
}

// put offers r for key, replacing what was kept unless that is of a newer
// generation (a slow build of an older one). An answer that alone would
// take more than an eighth of the cache is not kept.
func (c *responseCache) put(key string, r *response) {
	if c.c == nil || len(key)+r.size() > c.maxBytes/8 {
		return
	}
	c.c.Compute(key, func(old *response, found bool) (*response, otter.ComputeOp) {
		if found && old.gen > r.gen {
			return old, otter.CancelOp
		}
		return r, otter.WriteOp
	})
}

// Content types of the answers.
const (
	typeHTML = "text/html; charset=utf-8"
	typeJSON = "application/json; charset=utf-8"
)

// answerGzip writes, through answer, an answer made once per encoding: a
// page, the results fragment, or API JSON but a search's (whose took_ms is
// written per answer). It is kept gzipped for clients that take gzip and
// plain for the others.
func (s *server) answerGzip(c *gin.Context, key, contentType string, encode func(ctx context.Context) (body []byte, hits int, err error)) {
	gz := acceptsGzip(c.Request)
	if gz {
		key = "gzip " + key
	}
	s.answer(c, key, func(ctx context.Context) (*response, error) {
		body, hits, err := encode(ctx)
		if err != nil {
			return nil, err
		}
		return newResponse(contentType, body, gz, hits)
	})
}

// answer writes the answer named by key: the kept one when it was made
// under the generation being served, else a new one from build, which is
// then kept. Errors are answered, never kept. The key must name everything
// the answer depends on but the generation.
func (s *server) answer(c *gin.Context, key string, build func(ctx context.Context) (*response, error)) {
	start := time.Now()
	gen := s.s.Generation()
	r, ok := s.responses.get(key, gen)
	if !ok {
		var err error
		if r, err = build(c.Request.Context()); err != nil {
			s.fail(c, err)
			return
		}
		// The answer came from gen or, after a re-index since, a later
		// generation (generations only grow): kept under gen, it can only
		// be served while gen is current, when it is right.
		r.gen = gen
		s.responses.put(key, r)
	}
	if r.hits >= 0 {
		c.Set(ctxHits, r.hits)
	}
	h := c.Writer.Header()
	h.Set("Cache-Control", "no-cache") // a re-index may change any answer
	h.Add("Vary", "Accept-Encoding")
	if r.gzipped {
		h.Set("Content-Encoding", "gzip")
	}
	if r.tail == nil {
		c.Data(http.StatusOK, r.contentType, r.body)
		return
	}
	took := strconv.AppendFloat(nil, float64(time.Since(start).Microseconds())/1000, 'f', -1, 64)
	h.Set("Content-Type", r.contentType)
	h.Set("Content-Length", strconv.Itoa(len(r.body)+len(took)+len(r.tail)))
	c.Status(http.StatusOK)
	for _, part := range [][]byte{r.body, took, r.tail} {
		if _, err := c.Writer.Write(part); err != nil {
			return // the client left; nothing more to tell it
		}
	}
}

// newResponse is an answer of body, gzipped for a client that takes it
// when that is worth it: pages and JSON are mostly repetitive text that
// gzip makes several times smaller, which is what a phone in a corridor
// waits for. The body is copied to its length: a buffer's spare capacity
// would be memory the cache holds but does not count.
func newResponse(contentType string, body []byte, gz bool, hits int) (*response, error) {
	r := &response{contentType: contentType, body: body, hits: hits}
	if gz && len(body) > 1024 {
		z, err := gzipBytes(body)
		if err != nil {
			return nil, fmt.Errorf("gzip answer: %w", err)
		}
		r.body, r.gzipped = z, true
	}
	r.body = bytes.Clone(r.body)
	return r, nil
}

// tookKey is where the API's search JSON gives its time, encoded as 0 and
// filled in per answer. Data-set and query text cannot contain it: inside
// JSON strings every quote is escaped.
var tookKey = []byte(`"took_ms":0,`)

// searchJSONResponse is the API JSON of a search result (SearchJSON,
// encoded with took_ms 0), split around its took_ms number.
func searchJSONResponse(body []byte, hits int) (*response, error) {
	i := bytes.Index(body, tookKey)
	if i < 0 {
		return nil, fmt.Errorf("encode answer: no %s in the search JSON", tookKey)
	}
	at := i + len(tookKey) - len("0,")
	return &response{contentType: typeJSON, body: body[:at:at], tail: body[at+len("0"):], hits: hits}, nil
}

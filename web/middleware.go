package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"runtime/debug"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/rs/zerolog"
)

// Context keys shared by the middleware and the handlers.
const (
	ctxRequestID = "talksearch.request_id"
	ctxHits      = "talksearch.hits" // number of hits, logged when a handler knows it
)

// HeaderRequestID carries the request id in both directions.
const HeaderRequestID = "X-Request-ID"

// requestIDs are a random per-process prefix plus a counter: unique, cheap
// under load, and sortable within one run.
var (
	requestIDPrefix = func() string {
		b := make([]byte, 4)
		_, _ = rand.Read(b) // crypto/rand.Read never fails on Linux
		return hex.EncodeToString(b)
	}()
	requestCounter atomic.Uint64
)

// requestID names every request and keeps a sane incoming id (from a
// proxy); logFor gives the logger that carries it.
func (s *server) requestID() gin.HandlerFunc {
	return func(c *gin.Context) {
		id := c.GetHeader(HeaderRequestID)
		if !validRequestID(id) {
			id = requestIDPrefix + "-" + strconv.FormatUint(requestCounter.Add(1), 10)
		}
		c.Set(ctxRequestID, id)
		c.Header(HeaderRequestID, id)
		c.Next()
	}
}

// logFor is the logger of one request's own lines (failures), carrying its
// id. It is made when needed, not for every request: most never log but
// their access line.
func (s *server) logFor(c *gin.Context) *zerolog.Logger {
	l := s.log.With().Str("request_id", c.GetString(ctxRequestID)).Logger()
	return &l
}

// validRequestID accepts short ids of safe characters, so a client cannot
// inject anything into logs or headers.
func validRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// accessLog writes one line per request: 5xx at error, 4xx at warn, the
// rest at info.
func (s *server) accessLog() gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		status := c.Writer.Status()
		level := zerolog.InfoLevel
		switch {
		case status >= 500:
			level = zerolog.ErrorLevel
		case status >= 400:
			level = zerolog.WarnLevel
		}
		ev := s.log.WithLevel(level).
			Str("method", c.Request.Method).
			Str("path", c.Request.URL.Path).
			Int("status", status).
			Dur("latency", time.Since(start)).
			Int("bytes", max(c.Writer.Size(), 0)).
			Str("request_id", c.GetString(ctxRequestID))
		if q := c.Request.URL.RawQuery; q != "" {
			ev = ev.Str("query", truncate(q, 512))
		}
		if hits, ok := c.Get(ctxHits); ok {
			ev = ev.Interface("hits", hits)
		}
		ev.Msg("request")
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// recovery turns a panic in a handler into a logged error and a JSON 500,
// so one bad request never takes the server down. http.ErrAbortHandler is
// re-raised: net/http uses it on purpose to abort a response.
func (s *server) recovery() gin.HandlerFunc {
	return func(c *gin.Context) {
		defer func() {
			p := recover()
			if p == nil {
				return
			}
			if err, ok := p.(error); ok && errors.Is(err, http.ErrAbortHandler) {
				panic(p)
			}
			s.logFor(c).Error().
				Interface("panic", p).
				Bytes("stack", debug.Stack()).
				Str("path", c.Request.URL.Path).
				Msg("panic serving request")
			if c.Writer.Written() {
				// Too late for a status: cut the response short.
				c.Abort()
				return
			}
			c.AbortWithStatusJSON(http.StatusInternalServerError, errorBody{Error: "internal error"})
		}()
		c.Next()
	}
}

// contentSecurityPolicy allows our own scripts, styles and images only: no
// inline script, no external origin, no framing.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; worker-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

func (s *server) securityHeaders() gin.HandlerFunc {
	return func(c *gin.Context) {
		h := c.Writer.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		c.Next()
	}
}

// bounds refuses request bodies beyond MaxBodyBytes (every route but the
// upload is a GET; POST /overlaps takes MaxUploadBytes)
// and gives every request a deadline, which the engine sees through the
// context.
func (s *server) bounds() gin.HandlerFunc {
	return func(c *gin.Context) {
		limit := s.opts.MaxBodyBytes
		if c.Request.Method == http.MethodPost && c.FullPath() == "/overlaps" {
			limit = s.opts.MaxUploadBytes
		}
		if c.Request.ContentLength > limit {
			s.fail(c, errTooLarge)
			return
		}
		if c.Request.Body != nil {
			c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, limit)
		}
		ctx, cancel := context.WithTimeout(c.Request.Context(), s.opts.RequestTimeout)
		defer cancel()
		c.Request = c.Request.WithContext(ctx)
		c.Next()
	}
}

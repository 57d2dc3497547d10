package web

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
)

// ReloadFunc re-reads the seeds, builds a whole new index beside the one
// serving and swaps it in. It returns once the new index serves, or with
// an error while the old one still does.
type ReloadFunc func(ctx context.Context, o ReloadOptions) (ReloadReport, error)

// ReloadOptions are what a reload request may ask for.
type ReloadOptions struct {
	// Force accepts new seeds that would drop talks found in no other
	// seed file (ErrWouldDrop): POST /admin/reload?force=true.
	Force bool
}

// ReloadReport says what a reload swapped in.
type ReloadReport struct {
	Talks    int     `json:"talks"`
	Warnings int     `json:"warnings"` // ingestion warnings of the new seeds
	TookMS   float64 `json:"took_ms"`
}

// ReloadStatus is what /healthz tells of re-indexing, so operators and
// tests see a reload begin, end and fail without reading logs.
type ReloadStatus struct {
	Reloads  int  // reloads finished, swapped in or refused
	Failures int  // of those, the refused ones (the old index serves on)
	Running  bool // a reload is under way
}

// SourceStatus is what /healthz tells of one seed file fetched from a URL:
// when it was last fetched, found current or replaced, the last error (a
// failed fetch, or a new copy refused: the last good copy serves on), and
// the validators the next fetch asks with. Times are UTC, nil for never.
type SourceStatus struct {
	URL          string     `json:"url"`
	LastAttempt  *time.Time `json:"last_attempt"`
	LastSuccess  *time.Time `json:"last_success"`
	LastChange   *time.Time `json:"last_change"`
	LastError    string     `json:"last_error,omitempty"`
	LastErrorAt  *time.Time `json:"last_error_at,omitempty"`
	ETag         string     `json:"etag,omitempty"`
	LastModified string     `json:"last_modified,omitempty"`
	Bytes        int        `json:"bytes"`    // of the copy serving
	HasCopy      bool       `json:"has_copy"` // false: nothing of this URL serves yet
	Fetches      int        `json:"fetches"`
	NotModified  int        `json:"not_modified"` // 304, or the same bytes: no re-index
	Changes      int        `json:"changes"`      // new copies taken
	Failures     int        `json:"failures"`     // failed fetches and refused copies
}

// ErrSeedsRejected marks a reload refused because the new seeds did not
// load: the operator must fix the data, and the old index keeps serving.
var ErrSeedsRejected = errors.New("new seeds rejected, the old index keeps serving")

// ErrWouldDrop marks a reload refused, along with ErrSeedsRejected,
// because the new seeds lose talks that no other file has (a deleted seed
// file): answered 409, as the same request with force=true would succeed.
var ErrWouldDrop = errors.New("refused to drop talks")

// adminReload is POST /admin/reload: an operator re-indexes a running
// server. It is refused (403) unless the server was given a token, and
// (401) unless the request carries that token as a bearer token, so
// nobody on the network can make the server do the work of a rebuild.
// Its statuses are its own (422 for rejected seeds), so it answers here
// rather than through status(), which speaks for the public routes.
func (s *server) adminReload(c *gin.Context) {
	c.Header("Cache-Control", "no-store")
	if s.opts.ReloadToken == "" || s.opts.Reload == nil {
		c.AbortWithStatusJSON(http.StatusForbidden, errorBody{Error: "reload over HTTP is disabled: the server has no reload token"})
		return
	}
	if wait, blocked := s.auth.blocked(c.ClientIP()); blocked {
		b := &busyError{msg: "too many failed authentications from your address", retry: wait}
		c.Header("Retry-After", b.retryAfter())
		c.AbortWithStatusJSON(http.StatusTooManyRequests, errorBody{Error: b.msg})
		return
	}
	if !bearerMatches(c.GetHeader("Authorization"), s.opts.ReloadToken) {
		s.auth.failed(c.ClientIP())
		c.Header("WWW-Authenticate", `Bearer realm="talksearch admin"`)
		c.AbortWithStatusJSON(http.StatusUnauthorized, errorBody{Error: "missing or wrong bearer token"})
		return
	}
	var o ReloadOptions
	if v := c.Query("force"); v != "" {
		force, err := strconv.ParseBool(v)
		if err != nil {
			c.AbortWithStatusJSON(http.StatusBadRequest, errorBody{Error: fmt.Sprintf("force=%q: want true or false", v)})
			return
		}
		o.Force = force
	}
	rep, err := s.opts.Reload(c.Request.Context(), o)
	switch {
	case errors.Is(err, ErrWouldDrop):
		c.AbortWithStatusJSON(http.StatusConflict, errorBody{Error: err.Error()})
	case errors.Is(err, ErrSeedsRejected):
		// The reload function has logged it; the operator needs the reason.
		c.AbortWithStatusJSON(http.StatusUnprocessableEntity, errorBody{Error: err.Error()})
	case err != nil:
		s.logFor(c).Error().Err(err).Msg("admin reload failed")
		c.AbortWithStatusJSON(http.StatusInternalServerError, errorBody{Error: "reload failed, the old index keeps serving: " + err.Error()})
	default:
		c.Set(ctxHits, rep.Talks)
		c.JSON(http.StatusOK, rep)
	}
}

// bearerMatches checks an Authorization header against the token in
// constant time, so the token cannot be guessed byte by byte from timing.
// The scheme name is case-insensitive (RFC 6750).
func bearerMatches(header, token string) bool {
	scheme, given, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	given = strings.TrimSpace(given)
	return subtle.ConstantTimeCompare([]byte(given), []byte(token)) == 1
}

package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/search/overlap"
)

// errorBody is the JSON of every API error.
type errorBody struct {
	Error string `json:"error"`
}

var (
	errTooLarge      = errors.New("request body too large")
	errRouteNotFound = fmt.Errorf("%w: no such page", search.ErrNotFound)
	// The Allow header of a 405 says which methods the path takes.
	errMethodNotAllowed = errors.New("method not allowed on this path")
)

// invalidf is a bad-request error with the reason a user can act on.
func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{search.ErrInvalid}, args...)...)
}

// status maps an error to its HTTP status and the message the client sees.
// This is the one place that decides it; only internal failures are logged
// here (the access log already has every 4xx).
func status(err error) (code int, msg string) {
	switch {
	case errors.Is(err, search.ErrInvalid), errors.Is(err, overlap.ErrInvalidMin):
		return http.StatusBadRequest, err.Error()
	case errors.Is(err, search.ErrNotFound):
		return http.StatusNotFound, err.Error()
	case errors.Is(err, errTooLarge):
		return http.StatusRequestEntityTooLarge, err.Error()
	case errors.Is(err, errMethodNotAllowed):
		return http.StatusMethodNotAllowed, err.Error()
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return http.StatusServiceUnavailable, "the request took too long or was cancelled"
	}
	if _, ok := isBusy(err); ok {
		return http.StatusTooManyRequests, err.Error()
	}
	return http.StatusInternalServerError, "internal error"
}

// isAPI says whether a path answers JSON rather than pages: the API, the
// health check and the operator endpoints.
func isAPI(path string) bool {
	return strings.HasPrefix(path, "/api/") || path == "/api" || path == "/healthz" || strings.HasPrefix(path, "/admin/")
}

// fail answers an error in the form the route speaks: JSON for the API, a
// page otherwise.
func (s *server) fail(c *gin.Context, err error) {
	code, msg := status(err)
	if b, ok := isBusy(err); ok {
		c.Header("Retry-After", b.retryAfter())
	}
	if code >= 500 {
		s.logFor(c).Error().Err(err).Str("path", c.Request.URL.Path).Msg("request failed")
	}
	if isAPI(c.Request.URL.Path) {
		c.AbortWithStatusJSON(code, errorBody{Error: msg})
		return
	}
	c.Abort()
	s.render(c, code, "error", errorPage{
		page:    s.newPage(http.StatusText(code)),
		Status:  code,
		Message: msg,
	})
}

func (s *server) notFound(c *gin.Context) {
	s.fail(c, errRouteNotFound)
}

// methodNotAllowed answers a known path asked with a method it does not
// take; Gin has set the Allow header.
func (s *server) methodNotAllowed(c *gin.Context) {
	s.fail(c, errMethodNotAllowed)
}

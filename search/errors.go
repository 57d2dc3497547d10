package search

import "errors"

// The errors callers must tell apart. The web layer maps them to HTTP
// statuses in one place; anything else is an internal failure.
var (
	// ErrNotFound: no talk has the requested id.
	ErrNotFound = errors.New("not found")
	// ErrInvalid: the request is malformed (bad limit, offset, sort, a
	// query longer than MaxQueryLen, …). Wrap it with the reason.
	ErrInvalid = errors.New("invalid request")
)

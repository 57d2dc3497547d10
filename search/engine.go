package search

import (
	"context"
	"errors"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search/overlap"
)

// Engine answers searches, talk lookups, related talks and overlaps over one
// corpus. It is safe for concurrent use.
// TODO(search): implemented by the search work (issue 3); this is a stub.
type Engine struct{}

// New indexes the corpus and returns an engine over it.
func New(c *index.Corpus) (*Engine, error) { return &Engine{}, nil }

// Search runs a user's search.
func (e *Engine) Search(ctx context.Context, r Request) (*Result, error) {
	return nil, errors.New("search: not implemented")
}

// Talk returns one talk with its related talks, or ErrNotFound.
func (e *Engine) Talk(ctx context.Context, id string) (*TalkDetail, error) {
	return nil, ErrNotFound
}

// Overlaps returns the overlap report of the corpus.
func (e *Engine) Overlaps(ctx context.Context, min float64) (*overlap.Report, error) {
	return overlap.Detect(nil, overlap.Options{Min: min}), nil
}

package scan

import (
	"context"
	"fmt"

	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
)

// Adjacent counts, of the first most talks (in document order) holding
// both terms a and b in any of fields, those that say them side by side
// in one field, a then b: how often the corpus writes the pair as one
// phrase. It reads the two terms' postings with their positions up to
// the most-th such talk and no further, whatever the corpus's size.
func (sc *Index) Adjacent(ctx context.Context, fields []string, a, b string, most int) (both, adjacent int, err error) {
	of := func(term string) query.Query {
		qs := make([]query.Query, 0, len(fields))
		for _, f := range fields {
			q := query.NewTermQuery(term)
			q.SetField(f)
			qs = append(qs, q)
		}
		return query.NewDisjunctionQuery(qs)
	}
	q := query.NewConjunctionQuery([]query.Query{of(a), of(b)})
	s, err := q.Searcher(ctx, sc.reader, sc.mapping, bsearch.SearcherOptions{IncludeTermVectors: true})
	if err != nil {
		return 0, 0, fmt.Errorf("pair %s %s: %w", a, b, err)
	}
	defer s.Close()
	sctx := &bsearch.SearchContext{
		DocumentMatchPool: bsearch.NewDocumentMatchPool(s.DocumentMatchPoolSize(), 0),
		IndexReader:       sc.reader,
	}
	terms := [][]string{{a}, {b}}
	for both < most {
		dm, err := s.Next(sctx)
		if err != nil {
			return 0, 0, fmt.Errorf("pair %s %s: %w", a, b, err)
		}
		if dm == nil {
			break
		}
		if n, _ := docNumber(dm.IndexInternalID); int(n) < len(sc.talks) && sc.talks[n] {
			both++
			if _, found := phrasePaths(dm.FieldTermLocations, terms, false, nil); found {
				adjacent++
			}
		}
		sctx.DocumentMatchPool.Put(dm)
	}
	return both, adjacent, nil
}

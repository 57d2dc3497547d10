package scan

import (
	"context"
	"fmt"
	"math"

	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	bsearcher "github.com/blevesearch/bleve/v2/search/searcher"
)

// A scan of a large corpus scores every match of a query's required part
// only (its words, phrases and fields), and the optional part (common
// words, proximity phrases, associated terms) only for the best talks of a
// request (ranking.RescoreWindow): the optional part, advanced by Bleve to
// every match of the required one, would score thousands of talks that no
// page shows, and it is what makes a long query's scan slow (`open source
// ai licensing`). The optional part only adds to a score, so a talk of the
// window ends up at least as high as every talk outside it: the page,
// inside the window, is ranked by the whole query's scores, and a talk
// outside the window that the optional part would have lifted onto the
// page is what this gives up (TestRescoreKeepsTheJudgedPages). Totals and
// facets are the required part's matches, which are the whole query's.

// Rescore gives the talks of window, a part of all, the whole query's
// scores, where a scan of the required part (of squared weight
// requiredWeight, Index.matches) scored all of them: every score is
// brought to the whole query's query norm, and the window's get the
// optional part's score, times the factor the scan applied.
func (sc *Index) Rescore(ctx context.Context, optional query.Query, requiredWeight float64, all, window []Match) error {
	ctx = withPhraseTalks(sc.scoringContext(ctx), docNumbers(window))
	searcher, err := sc.seekingSearcher(ctx, optional, bsearch.SearcherOptions{})
	if err != nil {
		return fmt.Errorf("score the optional part: %w", err)
	}
	defer searcher.Close()
	if _, none := searcher.(*bsearcher.MatchNoneSearcher); none {
		// Bleve leaves such a part out of the whole query too.
		return nil
	}
	// Bleve's query norm is 1/√(the squared weights of every term): of
	// the whole query here, of the required part in the scan.
	norm := 1 / math.Sqrt(requiredWeight+searcher.Weight())
	ratio := norm * math.Sqrt(requiredWeight)
	for i := range all {
		all[i].Score *= ratio
	}
	searcher.SetQueryNorm(norm)
	sctx := &bsearch.SearchContext{
		DocumentMatchPool: bsearch.NewDocumentMatchPool(searcher.DocumentMatchPoolSize()+1, 0),
		IndexReader:       sc.reader,
	}
	err = advanceTo(sctx, searcher, window, false, func(i int, dm *bsearch.DocumentMatch) {
		window[i].Score += dm.Score * window[i].Factor
	})
	if err != nil {
		return fmt.Errorf("score the optional part: %w", err)
	}
	return nil
}

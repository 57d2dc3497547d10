package search

// A scan of a large corpus scores every match of a query's required part
// only (its words, phrases and fields), and the optional part (common
// words, proximity phrases, associated terms) only for the best
// ranking.RescoreWindow talks of the request (scan.Index.Rescore): the
// optional part, advanced by Bleve to every match of the required one,
// would score thousands of talks that no page shows, and it is what makes
// a long query's scan slow. The optional part only adds to a score, so a
// talk of the window ends up at least as high as every talk outside it:
// the page, inside the window, is ranked by the whole query's scores, and
// a talk outside the window that the optional part would have lifted onto
// the page is what this gives up (TestRescoreKeepsTheJudgedPages). Totals
// and facets are the required part's matches, which are the whole
// query's.

// rescores says whether the scan of pl scores its optional part apart.
func (s *snapshot) rescores(pl plan) bool {
	return pl.optional != nil && !s.onePass()
}

package index

import "strings"

// AnalyzeTerms returns the index terms of text as the talk analyzer makes
// them (lower-cased, stemmed, technical tokens kept), in text order.
// Overlap detection and related talks use it so their terms are the index's.
// TODO(index): run the real analyzer (issue 3); this is a placeholder.
func AnalyzeTerms(text string) []string {
	return strings.Fields(strings.ToLower(text))
}

package index

// AnalyzeTerms returns the index terms of text as the talk analyzer makes
// them (lower-cased, stemmed, technical tokens kept), in text order.
// Overlap detection and related talks use it so their terms are the index's.
// A model variant gives two terms at one position (mi300x, mi300): both are
// returned, in that order.
func AnalyzeTerms(text string) []string {
	return termsOf(talkAnalyzer.Analyze([]byte(text)))
}

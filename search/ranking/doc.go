// Package ranking holds every number and rule that moves a talk's score:
// the weights of the fields and of a word's alternatives (synonyms,
// corrections, completions, compound parts, associated terms), the
// proximity boosts, soft coordination, break damping, the BM25 statistics
// searches score with, and the rescoring window of large corpora.
//
// A talk's score is Bleve's BM25 score of the compiled query (whose
// boosts come from weights.go) times Factors.Of: soft coordination over
// the query's clauses the talk matches, times Break for a break. Every
// execution path, the one pass of a small corpus and the scan of a large
// one, applies that one function, and Explain says the same in words.
package ranking

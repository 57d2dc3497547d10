// Package syntax parses what a person types into a search box (Parse):
// words, "phrases", -exclusions and field prefixes. It is pure (no index,
// no analyzer), never fails, and is fuzzed; the search engine compiles its
// Query into Bleve queries.
package syntax

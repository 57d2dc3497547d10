// Package search answers attendees' queries over the talk index: query
// parsing with typo tolerance and synonyms, facets, highlights, related
// talks and "did you mean". It translates Bleve's types into its own at the
// package edge, so the web layer never sees Bleve.
package search

// Package scan executes compiled queries over a talk index: the fast path
// of talksearch, and the only package that reads Bleve's segment internals
// (scorch's snapshot, zapx's segments and postings, roaring bitmaps).
//
// An Index is one fixed reader of an index, numbered: matches are talks by
// internal document number, and the engine keeps what each number is. A
// small corpus is searched in one pass of the query's Bleve searcher that
// keeps the positions of the matched words (Located), its term readers
// reading each term's postings decoded once per Index (memo.go). A large
// one is scanned (Matches): a query of conjunctions, disjunctions, terms
// and phrases is evaluated a term at a time over the segment's postings
// (tree.go), Bleve's scores to the bit; the clauses each talk matches come
// from the term dictionaries as bitmaps (masks.go); the thesaurus's phrases
// are read once per index (KnowPhrases); the scan is split by document
// number across cores; the optional part of a query is scored for the
// best talks only (Rescore); the page's matched words are located by
// searchers that seek through postings chunks (seek.go, Locate). Any other
// query goes through its Bleve searcher. Every path multiplies Bleve's
// score by ranking.Factors.Of.
//
// FastPath says when an index cannot take the fast path (another segment
// type or version after a Bleve upgrade), and the Verify functions hold
// each part of it to Bleve's own searchers on any query.
package scan

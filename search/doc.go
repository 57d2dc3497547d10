// Package search answers attendees' queries over the talk index: query
// parsing with typo tolerance and synonyms, facets, highlights, related
// talks and "did you mean". It translates Bleve's types into its own plain
// Go values at the package edge, so the web layer never sees Bleve (and
// web alone gives them their JSON form).
//
// # Queries
//
// A query is what a person types in a search box, parsed by syntax.Parse and
// never rejected for its syntax: plain words, "quoted phrases", -exclusions
// and the prefixes title:, speaker: (by:), abstract: and track:. Every plain
// word counts and none is required: a coordination factor weighted by each
// word's rarity (softCoord) ranks talks with all the words above talks with
// some, on both search paths; BM25 scores with the fields' real mean
// lengths (bm25.go), not Bleve's estimate; a title match weighs three
// times an abstract match, a speaker match twice, and the words next to
// each other score again as a phrase. Common words (in more than a fifth of
// the talks) count together as one word, and question filler ("how do I")
// not at all. A word the index does not know is corrected to the closest
// corpus words (edit distance, a swap counting as one, most used first) at a
// lower weight, and the response says "did you mean"; a word with synonyms
// (synonyms.Thesaurus: MoE, mixture of experts) also matches them at half
// weight, and the response lists them.
//
// # Results
//
// Facets on track, level and room count each facet without its own
// selection, in Go over every matching talk (facets.go): conference-sized
// corpora get the matches from one Bleve search, large ones from a scan
// split across cores (scan.go): a query of conjunctions, disjunctions,
// terms and phrases reads its terms' postings from the index's one segment
// and combines the scores itself, Bleve's scores to the bit (treescan.go;
// seek.go jumps a term's postings to a part's first talk or a phrase's
// next candidate; knownphrase.go finds the thesaurus's phrases once per
// index); any other through its Bleve searcher.
// Highlights are Bleve's html highlighter driven directly: the whole title,
// the two best abstract fragments cut at word boundaries, only fragments
// with a match. Related talks (related.go) are the best-scored talks of a
// scan for the talk's distinctive terms (ties in talk order), ranked by the
// cosine of their termvec vectors, the weighting overlap detection uses too.
//
// # Engine
//
// An Engine holds an immutable snapshot of one corpus (index, talks, term
// statistics, related lists, a result cache) behind an atomic pointer;
// Replace builds a new snapshot completely before swapping it in, so a live
// re-index never serves a half-built index.
package search

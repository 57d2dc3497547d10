// Package search answers attendees' queries over the talk index: the
// engine API (Engine, Request, Result), query understanding (typo
// corrections, synonyms, acronyms, associations, the cost budget), facets,
// related talks and "did you mean". Its types are plain Go values: web
// alone gives them their JSON form, and never sees Bleve.
//
// Where each job lives:
//
//   - search: the engine and its snapshots (engine.go), query compilation
//     (query.go, cost.go, prune.go), corrections and completions
//     (suggest.go, fuzzy.go, variants.go), synonyms (synonyms.go),
//     associations (assoc.go), paging and facets (results.go, facets.go,
//     filters.go), related talks (related.go), kept derivations (kept.go).
//   - search/ranking: every number and rule that moves a score, and the
//     explanation of a score.
//   - search/scan: the execution of queries over the index, the only code
//     that reads Bleve's segment internals.
//   - search/highlight: the HTML fragments of a hit.
//   - search/syntax, search/synonyms, search/termvec, search/overlap: the
//     query parser, the thesaurus, term vectors, organizers' overlaps.
//
// # Queries
//
// A query is what a person types in a search box, parsed by syntax.Parse and
// never rejected for its syntax: plain words, "quoted phrases", -exclusions
// and the prefixes title:, speaker: (by:), abstract: and track:. Every plain
// word counts and none is required: soft coordination weighted by each
// word's rarity (ranking.Factors) ranks talks with all the words above
// talks with some; BM25 scores with the fields' real mean lengths
// (ranking.BM25Stats), not Bleve's estimate; field weights, proximity
// boosts and the weights of a word's alternatives are ranking's. Common
// words (in more than ranking.CommonShare of the talks) count together as
// one word, and question filler ("how do I") not at all. A word the index
// does not know is corrected to the closest corpus words (edit distance, a
// swap counting as one, most used first) at a lower weight, and the
// response says "did you mean"; a word with synonyms (synonyms.Thesaurus:
// MoE, mixture of experts) also matches them at a lower weight, and the
// response lists them.
//
// # Execution
//
// A corpus of at most Options.OnePassMax talks is searched in one pass
// that also collects the positions of the matched words (scan.Index.Located);
// a larger one is scanned without positions (scan.Index.Matches), its
// optional part rescored for the best talks only, and the page's matched
// words located afterwards. Both paths multiply Bleve's score by the same
// ranking.Factors.Of; the relevance collections run on both.
//
// # Engine
//
// An Engine holds an immutable snapshot of one corpus (index, talks, term
// statistics, related lists, a result cache) behind an atomic pointer;
// Replace builds a new snapshot completely before swapping it in, so a live
// re-index never serves a half-built index.
package search

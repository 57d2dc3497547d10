// Package analysis is the talk_en analyzer, registered with Bleve in
// init(), and the word lists and text folding that every part of
// talksearch comparing words uses: the index (mapping), queries (search),
// related talks and overlap detection (through AnalyzeTerms and Tokens),
// and ingest's paragraph dedup (FoldText, MatchWords, Shingles). One
// analyzer, so a term means the same everywhere.
package analysis

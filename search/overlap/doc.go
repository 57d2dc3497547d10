// Package overlap finds, for the program committee, submissions that are the
// same talk twice, that overlap in topic, and similar talks scheduled in
// parallel, and explains each pair with shared terms and matching passages.
//
// Detect works in four steps.
//
//  1. Terms. Title and abstract are analysed by the index's analyzer
//     (analysis.Tokens), so the terms are the search index's stemmed terms
//     (C++ is cpp, torch.compile is torch and compile, KV-cache is KV cache).
//     English function words and the words every submission to a PyTorch
//     conference uses (PyTorch, training, GPU, model, performance, talk,
//     learn, …) are dropped (termvec.Content). Names written in words add
//     the one-word name's term (synonyms.Names: RL and reinforcement
//     learning, CUDA Graphs and CUDAGraphs, KV cache, post-training,
//     torch.compile). Each talk becomes a termvec vector: sublinear term
//     frequency, a title word counting as three abstract words, smoothed
//     idf, unit length; related talks weigh talks the same way.
//  2. Pairs. Every pair whose cosine reaches the lower of the report and
//     clash thresholds is found without comparing all pairs: rare terms go
//     into an inverted index whose postings accumulate the rare part of each
//     talk's cosine with every earlier talk; terms in more than 2% of the
//     talks (at least 200) are kept in a small dense vector per talk and
//     added only for candidates that can still reach the threshold. Talks
//     with the same words are paired as duplicates. Breaks are never paired.
//  3. Scores and kinds. Identical texts score 1 (duplicate). A pair whose
//     word 3-gram resemblance (Jaccard) reaches 0.3, or one of which is 80%
//     contained in the other, and whose cosine reaches 0.5 is the same text
//     edited (near-duplicate), scored by the larger of the two; the cosine
//     condition keeps a template filled in for two subjects ("Meet the vLLM
//     Maintainers", "Meet the Ray Maintainers") out. Other pairs are topical
//     and score their cosine, halved when one shared term carries nearly all
//     of it, scaled down when a talk has fewer than 8 terms (a title
//     without an abstract), and to 0.6 when 90% of it comes from terms in
//     8% of the talks or more (generic.go: vLLM, LLM, CPU on the seeds). A
//     topical pair of one kind by the same speaker (speaker code, or the
//     name folded) reaching cosine 0.3 is a resubmission (speakers.go).
//  4. Report. The best pairs (at most MaxPairs) are explained: their most
//     distinctive shared terms, shown as the talks write them, and for each
//     talk the sentences that carry most of them, HTML-escaped with the
//     shared words in <mark>. Pairs are grouped into clusters, joined best
//     first but only while the groups stay similar on average and small,
//     and named by the terms their pairs share most. Pairs of talks that
//     overlap in time in different rooms are the schedule clashes.
//
// Detect takes talks, whatever they were read from: the seeds, or a call
// for papers read by index/ingest's Importer (CSV, JSON Lines and the
// schedule exports), whose accounting of the files' rows a Report carries.
package overlap

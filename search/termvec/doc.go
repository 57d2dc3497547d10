// Package termvec is the one tf-idf term vector of talksearch: related talks
// (search) and overlap detection (search/overlap) weigh, compare and explain
// talks with it, so the talk page and the organizers' page agree on what
// two talks share.
//
// A vector holds a text's content terms (index terms, from
// index/analysis, that can say what a talk is about: see Content), each
// weighed
//
//	(1 + ln tf) × ln(1 + N/df) × boost
//
// and scaled to unit length, so a dot product is the cosine. tf counts a
// title occurrence as TitleWeight abstract occurrences (a title states what
// the talk is about); the idf is smoothed so that a term in every talk of a
// small set (two submissions) still weighs something; boost is the caller's
// (related talks double names such as Monarch or vLLM, 0 drops a term).
// Where df comes from is the caller's too: overlap counts the talks it
// compares (Vocab.Count), related talks read the index's term dictionary
// (NewVocab).
package termvec

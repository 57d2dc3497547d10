package scan

import (
	"context"
	"fmt"
	"slices"
	"strings"

	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// A query word with a synonym of several words (`LLMs`: "large language
// models") searches that synonym as a phrase in every field, and at 100k
// talks a phrase of common words is the costly part of such a search: its
// terms' positions are read at every talk with all of them, walking the
// postings of "model" in 70,000 abstracts. The thesaurus's phrases are
// known when an index is opened, so a large corpus reads each of them once
// (KnowPhrases): the talks with it and its terms' frequencies and field
// lengths there, all that scores a phrase. A tree scan then scores such a
// phrase from those, as it would from the postings.

// knownPhrase is what a phrase matches in a field: the talks with it, in
// document order, and for each its terms' frequencies and field lengths
// (those of talk j's term i at j × terms + i). They are kept for the
// snapshot's life, so as small as they hold: a term's frequency in one
// field of one talk fits 32 bits, and no spare room is kept.
type knownPhrase struct {
	docs    []uint32
	freqs   []uint32
	lengths []float64
}

// KnowPhrases reads what each of phrases matches, once, for the tree scans
// of the index (the phrases of the thesaurus: their terms' frequencies
// and field lengths at the talks with the phrase). ctx carries the BM25
// statistics of the searches. Where there is no tree scan it does
// nothing.
func (sc *Index) KnowPhrases(ctx context.Context, phrases []Phrase) error {
	ctx = sc.scoringContext(ctx)
	c, ok := sc.treeCompiler(ctx)
	if !ok {
		return nil
	}
	e := &treeEval{ctx: ctx, sc: sc, deleted: c.deleted, to: uint64(len(sc.talks))}
	out := map[string]*knownPhrase{}
	for _, q := range phrases {
		key := phraseKey(q)
		if _, done := out[key]; done {
			continue
		}
		n, err := c.phrase(q)
		if err != nil {
			return fmt.Errorf("phrase %v in %s: %w", q.Terms, q.FieldVal, err)
		}
		if n == nil {
			continue
		}
		k := &knownPhrase{}
		err = e.phraseDocs(n, func(d uint32, ps []segment.Posting) {
			k.docs = append(k.docs, d)
			for _, posting := range ps {
				k.freqs = append(k.freqs, uint32(posting.Frequency()))
				k.lengths = append(k.lengths, e.fieldLength(posting))
			}
		})
		if err != nil {
			return fmt.Errorf("phrase %v in %s: %w", q.Terms, q.FieldVal, err)
		}
		k.docs, k.freqs, k.lengths = slices.Clone(k.docs), slices.Clone(k.freqs), slices.Clone(k.lengths) // without the appends' spare room
		out[key] = k
	}
	sc.phrases, sc.knownQueries = out, phrases
	return nil
}

// phraseKey names a phrase by its field and its terms where they stand,
// gaps included: what decides the talks it matches.
func phraseKey(q Phrase) string {
	var b strings.Builder
	b.WriteString(q.FieldVal)
	for _, alts := range trimLeadingGaps(q.Terms) {
		b.WriteByte(0)
		if !isGap(alts) {
			b.WriteString(strings.Join(alts, "\x01"))
		}
	}
	return b.String()
}

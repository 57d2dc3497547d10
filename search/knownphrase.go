package search

import (
	"context"
	"fmt"
	"strings"

	segment "github.com/blevesearch/scorch_segment_api/v2"
	"github.com/talksearch/talksearch/search/ranking"
)

// A query word with a synonym of several words (`LLMs`: "large language
// models") searches that synonym as a phrase in every field, and at 100k
// talks a phrase of common words was half of such a search: its terms'
// positions read at every talk with all of them, walking the postings of
// "model" in 70,000 abstracts. The thesaurus's phrases are known when an
// index is opened, so a large corpus reads each of them once
// (knownPhrases): the talks with it and its terms' frequencies and field
// lengths there, all that scores a phrase. A tree scan then scores such a
// phrase from those, as it would from the postings.

// knownPhrase is what a phrase matches in a field: the talks with it, in
// document order, and for each its terms' frequencies and field lengths
// (those of talk j's term i at j × terms + i).
type knownPhrase struct {
	docs    []uint32
	freqs   []uint64
	lengths []float64
}

// knownPhrases returns what each phrase of several terms of the thesaurus
// matches in each field a query searches, by phraseKey: for the tree
// scans of a snapshot that is not searched in one pass. nil where there is
// no tree scan.
func (s *snapshot) knownPhrases(ctx context.Context) (map[string]*knownPhrase, error) {
	if s.thesaurus == nil || s.onePass() {
		return nil, nil
	}
	ctx = s.scan.scoringContext(s.withBM25(ctx))
	c, ok := s.scan.treeCompiler(ctx)
	if !ok {
		return nil, nil
	}
	e := &treeEval{ctx: ctx, sc: s.scan, deleted: c.deleted, to: uint64(len(s.scan.docs))}
	out := map[string]*knownPhrase{}
	for _, g := range s.thesaurus.Groups() {
		for _, p := range g.Phrases {
			if !s.compound(p) {
				continue
			}
			for _, fw := range ranking.Fields {
				q, ok := s.phraseQuery(fw.Field, p, 1).(textPhrase)
				if !ok {
					continue // a term the field does not have
				}
				key := phraseKey(q)
				if _, done := out[key]; done {
					continue
				}
				n, err := c.phrase(q)
				if err != nil {
					return nil, fmt.Errorf("phrase %q in %s: %w", p, fw.Field, err)
				}
				if n == nil {
					continue
				}
				k := &knownPhrase{}
				err = e.phraseDocs(n, func(d uint32, ps []segment.Posting) {
					k.docs = append(k.docs, d)
					for _, posting := range ps {
						k.freqs = append(k.freqs, posting.Frequency())
						k.lengths = append(k.lengths, e.fieldLength(posting))
					}
				})
				if err != nil {
					return nil, fmt.Errorf("phrase %q in %s: %w", p, fw.Field, err)
				}
				out[key] = k
			}
		}
	}
	return out, nil
}

// phraseKey names a phrase by its field and its terms where they stand,
// gaps included: what decides the talks it matches.
func phraseKey(q textPhrase) string {
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

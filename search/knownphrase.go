package search

import (
	"context"
	"fmt"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
)

// A query word with a synonym of several words (`LLMs`: "large language
// models") searches that synonym as a phrase in every field, and at 100k
// talks a phrase of common words was half of such a search: its terms'
// positions are read at every talk with all of them, walking the postings
// of "model" in 70,000 abstracts. The thesaurus's phrases are known when
// an index is opened, so a large corpus finds the talks with each of them
// once (knownPhrases), and a tree scan then reads only its terms'
// frequencies and norms at those talks, which score the phrase as before.

// knownPhrases returns the talks with each phrase of several terms of the
// thesaurus, in each field a query searches, by phraseKey: for the tree
// scans of a snapshot that is not searched in one pass. nil where there is
// no tree scan.
func (s *snapshot) knownPhrases(ctx context.Context) (map[string]*roaring.Bitmap, error) {
	if s.thesaurus == nil || s.onePass() {
		return nil, nil
	}
	ctx = s.scan.scoringContext(s.withBM25(ctx))
	c, ok := s.scan.treeCompiler(ctx)
	if !ok {
		return nil, nil
	}
	e := &treeEval{ctx: ctx, sc: s.scan, deleted: c.deleted, to: uint64(len(s.scan.docs))}
	out := map[string]*roaring.Bitmap{}
	for _, g := range s.thesaurus.Groups() {
		for _, p := range g.Phrases {
			if !s.compound(p) {
				continue
			}
			for _, fw := range fieldWeights {
				q, ok := s.phraseQuery(fw.field, p, 1).(textPhrase)
				if !ok {
					continue // a term the field does not have
				}
				key := phraseKey(q)
				if _, done := out[key]; done {
					continue
				}
				n, err := c.phrase(q)
				if err != nil {
					return nil, fmt.Errorf("phrase %q in %s: %w", p, fw.field, err)
				}
				if n == nil {
					continue
				}
				docs := roaring.New()
				if err := e.eachOfPhrase(n, func(d uint32, _ float64) { docs.Add(d) }); err != nil {
					return nil, fmt.Errorf("phrase %q in %s: %w", p, fw.field, err)
				}
				docs.RunOptimize()
				out[key] = docs
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

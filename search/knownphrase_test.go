package search

import (
	"context"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/talksearch/talksearch/search/ranking"
)

// TestKnownPhrasesAreBlevesPhrases: the talks known to have each of the
// thesaurus's phrases in a field are those Bleve's phrase searcher finds,
// on the FOSDEM archive and the seeds scanned; a corpus searched in one
// pass knows none. (The scores from their frequencies and lengths are
// held to Bleve's by TestTreeScanIsBlevesScan.)
func TestKnownPhrasesAreBlevesPhrases(t *testing.T) {
	ctx := context.Background()
	compared, talks := 0, uint64(0)
	for _, s := range []*snapshot{scannedSeeds(t), archiveEngine(t).snap.Load()} {
		sc := s.scan
		for _, g := range s.thesaurus.Groups() {
			for _, p := range g.Phrases {
				for _, fw := range ranking.Fields {
					q, ok := s.phraseQuery(fw.Field, p, 1).(textPhrase)
					if !ok || !s.compound(p) {
						continue
					}
					known, ok := sc.phrases[phraseKey(q)]
					if !ok {
						t.Fatalf("%q in %s: no known talks", p, fw.Field)
					}
					searcher, err := q.MultiPhraseQuery.Searcher(sc.scoringContext(s.withBM25(ctx)), sc.reader, sc.mapping, bsearch.SearcherOptions{})
					if err != nil {
						t.Fatal(err)
					}
					want := roaring.New()
					sctx := &bsearch.SearchContext{DocumentMatchPool: bsearch.NewDocumentMatchPool(searcher.DocumentMatchPoolSize(), 0), IndexReader: sc.reader}
					dm, err := searcher.Next(sctx)
					for ; err == nil && dm != nil; dm, err = searcher.Next(sctx) {
						n, _ := docNumber(dm.IndexInternalID)
						want.Add(uint32(n))
						sctx.DocumentMatchPool.Put(dm)
					}
					searcher.Close()
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(known.docs, want.ToArray()) {
						t.Fatalf("%q in %s: known in %d talks, Bleve's phrase in %d", p, fw.Field, len(known.docs), want.GetCardinality())
					}
					terms := 0
					for _, alts := range trimLeadingGaps(q.Terms) {
						if !isGap(alts) {
							terms++
						}
					}
					if len(known.freqs) != len(known.docs)*terms || len(known.lengths) != len(known.freqs) {
						t.Fatalf("%q in %s: %d talks, %d frequencies, %d lengths", p, fw.Field, len(known.docs), len(known.freqs), len(known.lengths))
					}
					compared++
					talks += want.GetCardinality()
				}
			}
		}
	}
	t.Logf("%d phrases in a field compared, %d talks", compared, talks)
	if compared < 3000 || talks < 10_000 {
		t.Errorf("%d phrases in a field compared, %d talks: want 3,000 and 10,000", compared, talks)
	}
	if e, _ := seedEngine(t); e.snap.Load().scan.phrases != nil {
		t.Error("the seeds, searched in one pass, know phrases")
	}
}

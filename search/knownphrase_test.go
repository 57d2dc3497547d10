package search

import (
	"context"
	"testing"
)

// TestKnownPhrasesAreBlevesPhrases: the talks known to have each of the
// thesaurus's phrases in a field are those Bleve's phrase searcher finds,
// on the seeds scanned, a synthetic corpus made from them and the FOSDEM
// archive where it is at hand; a corpus searched in one
// pass knows none. (The scores from their frequencies and lengths are
// held to Bleve's by TestTreeScanIsBlevesScan.)
func TestKnownPhrasesAreBlevesPhrases(t *testing.T) {
	ctx := context.Background()
	compared, talks := 0, uint64(0)
	for _, s := range scannedSnapshots(t) {
		n, k, err := s.scan.VerifyKnownPhrases(s.withBM25(ctx))
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Errorf("a scanned corpus of %d talks knows no phrase", len(s.byID))
		}
		compared += n
		talks += k
	}
	t.Logf("%d phrases in a field compared, %d talks", compared, talks)
	if wantP, wantT := atLeast(t, 300, 3000), atLeast(t, 3000, 10_000); compared < wantP || talks < uint64(wantT) {
		t.Errorf("%d phrases in a field compared, %d talks: want %d and %d", compared, talks, wantP, wantT)
	}
	if e, _ := seedEngine(t); e.snap.Load().scan.KnownPhrases() != 0 {
		t.Error("the seeds, searched in one pass, know phrases")
	}
}

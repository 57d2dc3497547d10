package search

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
)

// streamed is talks as a reader of a large corpus keeps them: without
// their texts, which are in a store kept in a file.
func streamed(t testing.TB, talks []index.Talk) index.Slim {
	t.Helper()
	defer func(n int) { index.FileTextMin = n }(index.FileTextMin)
	index.FileTextMin = 1
	c, err := index.SlimOf(t.TempDir(), talks)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// sameAsWhole checks that a corpus given streamed (NewSlim) derives and
// answers as the same talks given whole: the same vocabulary, thesaurus
// and kept derivations, then sameAnswers (whole results: ranked ids,
// scores, highlights, facets; talk pages with related talks).
func sameAsWhole(t *testing.T, whole *Engine, talks []index.Talk, queries []string) {
	t.Helper()
	slim, err := NewSlim(streamed(t, talks), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer slim.Close()
	ws, ss := whole.snap.Load(), slim.snap.Load()
	if d := cmp.Diff(ws.vocab.kept(), ss.vocab.kept()); d != "" {
		t.Errorf("vocabulary (-whole +streamed):\n%s", d)
	}
	if d := cmp.Diff(ws.thesaurus.Groups(), ss.thesaurus.Groups()); d != "" {
		t.Errorf("thesaurus (-whole +streamed):\n%s", d)
	}
	if d := cmp.Diff(whole.Kept(), slim.Kept()); d != "" {
		t.Errorf("kept (-whole +streamed):\n%s", d)
	}
	if ws.thesaurus == nil || len(ws.thesaurus.Groups()) == 0 || len(ws.vocab.sorted) == 0 {
		t.Fatal("nothing derived to compare")
	}
	sameAnswers(t, whole, slim, queries)
}

func TestSlimCorpusAnswersAsWholeSeeds(t *testing.T) {
	e, c := seedEngine(t)
	var qs []string
	for _, r := range benchRequests {
		qs = append(qs, r.Query)
	}
	sameAsWhole(t, e, c.Talks, qs)
}

// TestSlimCorpusAnswersAsWholeFOSDEM: the same on the FOSDEM archive, with
// its judged queries, whose corpus mines associations and aliases too.
func TestSlimCorpusAnswersAsWholeFOSDEM(t *testing.T) {
	if testing.Short() {
		t.Skip("the FOSDEM archive is skipped with -short")
	}
	e, c := fosdemEngine(t)
	sameAsWhole(t, e, c.Talks, fosdemQueries(t))
}

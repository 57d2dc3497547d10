package search

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search/syntax"
)

// noExpansions fails t when the query q, made of words s's corpus has as
// typed, is expanded: corrected, completed, given synonyms or associated
// terms, or matched by any index term but its words' own.
func noExpansions(t *testing.T, s *snapshot, q string) {
	t.Helper()
	pl := s.compile(syntax.Parse(q))
	if len(pl.fixes) > 0 || len(pl.synonyms) > 0 {
		t.Errorf("%q: corrections %v, synonyms %v, want none", q, pl.fixes, pl.synonyms)
	}
	var own []string
	for _, w := range strings.Fields(q) {
		if s.vocab.df[strings.ToLower(w)] == 0 {
			t.Fatalf("%q: %q is not a word of the corpus: the case this test is for does not arise", q, w)
		}
		if s.completions(w) != nil {
			t.Errorf("%q: %q completed to %v", q, w, s.completions(w))
		}
		own = append(own, s.analyze(w)...)
	}
	for _, c := range pl.coord {
		for _, term := range c.Terms {
			if !slices.Contains(own, term) {
				t.Errorf("%q: a clause matches %q, not a term of the query's words %v", q, term, own)
			}
		}
	}
}

// TestNoDriftForCorpusWords: a word the corpus has as typed, in any field,
// is never expanded into other words (drift.go).
func TestNoDriftForCorpusWords(t *testing.T) {
	t.Run("seeds", func(t *testing.T) {
		e, _ := seedEngine(t)
		s := e.snap.Load()
		for _, q := range []string{"embedded", "embedding", "local", "monitoring", "monarch", "speculative",
			"debugging", "llama", "kernel", "inference", "embedded kernel", "local monitoring"} {
			noExpansions(t, s, q)
		}
	})
	t.Run("archive", func(t *testing.T) {
		e, _ := earlyArchive(t)
		s := e.snap.Load()
		// Associations are mined at this size: "replication" was
		// associated with "database" beside "postgresql".
		// Not "localisation" nor "localization": their spelling variant is
		// kept, and "localization" is stemmed "local" (drift.go).
		for _, q := range []string{"local", "embedded", "embedding", "monitoring",
			"postgresql replication", "rust embedded", "local first", "embedded firmware"} {
			noExpansions(t, s, q)
		}
	})
}

// driftTalks are invented talks: a speaker whose name has an accent, talks
// on monitoring that a completion of the name without it would reach, and
// a word whose stem others share far more often.
func driftTalks() []index.Talk {
	return []index.Talk{
		{ID: "blocks", Title: "Blocks for young programmers", Abstract: "A visual language for classrooms.", Speakers: []index.Speaker{{Name: "Olaf Mönik"}}},
		{ID: "metrics", Title: "Monitoring a fleet", Abstract: "Monitoring dashboards and alerts.", Speakers: []index.Speaker{{Name: "Ada Quist"}}},
		{ID: "alerts", Title: "Monitors that page you", Abstract: "Monitor less, sleep more.", Speakers: []index.Speaker{{Name: "Ben Ruud"}}},
		{ID: "sync", Title: "Local-first sync", Abstract: "Local data, local apps.", Speakers: []index.Speaker{{Name: "Cy Dorn"}}},
		{ID: "lan", Title: "Local network access", Abstract: "Reaching local devices.", Speakers: []index.Speaker{{Name: "Dee Olm"}}},
		{ID: "cache", Title: "Local caches", Abstract: "Keeping it local.", Speakers: []index.Speaker{{Name: "Eve Pratt"}}},
		{ID: "l10n", Title: "Localization of a desktop", Abstract: "Translating menus.", Speakers: []index.Speaker{{Name: "Fay Rook"}}},
	}
}

// driftEngine is an engine over driftTalks, closed with the test.
func driftEngine(t *testing.T) *Engine {
	t.Helper()
	e, err := New(driftTalks())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// TestFoldedNameIsTheName: "Olaf Monik" is the speaker Olaf Mönik, not a
// typo to correct, nor a word to complete to "monitoring".
func TestFoldedNameIsTheName(t *testing.T) {
	e := driftEngine(t)
	s := e.snap.Load()
	if len(s.completions("Monik")) == 0 {
		t.Fatal("monik has no completion: the case this test is for does not arise")
	}
	for _, q := range []string{"Olaf Monik", "Monik"} {
		pl := s.compile(syntax.Parse(q))
		if len(pl.fixes) > 0 || !slices.Equal(pl.synonyms, []string{"Monik → Mönik"}) {
			t.Errorf("%q: corrections %v, synonyms %v, want only Monik → Mönik", q, pl.fixes, pl.synonyms)
		}
		res, err := e.Search(context.Background(), Request{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"blocks"}, hitIDs(res), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%q (-want +got):\n%s", q, diff)
		}
	}
}

// TestDriftingCorrectionLeftOut: "localizaton" is one edit from
// "localization", whose stem "local" four talks of other words have: the
// correction would find them, so it is not made.
func TestDriftingCorrectionLeftOut(t *testing.T) {
	e := driftEngine(t)
	s := e.snap.Load()
	if got := s.corrections("localizaton", typoEdits(1)); !slices.Equal(got, []string{"localization"}) {
		t.Fatalf("corrections of localizaton: %v: the case this test is for does not arise", got)
	}
	pl := s.compile(syntax.Parse("localizaton"))
	if len(pl.fixes) > 0 {
		t.Errorf("corrections %v, want none", pl.fixes)
	}
	res, err := e.Search(context.Background(), Request{Query: "localizaton"})
	if err != nil {
		t.Fatal(err)
	}
	if len(hitIDs(res)) != 0 {
		t.Errorf("found %v, want nothing", hitIDs(res))
	}
}

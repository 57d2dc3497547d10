package search

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
)

// onDisk are Options whose index is index.Open's in dir, as serve --index.
func onDisk(dir string) Options {
	return Options{Index: func(ts []index.Talk) (bleve.Index, error) {
		idx, _, err := index.Open(dir, ts)
		return idx, err
	}}
}

func newEngineT(t *testing.T, talks []index.Talk, o Options) *Engine {
	t.Helper()
	e, err := NewWithOptions(talks, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// keptQueries are searches whose answers depend on what is kept: typos
// corrected against the vocabulary, joined and hyphenated forms, mined
// acronyms and CamelCase names of the thesaurus, curated synonyms.
var keptQueries = []string{
	"monarch", "Monrach", "speculativ decoding", "pretraining", "pre-training", "MoE", "mixture of experts",
	"flex attention", "FlexAttention", "kv cache", "torch.compile", "debugger", "zzzzqqq", "reinforcment learning",
	"virtualisation", "LLM inference", `"expert parallelism"`, "track:Inference gpu",
}

// sameAnswers checks that b answers every query, talk and related list as
// a does.
func sameAnswers(t *testing.T, a, b *Engine, queries []string) {
	t.Helper()
	ctx := context.Background()
	for _, q := range queries {
		for _, r := range []Request{{Query: q}, {Query: q, Sort: SortTime, Limit: 5}} {
			ra, err := a.Search(ctx, r)
			if err != nil {
				t.Fatalf("%q: %v", q, err)
			}
			rb, err := b.Search(ctx, r)
			if err != nil {
				t.Fatalf("%q: %v", q, err)
			}
			if diff := cmp.Diff(ra, rb, cmpopts.IgnoreFields(Result{}, "TookMS"), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%+v: answers differ (-fresh +restarted):\n%s", r, diff)
			}
		}
	}
	for _, tk := range a.Talks()[:min(50, len(a.Talks()))] {
		da, err := a.Talk(ctx, tk.ID)
		if err != nil {
			t.Fatal(err)
		}
		db, err := b.Talk(ctx, tk.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(da, db, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("talk %s differs (-fresh +restarted):\n%s", tk.ID, diff)
		}
	}
}

// sameDerivations checks that b's vocabulary and thesaurus are a's.
func sameDerivations(t *testing.T, a, b *Engine) {
	t.Helper()
	sa, sb := a.snap.Load(), b.snap.Load()
	// Every part but the letter signatures, computed on a vocabulary's
	// first correction (fuzzy.go), which the shared fresh engine may
	// have made.
	va, vb := sa.vocab, sb.vocab
	if !reflect.DeepEqual(va.df, vb.df) || !reflect.DeepEqual(va.hyphens, vb.hyphens) || !reflect.DeepEqual(va.byLen, vb.byLen) ||
		!reflect.DeepEqual(va.runes, vb.runes) || !reflect.DeepEqual(va.sorted, vb.sorted) ||
		!reflect.DeepEqual(va.folded, vb.folded) || !reflect.DeepEqual(va.speakers, vb.speakers) {
		t.Errorf("vocabulary differs: %d words fresh, %d restarted", len(sa.vocab.sorted), len(sb.vocab.sorted))
	}
	if diff := cmp.Diff(sa.thesaurus.Groups(), sb.thesaurus.Groups()); diff != "" {
		t.Errorf("thesaurus groups differ (-fresh +restarted):\n%s", diff)
	}
}

func wantKept(t *testing.T, e *Engine, want Kept) {
	t.Helper()
	got := e.Kept()
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(Kept{}, "Problems")); diff != "" {
		t.Errorf("Kept (-want +got):\n%s", diff)
	}
	if len(got.Problems) != len(want.Problems) {
		t.Fatalf("problems %q, want %d like %q", got.Problems, len(want.Problems), want.Problems)
	}
	for i, p := range want.Problems {
		if !strings.Contains(got.Problems[i], p) {
			t.Errorf("problem %d: %q, want it to say %q", i, got.Problems[i], p)
		}
	}
}

var (
	allDerived = Kept{Derived: []string{keptBM25, keptThesaurus, keptVocabulary}}
	allLoaded  = Kept{Loaded: []string{keptBM25, keptThesaurus, keptVocabulary}}
)

// TestKeptDerivationsSeeds: a restart on an on-disk index reads the
// vocabulary and thesaurus the first start kept, and answers as an engine
// that derived them; a damaged or foreign sidecar is derived again,
// reported, and rewritten.
func TestKeptDerivationsSeeds(t *testing.T) {
	fresh, c := seedEngine(t)
	dir := t.TempDir()
	first := newEngineT(t, c.Talks, onDisk(dir))
	wantKept(t, first, allDerived)
	restarted := newEngineT(t, c.Talks, onDisk(dir))
	wantKept(t, restarted, allLoaded)
	sameDerivations(t, fresh, restarted)
	sameAnswers(t, fresh, restarted, append(heldOutCollection(t, c.Talks).queries, keptQueries...))

	if len(fresh.Kept().Loaded)+len(fresh.Kept().Problems) != 0 {
		t.Errorf("an in-memory engine kept something: %+v", fresh.Kept())
	}

	side := filepath.Join(dir, "current", "sidecar")
	// A flipped byte: the checksum says so; the vocabulary is derived and
	// kept again, the thesaurus still read.
	flipByte(t, filepath.Join(side, keptVocabulary), 100)
	damaged := newEngineT(t, c.Talks, onDisk(dir))
	wantKept(t, damaged, Kept{Loaded: []string{keptBM25, keptThesaurus}, Derived: []string{keptVocabulary},
		Problems: []string{"sidecar vocabulary: checksum mismatch"}})
	sameAnswers(t, fresh, damaged, keptQueries)
	wantKept(t, newEngineT(t, c.Talks, onDisk(dir)), allLoaded)

	// Truncated.
	if err := os.Truncate(filepath.Join(side, keptThesaurus), 10); err != nil {
		t.Fatal(err)
	}
	wantKept(t, newEngineT(t, c.Talks, onDisk(dir)), Kept{Loaded: []string{keptBM25, keptVocabulary}, Derived: []string{keptThesaurus},
		Problems: []string{"sidecar thesaurus: 10 bytes, truncated"}})

	// Intact, but kept for other talks: never read as these talks'.
	other := t.TempDir()
	newEngineT(t, fixtureTalks(t), onDisk(other))
	copyFile(t, filepath.Join(other, "current", "sidecar", keptVocabulary), filepath.Join(side, keptVocabulary))
	foreign := newEngineT(t, c.Talks, onDisk(dir))
	wantKept(t, foreign, Kept{Loaded: []string{keptBM25, keptThesaurus}, Derived: []string{keptVocabulary},
		Problems: []string{"written for other talks"}})
	sameDerivations(t, fresh, foreign)
	wantKept(t, newEngineT(t, c.Talks, onDisk(dir)), allLoaded)
}

// TestKeptDerivationsFOSDEM2025: the same on a real archive year, over
// the FOSDEM collection's queries.
func TestKeptDerivationsFOSDEM2025(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes FOSDEM 2025 three times")
	}
	f := fosdemFiles[1]
	if _, err := os.Stat(f); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("FOSDEM dataset %s: %v", f, err)
		}
		t.Skipf("FOSDEM dataset %s absent", f)
	}
	c, err := ingest.LoadPaths([]string{f}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Talks) != 1105 {
		t.Fatalf("FOSDEM 2025: %d talks, want 1,105", len(c.Talks))
	}
	fresh := newEngineT(t, c.Talks, Options{})
	dir := t.TempDir()
	// 1,105 talks are mined for associations (assoc.go), kept too.
	wantKept(t, newEngineT(t, c.Talks, onDisk(dir)), Kept{Derived: []string{keptAssociations, keptBM25, keptThesaurus, keptVocabulary}})
	restarted := newEngineT(t, c.Talks, onDisk(dir))
	wantKept(t, restarted, Kept{Loaded: []string{keptAssociations, keptBM25, keptThesaurus, keptVocabulary}})
	sameDerivations(t, fresh, restarted)
	if a, b := fresh.snap.Load().assoc, restarted.snap.Load().assoc; !reflect.DeepEqual(a.posts, b.posts) || !reflect.DeepEqual(a.docs, b.docs) {
		t.Errorf("associations differ after a restart")
	}
	var queries []string
	readTSV(t, filepath.Join(fosdemDir, "queries.tsv"), 2, func(_ int, cols []string) { queries = append(queries, cols[0]) })
	if len(queries) < 50 {
		t.Fatalf("%d FOSDEM queries", len(queries))
	}
	sameAnswers(t, fresh, restarted, append(queries, keptQueries...))
}

func flipByte(t *testing.T, path string, at int64) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, at); err != nil {
		t.Fatal(err)
	}
	b[0] ^= 0xff
	if _, err := f.WriteAt(b, at); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestOneShotSameAnswers: an engine that prepares nothing for further
// queries (the command line's) answers as a serving one does, on the
// scan path where the thesaurus's phrases are read once for all queries.
func TestOneShotSameAnswers(t *testing.T) {
	_, c := seedEngine(t)
	serving := newEngineT(t, c.Talks, Options{OnePassMax: -1})
	oneShot := newEngineT(t, c.Talks, Options{OnePassMax: -1, OneShot: true})
	if serving.snap.Load().scan.KnownPhrases() == 0 {
		t.Fatal("the serving engine knows no phrase: the case this test is for does not arise")
	}
	sameAnswers(t, serving, oneShot, append(heldOutCollection(t, c.Talks).queries, keptQueries...))
}

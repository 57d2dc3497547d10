package index

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/google/go-cmp/cmp"
)

// slimOf streams talks as a reader of a large corpus does (SlimOf).
func slimOf(t *testing.T, dir string, talks []Talk) Slim {
	t.Helper()
	c, err := SlimOf(dir, talks)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Texts.Close() })
	return c
}

// TestTextWriterReadsAsNewTextStore: written one talk at a time, the
// texts read back as NewTextStore's: on the heap below FileTextMin, in a
// file past it (written in several chunks, or past it only after
// some talks), and no file is left in the directory.
func TestTextWriterReadsAsNewTextStore(t *testing.T) {
	defer func(n, c int) { FileTextMin, textWriteChunk = n, c }(FileTextMin, textWriteChunk)
	for _, tc := range []struct {
		name           string
		fileMin, chunk int
		inFile         bool
	}{
		{"heap", 1 << 20, 1 << 20, false},
		{"in a file from the first text", 1, 1 << 20, true},
		{"in a file in chunks of 7 bytes", 1, 7, true},
		{"in a file from the third talk", 31, 5, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			FileTextMin, textWriteChunk = tc.fileMin, tc.chunk
			dir := t.TempDir()
			c := slimOf(t, dir, textTalks)
			if (c.Texts.file != nil) != tc.inFile || c.Texts.FileErr != nil {
				t.Fatalf("in a file %v (%v), want %v", (c.Texts.file != nil), c.Texts.FileErr, tc.inFile)
			}
			checkTexts(t, c.Texts)
			if left, err := os.ReadDir(dir); err != nil || len(left) != 0 {
				t.Fatalf("the writer left %d files in its directory (%v)", len(left), err)
			}
			for i, want := range textTalks {
				if got := c.Talk(i); !cmp.Equal(got, want) {
					t.Errorf("Talk(%d) = %+v, want %+v", i, got, want)
				}
			}
		})
	}
}

// TestTextWriterUnwritableDirectory: as NewTextStore, a directory that
// cannot take the file keeps the texts on the heap and says why.
func TestTextWriterUnwritableDirectory(t *testing.T) {
	defer func(n int) { FileTextMin = n }(FileTextMin)
	FileTextMin = 1
	c := slimOf(t, filepath.Join(t.TempDir(), "missing"), textTalks)
	if (c.Texts.file != nil) || c.Texts.FileErr == nil {
		t.Fatalf("in a file %v, FileErr %v: want the heap and the reason", (c.Texts.file != nil), c.Texts.FileErr)
	}
	checkTexts(t, c.Texts)
}

// variedTalks are n talks of several batches whose abstracts and
// descriptions hold words no title has, so an index missing the texts
// differs.
func variedTalks(n int) []Talk {
	talks := wordyTalks(n)
	for i := range talks {
		if i%3 == 0 {
			talks[i].Description = "Notes on scheduler" + strconv.Itoa(i%17) + " and café latency."
		}
		if i%5 == 0 {
			talks[i].Abstract = ""
		}
	}
	return talks
}

// fieldTerms is every field's dictionary: term → talks.
func fieldTerms(t *testing.T, idx bleve.Index) map[string]map[string]uint64 {
	t.Helper()
	out := map[string]map[string]uint64{}
	for _, f := range []string{FieldTitle, FieldAbstract, FieldDescription, FieldSpeakers, FieldTrackText, FieldRoomText} {
		d, err := idx.FieldDict(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = map[string]uint64{}
		for {
			e, err := d.Next()
			if err != nil {
				t.Fatal(err)
			}
			if e == nil {
				break
			}
			out[f][e.Term] = e.Count
		}
		d.Close()
	}
	return out
}

// TestBuildSlimMatchesBuild: a corpus streamed into a store indexes as the
// same talks held whole do: the same documents, every field's terms with
// the same counts, the same content hash, and either form reuses the
// index the other built.
func TestBuildSlimMatchesBuild(t *testing.T) {
	defer func(n int) { FileTextMin = n }(FileTextMin)
	FileTextMin = 1 // the texts in a file, as a large corpus's
	whole := variedTalks(2*batchSize + 13)
	c := slimOf(t, t.TempDir(), whole)
	for i := range c.Talks {
		if c.Talks[i].Abstract != "" || c.Talks[i].Description != "" {
			t.Fatalf("talk %d kept its texts", i)
		}
	}
	want, err := Build(whole)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Close()
	got, err := BuildSlim(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()
	if n, _ := got.DocCount(); n != uint64(len(whole)) {
		t.Fatalf("DocCount = %d, want %d", n, len(whole))
	}
	wantTerms, gotTerms := fieldTerms(t, want), fieldTerms(t, got)
	if d := cmp.Diff(wantTerms, gotTerms); d != "" {
		t.Fatalf("terms (-whole +streamed):\n%s", d)
	}
	if n := wantTerms[FieldDescription]["café"]; n != uint64((len(whole)+2)/3) {
		t.Fatalf("café in %d descriptions, want %d", n, (len(whole)+2)/3)
	}
	all := func(idx bleve.Index) []string {
		r := bleve.NewSearchRequestOptions(matchField(FieldDescription, "scheduler5"), len(whole), 0, false)
		res, err := idx.Search(r)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, h := range res.Hits {
			ids = append(ids, h.ID)
		}
		slices.Sort(ids)
		return ids
	}
	if ids, wantIDs := all(got), all(want); !cmp.Equal(ids, wantIDs) || len(ids) != 27 {
		t.Fatalf("scheduler5: streamed %d %v, whole %d %v", len(ids), ids, len(wantIDs), wantIDs)
	}

	wh, err := ContentHash(whole)
	if err != nil {
		t.Fatal(err)
	}
	if sh, err := contentHash(c); err != nil || sh != wh {
		t.Fatalf("content hash streamed %s (%v), whole %s", sh, err, wh)
	}
	dir := t.TempDir()
	idx, rep, err := OpenSlim(context.Background(), dir, c, nil)
	if err != nil || rep.Reused {
		t.Fatalf("first OpenSlim: reused %v, %v", rep.Reused, err)
	}
	idx.Close()
	if rep := openOK(t, dir, whole); !rep.Reused {
		t.Fatalf("the whole talks rebuilt the streamed talks' index: %s", rep.Reason)
	}
}

// TestMovedReadsInTheCorpusOrder: talks reordered in place (reversed) read
// through Moved as the corpus did, each with its own texts, whether Talk,
// Each, a sample or a batch reads them.
func TestMovedReadsInTheCorpusOrder(t *testing.T) {
	c := slimOf(t, t.TempDir(), textTalks)
	n := c.Len()
	reordered := slices.Clone(c.Talks)
	slices.Reverse(reordered)
	at := make([]int32, n)
	for i := range at {
		at[i] = int32(n - 1 - i)
	}
	m := Slim{Talks: reordered, Texts: c.Texts}.Moved(at)
	for i, want := range textTalks {
		if got := m.Talk(i); !cmp.Equal(got, want) {
			t.Errorf("Talk(%d) = %+v, want %+v", i, got, want)
		}
	}
	var ids []string
	m.EachEvery(2, func(i int, tk *Talk) {
		if !cmp.Equal(*tk, textTalks[i]) {
			t.Errorf("EachEvery: talk %d = %+v, want %+v", i, *tk, textTalks[i])
		}
		ids = append(ids, tk.ID)
	})
	var want []string
	for i := 0; i < n; i += 2 {
		want = append(want, textTalks[i].ID)
	}
	if !slices.Equal(ids, want) {
		t.Errorf("EachEvery(2) read %q, want %q", ids, want)
	}
	if got := m.batch(1, n); !cmp.Equal(got, textTalks[1:]) {
		t.Errorf("batch(1, %d) = %+v, want %+v", n, got, textTalks[1:])
	}
	// Whole talks (no store) read the same way.
	whole := slices.Clone(textTalks)
	slices.Reverse(whole)
	w := Whole(whole).Moved(at)
	if got := w.batch(0, n); !cmp.Equal(got, textTalks) {
		t.Errorf("whole: batch(0, %d) = %+v, want %+v", n, got, textTalks)
	}
}

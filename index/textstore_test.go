package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// textTalks are talks with every shape of text a store keeps: both texts,
// one of them, none, and text that is not ASCII.
var textTalks = []Talk{
	{ID: "a", Abstract: "Postgres replication in depth.", Description: "Slides and notes."},
	{ID: "b"},
	{ID: "c", Abstract: "Only an abstract."},
	{ID: "d", Description: "Only a description: café, 東京."},
}

func checkTexts(t *testing.T, s *TextStore) {
	t.Helper()
	if s.Len() != len(textTalks) {
		t.Fatalf("Len = %d, want %d", s.Len(), len(textTalks))
	}
	for i, want := range textTalks {
		if got := s.Abstract(i); got != want.Abstract {
			t.Errorf("Abstract(%d) = %q, want %q", i, got, want.Abstract)
		}
		if got := s.Description(i); got != want.Description {
			t.Errorf("Description(%d) = %q, want %q", i, got, want.Description)
		}
		got := Talk{ID: want.ID}
		s.Fill(i, &got)
		if got.Abstract != want.Abstract || got.Description != want.Description {
			t.Errorf("Fill(%d) = %q, %q; want %q, %q", i, got.Abstract, got.Description, want.Abstract, want.Description)
		}
	}
}

func TestTextStoreOnHeap(t *testing.T) {
	s := NewTextStore(t.TempDir(), textTalks)
	if s.file != nil {
		t.Fatal("a few bytes of text were put in a file")
	}
	checkTexts(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestTextStoreInFile: texts past FileTextMin are read from a file that is
// gone from the directory at once, and what was read stays valid once the
// store is closed.
func TestTextStoreInFile(t *testing.T) {
	defer func(n int) { FileTextMin = n }(FileTextMin)
	FileTextMin = 1
	dir := t.TempDir()
	s := NewTextStore(dir, textTalks)
	if s.file == nil || s.FileErr != nil {
		t.Fatalf("texts past FileTextMin are not in a file (%v)", s.FileErr)
	}
	if left, err := os.ReadDir(dir); err != nil || len(left) != 0 {
		t.Fatalf("the store left %d files in its directory (%v)", len(left), err)
	}
	checkTexts(t, s)
	// Read, the texts are no part of the process's memory: no mapping of
	// the file holds their pages.
	if maps, err := os.ReadFile("/proc/self/maps"); err != nil {
		t.Logf("no /proc/self/maps (%v): the mappings are not checked", err)
	} else if strings.Contains(string(maps), "talksearch-texts-") {
		t.Error("the texts' file is mapped into the process")
	}
	kept := s.Description(3)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
	if s.ReadErrors() != 0 {
		t.Errorf("%d texts failed to read", s.ReadErrors())
	}
	if kept != textTalks[3].Description {
		t.Errorf("a text read before Close is %q, want %q", kept, textTalks[3].Description)
	}
}

func TestTextStoreEmpty(t *testing.T) {
	defer func(n int) { FileTextMin = n }(FileTextMin)
	FileTextMin = 0
	s := NewTextStore(t.TempDir(), []Talk{{ID: "x"}})
	if s.file != nil || s.FileErr != nil {
		t.Errorf("no text at all was put in a file, or tried (%v)", s.FileErr)
	}
	if s.Abstract(0) != "" || s.Description(0) != "" {
		t.Errorf("texts of a talk without any: %q, %q", s.Abstract(0), s.Description(0))
	}
	s.Close()
}

// TestTextStoreUnwritableDirectory: a temporary directory that cannot take
// the file keeps the texts on the heap, whole, and says why.
func TestTextStoreUnwritableDirectory(t *testing.T) {
	defer func(n int) { FileTextMin = n }(FileTextMin)
	FileTextMin = 1
	s := NewTextStore(filepath.Join(t.TempDir(), "missing"), textTalks)
	defer s.Close()
	if s.file != nil || s.FileErr == nil {
		t.Fatalf("in a file %v, FileErr %v: want the heap and the reason", s.file != nil, s.FileErr)
	}
	if !strings.Contains(s.FileErr.Error(), "missing") {
		t.Errorf("FileErr %q does not name the directory", s.FileErr)
	}
	checkTexts(t, s)
}

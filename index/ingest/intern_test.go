package ingest

import (
	"testing"
	"testing/fstest"
	"unsafe"
)

// Two talks of a JSON Lines file with the same track, room, speaker and
// kind hold one copy of each value; the values themselves are unchanged.
func TestLoadSharesRepeatedStrings(t *testing.T) {
	line := func(id, title string) string {
		return `{"id":"` + id + `","title":"` + title + `","speakers":[{"name":"Ada Lovelace","affiliation":"Analytical Engines"}],` +
			`"abstract":"About ` + title + `.","track":"Inference & Production","room":"Master Stage","level":"Beginner","kind":"talk","sources":["synthetic"]}` + "\n"
	}
	fsys := fstest.MapFS{"talks.jsonl": &fstest.MapFile{Data: []byte(line("a1", "First talk") + line("b2", "Second talk"))}}
	c, err := LoadFS(fsys, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Talks) != 2 {
		t.Fatalf("%d talks, want 2", len(c.Talks))
	}
	a, b := c.Talks[0], c.Talks[1]
	same := func(field, x, y, want string) {
		t.Helper()
		if x != want || y != want {
			t.Errorf("%s: %q and %q, want %q", field, x, y, want)
		}
		if unsafe.StringData(x) != unsafe.StringData(y) {
			t.Errorf("%s: two copies of %q", field, x)
		}
	}
	same("track", a.Track, b.Track, "Inference & Production")
	same("room", a.Room, b.Room, "Master Stage")
	same("level", a.Level, b.Level, "Beginner")
	same("kind", string(a.Kind), string(b.Kind), "talk")
	same("speaker", a.Speakers[0].Name, b.Speakers[0].Name, "Ada Lovelace")
	same("affiliation", a.Speakers[0].Affiliation, b.Speakers[0].Affiliation, "Analytical Engines")
	same("source", a.Sources[0], b.Sources[0], "synthetic")
	same("conference", a.Conference.ID, b.Conference.ID, "talks")
	if a.Abstract != "About First talk." || b.Abstract != "About Second talk." {
		t.Errorf("abstracts %q, %q", a.Abstract, b.Abstract)
	}
}

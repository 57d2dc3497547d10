package search

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/talksearch/talksearch/index"
)

// relatedFixture is a corpus where "free" is generic (in more than a
// twentieth of the talks and in more than ten) and the beekeeping and I2C
// talks share words of their own.
func relatedFixture() []index.Talk {
	talks := []index.Talk{
		{ID: "ledgers", Title: "Free beekeeping ledgers", Abstract: "Keeping hive records on a laptop.", Track: "Farming"},
		{ID: "census", Title: "Beekeeping: a hive census", Abstract: "Counting every hive of a valley.", Track: "Wildlife"},
		{ID: "scales", Title: "Hive scales", Abstract: "Weighing honey frames with load cells.", Track: "Farming"},
		{ID: "winter", Title: "Beekeeping in winter", Abstract: "Insulation and sugar feeding.", Track: "Seasons"},
		{ID: "sensors", Title: "I2C sensors on tiny boards", Abstract: "Reading thermometers over the I2C-bus from an OS driver.", Track: "Embedded"},
		{ID: "displays", Title: "I2C displays on tiny boards", Abstract: "Drawing on panels over the I2C-bus from an OS driver.", Track: "Graphics"},
	}
	for i, topic := range []string{"chess engines", "telescope mounts", "knitting patterns", "tram timetables",
		"violin tuners", "weather stations", "recipe planners", "bicycle maps", "glacier surveys", "pottery kilns",
		"sailing charts", "choir scores"} {
		talks = append(talks, index.Talk{ID: fmt.Sprintf("free-%02d", i), Title: "Free " + topic, Abstract: "A talk about " + topic + ".", Track: fmt.Sprintf("Misc %d", i)})
	}
	for i := range 30 { // for the words' document frequencies
		talks = append(talks, index.Talk{ID: fmt.Sprintf("other-%02d", i), Title: fmt.Sprintf("Compiler passes, part %d", i), Track: "Compilers"})
	}
	for i := range talks {
		talks[i].Kind = index.KindTalk
	}
	return talks
}

// TestRelatedNeedsDistinctiveTerms: a talk sharing one generic word
// ("free") is not related, nor one sharing one distinctive word in
// another track; one sharing two distinctive words is, and so is one
// sharing one distinctive word in the same track.
func TestRelatedNeedsDistinctiveTerms(t *testing.T) {
	e, err := New(relatedFixture())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	got := map[string][]Related{}
	for _, id := range []string{"ledgers", "winter", "free-01"} {
		d, err := e.Talk(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		got[id] = d.Related
	}
	var ids []string
	for _, r := range got["ledgers"] {
		ids = append(ids, r.ID)
		t.Logf("ledgers → %s %.3f %v", r.ID, r.Score, r.SharedTerms)
	}
	if want := []string{"census", "scales"}; !slices.Equal(ids, want) {
		t.Errorf("related(ledgers) = %v, want %v", ids, want)
	}
	// "winter" shares beekeeping with two talks, and nothing else: no
	// track, no speaker.
	if len(got["winter"]) != 0 {
		t.Errorf("related(winter) = %v, want none", got["winter"])
	}
	if len(got["free-01"]) != 0 {
		t.Errorf("related(free-01) = %v, want none", got["free-01"])
	}
}

// TestRelatedSharedTermsShort: a shared term of fewer than three letters
// is neither shown nor counted ("i2" of I2C-bus), unless a talk writes it in
// capitals ("OS").
func TestRelatedSharedTermsShort(t *testing.T) {
	e, err := New(relatedFixture())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	d, err := e.Talk(context.Background(), "sensors")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Related) != 1 || d.Related[0].ID != "displays" {
		t.Fatalf("related(sensors) = %v, want displays alone", d.Related)
	}
	// "I2C-bus" is analysed as i2c, i2 and bus: i2 is a piece of a name.
	shared := slices.Sorted(slices.Values(d.Related[0].SharedTerms))
	if want := []string{"boards", "bus", "driver", "i2c", "os", "tiny"}; !slices.Equal(shared, want) {
		t.Errorf("shared terms %v, want %v", shared, want)
	}
}

// relatedFOSDEMDir holds the judged related talks of FOSDEM 2024+2025
// (its HOW.md says how they were chosen and judged).
const relatedFOSDEMDir = "testdata/relevance/related-fosdem"

// relatedFOSDEMFloor is the P@5 of the judged set when it was built.
const relatedFOSDEMFloor = 0.67

// TestRelatedFOSDEM reports the precision of the first five related talks
// of 20 judged FOSDEM talks (a pair graded 1 or 2 counts; a pair nobody
// judged counts as not related and is listed) and holds its floor.
//
//	go test ./search -run TestRelatedFOSDEM -v
func TestRelatedFOSDEM(t *testing.T) {
	e, c := fosdemEngine(t)
	byKey := map[string]string{}
	keyOf := map[string]string{}
	for _, tk := range c.Talks {
		k := tk.Conference.ID + "/" + tk.SourceID
		byKey[k], keyOf[tk.ID] = tk.ID, k
	}
	judged := map[[2]string]int{}
	path := filepath.Join(relatedFOSDEMDir, "judgments.tsv")
	readTSV(t, path, 3, func(line int, cols []string) {
		if byKey[cols[0]] == "" || byKey[cols[1]] == "" {
			t.Fatalf("%s:%d: talk %s or %s not in FOSDEM 2024+2025", path, line, cols[0], cols[1])
		}
		judged[[2]string{cols[0], cols[1]}] = atoiGrade(t, path, line, cols[2])
	})
	var sources []string
	readTSV(t, filepath.Join(relatedFOSDEMDir, "sources.tsv"), 1, func(_ int, cols []string) { sources = append(sources, cols[0]) })
	if len(sources) != 20 {
		t.Fatalf("%d judged talks, want 20", len(sources))
	}
	var sum float64
	for _, src := range sources {
		d, err := e.Talk(context.Background(), byKey[src])
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		hits := 0
		for _, r := range d.Related[:min(5, len(d.Related))] {
			g, ok := judged[[2]string{src, keyOf[r.ID]}]
			if !ok {
				t.Logf("%s → %s (%q) is not judged", src, keyOf[r.ID], r.Title)
			}
			if g >= 1 {
				hits++
			}
		}
		sum += float64(hits) / 5
	}
	p := sum / float64(len(sources))
	t.Logf("related talks of FOSDEM 2024+2025: P@5 %.3f over %d talks", p, len(sources))
	if p < relatedFOSDEMFloor-1e-9 {
		t.Errorf("P@5 %.3f, below the floor %.2f", p, relatedFOSDEMFloor)
	}
}

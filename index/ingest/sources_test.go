package ingest

import (
	"bytes"
	"encoding/gob"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/seeds"
)

// roundTrip is what a restart reads back of c: its kept form through gob,
// restored.
func roundTrip(t *testing.T, c *Corpus) *Corpus {
	t.Helper()
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(Keep(c)); err != nil {
		t.Fatal(err)
	}
	var k KeptCorpus
	if err := gob.NewDecoder(&buf).Decode(&k); err != nil {
		t.Fatal(err)
	}
	r, err := k.Restore()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// sameCorpus checks that got is want to the last field, zones included
// (reflect.DeepEqual compares each time's Location), and that both hash
// alike, so the kept corpus reuses the index the ingested one built.
func sameCorpus(t *testing.T, want, got *Corpus) {
	t.Helper()
	if len(want.Talks) != len(got.Talks) {
		t.Fatalf("%d talks, want %d", len(got.Talks), len(want.Talks))
	}
	for i := range want.Talks {
		w, g := want.Talks[i], got.Talks[i]
		if !reflect.DeepEqual(w, g) {
			t.Fatalf("talk %d (%s) differs:\n got %+v\nwant %+v", i, w.ID, g, w)
		}
		if w.Start != nil && w.Start.Format(time.RFC3339+" MST") != g.Start.Format(time.RFC3339+" MST") {
			t.Fatalf("talk %s starts %s, want %s", w.ID, g.Start.Format(time.RFC3339+" MST"), w.Start.Format(time.RFC3339+" MST"))
		}
	}
	if !reflect.DeepEqual(want.Report, got.Report) {
		t.Errorf("report differs:\n got %+v\nwant %+v", got.Report, want.Report)
	}
	hw, err := index.ContentHash(want.Talks)
	if err != nil {
		t.Fatal(err)
	}
	if hg, _ := index.ContentHash(got.Talks); hg != hw {
		t.Errorf("ContentHash %s, want %s", hg, hw)
	}
}

func TestKeptCorpusSeeds(t *testing.T) {
	load := func() *Corpus {
		c, err := Load(seeds.FS)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	sameCorpus(t, load(), roundTrip(t, load()))
}

func TestKeptCorpusFOSDEM2025(t *testing.T) {
	brussels, err := time.LoadLocation("Europe/Brussels")
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(sharedDataset(t, "fosdem"), "fosdem-2025.xml")
	load := func() *Corpus {
		c, err := LoadPaths([]string{f}, Options{TimeZone: brussels})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	want := load()
	if len(want.Talks) != 1105 || want.Talks[0].Start.Location().String() != "Europe/Brussels" {
		t.Fatalf("%d talks, first in %v", len(want.Talks), want.Talks[0].Start.Location())
	}
	sameCorpus(t, want, roundTrip(t, load()))
}

// TestKeptCorpusZones: every kind of zone a time may carry comes back.
func TestKeptCorpusZones(t *testing.T) {
	brussels, err := time.LoadLocation("Europe/Brussels")
	if err != nil {
		t.Fatal(err)
	}
	at := func(loc *time.Location, month time.Month) *time.Time {
		v := time.Date(2025, month, 1, 9, 30, 0, 0, loc)
		return &v
	}
	mk := func(id string, start, end *time.Time) index.Talk {
		return index.Talk{ID: id, Title: id, Start: start, End: end, Kind: index.KindTalk, Sources: []string{"x.json"}}
	}
	c := &Corpus{Talks: []index.Talk{
		mk("brussels", at(brussels, time.February), at(brussels, time.July)),
		mk("utc", at(time.UTC, time.May), nil),
		mk("unnamed-offset", at(time.FixedZone("", 5*3600+1800), time.May), nil),
		// Named like a zone of rules, at an offset the rules do not give
		// in July: the offset the source gave stays.
		mk("fixed-cet", at(time.FixedZone("CET", 3600), time.July), nil),
		mk("unknown-name", at(time.FixedZone("XYZ", -3*3600), time.May), nil),
		mk("unscheduled", nil, nil),
	}, Report: Report{Files: 1, Warnings: []Warning{{File: "x.json", Line: 3, Msg: "m"}}}}
	got := roundTrip(t, c)
	for i, w := range c.Talks {
		g := got.Talks[i]
		if (w.Start == nil) != (g.Start == nil) || (w.End == nil) != (g.End == nil) {
			t.Fatalf("%s: times %v %v, want %v %v", w.ID, g.Start, g.End, w.Start, w.End)
		}
		for _, p := range [][2]*time.Time{{w.Start, g.Start}, {w.End, g.End}} {
			if p[0] == nil {
				continue
			}
			wn, wo := p[0].Zone()
			gn, gotOff := p[1].Zone()
			if !p[0].Equal(*p[1]) || wn != gn || wo != gotOff || p[0].Location().String() != p[1].Location().String() {
				t.Errorf("%s: %s (%s), want %s (%s)", w.ID, p[1].Format(time.RFC3339+" MST"), p[1].Location(), p[0].Format(time.RFC3339+" MST"), p[0].Location())
			}
		}
	}
	if !reflect.DeepEqual(got.Report, c.Report) {
		t.Errorf("report %+v", got.Report)
	}
}

// TestSourcesKey: the key covers what ingestion reads (bytes, names, the
// zone) and nothing it skips; LoadPathsKeyed keys what it parsed.
func TestSourcesKey(t *testing.T) {
	src := filepath.Join("testdata", "formats")
	dir := t.TempDir()
	for _, name := range []string{"frab-devroom.xml", "frab-camp.json"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	key := func(paths []string, opt Options) string {
		t.Helper()
		k, err := SourcesKey(paths, opt)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	base := key([]string{dir}, Options{})
	c, k, err := LoadPathsKeyed([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if k != base {
		t.Errorf("LoadPathsKeyed key %s, SourcesKey %s", k, base)
	}
	plain, err := LoadPaths([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(plain, c) {
		t.Error("LoadPathsKeyed's corpus is not LoadPaths'")
	}
	if key([]string{dir}, Options{}) != base {
		t.Error("the same files keyed twice differ")
	}
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("about these files"), 0o644); err != nil {
		t.Fatal(err)
	}
	if key([]string{dir}, Options{}) != base {
		t.Error("documentation beside the seeds, never read, changed the key")
	}

	utc := key([]string{dir}, Options{TimeZone: time.UTC})
	brussels, _ := time.LoadLocation("Europe/Brussels")
	zoned := key([]string{dir}, Options{TimeZone: brussels})
	if utc == base || zoned == base || zoned == utc {
		t.Error("the zone does not change the key")
	}
	if key([]string{dir}, Options{MaxLineBytes: 1 << 10}) == base || key([]string{dir}, Options{MaxFileBytes: MaxFileSize, MaxLineBytes: MaxLineSize}) != base {
		t.Error("a limit other than the default does not change the key, or the default does")
	}

	xml := filepath.Join(dir, "frab-devroom.xml")
	data, _ := os.ReadFile(xml)
	flipped := bytes.Replace(data, []byte("Go"), []byte("Gp"), 1)
	if err := os.WriteFile(xml, flipped, 0o644); err != nil {
		t.Fatal(err)
	}
	if key([]string{dir}, Options{}) == base {
		t.Error("a changed byte kept the key")
	}
	if err := os.WriteFile(xml, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if key([]string{dir}, Options{}) != base {
		t.Error("the file restored, the key is not back")
	}
	if err := os.Rename(xml, filepath.Join(dir, "fosdem-2025.xml")); err != nil {
		t.Fatal(err)
	}
	if key([]string{dir}, Options{}) == base {
		t.Error("a renamed file kept the key (talks name their files)")
	}
}

// floatingICS is a calendar whose one event's times name no zone.
func floatingICS(uid, title string) []byte {
	return []byte("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:" + uid +
		"\r\nSUMMARY:" + title + "\r\nDTSTART:20250201T100000\r\nDTEND:20250201T103000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
}

// TestSourceZones: each source is read in its own zone, the others in
// Options.TimeZone; a fetched source is read from its bytes under its URL,
// and one that could not be had is a whole-file warning.
func TestSourceZones(t *testing.T) {
	dir := t.TempDir()
	camp := filepath.Join(dir, "camp.ics")
	folder := filepath.Join(dir, "meetup")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	for p, data := range map[string][]byte{
		camp:                                floatingICS("c1", "Tents and routers"),
		filepath.Join(folder, "meetup.ics"): floatingICS("m1", "Soldering at dawn"),
		filepath.Join(dir, "plain.ics"):     floatingICS("p1", "Plain times"),
	} {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	zone := func(name string) *time.Location {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Skipf("no tzdata for %s: %v", name, err)
		}
		return loc
	}
	berlin, tokyo, lima := zone("Europe/Berlin"), zone("Asia/Tokyo"), zone("America/Lima")
	srcs := []Source{
		{Path: camp, Zone: berlin},
		{Path: folder, Zone: tokyo},
		{Path: filepath.Join(dir, "plain.ics")},
		{Path: "https://example.invalid/remote.ics", Fetched: true, Data: floatingICS("r1", "Fetched far away"), Zone: lima},
		{Path: "https://example.invalid/gone.ics", Fetched: true, Err: errors.New("HTTP 500")},
	}
	c, key, err := LoadSourcesKeyed(srcs, Options{TimeZone: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Tents and routers": "2025-02-01T10:00:00+01:00 Europe/Berlin",
		"Soldering at dawn": "2025-02-01T10:00:00+09:00 Asia/Tokyo",
		"Plain times":       "2025-02-01T10:00:00Z UTC",
		"Fetched far away":  "2025-02-01T10:00:00-05:00 America/Lima",
	}
	if len(c.Talks) != len(want) {
		t.Fatalf("%d talks, want %d", len(c.Talks), len(want))
	}
	for _, tk := range c.Talks {
		if tk.Start == nil {
			t.Fatalf("%q unscheduled", tk.Title)
		}
		if got := tk.Start.Format(time.RFC3339) + " " + tk.Start.Location().String(); got != want[tk.Title] {
			t.Errorf("%q starts %s, want %s", tk.Title, got, want[tk.Title])
		}
		if tk.Title == "Fetched far away" && (len(tk.Sources) != 1 || tk.Sources[0] != "https://example.invalid/remote.ics") {
			t.Errorf("fetched talk's sources %v", tk.Sources)
		}
	}
	gone := false
	for _, w := range c.Report.Warnings {
		if w.File == "https://example.invalid/gone.ics" && w.Line == 0 && strings.Contains(w.Msg, "HTTP 500") {
			gone = true
		}
	}
	if !gone {
		t.Errorf("no whole-file warning for the source not fetched: %v", c.Report.Warnings)
	}
	if k, err := KeySources(srcs, Options{TimeZone: time.UTC}); err != nil || k != key {
		t.Errorf("KeySources %s %v, LoadSourcesKeyed %s", k, err, key)
	}
	srcs[0].Zone = tokyo
	if k, _ := KeySources(srcs, Options{TimeZone: time.UTC}); k == key {
		t.Error("a source's zone does not change the key")
	}
	// Without zones of their own, sources key as paths did.
	p, _ := SourcesKey([]string{camp}, Options{})
	if k, _ := KeySources([]Source{{Path: camp}}, Options{}); k != p {
		t.Error("KeySources of plain paths is not SourcesKey")
	}
}

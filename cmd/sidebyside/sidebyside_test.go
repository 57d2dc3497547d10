package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseFlagsRefusesUnknownNames(t *testing.T) {
	for _, args := range [][]string{
		{"--peers", "sqlite-fts5,elastic"},
		{"--synth-peers", "solr"},
		{"--corpora", "fosdem"},
		{"--talksearch", "cloud"},
		{"--iters", "0"},
		{"--synth", "100000,0"},
		{"--synth", "100000,1000000", "--synth-file", "talks.jsonl"},
		{"extra"},
	} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("parseFlags(%q): no error", args)
		}
	}
	c, err := parseFlags([]string{"--peers", "xapian"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"xapian"}, c.synthPeer); diff != "" {
		t.Errorf("--synth-peers defaults to --peers (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{100_000}, c.synth); diff != "" {
		t.Errorf("--synth default (-want +got):\n%s", diff)
	}
	c, err = parseFlags([]string{"--synth", "100000,300000,1000000"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{100_000, 300_000, 1_000_000}, c.synth); diff != "" {
		t.Errorf("--synth sizes (-want +got):\n%s", diff)
	}
}

// The embedded queries: one a line, in order, no repeats.
func TestReadQueriesEmbedded(t *testing.T) {
	qs, err := readQueries("")
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 23 || qs[0] != "KV cache" || qs[14] != `"distributed training" -monarch` || qs[22] != "coffee" {
		t.Errorf("queries %q", qs)
	}
}

func TestReadTalksNamesTheBadLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "talks.jsonl")
	data := `{"id":"a","title":"One","kind":"talk"}` + "\n\n" + `{"id":"b","title":` + "\n"
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := readTalks(p)
	if err == nil || !strings.Contains(err.Error(), p+":3:") {
		t.Fatalf("error %v, want one naming %s:3", err, p)
	}
	if err := os.WriteFile(p, []byte(`{"title":"No id"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readTalks(p); err == nil || !strings.Contains(err.Error(), p+":1: talk without an id") {
		t.Fatalf("error %v", err)
	}
}

func TestWriteTable(t *testing.T) {
	rows := []row{
		{corpus: "seeds", st: stats{Peer: "xapian", Docs: 73, IndexS: 0.25, IndexBytes: 629146, NTimed: 1150, P50us: 1018.4, P99us: 4196}, rssMiB: 20.2, load: "5.30"},
		{corpus: "seeds", st: stats{Peer: "talksearch", Docs: 73, IndexS: 0.05, ReadyS: 0.23, NTimed: 1150, P50us: 229, P99us: 5511, CPUus: 301.4, ServedRSSMiB: 28.6, HeapMiB: 9.2}, rssMiB: 31, load: "6.43"},
		{corpus: "seeds", st: stats{Peer: "lunr"}, skipped: "signal: killed", load: "7.00"},
	}
	var b bytes.Buffer
	began := time.Date(2026, 12, 1, 7, 19, 0, 0, time.UTC)
	writeTable(&b, config{iters: 50, maxQuery: 5 * time.Second}, rows, began, [3]string{"1", "2", "3"}, [3]string{"4", "5", "6"})
	lines := strings.Split(b.String(), "\n")
	want := []string{
		"| corpus | engine | build s | talks/s | ready s | index MiB | p50 µs | p99 µs | CPU µs/search | searches timed | peak RSS MiB | served RSS MiB | heap MiB | load |",
		"|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
		"| seeds | xapian | 0.25 | 292 |  | 0.6 | 1,018 | 4,196 |  | 1,150 | 20 |  |  | 5.30 |",
		"| seeds | talksearch | 0.05 | 1,460 | 0.23 |  | 229 | 5,511 | 301 | 1,150 | 31 | 29 | 9 | 6.43 |",
		"| seeds | lunr | skipped: signal: killed | | | | | | | | | | | 7.00 |",
	}
	if diff := cmp.Diff(want, lines[3:8]); diff != "" {
		t.Errorf("table (-want +got):\n%s", diff)
	}
	if !strings.Contains(lines[0], "load average 1 2 3 at the start, 4 5 6 at the end") {
		t.Errorf("first line %q", lines[0])
	}
}

// TestStreamTalksKeepsNoText: streamed, each talk is kept without its
// abstract and description, which the store returns at its position, so
// the talks read whole are the same; a bad line is the same error.
func TestStreamTalksKeepsNoText(t *testing.T) {
	p := filepath.Join(t.TempDir(), "talks.jsonl")
	data := `{"id":"a","title":"One","abstract":"First abstract.","kind":"talk"}` + "\n\n" +
		`{"id":"b","title":"Two","description":"Only a description.","kind":"talk"}` + "\n" +
		`{"id":"c","title":"Three","abstract":"Third.","description":"And more.","kind":"talk"}` + "\n"
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	whole, err := readTalks(p)
	if err != nil {
		t.Fatal(err)
	}
	c, err := streamTalks(p)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Texts.Close()
	if c.Len() != 3 || len(whole) != 3 {
		t.Fatalf("%d talks streamed, %d read whole; want 3", c.Len(), len(whole))
	}
	for i := range whole {
		if c.Talks[i].Abstract != "" || c.Talks[i].Description != "" {
			t.Errorf("talk %s kept its texts", c.Talks[i].ID)
		}
		if d := cmp.Diff(whole[i], c.Talk(i)); d != "" {
			t.Errorf("talk %d (-whole +streamed):\n%s", i, d)
		}
	}
	if err := os.WriteFile(p, []byte(`{"title":"No id"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := streamTalks(p); err == nil || !strings.Contains(err.Error(), p+":1: talk without an id") {
		t.Fatalf("error %v", err)
	}
}

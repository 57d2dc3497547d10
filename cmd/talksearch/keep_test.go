package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// readyLine is serve's "index ready" log entry.
type readyLine struct {
	Talks       int      `json:"talks"`
	CorpusKept  bool     `json:"corpus_kept"`
	Derivations []string `json:"derivations_kept"`
	Derived     []string `json:"derived"`
}

func readyOf(t *testing.T, log string) readyLine {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(log))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l struct {
			Message string `json:"message"`
			readyLine
		}
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Message == "index ready" {
			return l.readyLine
		}
	}
	t.Fatalf("no index ready line in:\n%s", log)
	return readyLine{}
}

// answers are the server's JSON answers to a few searches and talk pages,
// without their timings.
func answers(t *testing.T, base string) map[string]any {
	t.Helper()
	out := map[string]any{}
	get := func(path string) map[string]any {
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		var v map[string]any
		if err := json.Unmarshal(body, &v); err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d, %v: %.300s", path, res.StatusCode, err, body)
		}
		delete(v, "took_ms")
		out[path] = v
		return v
	}
	for _, q := range []string{"go generics", "robin hood", "generiks", "camp", "privilege separation"} {
		v := get("api/search?q=" + url.QueryEscape(q))
		if q == "go generics" {
			for _, h := range v["hits"].([]any) {
				get("api/talks/" + h.(map[string]any)["id"].(string))
			}
		}
	}
	return out
}

// TestServeRestartKeepsTheCorpus: with --index, a restart on unchanged seed
// files reads the talks, the vocabulary and the thesaurus kept with the
// index and answers exactly as the start that parsed the files; a changed
// file, or a damaged kept corpus, is ingested again.
func TestServeRestartKeepsTheCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the server five times")
	}
	seeds, dir := t.TempDir(), t.TempDir()
	src := filepath.Join("..", "..", "index", "ingest", "testdata", "formats")
	for _, name := range []string{"frab-devroom.xml", "frab-camp.json"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(seeds, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"serve", "--addr", "127.0.0.1:0", "--seeds", seeds, "--time-zone", "Europe/Brussels", "--index", dir}
	start := func() (readyLine, map[string]any, string) {
		t.Helper()
		u, stderr, stop := startServe(t, args, nil)
		a := answers(t, u)
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		return readyOf(t, stderr.String()), a, stderr.String()
	}

	first, want, _ := start()
	if first.CorpusKept || len(first.Derivations) != 0 || first.Talks == 0 {
		t.Fatalf("first start: %+v", first)
	}
	second, got, _ := start()
	if !second.CorpusKept || !cmp.Equal(second.Derivations, []string{"bm25", "thesaurus", "vocabulary"}) || second.Talks != first.Talks {
		t.Fatalf("restart: %+v, want the corpus and every derivation kept", second)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("restart answers differently (-first +restart):\n%s", diff)
	}

	// A damaged kept corpus: warned about, the files ingested again.
	side := filepath.Join(dir, "current", "sidecar", keptCorpusName)
	data, err := os.ReadFile(side)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(side, data, 0o600); err != nil {
		t.Fatal(err)
	}
	damaged, got, log := start()
	if damaged.CorpusKept || !strings.Contains(log, "kept corpus unusable") || !strings.Contains(log, "checksum mismatch") {
		t.Fatalf("damaged sidecar: %+v\n%s", damaged, log)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after a damaged sidecar (-first +now):\n%s", diff)
	}
	if again, _, _ := start(); !again.CorpusKept {
		t.Errorf("the corpus was not kept again after the damaged one: %+v", again)
	}

	// A changed seed file: parsed again, and what it says is served.
	xml := filepath.Join(seeds, "frab-devroom.xml")
	data, err = os.ReadFile(xml)
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte("Robin Hood Hashing in Go"), []byte("Robin Hood Tables in Go"), 1)
	if err := os.WriteFile(xml, data, 0o644); err != nil {
		t.Fatal(err)
	}
	changed, got, log := start()
	if changed.CorpusKept || len(changed.Derivations) != 0 || !strings.Contains(log, "sidecar corpus: key changed") {
		t.Fatalf("changed seeds: %+v, want everything derived again and why\n%s", changed, log)
	}
	hits := got["api/search?q=robin+hood"].(map[string]any)["hits"].([]any)
	if len(hits) == 0 || hits[0].(map[string]any)["title"] != "Robin Hood Tables in Go" {
		t.Errorf("changed title not served: %v", hits)
	}
}

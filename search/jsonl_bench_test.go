package search

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/talksearch/talksearch/index"
)

// The *JSONL benchmarks search a corpus file in the export format, the one
// cmd/sidebyside gives talksearch and the peers of ../shared/peers (for
// instance gen_synth.py's 100k generated talks), with the queries of
// cmd/sidebyside/queries.txt, top 10 with facets and highlights, caches off:
//
//	go test ./search -run '^$' -bench 'SearchJSONL' -benchtime 2000x -jsonl /tmp/synth-100k.jsonl
var jsonlCorpus = flag.String("jsonl", "", "corpus in the export format (JSON Lines) of the *JSONL benchmarks")

var (
	jsonlOnce sync.Once
	jsonlEng  *Engine
	jsonlErr  error
)

func jsonlEngine(b *testing.B) *Engine {
	b.Helper()
	if *jsonlCorpus == "" {
		b.Skip("no -jsonl corpus")
	}
	jsonlOnce.Do(func() {
		var talks []index.Talk
		if talks, jsonlErr = readJSONLTalks(*jsonlCorpus); jsonlErr != nil {
			return
		}
		t0 := time.Now()
		jsonlEng, jsonlErr = NewWithOptions(talks, Options{CacheSize: -1})
		b.Logf("engine over %d talks of %s built in %v", len(talks), *jsonlCorpus, time.Since(t0).Round(time.Millisecond))
	})
	if jsonlErr != nil {
		b.Fatal(jsonlErr)
	}
	return jsonlEng
}

func readJSONLTalks(path string) ([]index.Talk, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var talks []index.Talk
	for sc.Scan() {
		var t index.Talk
		if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
			return nil, err
		}
		talks = append(talks, t)
	}
	return talks, sc.Err()
}

// sidebysideQueries are the queries of cmd/sidebyside.
func sidebysideQueries(b *testing.B) []string {
	data, err := os.ReadFile("../cmd/sidebyside/queries.txt")
	if err != nil {
		b.Fatal(err)
	}
	var qs []string
	for l := range strings.Lines(string(data)) {
		if q := strings.TrimSpace(l); q != "" {
			qs = append(qs, q)
		}
	}
	return qs
}

func BenchmarkSearchJSONL(b *testing.B) {
	e := jsonlEngine(b)
	qs := sidebysideQueries(b)
	ctx := context.Background()
	runTimed(b, len(qs), func(i int) error {
		_, err := e.Search(ctx, Request{Query: qs[i], Limit: 10})
		return err
	})
}

// BenchmarkSearchJSONLEach times each query alone, to find the ones that
// make BenchmarkSearchJSONL's p99 (and the side-by-side table's).
func BenchmarkSearchJSONLEach(b *testing.B) {
	e := jsonlEngine(b)
	ctx := context.Background()
	for i, q := range sidebysideQueries(b) {
		b.Run(fmt.Sprintf("%02d-%s", i, q), func(b *testing.B) {
			runTimed(b, 1, func(int) error {
				_, err := e.Search(ctx, Request{Query: q, Limit: 10})
				return err
			})
		})
	}
}

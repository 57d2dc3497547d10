package analysis

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/blevesearch/bleve/v2/registry"
)

// BenchmarkAnalyze runs the talk analyzer over the seed dumps, paragraph by
// paragraph, as indexing does (most of a build's CPU is analysis):
//
//	go test ./index/analysis -run '^$' -bench Analyze -benchmem
func BenchmarkAnalyze(b *testing.B) {
	files, err := filepath.Glob("../../seeds/*.txt")
	if err != nil || len(files) == 0 {
		b.Fatalf("seed dumps: %v %v", files, err)
	}
	var texts [][]byte
	size := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		for _, para := range bytes.Split(data, []byte("\n\n")) {
			texts = append(texts, para)
		}
		size += len(data)
	}
	a, err := registry.NewCache().AnalyzerNamed(AnalyzerName)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range texts {
			a.Analyze(t)
		}
	}
}

package main

import (
	_ "embed"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// defaultQueries are the queries of every engine unless --queries names a
// file: the query texts of search/bench_test.go's benchRequests and of
// ../shared/relevance/dev-judgments.tsv, one a line.
//
//go:embed queries.txt
var defaultQueries string

// knownPeers are the peers run.sh knows, in the order they are run.
var knownPeers = []string{"sqlite-fts5", "sqlite-fts5-or", "postgres-fts", "postgres-fts-or", "xapian",
	"minisearch", "lunr", "bleve-naive", "bleve-tuned"}

type config struct {
	repo      string   // repository root: where `go run ./cmd/talksearch` runs
	peersDir  string   // the shared peers folder, copied before use
	corpora   []string // "seeds", "synth"
	synth     []int    // talks of each generated corpus
	peers     []string
	synthPeer []string // peers of the generated corpus; nil means peers
	tsModes   []string // "memory", "disk"
	iters     int
	maxQuery  time.Duration
	timeout   time.Duration // per peer and corpus
	queries   string        // file of queries; "" means defaultQueries
	keep      bool          // keep the temporary directory
	out       string        // also write the table here
	workDir   string        // "" means a new temporary directory
	synthFile string        // an existing generated corpus to use instead of generating one

	// child mode: measure talksearch on this corpus and print one JSON line
	measure  string
	mode     string // memory | disk-build | disk-restart
	indexDir string
	cpuProf  string
	memProf  string
	// perQuery prints each query's timings to stderr: which queries make
	// the p99.
	perQuery bool
	// whole loads every talk whole before the engine is built, as the
	// corpus was read before it was streamed: to measure the difference.
	whole bool
}

type usageError struct{ error }

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := pflag.NewFlagSet("sidebyside", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.repo, "repo", ".", "talksearch repository root")
	fs.StringVar(&c.peersDir, "peers-dir", "../shared/peers", "the peers folder (copied, never written)")
	fs.StringSliceVar(&c.corpora, "corpora", []string{"seeds", "synth"}, "corpora: seeds, synth (generated from the seeds by gen_synth.py)")
	fs.IntSliceVar(&c.synth, "synth", []int{100_000}, "talks of the generated corpora, one corpus each (100000,300000,1000000)")
	fs.StringSliceVar(&c.peers, "peers", []string{"sqlite-fts5", "postgres-fts", "xapian", "minisearch", "lunr", "bleve-naive", "bleve-tuned"},
		"peers to run (run.sh names)")
	fs.StringSliceVar(&c.synthPeer, "synth-peers", nil, "peers to run on the generated corpus (default: --peers)")
	fs.StringSliceVar(&c.tsModes, "talksearch", []string{"memory", "disk"}, "talksearch index modes: memory (serve), disk (serve --index: build, then restart)")
	fs.IntVar(&c.iters, "iters", 1000, "passes over the queries (ITERS of the peers)")
	fs.DurationVar(&c.maxQuery, "max-query", 30*time.Second, "cap on each engine's timing loop (MAX_QUERY_S of the peers)")
	fs.DurationVar(&c.timeout, "timeout", 8*time.Minute, "longest run of one engine on one corpus; a peer past it is reported skipped")
	fs.StringVar(&c.queries, "queries", "", "file of queries, one a line (default: the embedded list)")
	fs.BoolVar(&c.keep, "keep", false, "keep the temporary directory (indexes, corpora, logs)")
	fs.StringVar(&c.out, "out", "", "also write the table to this file")
	fs.StringVar(&c.workDir, "work", "", "work directory (default: a new temporary one)")
	fs.StringVar(&c.synthFile, "synth-file", "", "use this generated corpus instead of running gen_synth.py (one --synth size only)")
	fs.StringVar(&c.measure, "measure", "", "internal: measure talksearch on this JSON Lines corpus")
	fs.StringVar(&c.mode, "mode", "memory", "internal: memory, disk-build or disk-restart")
	fs.StringVar(&c.indexDir, "index-dir", "", "internal: index directory of the disk modes")
	fs.StringVar(&c.memProf, "memprofile", "", "with --measure: write a heap profile here once the engine is ready, and to FILE.served after the timed searches")
	fs.StringVar(&c.cpuProf, "cpuprofile", "", "with --measure: write a CPU profile of the measurement here")
	fs.BoolVar(&c.perQuery, "per-query", false, "with --measure: print each query's median and slowest time and CPU a search to stderr")
	fs.BoolVar(&c.whole, "whole", false, "with --measure: hold every talk whole while the engine is built, rather than their texts in a store")
	if err := fs.Parse(args); err != nil {
		return c, usageError{err}
	}
	if fs.NArg() > 0 {
		return c, usageError{fmt.Errorf("unexpected arguments %q", fs.Args())}
	}
	if c.synthPeer == nil {
		c.synthPeer = c.peers
	}
	for _, p := range append(slices.Clone(c.peers), c.synthPeer...) {
		if !slices.Contains(knownPeers, p) {
			return c, usageError{fmt.Errorf("--peers: unknown peer %q (known: %s)", p, strings.Join(knownPeers, ", "))}
		}
	}
	for _, k := range c.corpora {
		if k != "seeds" && k != "synth" {
			return c, usageError{fmt.Errorf("--corpora: unknown corpus %q (seeds, synth)", k)}
		}
	}
	for _, m := range c.tsModes {
		if m != "memory" && m != "disk" {
			return c, usageError{fmt.Errorf("--talksearch: unknown mode %q (memory, disk)", m)}
		}
	}
	if c.synthFile != "" && len(c.synth) > 1 {
		return c, usageError{fmt.Errorf("--synth-file is one corpus: give one --synth size, not %d", len(c.synth))}
	}
	switch c.mode {
	case "memory", "disk-build", "disk-restart":
	default:
		return c, usageError{fmt.Errorf("--mode %q: memory, disk-build or disk-restart", c.mode)}
	}
	if len(c.synth) == 0 || slices.Min(c.synth) < 1 || c.iters < 1 || c.maxQuery <= 0 || c.timeout <= 0 {
		return c, usageError{fmt.Errorf("--iters, --synth, --max-query and --timeout must be positive")}
	}
	return c, nil
}

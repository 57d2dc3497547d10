// Command sidebyside measures talksearch and the peer search engines of
// ../shared/peers on the same corpora and the same queries, in one run on one
// machine, and prints one markdown table: per search p50 and p99, build rate,
// index size and peak memory of each engine, with the load average.
//
// Usage (from the repository root; the peers' setup installs Debian packages
// and npm modules, so this is a measurement tool, never part of go test):
//
//	go run ./cmd/sidebyside                          # seeds and 100k generated talks
//	go run ./cmd/sidebyside --corpora seeds --peers sqlite-fts5,xapian
//
// It copies the peers folder to a temporary directory (it is read-only where
// it is shared), runs its setup.sh, exports the seeds with `go run
// ./cmd/talksearch export`, generates the large corpus from them with the
// peers' gen_synth.py (seeded: the same file every run), then for each
// corpus runs each peer through the peers' run.sh, one peer at a time, and
// talksearch in a child process of its own (so that its peak memory is its
// own): the engine with facets and highlights, caches off
// (search.Options{CacheSize: -1}), timed like the peers (a warm pass, then
// --iters passes over the queries on one goroutine, at most --max-query-s).
//
// talksearch is measured twice per corpus: "talksearch" builds its index in
// memory, as `talksearch serve` does by default; "talksearch --index" builds
// the on-disk index of `serve --index DIR`, and "talksearch restart" is a new
// process reusing that index, where "ready s" is the time from the talks in
// memory to the engine serving.
//
// A peer's peak RSS is that of its process tree (run.sh and the peer it
// runs); PostgreSQL's server processes are not in it.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "sidebyside:", err)
		var usage usageError
		if errors.As(err, &usage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	if cfg.measure != "" {
		return measureChild(ctx, cfg, stdout)
	}
	return sideBySide(ctx, cfg, stdout, stderr)
}

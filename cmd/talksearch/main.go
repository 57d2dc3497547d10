// Command talksearch is a full-text search engine for conference talks.
//
// It turns the text dumps in seeds/ (a Sched.com schedule page and bare
// abstract dumps) into one clean, deduplicated set of talks, indexes them
// with Bleve and serves a search page and a JSON API.
//
// Usage:
//
//	talksearch serve [--addr 127.0.0.1:8080]   serve the web page and API
//	talksearch serve --index DIR --read-only    serve the index DIR publishes, following new builds
//	talksearch search [flags] QUERY             search from the terminal
//	talksearch related ID                       talks related to one talk
//	talksearch overlaps [--from FILE]           overlapping submissions
//	talksearch index [--index DIR]              ingest and print a summary; build and publish DIR's index
//	talksearch export                           deduplicated talks as JSON Lines
//
// Every command reads the seeds embedded in the binary unless --seeds DIR
// names files or directories of seeds. Every flag has an environment variable
// equivalent: TALKSEARCH_ and the flag name in upper case with '-' as '_'
// (for example TALKSEARCH_ADDR, TALKSEARCH_SEEDS).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "talksearch:", err)
		os.Exit(exitCode(err)) // 2 for a usage error, 1 for any other
	}
}

// run is the whole program, with its dependencies passed in so tests can
// call it like main does.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	root := newRootCmd(getenv, stdout, stderr)
	root.SetArgs(args)
	return root.ExecuteContext(ctx)
}

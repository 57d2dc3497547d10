// Command loadgen drives a running talksearch server on this machine with a
// realistic mix of requests for a bounded time and reports what it saw.
//
// Usage:
//
//	loadgen [flags]
//
// It first discovers the talk ids and facet values through the server's own
// API, then runs --clients concurrent keep-alive clients for --duration
// (the run always stops by itself). Each client picks, at random by weight,
// one of these kinds of request:
//
//	search    GET /api/search?q=QUERY                  queries with typos and syntax
//	typing    GET /?q=PREFIX, X-Talksearch-Fragment: 1  the page's live results as one types
//	filtered  GET /api/search?q=…&track=…&level=…      facet filters, some sorted by time
//	browse    GET /api/search?offset=N                 an empty query pages through all talks
//	page      GET /?q=QUERY                            the server-rendered search page
//	talk      GET /talks/ID                            a talk page
//	related   GET /api/talks/ID                        a talk with its related talks
//	overlaps  GET /api/overlaps
//	healthz   GET /healthz
//
// "searches" are search, typing, filtered, browse and page together; a
// quarter of the queries of search, filtered and page are prefixes too.
// --distinct instead searches random combinations of words, so that a
// result cache in the server cannot answer them. --only limits the mix to
// some kinds (--only healthz measures the machine's ceiling); --ceiling D
// measures /healthz alone for D before the main phase, so the report can
// give search throughput as a share of the ceiling of the same server in
// the same run.
//
// --hostile N adds N clients that send only hostile searches: up to 400
// characters of random non-words, misspelled words, quoted phrases and
// dotted words, new every time. Their answers are reported apart (how many
// were answered, the server's own took_ms of those, how many were refused
// with 429 and Retry-After, which is not an error), while --want-p99 holds
// the other clients' searches.
//
// With --pid it samples the server's resident memory from /proc/PID/status
// (start, peak, end and VmHWM), also every --interval for a soak. With
// --reload-after D it asks the server to re-index once, D into the run:
// through POST /admin/reload when --reload-token is set, else by sending
// SIGHUP to --pid.
//
// Requests ask for gzip, as browsers do; answers are read whole but not
// inflated, which is the clients' work, not the server's.
//
// Every non-2xx answer and every transport error counts as an error; the
// command exits with status 1 when there was any, so scripts can rely on it.
// --want-searches, --want-p99 and --want-share set figures the run must
// reach; it exits with status 3 when one is missed.
//
// The target must be a loopback address: this is not a tool for other
// people's servers.
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
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		if errors.Is(err, errMissed) {
			os.Exit(3)
		}
		os.Exit(1)
	}
}

// run is the whole program, so tests can call it as main does.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	sum, err := Run(ctx, cfg)
	if err != nil {
		return err
	}
	if cfg.JSON {
		err = sum.writeJSON(stdout)
	} else {
		err = sum.writeText(stdout)
	}
	if err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	if n := sum.Errors(); n > 0 {
		return fmt.Errorf("%d of %d requests failed", n, sum.All.Count)
	}
	if sum.Reload != nil && sum.Reload.Err != "" {
		return fmt.Errorf("reload failed: %s", sum.Reload.Err)
	}
	lines, err := cfg.Want.check(sum)
	for _, l := range lines {
		fmt.Fprintln(stderr, "target:", l)
	}
	return err
}

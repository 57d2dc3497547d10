package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// Config is one load run.
type Config struct {
	Target   *url.URL      // base URL of the server, on a loopback address
	Clients  int           // concurrent clients, each with one request in flight
	Duration time.Duration // length of the main phase
	Ceiling  time.Duration // length of a /healthz-only phase before it; 0 skips it
	Only     []Kind        // kinds of request to send; empty means the default mix
	Distinct bool          // random word combinations instead of the query list
	Hostile  int           // extra clients sending only hostile searches (hostile.go)
	PID      int           // server process to sample RSS from; 0 skips sampling
	Interval time.Duration // progress line period; 0 prints none
	Timeout  time.Duration // per request
	Seed     uint64        // random seed of the clients' choices

	ReloadAfter time.Duration // when to trigger one re-index; 0 never
	ReloadToken string        // bearer token for POST /admin/reload; empty sends SIGHUP to PID

	Want Targets // figures to check; the run fails (exit 3) when one is missed

	JSON     bool      // print the summary as JSON
	Progress io.Writer // where progress lines go; nil discards them
}

func parseFlags(args []string, stderr io.Writer) (Config, error) {
	fs := pflag.NewFlagSet("loadgen", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		cfg    Config
		target string
		only   string
	)
	fs.StringVar(&target, "url", "http://127.0.0.1:8080", "base URL of the talksearch server (loopback only)")
	fs.IntVar(&cfg.Clients, "clients", 64, "concurrent clients")
	fs.DurationVar(&cfg.Duration, "duration", 60*time.Second, "length of the main phase")
	fs.DurationVar(&cfg.Ceiling, "ceiling", 0, "measure /healthz alone for this long before the main phase (0: skip)")
	fs.StringVar(&only, "only", "", "comma-separated kinds to send instead of the mix: "+kindList())
	fs.BoolVar(&cfg.Distinct, "distinct", false, "search random combinations of words, so that almost no query repeats (defeats result caches)")
	fs.IntVar(&cfg.Hostile, "hostile", 0, "extra clients sending only hostile searches (400 characters of random words, misspellings, phrases, dotted words); their 429s are counted as refused, not errors")
	fs.IntVar(&cfg.PID, "pid", 0, "server process id, to sample its RSS from /proc/PID/status")
	fs.DurationVar(&cfg.Interval, "interval", 0, "print a progress line this often (0: never)")
	fs.DurationVar(&cfg.Timeout, "timeout", 10*time.Second, "timeout of one request")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "random seed of the request mix")
	fs.DurationVar(&cfg.ReloadAfter, "reload-after", 0, "trigger one re-index this long into the main phase (0: never)")
	fs.StringVar(&cfg.ReloadToken, "reload-token", "", "token for POST /admin/reload; without it the re-index is a SIGHUP to --pid")
	fs.Float64Var(&cfg.Want.SearchesPerS, "want-searches", 0, "fail (exit 3) under this many searches per second (0: no target)")
	fs.DurationVar(&cfg.Want.P99, "want-p99", 0, "fail (exit 3) unless the searches' p99 latency is under this (0: no target)")
	fs.Float64Var(&cfg.Want.Share, "want-share", 0, "fail (exit 3) unless searches reach this share (0-1) of the /healthz ceiling; needs --ceiling")
	fs.BoolVar(&cfg.JSON, "json", false, "print the summary as JSON")
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	if fs.NArg() > 0 {
		return Config{}, fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	u, err := loopbackURL(target)
	if err != nil {
		return Config{}, err
	}
	cfg.Target = u
	if cfg.Only, err = parseKinds(only); err != nil {
		return Config{}, err
	}
	cfg.Progress = stderr
	return cfg, cfg.validate()
}

func (c Config) validate() error {
	switch {
	case c.Target == nil:
		return errors.New("no target URL")
	case c.Clients < 1:
		return fmt.Errorf("--clients %d: need at least 1", c.Clients)
	case c.Hostile < 0:
		return fmt.Errorf("--hostile %d: need 0 or more", c.Hostile)
	case c.Duration <= 0:
		return fmt.Errorf("--duration %s: need a positive duration", c.Duration)
	case c.Ceiling < 0 || c.Interval < 0 || c.ReloadAfter < 0:
		return errors.New("durations must not be negative")
	case c.Timeout <= 0:
		return fmt.Errorf("--timeout %s: need a positive duration", c.Timeout)
	case c.ReloadAfter > 0 && c.ReloadAfter >= c.Duration:
		return fmt.Errorf("--reload-after %s is not within --duration %s", c.ReloadAfter, c.Duration)
	case c.Want.SearchesPerS < 0 || c.Want.P99 < 0 || c.Want.Share < 0 || c.Want.Share > 1:
		return errors.New("targets must not be negative, and --want-share is a share from 0 to 1")
	case c.Want.Share > 0 && c.Ceiling == 0:
		return errors.New("--want-share needs --ceiling, which measures the /healthz ceiling")
	case c.ReloadAfter > 0 && c.ReloadToken == "" && c.PID == 0:
		return errors.New("--reload-after needs --reload-token (POST /admin/reload) or --pid (SIGHUP)")
	}
	return nil
}

// loopbackURL parses the target and refuses anything but a loopback host,
// so the tool cannot be pointed at someone else's server by mistake.
func loopbackURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("--url %q: %w", s, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("--url %q: scheme must be http or https", s)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	if host := u.Hostname(); host != "localhost" {
		if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
			return nil, fmt.Errorf("--url %q: host must be a loopback address such as 127.0.0.1", s)
		}
	}
	return u, nil
}

func parseKinds(s string) ([]Kind, error) {
	if s == "" {
		return nil, nil
	}
	var kinds []Kind
	for _, name := range strings.Split(s, ",") {
		k := Kind(strings.TrimSpace(name))
		if _, ok := defaultWeights[k]; !ok {
			return nil, fmt.Errorf("--only: unknown kind %q (kinds: %s)", k, kindList())
		}
		kinds = append(kinds, k)
	}
	return kinds, nil
}

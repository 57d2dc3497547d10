package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/talksearch/talksearch/index/fetch"
	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/seeds"
)

// globals are the flags every command shares.
type globals struct {
	seedPaths []string // --seeds, repeatable: files, directories or URLs, each maybe with #Zone
	timeZone  string   // --time-zone: the zone of sources that name none
	logLevel  string
	fetch     fetch.Options // --fetch-max-bytes, --fetch-connect-timeout, --fetch-timeout
	maxFile   int64         // --max-file-bytes
	maxLine   int           // --max-line-bytes
	maxParse  time.Duration // --max-parse-time
	stdout    io.Writer
	stderr    io.Writer

	// ctx is the command's: SIGINT and SIGTERM end it, and with it any
	// import under way.
	ctx context.Context

	// Set from the flags before a command runs (parseSeeds).
	zone  *time.Location
	seeds []*seedSpec // one per --seeds value
}

func newRootCmd(getenv func(string) string, stdout, stderr io.Writer) *cobra.Command {
	g := &globals{stdout: stdout, stderr: stderr}
	root := &cobra.Command{
		Use:           "talksearch",
		Short:         "Full-text search for conference talks",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	pf := root.PersistentFlags()
	pf.StringArrayVar(&g.seedPaths, "seeds", nil, "a seed file, directory or http(s) URL (repeatable): schedule XML/JSON, iCalendar, pretalx API, JSON Lines, Sched text; PATH#ZONE reads that source's times that name no zone in ZONE (default: the seeds embedded in the binary)")
	pf.StringVar(&g.timeZone, "time-zone", "", "IANA zone (e.g. Europe/Brussels) of sources whose times name no zone, for the --seeds without a #ZONE of their own")
	pf.StringVar(&g.logLevel, "log-level", "info", "log level: debug, info, warn, error")
	pf.Int64Var(&g.fetch.MaxBytes, "fetch-max-bytes", ingest.MaxFileSize, "largest file fetched from a --seeds URL, in bytes")
	pf.DurationVar(&g.fetch.ConnectTimeout, "fetch-connect-timeout", fetch.DefaultConnectTimeout, "longest time to connect to a --seeds URL's server (TLS handshake included)")
	pf.DurationVar(&g.fetch.Timeout, "fetch-timeout", fetch.DefaultTimeout, "longest time one fetch of a --seeds URL may take, redirects and body included")
	pf.Int64Var(&g.maxFile, "max-file-bytes", ingest.MaxFileSize, "largest seed or --from file read whole, in bytes (JSON Lines seeds, --from CSV and JSON Lines stream past it)")
	pf.IntVar(&g.maxLine, "max-line-bytes", ingest.MaxLineSize, "longest line of a text seed, JSON line, CSV record or iCalendar property, in bytes: a longer one is a warning, the rest of its file is read")
	pf.DurationVar(&g.maxParse, "max-parse-time", ingest.DefaultMaxParseTime, "longest time reading one seed or --from file may take: a seed file past it is a warning (its talks are not read), the other files are read; a --from file past it is an error")
	root.AddCommand(
		newIndexCmd(g),
		newExportCmd(g),
		newSearchCmd(g),
		newRelatedCmd(g),
		newSynonymsCmd(g),
		newServeCmd(g),
		newOverlapsCmd(g),
	)
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		if err := applyEnv(cmd, getenv); err != nil {
			return usage(err)
		}
		if g.maxFile <= 0 || g.maxLine <= 0 {
			return usage(fmt.Errorf("--max-file-bytes %d, --max-line-bytes %d: want sizes above 0", g.maxFile, g.maxLine))
		}
		if g.maxParse <= 0 {
			return usage(fmt.Errorf("--max-parse-time %s: want a time above 0", g.maxParse))
		}
		g.ctx = cmd.Context()
		return usage(g.parseSeeds())
	}
	// Without Args and a Run, cobra would take an unknown command for the
	// root's arguments and print the help with status 0; NoArgs names it as
	// an error, and no command at all is one too.
	root.Args = cobra.NoArgs
	root.RunE = func(cmd *cobra.Command, _ []string) error {
		_ = cmd.Usage()
		return usage(errors.New("no command given"))
	}
	markUsageErrors(root)
	return root
}

// applyEnv gives every flag not set on the command line the value of its
// environment variable TALKSEARCH_<FLAG>, if that is set. A repeatable flag
// takes a list in the PATH style (TALKSEARCH_SEEDS=a.xml:b.xml), as a shell
// variable cannot repeat.
func applyEnv(cmd *cobra.Command, getenv func(string) string) error {
	var err error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if err != nil || f.Changed {
			return
		}
		name := "TALKSEARCH_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		v := getenv(name)
		if v == "" {
			return
		}
		values := []string{v}
		if _, repeatable := f.Value.(pflag.SliceValue); repeatable {
			values = splitList(v)
		}
		for _, one := range values {
			if e := f.Value.Set(one); e != nil {
				err = fmt.Errorf("%s=%q: %w", name, v, e)
				return
			}
		}
	})
	return err
}

// splitList splits a PATH-style list (TALKSEARCH_SEEDS=a.xml:b.xml) at
// its separators, but not inside a URL: the colon after its scheme and
// before its port belong to it (https://host:8443/schedule.xml:b.xml).
func splitList(v string) []string {
	if filepath.ListSeparator != ':' {
		return filepath.SplitList(v)
	}
	var out []string
	for v != "" {
		end := strings.IndexByte(v, ':')
		if scheme := strings.ToLower(v); strings.HasPrefix(scheme, "http://") || strings.HasPrefix(scheme, "https://") {
			rest := v[strings.Index(v, "://")+3:]
			authority := rest
			if i := strings.IndexAny(rest, "/?#"); i >= 0 {
				authority = rest[:i]
			}
			after := len(v) - len(rest) + len(authority) // the end of host[:port]
			end = -1
			if i := strings.IndexByte(v[after:], ':'); i >= 0 {
				end = after + i
			}
		}
		if end < 0 {
			out = append(out, v)
			break
		}
		if end > 0 {
			out = append(out, v[:end])
		}
		v = v[end+1:]
	}
	return out
}

// loadSeeds ingests the sources named by --seeds (fetching the URLs among
// them), or the embedded seeds.
func (g *globals) loadSeeds() (*ingest.Corpus, error) {
	opt := g.ingestOptions()
	if len(g.seeds) == 0 {
		return ingest.LoadFS(seeds.FS, opt)
	}
	return ingest.LoadSources(g.fetchedSources(), opt)
}

// loadCurrent is loadSeeds without fetching: the URLs' pending copies,
// else their last good ones (a reload, once it has fetched).
func (g *globals) loadCurrent() (*ingest.Corpus, error) {
	opt := g.ingestOptions()
	if len(g.seeds) == 0 {
		return ingest.LoadFS(seeds.FS, opt)
	}
	return ingest.LoadSources(g.sources(), opt)
}

// ingestOptions are the flags' options of every load of the seeds.
func (g *globals) ingestOptions() ingest.Options {
	return ingest.Options{TimeZone: g.zone, MaxFileBytes: g.maxFile, MaxLineBytes: g.maxLine, MaxParseTime: g.maxParse, Context: g.ctx}
}

// loadCorpus ingests the seeds and prints each ingestion warning to stderr
// as a "warning: file:line: message" line, for the commands whose output a
// person reads (index, export, search, related, overlaps).
func (g *globals) loadCorpus() (*ingest.Corpus, error) {
	return g.loadCorpusReporting(func(w ingest.Warning) {
		fmt.Fprintf(g.stderr, "warning: %s:%d: %s\n", w.File, w.Line, w.Msg)
	})
}

// loadCorpusLogged is loadCorpus for serve, whose stderr is a JSON log: a
// plain line there would break every consumer of the log, so each warning
// is a warn entry, as a live reload logs them.
func (g *globals) loadCorpusLogged(log zerolog.Logger) (*ingest.Corpus, error) {
	return g.loadCorpusReporting(func(w ingest.Warning) {
		log.Warn().Str("file", w.File).Int("line", w.Line).Msg(w.Msg)
	})
}

func (g *globals) loadCorpusReporting(report func(ingest.Warning)) (*ingest.Corpus, error) {
	c, err := g.loadSeeds()
	if err != nil {
		return nil, fmt.Errorf("load seeds: %w", err)
	}
	for _, w := range c.Report.Warnings {
		report(w)
	}
	return c, nil
}

package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/rs/zerolog"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/seeds"
)

// globals are the flags every command shares.
type globals struct {
	seedPaths []string // --seeds, repeatable: files or directories
	timeZone  string   // --time-zone: the zone of sources that name none
	logLevel  string
	stdout    io.Writer
	stderr    io.Writer
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
	root.PersistentFlags().StringArrayVar(&g.seedPaths, "seeds", nil, "a seed file or directory (repeatable): schedule XML/JSON, iCalendar, pretalx API, JSON Lines, Sched text (default: the seeds embedded in the binary)")
	root.PersistentFlags().StringVar(&g.timeZone, "time-zone", "", "IANA zone (e.g. Europe/Brussels) of sources whose times name no zone")
	root.PersistentFlags().StringVar(&g.logLevel, "log-level", "info", "log level: debug, info, warn, error")
	root.AddCommand(
		newIndexCmd(g),
		newExportCmd(g),
		newSearchCmd(g),
		newRelatedCmd(g),
		newServeCmd(g),
		newOverlapsCmd(g),
	)
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		return usage(applyEnv(cmd, getenv))
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
			values = filepath.SplitList(v)
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

// loadSeeds ingests the files and directories named by --seeds, or the
// embedded seeds.
func (g *globals) loadSeeds() (*ingest.Corpus, error) {
	loc, err := ingest.ParseZone(g.timeZone)
	if err != nil {
		return nil, fmt.Errorf("--time-zone: %w", err)
	}
	opt := ingest.Options{TimeZone: loc}
	if len(g.seedPaths) == 0 {
		return ingest.LoadFS(seeds.FS, opt)
	}
	return ingest.LoadPaths(g.seedPaths, opt)
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

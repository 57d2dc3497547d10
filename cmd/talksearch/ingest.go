package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
)

func newIndexCmd(g *globals) *cobra.Command {
	var (
		dir       string
		allowDrop bool
	)
	cmd := &cobra.Command{
		Use:   "index",
		Short: "Ingest the seeds and print what was read, merged and warned about",
		Long: `Parse the seed dumps (the schedule page and the abstract dumps), merge the
duplicates and print a summary: files read, session blocks, talks, duplicates
merged, unscheduled talks, talks per source file, each merge and every warning.

With --index DIR, also build the on-disk index of the talks in DIR (or reuse
the one there when it is theirs), keep beside it what a server derives from
it, publish it and exit: any number of serve --index DIR --read-only serve
it, and switch to each new build. The previous build is kept for the
servers still on it; older ones are removed. Seeds that would drop talks
of the index there found in no other seed file are refused unless
--allow-drop.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dir != "" {
				return g.buildIndex(dir, allowDrop)
			}
			if allowDrop {
				return usage(errors.New("--allow-drop applies to --index"))
			}
			c, err := g.loadCorpus()
			if err != nil {
				return err
			}
			if err := printSummary(g.stdout, c); err != nil {
				return err
			}
			return noTalksError(c.Report)
		},
	}
	cmd.Flags().StringVar(&dir, "index", "", "build (or reuse) the on-disk index of the seeds in DIR and publish it for serve --read-only")
	cmd.Flags().BoolVar(&allowDrop, "allow-drop", false, "with --index: accept seeds that drop talks found in no other seed file (a deleted seed)")
	return cmd
}

func newExportCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "export",
		Short: "Write the deduplicated talks as JSON Lines",
		Long: `Write one JSON object per talk and line to stdout, scheduled talks by start
time then title, then unscheduled talks by title. Keys: id, conference
({"id","name"}), source_id, title, speakers ([{"name","affiliation","source_id"}]),
abstract, description, track, level, room, language, url, start, end (RFC 3339
with the conference's offset), time_zone, kind, scheduled, cancelled (true or
absent), links ([{"kind","title","url","mime_type"}], kind recording, slides,
live or link), sources (seed file names). A value the seeds do not state is
absent. The output reads back with --seeds FILE.jsonl.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := g.loadCorpus()
			if err != nil {
				return err
			}
			if err := exportTalks(g.stdout, c.Talks); err != nil {
				return err
			}
			return noTalksError(c.Report)
		},
	}
}

// noTalksError is the failure of index and export when a seed file gave
// no talk (refused, unreadable, or without any): the talks of the other
// files are still written, but the exit status says the data is not all
// there, so that a script does not publish a schedule without a file.
func noTalksError(r ingest.Report) error {
	if len(r.NoTalks) == 0 {
		return nil
	}
	return fmt.Errorf("no talk read from %s (see the warnings)", strings.Join(r.NoTalks, ", "))
}

// exportTalks writes talks as JSON Lines. HTML escaping is off: the output
// is data, and "<1ms" should read as written.
func exportTalks(w io.Writer, talks []index.Talk) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range talks {
		if err := enc.Encode(&talks[i]); err != nil {
			return fmt.Errorf("export talk %s: %w", talks[i].ID, err)
		}
	}
	return nil
}

func printSummary(w io.Writer, c *ingest.Corpus) error {
	r := c.Report
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "files read:\t%d\n", r.Files)
	fmt.Fprintf(tw, "session blocks:\t%d\n", r.Blocks)
	fmt.Fprintf(tw, "talks:\t%d\n", len(c.Talks))
	fmt.Fprintf(tw, "unscheduled talks:\t%d\n", r.Unscheduled)
	fmt.Fprintf(tw, "duplicates merged:\t%d\n", r.Merged)
	fmt.Fprintf(tw, "warnings:\t%d\n", len(r.Warnings))
	fmt.Fprintln(tw, "\ntalks per source file:")
	for _, f := range r.PerFile {
		paras := ""
		if f.Kind == ingest.FileAbstracts {
			paras = fmt.Sprintf("%d paragraphs", f.Paragraphs)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%d talks\t%d new\n", f.File, f.Kind, paras, f.Talks, f.New)
	}
	if len(r.Merges) > 0 {
		fmt.Fprintln(tw, "\nmerged (file, paragraphs, into talk):")
		for _, m := range r.Merges {
			fmt.Fprintf(tw, "  %s\t%d\t%s\t%s\n", m.File, m.Paragraphs, m.TalkID, m.Title)
		}
	}
	if len(r.Warnings) > 0 {
		fmt.Fprintln(tw, "\nwarnings:")
		for _, wn := range r.Warnings {
			fmt.Fprintf(tw, "  %s\n", wn)
		}
	}
	return tw.Flush()
}

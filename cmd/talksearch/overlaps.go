package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search/overlap"
	"github.com/talksearch/talksearch/web"
)

func newOverlapsCmd(g *globals) *cobra.Command {
	var (
		from     string
		minScore float64
		asJSON   bool
	)
	cmd := &cobra.Command{
		Use:   "overlaps [--from FILE] [--min SCORE] [--json]",
		Short: "Duplicate and overlapping submissions, and similar talks scheduled in parallel",
		Long: `Find the submissions that are the same talk twice (duplicate, near-duplicate)
or about the same thing (topical), group them into clusters, and list similar
talks scheduled at the same time in different rooms (clashes). Each pair is
explained by the distinctive terms the two talks share and the sentences of
each abstract that carry them.

Without --from the talks are the seeds'. --from FILE reads submissions from a
CSV file (header row; columns id, title, abstract, speakers, track, level,
room, start, end, kind; only title and abstract required; speakers as
"Name (Affiliation); Name") or JSON Lines (the same fields; speakers may also
be a list of {"name","affiliation"}). Rows that cannot be used are reported
on stderr with their line and reason; the others are still compared.

--json prints the same document as GET /api/overlaps.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if minScore < 0 || minScore > 1 {
				return fmt.Errorf("--min %v: want a score between 0 and 1", minScore)
			}
			talks, skipped, source, err := g.overlapTalks(from)
			if err != nil {
				return err
			}
			rep := overlap.Detect(talks, overlap.Options{Min: minScore})
			rep.Skipped = skipped
			if asJSON {
				return writeJSON(g.stdout, web.OverlapsJSON, rep)
			}
			if minScore == 0 {
				minScore = overlap.DefaultMin
			}
			printOverlaps(g.stdout, rep, talks, source, minScore)
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&from, "from", "", "CSV or JSON Lines file of submissions (default: the seeds)")
	fl.Float64Var(&minScore, "min", 0, fmt.Sprintf("lowest pair score to report, 0..1 (0 means %.2f)", overlap.DefaultMin))
	fl.BoolVar(&asJSON, "json", false, "print the report as the API's JSON document")
	return cmd
}

// overlapTalks reads the talks to compare: the submissions file, or the
// seeds. Unusable rows are printed to stderr as they are also returned.
func (g *globals) overlapTalks(from string) ([]index.Talk, []overlap.RowError, string, error) {
	if from == "" {
		c, err := g.loadCorpus()
		if err != nil {
			return nil, nil, "", err
		}
		return c.Talks, nil, "the seeds", nil
	}
	f, err := os.Open(from)
	if err != nil {
		return nil, nil, "", fmt.Errorf("submissions: %w", err)
	}
	defer f.Close()
	talks, skipped, err := overlap.ReadSubmissions(from, f)
	if err != nil {
		return nil, nil, "", err
	}
	for _, s := range skipped {
		fmt.Fprintf(g.stderr, "warning: %s:%d: %s\n", from, s.Line, s.Reason)
	}
	return talks, skipped, from, nil
}

// printOverlaps writes the report for a terminal: clusters, then pairs with
// their reasons, then clashes and the talks merged at ingest. Passages lose
// their HTML; shared words are shown in [brackets].
func printOverlaps(w io.Writer, rep *overlap.Report, talks []index.Talk, source string, minScore float64) {
	titles := make(map[string]string, len(talks))
	for _, t := range talks {
		titles[t.ID] = t.Title
	}
	fmt.Fprintf(w, "%d talks from %s: %d pairs scoring %.2f or more, in %d clusters; %d schedule clashes.\n",
		len(talks), source, len(rep.Pairs), minScore, len(rep.Clusters), len(rep.Clashes))
	if len(rep.Skipped) > 0 {
		fmt.Fprintf(w, "%d rows skipped (see the warnings above).\n", len(rep.Skipped))
	}

	if len(rep.Clusters) > 0 {
		fmt.Fprintln(w, "\nClusters")
	}
	for i, c := range rep.Clusters {
		fmt.Fprintf(w, "%2d. %s (%d talks)\n", i+1, c.Label, len(c.IDs))
		for k, id := range c.IDs {
			fmt.Fprintf(w, "    - %s  [%s]\n", c.Titles[k], id)
		}
	}

	if len(rep.Pairs) > 0 {
		fmt.Fprintln(w, "\nPairs, most similar first")
	}
	for i, p := range rep.Pairs {
		fmt.Fprintf(w, "%2d. %.3f %s\n", i+1, p.Score, p.Kind)
		fmt.Fprintf(w, "    A: %s  [%s]\n    B: %s  [%s]\n", p.TitleA, p.A, p.TitleB, p.B)
		if len(p.SharedTerms) > 0 {
			fmt.Fprintf(w, "    shared: %s\n", strings.Join(p.SharedTerms, ", "))
		}
		for _, s := range p.Passages.A {
			fmt.Fprintf(w, "    A> %s\n", plain(s))
		}
		for _, s := range p.Passages.B {
			fmt.Fprintf(w, "    B> %s\n", plain(s))
		}
	}

	if len(rep.Clashes) > 0 {
		fmt.Fprintln(w, "\nSchedule clashes: similar talks at the same time in different rooms")
	}
	for i, c := range rep.Clashes {
		fmt.Fprintf(w, "%2d. %.3f  %s – %s\n", i+1, c.Score, c.Start.Format("Mon Jan 2 15:04"), c.End.Format("15:04"))
		fmt.Fprintf(w, "    %s: %s  [%s]\n    %s: %s  [%s]\n", c.RoomA, c.TitleA, c.A, c.RoomB, c.TitleB, c.B)
	}

	if len(rep.Merged) > 0 {
		fmt.Fprintln(w, "\nDuplicates merged at ingest (one talk found in several dumps)")
	}
	for _, m := range rep.Merged {
		fmt.Fprintf(w, "    - %s  [%s]: %s\n", m.Title, m.ID, strings.Join(m.Sources, ", "))
	}
}

package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/search/overlap"
	"github.com/talksearch/talksearch/web"
)

func newOverlapsCmd(g *globals) *cobra.Command {
	var (
		from     []string
		minScore float64
		asJSON   bool
		asCSV    bool
		decided  string
	)
	formats := strings.Join(ingest.FormatNames(), ", ")
	cmd := &cobra.Command{
		Use:   "overlaps [--from FILE]... [--min SCORE] [--json|--csv]",
		Short: "Duplicate and overlapping submissions, resubmissions, and schedule conflicts",
		Long: `Find the submissions that are the same talk twice (duplicate, near-duplicate,
or a resubmission: a reworded text by the same speaker) or about the same
thing (topical), group them into clusters, list the schedule's conflicts (a
speaker in two overlapping slots, two talks of one track at once, similar
talks in parallel) and, with several conferences loaded, the talks that come
back at a later conference. Each pair is explained by the distinctive terms
the two talks share, the speakers they share and the sentences of each
abstract that carry the terms.

Without --from the talks are the seeds' (--seeds, or the embedded ones).
--from FILE (repeatable: several files are analysed together, e.g. two
years of one conference) reads submissions in one of these formats: ` + formats + `.
The format comes from the extension (.csv, .jsonl, .ndjson), otherwise from
the content; Sched pages and abstract dumps, which --seeds also reads, are
not submissions files. CSV (header row; columns id, title, abstract,
speakers, track, level, room, start, end, time_zone, kind, conference,
description; only title and abstract required; speakers as
"Name (Affiliation); Name") and JSON Lines (the same fields, or talksearch
export's) stream: memory is bounded by the largest row (--max-line-bytes);
the other formats are read whole (at most --max-file-bytes), and their talks are known by the source's
id (a pretalx code). Every row skipped, merged or repaired is reported on
stderr with its file, line and reason, and each file's counts add up to its
rows. A call of fewer than 50 submissions borrows its term statistics from
the seeds (--seeds, or the embedded ones). Times without a zone are read in the global --time-zone, for --seeds
and --from alike (for --from CSV and JSON Lines rows that name no
time_zone, default ` + ingest.DefaultZone + `).

--json prints the same document as GET /api/overlaps, --csv the same table as
GET /api/overlaps.csv; not both. Exit status 2 for a usage error (--min out
of 0..1, --json with --csv), 1 when a file cannot be read or no row of any
file could be used.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !(minScore >= 0 && minScore <= 1) {
				return usage(fmt.Errorf("--min %v: want a score between 0 and 1", minScore))
			}
			if asJSON && asCSV {
				return usage(errors.New("--json and --csv: choose one format"))
			}
			in := ingest.ImportOptions{Location: g.zone, MaxRowBytes: g.maxLine, MaxFileBytes: g.maxFile, MaxParseTime: g.maxParse, Context: g.ctx}
			talks, files, notes, source, err := g.overlapTalks(from, in)
			if err != nil {
				return err
			}
			var decisions []overlap.Decision
			if decided != "" {
				var err error
				if decisions, err = overlap.ReadDecisionsFile(decided); err != nil {
					return fmt.Errorf("--decisions: %w", err)
				}
			}
			opt := overlap.Options{Min: minScore}
			if len(from) > 0 && len(talks) < overlap.SmallCall {
				// A small call borrows its term statistics from the seeds,
				// read quietly: their warnings are not about the call.
				c, err := g.loadCorpusReporting(func(ingest.Warning) {})
				if err != nil {
					return fmt.Errorf("background corpus for a call of %d submissions: %w", len(talks), err)
				}
				opt.Background = c.Talks
			}
			rep := overlap.Detect(talks, opt).Apply(decisions)
			rep.Skipped, rep.Files = notes, files
			if decided != "" {
				fmt.Fprintf(g.stderr, "%s: %d decisions applied, %d match no finding of this report\n", decided, rep.Applied, rep.Unmatched)
			}
			if asJSON {
				return writeJSON(g.stdout, web.OverlapsJSON, rep)
			}
			if asCSV {
				return rep.WriteCSV(g.stdout)
			}
			if minScore == 0 {
				minScore = overlap.DefaultMin
			}
			printOverlaps(g.stdout, rep, talks, source, minScore)
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&from, "from", nil, "file of submissions ("+formats+"), repeatable (default: the seeds)")
	fl.Float64Var(&minScore, "min", 0, fmt.Sprintf("lowest pair score to report, 0..1 (0 means %.2f)", overlap.DefaultMin))
	fl.BoolVar(&asJSON, "json", false, "print the report as the API's JSON document")
	fl.StringVar(&decided, "decisions", "", "the committee's decisions, a CSV file with columns a, b, decision (not-an-overlap or confirmed), note: pairs decided not to overlap are left out, confirmed ones marked")
	fl.BoolVar(&asCSV, "csv", false, "print the report as CSV (GET /api/overlaps.csv): pairs, conflicts, resubmissions, noted rows, totals")
	return cmd
}

// overlapTalks reads the talks to compare: the submissions files, or the
// seeds. Rows not kept as written are printed to stderr as they are also
// returned.
func (g *globals) overlapTalks(from []string, opt ingest.ImportOptions) ([]index.Talk, []ingest.FileSummary, []ingest.RowError, string, error) {
	if len(from) == 0 {
		c, err := g.loadCorpus()
		if err != nil {
			return nil, nil, nil, "", err
		}
		return c.Talks, nil, nil, "the seeds", nil
	}
	var talks []index.Talk
	in := ingest.NewImporter(opt, func(t index.Talk) { talks = append(talks, t) })
	var files []ingest.FileSummary
	for _, name := range from {
		sum, err := readSubmissionsFile(in, name)
		if err != nil {
			return nil, nil, nil, "", err
		}
		files = append(files, sum)
	}
	notes := in.Notes()
	for _, n := range notes {
		fmt.Fprintf(g.stderr, "warning: %s:%d: %s: %s\n", pathOf(from, n.File), n.Line, n.Action, n.Reason)
	}
	if len(talks) == 0 {
		rows := 0
		for _, f := range files {
			rows += f.Rows
		}
		return nil, nil, nil, "", fmt.Errorf("no submission could be read from %s (%d rows, none usable: see the warnings)", strings.Join(from, ", "), rows)
	}
	return talks, files, notes, strings.Join(from, ", "), nil
}

func readSubmissionsFile(in *ingest.Importer, name string) (ingest.FileSummary, error) {
	f, err := ingest.OpenRegular(name)
	if err != nil {
		return ingest.FileSummary{}, fmt.Errorf("submissions: %w", err)
	}
	defer f.Close()
	return in.Read(name, f)
}

// pathOf is the path given for a file the importer names by its base.
func pathOf(from []string, base string) string {
	for _, p := range from {
		if filepath.Base(p) == base {
			return p
		}
	}
	return base
}

// printOverlaps writes the report for a terminal: clusters, then pairs with
// their reasons, then clashes and the talks merged at ingest. Passages lose
// their HTML; shared words are shown in [brackets].
func printOverlaps(w io.Writer, rep *overlap.Report, talks []index.Talk, source string, minScore float64) {
	titles := make(map[string]string, len(talks))
	for _, t := range talks {
		titles[t.ID] = t.Title
	}
	tot := rep.Totals()
	fmt.Fprintf(w, "%d talks from %s: %d pairs scoring %.2f or more", len(talks), source, tot.Pairs, minScore)
	if tot.Pairs > len(rep.Pairs) {
		fmt.Fprintf(w, " (the best %d listed)", len(rep.Pairs))
	}
	fmt.Fprintf(w, ", in %d clusters; %d schedule clashes.\nIn all: %s.\n", tot.Clusters, tot.Clashes, tot)
	for _, f := range rep.Files {
		fmt.Fprintf(w, "%s: %d rows: %d kept (%d repaired), %d merged, %d skipped.", f.File, f.Rows, f.Kept, f.Repaired, f.Merged, f.Skipped)
		if f.NaiveTimes > 0 {
			fmt.Fprintf(w, " %d rows had times without a zone, read as %s.", f.NaiveTimes, f.Zone)
		}
		fmt.Fprintln(w)
	}
	if len(rep.Skipped) > 0 {
		fmt.Fprintf(w, "%d rows skipped, merged or repaired (see the warnings above).\n", len(rep.Skipped))
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
		if len(p.SharedSpeakers) > 0 {
			fmt.Fprintf(w, "    same speaker: %s\n", strings.Join(p.SharedSpeakers, ", "))
		}
		if p.Decision != "" {
			fmt.Fprintf(w, "    decision: %s %s\n", p.Decision, p.Note)
		}
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

	printConflicts(w, rep)

	if len(rep.Merged) > 0 {
		fmt.Fprintln(w, "\nDuplicates merged at ingest (one talk found in several dumps)")
	}
	for _, m := range rep.Merged {
		fmt.Fprintf(w, "    - %s  [%s]: %s\n", m.Title, m.ID, strings.Join(m.Sources, ", "))
	}
}

// printConflicts writes the speaker and track conflicts (the similar ones
// are the clashes above) and the resubmissions across conferences.
func printConflicts(w io.Writer, rep *overlap.Report) {
	n := 0
	for _, c := range rep.Conflicts {
		if c.Kind == overlap.ConflictSimilar {
			continue
		}
		if n == 0 {
			fmt.Fprintln(w, "\nConflicts: a speaker in two places, a track against itself")
		}
		n++
		what := "speaker " + c.Speaker
		if c.Kind == overlap.ConflictTrack {
			what = "track " + c.Track
		}
		fmt.Fprintf(w, "%2d. %s  %s – %s\n", n, what, c.Start.Format("Mon Jan 2 15:04"), c.End.Format("15:04"))
		fmt.Fprintf(w, "    %s: %s  [%s]\n    %s: %s  [%s]\n", orNone(c.RoomA), c.TitleA, c.A, orNone(c.RoomB), c.TitleB, c.B)
	}
	if len(rep.Resubmissions) > 0 {
		fmt.Fprintln(w, "\nResubmissions: talks that come back at a later conference")
	}
	for i, r := range rep.Resubmissions {
		fmt.Fprintf(w, "%2d. %.3f %s (%s)\n", i+1, r.Score, r.Kind, strings.Join(r.Evidence, ", "))
		fmt.Fprintf(w, "    %s: %s  [%s]\n    %s: %s  [%s]\n", r.ConferenceEarlier, r.TitleEarlier, r.Earlier, r.ConferenceLater, r.TitleLater, r.Later)
		if len(r.SharedSpeakers) > 0 {
			fmt.Fprintf(w, "    same speaker: %s\n", strings.Join(r.SharedSpeakers, ", "))
		}
	}
	if len(rep.Recurring) > 0 {
		fmt.Fprintln(w, "\nRecurring sessions: held at every edition, one line each")
	}
	for i, r := range rep.Recurring {
		years := make([]string, len(r.Years))
		for k, y := range r.Years {
			years[k] = strconv.Itoa(y)
		}
		fmt.Fprintf(w, "%2d. %s (%s; %s)  [%s]\n", i+1, r.Title, strings.Join(years, ", "), strings.Join(r.Evidence, ", "), strings.Join(r.IDs, ", "))
	}
}

func orNone(room string) string {
	if room == "" {
		return "(no room)"
	}
	return room
}

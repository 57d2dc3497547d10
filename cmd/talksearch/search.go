package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/web"
)

// searchFlags are the options of `talksearch search`.
type searchFlags struct {
	tracks, levels, rooms []string
	sort                  string
	limit, offset         int
	json, explain         bool
}

func newSearchCmd(g *globals) *cobra.Command {
	var f searchFlags
	cmd := &cobra.Command{
		Use:   "search [flags] QUERY",
		Short: "Search the talks from the terminal",
		Long: `Search the talks as the web page does. The words of QUERY may be given as
several arguments. "quoted phrases", -exclusions and the prefixes title:,
speaker: and track: work; an empty QUERY lists every talk.
--json prints the same document as GET /api/search. --explain shows under
each hit how its score was made: Bleve's BM25 score of the query (each
clause's field, term and BM25 parts) times the factor of soft coordination
and break damping.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			// The engine takes limit 0 for its default; the command line,
			// like the API, refuses it rather than showing 20 talks.
			if f.limit < 1 || f.limit > search.MaxLimit {
				return usage(fmt.Errorf("--limit %d: want a whole number from 1 to %d: %w", f.limit, search.MaxLimit, search.ErrInvalid))
			}
			e, err := g.searchEngine()
			if err != nil {
				return err
			}
			defer e.Close()
			res, err := e.Search(cmd.Context(), search.Request{
				Query: strings.Join(args, " "), Tracks: f.tracks, Levels: f.levels, Rooms: f.rooms,
				Sort: f.sort, Limit: f.limit, Offset: f.offset, Explain: f.explain,
			})
			if errors.Is(err, search.ErrInvalid) {
				return usage(err) // a flag out of range (offset, sort, facet values)
			}
			if err != nil {
				return err
			}
			if f.json {
				return writeJSON(g.stdout, web.SearchJSON, res)
			}
			printResult(g.stdout, res, f.offset)
			return nil
		},
	}
	fl := cmd.Flags()
	// StringArray, not StringSlice: a value may contain a comma.
	fl.StringArrayVar(&f.tracks, "track", nil, "only talks of this track (repeat for several: any of them)")
	fl.StringArrayVar(&f.levels, "level", nil, "only talks of this level (repeatable)")
	fl.StringArrayVar(&f.rooms, "room", nil, "only talks in this room (repeatable)")
	fl.StringVar(&f.sort, "sort", search.SortRelevance, "order: relevance or time")
	fl.IntVar(&f.limit, "limit", search.DefaultLimit, fmt.Sprintf("talks to show (at most %d)", search.MaxLimit))
	fl.IntVar(&f.offset, "offset", 0, "talks to skip (for the next page)")
	fl.BoolVar(&f.json, "json", false, "print the result as the API's JSON document")
	fl.BoolVar(&f.explain, "explain", false, "show how each hit's score was made")
	return cmd
}

func newRelatedCmd(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "related ID",
		Short: "Show the talks most similar to one talk",
		Long: `Show the talks most similar to the talk with id ID (as printed by
search and export), with the distinctive terms they share and whether they
clash in the schedule. --json prints the same document as GET /api/talks/ID.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := g.searchEngine()
			if err != nil {
				return err
			}
			defer e.Close()
			d, err := e.Talk(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(g.stdout, web.TalkJSON, d)
			}
			fmt.Fprintf(g.stdout, "%s\n  %s\n\n", d.Title, d.ID)
			if len(d.Related) == 0 {
				fmt.Fprintln(g.stdout, "No related talks.")
			}
			for i, r := range d.Related {
				fmt.Fprintf(g.stdout, "%2d. %s\n    %s  score %.3f", i+1, r.Title, r.ID, r.Score)
				if when := slot(r.Start, r.Room); when != "" {
					fmt.Fprintf(g.stdout, "  %s", when)
				}
				if r.Clash {
					fmt.Fprint(g.stdout, "  CLASH")
				}
				fmt.Fprintf(g.stdout, "\n    shares: %s\n", strings.Join(r.SharedTerms, ", "))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the talk and its related talks as the API's JSON document")
	return cmd
}

// engine loads the corpus and indexes it.
func (g *globals) searchEngine() (*search.Engine, error) {
	c, err := g.loadCorpus()
	if err != nil {
		return nil, err
	}
	e, err := search.New(c.Talks)
	if err != nil {
		return nil, fmt.Errorf("index talks: %w", err)
	}
	return e, nil
}

// writeJSON prints v as the API's document (encoded by web, which owns the
// JSON contract), indented for a terminal.
func writeJSON[T any](w io.Writer, encode func(T) ([]byte, error), v T) error {
	body, err := encode(v)
	if err != nil {
		return err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, body, "", "  "); err != nil {
		return fmt.Errorf("indent json: %w", err)
	}
	out.WriteByte('\n')
	if _, err := out.WriteTo(w); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}

// printResult writes a result for a terminal: highlights lose their HTML,
// matched words are shown in [brackets].
func printResult(w io.Writer, r *search.Result, offset int) {
	switch {
	case r.DidYouMean != "" && r.Corrected:
		fmt.Fprintf(w, "Showing results for: %s\n", r.DidYouMean)
	case r.DidYouMean != "":
		fmt.Fprintf(w, "Did you mean: %s\n", r.DidYouMean)
	}
	if r.Note != "" {
		fmt.Fprintln(w, r.Note)
	}
	for _, s := range r.Synonyms {
		fmt.Fprintf(w, "Also searched: %s\n", s)
	}
	fmt.Fprintf(w, "%d talks (%.1f ms)\n", r.Total, r.TookMS)
	for i, h := range r.Hits {
		title := h.Title
		if len(h.Highlights.Title) > 0 {
			title = plain(h.Highlights.Title[0])
		}
		fmt.Fprintf(w, "\n%2d. %s\n    %s", offset+i+1, title, h.ID)
		var meta []string
		for _, v := range []string{h.Track, h.Level, slot(h.Start, h.Room)} {
			if v != "" {
				meta = append(meta, v)
			}
		}
		if len(meta) > 0 {
			fmt.Fprintf(w, "  ·  %s", strings.Join(meta, " · "))
		}
		fmt.Fprintln(w)
		if names := speakerNames(h); names != "" {
			fmt.Fprintf(w, "    %s\n", names)
		}
		for _, a := range h.Highlights.Abstract {
			fmt.Fprintf(w, "    %s\n", strings.ReplaceAll(plain(a), "\n", " "))
		}
		if h.Explanation != nil {
			printExplanation(w, *h.Explanation, 2)
		}
	}
	fmt.Fprintln(w)
	printFacet(w, "track", r.Facets.Track, r.Facets.Missing["track"])
	printFacet(w, "level", r.Facets.Level, r.Facets.Missing["level"])
	printFacet(w, "room", r.Facets.Room, r.Facets.Missing["room"])
}

// printExplanation writes x as a tree, a node a line: its value and
// description, its details indented below it.
func printExplanation(w io.Writer, x search.Explanation, depth int) {
	fmt.Fprintf(w, "%*s%.6g  %s\n", 2*depth, "", x.Value, x.Description)
	for _, d := range x.Details {
		printExplanation(w, d, depth+1)
	}
}

func printFacet(w io.Writer, name string, vs []search.FacetValue, missing int) {
	if len(vs) == 0 && missing == 0 {
		return
	}
	parts := make([]string, 0, len(vs)+1)
	for _, v := range vs {
		mark := ""
		if v.Selected {
			mark = "*"
		}
		parts = append(parts, fmt.Sprintf("%s%s (%d)", mark, v.Value, v.Count))
	}
	if missing > 0 {
		parts = append(parts, fmt.Sprintf("none (%d)", missing))
	}
	fmt.Fprintf(w, "%s: %s\n", name, strings.Join(parts, ", "))
}

// plain turns a highlight fragment into terminal text.
func plain(fragment string) string {
	s := strings.NewReplacer("<mark>", "[", "</mark>", "]").Replace(fragment)
	return html.UnescapeString(s)
}

func speakerNames(h search.Hit) string {
	names := make([]string, 0, len(h.Speakers))
	for _, s := range h.Speakers {
		if s.Affiliation != "" {
			names = append(names, s.Name+" ("+s.Affiliation+")")
		} else {
			names = append(names, s.Name)
		}
	}
	return strings.Join(names, ", ")
}

// slot is when and where a talk is, for one line.
func slot(start *time.Time, room string) string {
	var parts []string
	if start != nil {
		parts = append(parts, start.Format("Mon 15:04"))
	}
	if room != "" {
		parts = append(parts, room)
	}
	return strings.Join(parts, ", ")
}

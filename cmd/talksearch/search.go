package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/search"
	"github.com/talksearch/talksearch/web"
)

// searchFlags are the options of `talksearch search`.
type searchFlags struct {
	tracks, levels, rooms []string
	conferences, days     []string
	kinds, languages      []string
	after, before         string
	cancelled             string
	scheduled             bool
	sort                  string
	limit, offset         int
	json, explain         bool
	indexDir              string
}

// sortOrders are the values of --sort.
var sortOrders = []string{search.SortRelevance, search.SortTime, search.SortNewest}

// check refuses, before anything is loaded, the flag values no index
// could answer; each error names its flag.
func (f searchFlags) check() error {
	// The engine takes limit 0 for its default; the command line, like
	// the API, refuses it rather than showing 20 talks.
	if f.limit < 1 || f.limit > search.MaxLimit {
		return fmt.Errorf("--limit %d: want a whole number from 1 to %d: %w", f.limit, search.MaxLimit, search.ErrInvalid)
	}
	if f.offset < 0 || f.offset > search.MaxOffset {
		return fmt.Errorf("--offset %d: want a whole number from 0 to %d: %w", f.offset, search.MaxOffset, search.ErrInvalid)
	}
	switch c := strings.ToLower(strings.TrimSpace(f.cancelled)); c {
	case "", search.CancelledExclude, search.CancelledOnly:
	default:
		return fmt.Errorf("--cancelled %q: want %s or %s: %w", f.cancelled, search.CancelledExclude, search.CancelledOnly, search.ErrInvalid)
	}
	if !slices.Contains(sortOrders, strings.ToLower(strings.TrimSpace(f.sort))) {
		return fmt.Errorf("--sort %q: want one of %s: %w", f.sort, strings.Join(sortOrders, ", "), search.ErrInvalid)
	}
	for _, d := range f.days {
		if _, err := time.Parse(time.DateOnly, strings.TrimSpace(d)); err != nil {
			return fmt.Errorf("--day %q: want a date YYYY-MM-DD: %w", d, search.ErrInvalid)
		}
	}
	for _, k := range f.kinds {
		if !slices.Contains(index.Kinds, index.Kind(strings.ToLower(strings.TrimSpace(k)))) {
			return fmt.Errorf("--kind %q: want one of %s: %w", k, kindNames(), search.ErrInvalid)
		}
	}
	var bounds [2]time.Time
	for i, b := range []struct{ flag, v string }{{"--after", f.after}, {"--before", f.before}} {
		if b.v == "" {
			continue
		}
		t, err := time.Parse("15:04", b.v)
		if err != nil || len(b.v) != 5 {
			return fmt.Errorf("%s %q: want a time of day HH:MM (24-hour, in each talk's own zone): %w", b.flag, b.v, search.ErrInvalid)
		}
		bounds[i] = t
	}
	if f.after != "" && f.before != "" && !bounds[0].Before(bounds[1]) {
		return fmt.Errorf("--after %s --before %s: no time of day is both: %w", f.after, f.before, search.ErrInvalid)
	}
	return nil
}

// request is the search the flags ask for; conferences are ids.
func (f searchFlags) request(args, conferences []string) search.Request {
	return search.Request{
		Query: strings.Join(args, " "), Tracks: f.tracks, Levels: f.levels, Rooms: f.rooms,
		Days: f.days, Kinds: f.kinds, Conferences: conferences, Languages: f.languages,
		Scheduled: f.scheduled, Cancelled: strings.ToLower(strings.TrimSpace(f.cancelled)), After: f.after, Before: f.before,
		Sort: strings.ToLower(strings.TrimSpace(f.sort)), Limit: f.limit, Offset: f.offset, Explain: f.explain,
	}
}

func kindNames() string {
	names := make([]string, len(index.Kinds))
	for i, k := range index.Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

func newSearchCmd(g *globals) *cobra.Command {
	var f searchFlags
	cmd := &cobra.Command{
		Use:   "search [flags] QUERY",
		Short: "Search the talks from the terminal",
		Long: `Search the talks as the web page does. The words of QUERY may be given as
several arguments. "quoted phrases", -exclusions and the prefixes title:,
speaker: and track: work; an empty QUERY lists every talk.

Filters of one flag, repeated, combine with OR; different flags with AND.
Days and times of day are each talk's own, in its conference's zone, and so
are the dates printed. When the talks loaded span several conferences or
years, each line names the talk's conference and the year.

--index DIR keeps the index, and the talks parsed from the seeds, in DIR
(the directory serve --index uses): the first call builds it, later calls
on the same seed files answer from it without parsing or indexing them.
A server using DIR holds it: search another directory meanwhile.

--json prints the same document as GET /api/search. --explain shows under
each hit how its score was made: Bleve's BM25 score of the query (each
clause's field, term and BM25 parts) times the factor of soft coordination
and break damping.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check(); err != nil {
				return usage(err)
			}
			lib, err := g.openLibrary(f.indexDir) // open.go
			if err != nil {
				return err
			}
			defer lib.Close()
			conferences, err := lib.conferenceIDs(f.conferences)
			if err != nil {
				return usage(err)
			}
			res, err := lib.engine.Search(cmd.Context(), f.request(args, conferences))
			if errors.Is(err, search.ErrInvalid) {
				return usage(err) // a value out of range the flags let through (facet values)
			}
			if err != nil {
				return err
			}
			if f.json {
				return writeJSON(g.stdout, web.SearchJSON, res)
			}
			printResult(g.stdout, res, f.offset, lib)
			return nil
		},
	}
	addSearchFlags(cmd.Flags(), &f)
	return cmd
}

// addSearchFlags declares the flags of `talksearch search` into f.
func addSearchFlags(fl *pflag.FlagSet, f *searchFlags) {
	// StringArray, not StringSlice: a value may contain a comma.
	fl.StringArrayVar(&f.tracks, "track", nil, "only talks of this track (repeat for several: any of them)")
	fl.StringArrayVar(&f.levels, "level", nil, "only talks of this level (repeatable)")
	fl.StringArrayVar(&f.rooms, "room", nil, "only talks in this room (repeatable)")
	fl.StringArrayVar(&f.conferences, "conference", nil, "only talks of this conference, by id (fosdem-2025) or name (repeatable)")
	fl.StringArrayVar(&f.days, "day", nil, "only talks on this date, YYYY-MM-DD in the talk's own zone (repeatable)")
	fl.StringArrayVar(&f.kinds, "kind", nil, "only talks of this kind: "+kindNames()+" (repeatable)")
	fl.StringArrayVar(&f.languages, "language", nil, "only talks in this language, as the source tags it: en, de (repeatable)")
	fl.StringVar(&f.after, "after", "", "only talks starting at or after this time of day, HH:MM in the talk's own zone")
	fl.StringVar(&f.before, "before", "", "only talks starting before this time of day, HH:MM in the talk's own zone")
	fl.BoolVar(&f.scheduled, "scheduled", false, "only talks with a slot in a schedule")
	fl.StringVar(&f.cancelled, "cancelled", "", "cancelled talks: exclude or only (default: listed after the others)")
	fl.StringVar(&f.sort, "sort", search.SortRelevance, "order: "+strings.Join(sortOrders, " or "))
	fl.IntVar(&f.limit, "limit", search.DefaultLimit, fmt.Sprintf("talks to show (at most %d)", search.MaxLimit))
	fl.IntVar(&f.offset, "offset", 0, "talks to skip (for the next page)")
	fl.BoolVar(&f.json, "json", false, "print the result as the API's JSON document")
	fl.BoolVar(&f.explain, "explain", false, "show how each hit's score was made")
	fl.StringVar(&f.indexDir, "index", "", "directory of an on-disk index to reuse or build, as serve --index (default: index in memory on each call)")
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
			lib, err := g.openLibrary("")
			if err != nil {
				return err
			}
			defer lib.Close()
			d, err := lib.engine.Talk(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(g.stdout, web.TalkJSON, d)
			}
			fmt.Fprintf(g.stdout, "%s\n  %s", d.Title, d.ID)
			if meta := lib.meta(d.ID, d.Start, d.End, d.Room); meta != "" {
				fmt.Fprintf(g.stdout, "  ·  %s", meta)
			}
			fmt.Fprint(g.stdout, "\n\n")
			if len(d.Related) == 0 {
				fmt.Fprintln(g.stdout, "No related talks.")
			}
			for i, r := range d.Related {
				fmt.Fprintf(g.stdout, "%2d. %s\n    %s  score %.3f", i+1, r.Title, r.ID, r.Score)
				if meta := lib.meta(r.ID, r.Start, r.End, r.Room); meta != "" {
					fmt.Fprintf(g.stdout, "  %s", meta)
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
func printResult(w io.Writer, r *search.Result, offset int, lib *library) {
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
		if h.Cancelled {
			title = "[CANCELLED] " + title
		}
		fmt.Fprintf(w, "\n%2d. %s\n    %s", offset+i+1, title, h.ID)
		meta := []string{lib.meta(h.ID, h.Start, h.End, h.Room)}
		for _, v := range []string{h.Track, h.Level} {
			if v != "" {
				meta = append(meta, v)
			}
		}
		if m := strings.Join(slices.DeleteFunc(meta, func(s string) bool { return s == "" }), " · "); m != "" {
			fmt.Fprintf(w, "  ·  %s", m)
		}
		fmt.Fprintln(w)
		if names := speakerNames(h); names != "" {
			fmt.Fprintf(w, "    %s\n", names)
		}
		frags := h.Highlights.Abstract
		if len(frags) == 0 {
			frags = h.Highlights.Description // found by its description
		}
		for _, a := range frags {
			fmt.Fprintf(w, "    %s\n", strings.ReplaceAll(plain(a), "\n", " "))
		}
		if h.Explanation != nil {
			printExplanation(w, *h.Explanation, 2)
		}
	}
	fmt.Fprintln(w)
	f := r.Facets
	if len(lib.conferences) > 1 {
		printFacet(w, "conference", f.Conference, f.Missing["conference"])
	}
	printFacet(w, "day", f.Day, f.Missing["day"])
	printFacet(w, "track", f.Track, f.Missing["track"])
	printFacet(w, "kind", f.Kind, f.Missing["kind"])
	printFacet(w, "level", f.Level, f.Missing["level"])
	printFacet(w, "room", f.Room, f.Missing["room"])
	printFacet(w, "language", f.Language, f.Missing["language"])
}

// printExplanation writes x as a tree, a node a line: its value and
// description, its details indented below it.
func printExplanation(w io.Writer, x search.Explanation, depth int) {
	fmt.Fprintf(w, "%*s%.6g  %s\n", 2*depth, "", x.Value, x.Description)
	for _, d := range x.Details {
		printExplanation(w, d, depth+1)
	}
}

// facetShown is how many values of a facet a terminal line lists.
const facetShown = 8

// printFacet writes a facet on one line: its facetShown values of most
// talks (ties in the engine's order) and those selected, in the engine's
// order (by count; days by date), then how many more there are and the
// talks without a value. A facet no talk has a value of says nothing and is
// left out.
func printFacet(w io.Writer, name string, vs []search.FacetValue, missing int) {
	if len(vs) == 0 {
		return
	}
	byCount := slices.Clone(vs)
	slices.SortStableFunc(byCount, func(a, b search.FacetValue) int { return b.Count - a.Count })
	shown := map[string]bool{}
	for i, v := range byCount {
		if i < facetShown || v.Selected {
			shown[v.Value] = true
		}
	}
	parts := make([]string, 0, len(shown)+2)
	for _, v := range vs {
		if !shown[v.Value] {
			continue
		}
		mark, label := "", v.Value
		if v.Selected {
			mark = "*"
		}
		if v.Label != "" {
			label = v.Label
		}
		parts = append(parts, fmt.Sprintf("%s%s (%d)", mark, label, v.Count))
	}
	line := strings.Join(parts, ", ")
	if more := len(vs) - len(shown); more > 0 {
		line += fmt.Sprintf(" … and %d more", more)
	}
	if missing > 0 {
		line += fmt.Sprintf("; none (%d)", missing)
	}
	fmt.Fprintf(w, "%s: %s\n", name, line)
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

// meta is a talk's conference (when several are loaded), date, time and
// room for one line, in the talk's own zone: "FOSDEM 2025 · Sat 1 Feb 2025,
// 10:30–10:55, H.2214"; the year is left out when every talk loaded is of
// one conference and one year ("Wed 8 Apr, 10:30–11:00, Room A").
func (l *library) meta(id string, start, end *time.Time, room string) string {
	t := l.talks[id]
	local := func(tm time.Time) time.Time {
		if t == nil {
			return tm // the hit's own offset: the conference's
		}
		return t.Local(tm)
	}
	var when []string
	if start != nil {
		s := local(*start)
		layout := "Mon 2 Jan"
		if l.mixed {
			layout = "Mon 2 Jan 2006"
		}
		hours := s.Format("15:04")
		if end != nil {
			hours += "–" + local(*end).Format("15:04")
		}
		when = append(when, s.Format(layout), hours)
	}
	if room != "" {
		when = append(when, room)
	}
	var parts []string
	if t != nil && len(l.conferences) > 1 {
		name := t.Conference.Name
		if name == "" {
			name = t.Conference.ID
		}
		parts = append(parts, name)
	}
	if len(when) > 0 {
		parts = append(parts, strings.Join(when, ", "))
	}
	return strings.Join(parts, " · ")
}

package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/talksearch/talksearch/index"
)

// dropReport says which talks of the serving corpus a new one would lose
// because every seed file they were found in is gone or yields nothing.
// It speaks in terms of Talk.ReadFrom, the files ingest read, whatever
// read the seeds (one directory, several paths, files): never of
// Talk.Sources, which a JSON Lines row states for itself.
type dropReport struct {
	talks int            // talks found only in gone files and absent from the new corpus
	files map[string]int // gone file → how many of those talks it held
}

// sourcesOf is the seed files each talk was read from, by id.
func sourcesOf(talks []index.Talk) map[string][]string {
	m := make(map[string][]string, len(talks))
	for _, t := range talks {
		m[t.ID] = t.ReadFrom
	}
	return m
}

// dropped compares the sources of the serving talks (by id) with the new
// talks. A talk is lost when the new corpus has no talk of its id and no
// file it was found in yields a talk any more: a deleted, emptied or
// unreadable seed that held its only copy. A talk removed from a file that
// still yields talks is an edit, not a loss; a talk that moved to another
// file keeps its id and is not lost either.
func dropped(serving map[string][]string, next []index.Talk) dropReport {
	ids := make(map[string]bool, len(next))
	files := map[string]bool{}
	for _, t := range next {
		ids[t.ID] = true
		for _, f := range t.ReadFrom {
			files[f] = true
		}
	}
	rep := dropReport{files: map[string]int{}}
	for id, sources := range serving {
		if ids[id] || len(sources) == 0 || slices.ContainsFunc(sources, func(f string) bool { return files[f] }) {
			continue
		}
		rep.talks++
		for _, f := range sources {
			rep.files[f]++
		}
	}
	return rep
}

// err is the refusal of a change that loses talks, naming the files, or nil.
func (r dropReport) err(override string) error {
	if r.talks == 0 {
		return nil
	}
	names := slices.Sorted(maps.Keys(r.files))
	parts := make([]string, len(names))
	for i, f := range names {
		parts[i] = fmt.Sprintf("%s (%d %s)", f, r.files[f], plural(r.files[f], "talk", "talks"))
	}
	return fmt.Errorf("%d %s found in no other seed file would be dropped: %s %s gone or %s no talks; %s to accept",
		r.talks, plural(r.talks, "talk", "talks"), strings.Join(parts, ", "),
		plural(len(names), "is", "are"), plural(len(names), "yields", "yield"), override)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

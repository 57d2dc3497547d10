package overlap

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/talksearch/talksearch/index"
)

// TalkInfo is what an export says of each talk of a row: its id, title,
// conference and year, so rows of two editions or two conferences whose
// sources number their talks alike are told apart.
type TalkInfo struct {
	ID         string
	Title      string
	Conference string
	Year       int // 0 when neither the slot nor the conference says
}

// Totals are the report's counts, the same wherever it is shown: the
// lists of a report (and of a page) may hold fewer than are found.
type Totals struct {
	// Conflicts are the speaker and track conflicts; the similar talks in
	// parallel are the Clashes.
	Pairs, Clusters, Clashes, Conflicts, Resubmissions, Recurring, Merged int
	// Decisions is how many of the committee's decisions were applied.
	Decisions int
	// The files' rows: Rows = Kept + MergedRows + Skipped, Repaired among
	// the Kept.
	Rows, Kept, Repaired, MergedRows, Skipped int
}

// Totals counts the report.
func (r *Report) Totals() Totals {
	t := Totals{
		Pairs: len(r.Pairs) + r.More, Clusters: len(r.Clusters), Clashes: len(r.Clashes) + r.MoreClashes,
		Decisions: r.Applied,
		Conflicts: r.scheduleConflicts, Resubmissions: len(r.Resubmissions) + r.MoreResubmissions,
		Recurring: len(r.Recurring), Merged: len(r.Merged),
	}
	for _, f := range r.Files {
		t.Rows += f.Rows
		t.Kept += f.Kept
		t.Repaired += f.Repaired
		t.MergedRows += f.Merged
		t.Skipped += f.Skipped
	}
	return t
}

// String is the totals in one line, as the CLI, the page and the CSV say
// them.
func (t Totals) String() string {
	s := fmt.Sprintf("%d pairs, %d clusters, %d clashes, %d conflicts, %d earlier versions, %d recurring sessions, %d merged at ingest",
		t.Pairs, t.Clusters, t.Clashes, t.Conflicts, t.Resubmissions, t.Recurring, t.Merged)
	if t.Decisions > 0 {
		s += fmt.Sprintf("; %d decisions applied", t.Decisions)
	}
	if t.Rows > 0 {
		s += fmt.Sprintf("; rows %d: kept %d (repaired %d), merged %d, skipped %d", t.Rows, t.Kept, t.Repaired, t.MergedRows, t.Skipped)
	}
	return s
}

// Info is what the report knows of talk id; only the id for a talk it did
// not compare.
func (r *Report) Info(id string) TalkInfo {
	if t, ok := r.talks[id]; ok {
		return t
	}
	return TalkInfo{ID: id}
}

func talkInfos(talks []index.Talk) map[string]TalkInfo {
	out := make(map[string]TalkInfo, len(talks))
	for _, t := range talks {
		out[t.ID] = TalkInfo{ID: t.ID, Title: t.Title, Conference: t.Conference.ID, Year: talkYear(t)}
	}
	return out
}

var yearIn = regexp.MustCompile(`(?:^|\D)((?:19|20)\d\d)(?:\D|$)`)

// talkYear is the year of the talk's slot, else the year its conference's
// id or name writes ("fosdem-2024").
func talkYear(t index.Talk) int {
	if t.Start != nil {
		return t.Start.Year()
	}
	for _, s := range []string{t.Conference.ID, t.Conference.Name} {
		if m := yearIn.FindStringSubmatch(s); m != nil {
			y, _ := strconv.Atoi(m[1])
			return y
		}
	}
	return 0
}

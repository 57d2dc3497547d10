package overlap

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Decisions a committee keeps on pairs, in a plain CSV file of its own
// (`overlaps --decisions FILE`): columns a, b, decision and an optional
// note; a and b are talk ids in either order.
const (
	// DecisionNotOverlap drops the pair from the next reports.
	DecisionNotOverlap = "not-an-overlap"
	// DecisionConfirmed keeps the pair, marked as confirmed.
	DecisionConfirmed = "confirmed"
)

// DecisionsHeader is the header row of a decisions file.
var DecisionsHeader = []string{"a", "b", "decision", "note"}

// Decision is one row of a decisions file.
type Decision struct {
	A, B     string
	Decision string // DecisionNotOverlap or DecisionConfirmed
	Note     string
}

func pairKey(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}

// ReadDecisions reads a decisions file; an error names the file and the
// line. A later row about the same pair replaces an earlier one.
func ReadDecisions(name string, r io.Reader) ([]Decision, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%s:1: no header row %s: %w", name, strings.Join(DecisionsHeader, ","), err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))] = i
	}
	for _, want := range DecisionsHeader[:3] {
		if _, ok := col[want]; !ok {
			return nil, fmt.Errorf("%s:1: no %q column (want %s)", name, want, strings.Join(DecisionsHeader, ","))
		}
	}
	var out []Decision
	at := map[[2]string]int{}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		get := func(c string) string {
			if i, ok := col[c]; ok && i < len(rec) {
				// A cell a spreadsheet export kept neutralised is read back.
				return strings.TrimPrefix(strings.TrimSpace(rec[i]), "'")
			}
			return ""
		}
		d := Decision{A: get("a"), B: get("b"), Decision: strings.ToLower(get("decision")), Note: get("note")}
		switch {
		case d.A == "" || d.B == "":
			return nil, fmt.Errorf("%s:%d: a and b must both name a talk id", name, line)
		case d.Decision != DecisionNotOverlap && d.Decision != DecisionConfirmed:
			return nil, fmt.Errorf("%s:%d: decision %q: want %s or %s", name, line, d.Decision, DecisionNotOverlap, DecisionConfirmed)
		}
		if k, ok := at[pairKey(d.A, d.B)]; ok {
			out[k] = d
			continue
		}
		at[pairKey(d.A, d.B)] = len(out)
		out = append(out, d)
	}
}

// ReadDecisionsFile reads the decisions file at path.
func ReadDecisionsFile(path string) ([]Decision, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("decisions: %w", err)
	}
	defer f.Close()
	return ReadDecisions(path, f)
}

// WriteDecision writes one decision as a decisions file: the header and
// its row, cells neutralised for spreadsheets.
func WriteDecision(w io.Writer, d Decision) error {
	cw := csv.NewWriter(w)
	_ = cw.Write(DecisionsHeader)
	_ = cw.Write([]string{spreadsheetCell(d.A), spreadsheetCell(d.B), d.Decision, spreadsheetCell(d.Note)})
	cw.Flush()
	return cw.Error()
}

// Apply is the report with the committee's decisions: pairs, clashes,
// conflicts of similar talks and resubmissions decided "not an overlap"
// are left out, confirmed pairs are marked. Applied counts the decisions
// that matched something of the report, Unmatched the others (a pair
// below the threshold, or of another corpus). The result shares what it
// does not change with the report.
func (r *Report) Apply(ds []Decision) *Report {
	if len(ds) == 0 {
		return r
	}
	by := make(map[[2]string]Decision, len(ds))
	for _, d := range ds {
		by[pairKey(d.A, d.B)] = d
	}
	used := map[[2]string]bool{}
	drop := func(a, b string) bool {
		d, ok := by[pairKey(a, b)]
		if ok {
			used[pairKey(a, b)] = true
		}
		return ok && d.Decision == DecisionNotOverlap
	}
	out := *r
	out.Pairs, out.pairScores = nil, nil
	for k, p := range r.Pairs {
		if drop(p.A, p.B) {
			continue
		}
		if d, ok := by[pairKey(p.A, p.B)]; ok {
			p.Decision, p.Note = d.Decision, d.Note
		}
		out.Pairs = append(out.Pairs, p)
		out.pairScores = append(out.pairScores, r.pairScores[k])
	}
	if out.Pairs == nil {
		out.Pairs = []Pair{}
	}
	out.Clashes = keep(r.Clashes, func(c Clash) bool { return !drop(c.A, c.B) })
	out.Conflicts = keep(r.Conflicts, func(c Conflict) bool { return c.Kind != ConflictSimilar || !drop(c.A, c.B) })
	out.Resubmissions = keep(r.Resubmissions, func(x Resubmission) bool { return !drop(x.Earlier, x.Later) })
	out.Applied = len(used)
	out.Unmatched = len(by) - len(used)
	out.dropped = len(r.Pairs) - len(out.Pairs)
	return &out
}

func keep[T any](in []T, ok func(T) bool) []T {
	out := make([]T, 0, len(in))
	for _, x := range in {
		if ok(x) {
			out = append(out, x)
		}
	}
	return out
}

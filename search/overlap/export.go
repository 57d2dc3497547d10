package overlap

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// CSVHeader are the columns of WriteCSV: one row per pair, conflict,
// resubmission, noted input row and file, and the totals, told apart by
// section. Each talk is named by its id, conference, year and title.
var CSVHeader = []string{"section", "kind", "score",
	"a", "conference_a", "year_a", "title_a", "b", "conference_b", "year_b", "title_b",
	"speakers_a", "speakers_b", "room_a", "room_b", "start_a", "start_b", "detail"}

// WriteCSV writes the report for a spreadsheet: sections pair (detail: the
// shared speakers and terms), conflict (the span both talks share in
// start_a/start_b, detail: the speaker or track), resubmission (a is the
// earlier version; detail: the evidence), recurring (a the first edition's
// talk, b the latest's; detail: the years and the evidence), row (a: the file, detail: line
// and reason), file (a: the file, detail: its counts) and one total row
// (detail: the report's Totals, as the page and the CLI print them).
// Passages are left out: they are HTML.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	write := func(rec ...string) {
		for i := range rec {
			rec[i] = spreadsheetCell(rec[i])
		}
		_ = cw.Write(rec) // the error stays in cw, checked below
	}
	write(CSVHeader...)
	ts := func(t *time.Time) string {
		if t == nil {
			return ""
		}
		return t.Format(time.RFC3339)
	}
	score := func(s float64) string { return fmt.Sprintf("%.3f", s) }
	// talk is a talk's four columns; title as the row has it.
	talk := func(id, title string) []string {
		in := r.Info(id)
		year := ""
		if in.Year != 0 {
			year = strconv.Itoa(in.Year)
		}
		return []string{id, in.Conference, year, title}
	}
	row := func(section, kind, sc, a, titleA, b, titleB string, rest ...string) {
		rec := append([]string{section, kind, sc}, talk(a, titleA)...)
		if b == "" && titleB == "" {
			rec = append(rec, "", "", "", "")
		} else {
			rec = append(rec, talk(b, titleB)...)
		}
		write(append(rec, rest...)...)
	}
	for _, p := range r.Pairs {
		var detail []string
		if len(p.SharedSpeakers) > 0 {
			detail = append(detail, "same speaker: "+strings.Join(p.SharedSpeakers, "; "))
		}
		if len(p.SharedTerms) > 0 {
			detail = append(detail, "shared terms: "+strings.Join(p.SharedTerms, "; "))
		}
		if p.Decision != "" {
			detail = append(detail, strings.TrimSpace("decision: "+p.Decision+" "+p.Note))
		}
		row("pair", p.Kind, score(p.Score), p.A, p.TitleA, p.B, p.TitleB,
			strings.Join(p.SpeakersA, "; "), strings.Join(p.SpeakersB, "; "), p.RoomA, p.RoomB,
			ts(p.StartA), ts(p.StartB), strings.Join(detail, " | "))
	}
	for _, c := range r.Conflicts {
		detail := c.Speaker + c.Track
		sc := ""
		if c.Kind == ConflictSimilar {
			sc = score(c.Score)
		}
		start, end := c.Start, c.End
		row("conflict", c.Kind, sc, c.A, c.TitleA, c.B, c.TitleB, "", "", c.RoomA, c.RoomB,
			ts(&start), ts(&end), detail)
	}
	for _, rs := range r.Resubmissions {
		row("resubmission", rs.Kind, score(rs.Score), rs.Earlier, rs.TitleEarlier, rs.Later, rs.TitleLater,
			"", "", "", "", "", "", strings.Join(rs.Evidence, "; "))
	}
	blank := make([]string, 6)
	for _, rc := range r.Recurring {
		years := make([]string, len(rc.Years))
		for k, y := range rc.Years {
			years[k] = strconv.Itoa(y)
		}
		first, last := rc.IDs[0], rc.IDs[len(rc.IDs)-1]
		row("recurring", KindRecurring, "", first, r.Info(first).Title, last, rc.Title,
			"", "", "", "", "", "", "editions "+strings.Join(years, ", ")+": "+strings.Join(rc.Evidence, "; "))
	}
	for _, n := range r.Skipped {
		write(append([]string{"row", n.Action, "", n.File, "", "", "", "", "", "", ""},
			append(blank, fmt.Sprintf("line %d: %s", n.Line, n.Reason))...)...)
	}
	for _, f := range r.Files {
		write(append([]string{"file", f.Format, "", f.File, "", "", "", "", "", "", ""},
			append(blank, fmt.Sprintf("rows %d: kept %d (repaired %d), merged %d, skipped %d", f.Rows, f.Kept, f.Repaired, f.Merged, f.Skipped))...)...)
	}
	write(append([]string{"total", "", "", "", "", "", "", "", "", "", ""}, append(blank, r.Totals().String())...)...)
	cw.Flush()
	return cw.Error()
}

// spreadsheetCell is a cell a spreadsheet shows as the text it is: one
// starting with =, +, -, @, a tab or a CR is read as a formula by Excel,
// LibreOffice and Sheets (`=cmd|' /C calc'!A0`, `=HYPERLINK(…)`), so it
// gets a leading apostrophe, as OWASP's CSV injection advice says. The
// data of a call for papers is anyone's to write.
func spreadsheetCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

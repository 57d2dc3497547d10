package overlap

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"
	"time"
)

// CSVHeader are the columns of WriteCSV: one row per pair, conflict,
// resubmission and noted input row, told apart by section.
var CSVHeader = []string{"section", "kind", "score", "a", "title_a", "b", "title_b",
	"speakers_a", "speakers_b", "room_a", "room_b", "start_a", "start_b", "detail"}

// WriteCSV writes the report for a spreadsheet: sections pair (detail: the
// shared speakers and terms), conflict (the span both talks share in
// start_a/start_b, detail: the speaker or track), resubmission (a is the
// earlier version; detail: the conferences and the evidence) and row (a: the file, detail:
// line and reason). Passages are left out: they are HTML.
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
	for _, p := range r.Pairs {
		var detail []string
		if len(p.SharedSpeakers) > 0 {
			detail = append(detail, "same speaker: "+strings.Join(p.SharedSpeakers, "; "))
		}
		if len(p.SharedTerms) > 0 {
			detail = append(detail, "shared terms: "+strings.Join(p.SharedTerms, "; "))
		}
		write("pair", p.Kind, score(p.Score), p.A, p.TitleA, p.B, p.TitleB,
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
		write("conflict", c.Kind, sc, c.A, c.TitleA, c.B, c.TitleB, "", "", c.RoomA, c.RoomB,
			ts(&start), ts(&end), detail)
	}
	for _, rs := range r.Resubmissions {
		write("resubmission", rs.Kind, score(rs.Score), rs.Earlier, rs.TitleEarlier, rs.Later, rs.TitleLater,
			"", "", "", "", "", "", rs.ConferenceEarlier+" → "+rs.ConferenceLater+": "+strings.Join(rs.Evidence, "; "))
	}
	for _, n := range r.Skipped {
		write("row", n.Action, "", n.File, "", "", "", "", "", "", "", "", "", fmt.Sprintf("line %d: %s", n.Line, n.Reason))
	}
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

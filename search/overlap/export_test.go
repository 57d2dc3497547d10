package overlap

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
)

// TestCSVCellsAreNotFormulas: cells a spreadsheet would run as formulas
// (=, +, -, @, tab, CR first) are written with a leading apostrophe; a
// reader of the CSV (encoding/csv) gets one row per finding, every cell
// in place.
func TestCSVCellsAreNotFormulas(t *testing.T) {
	hostile := []string{"=cmd|' /C calc'!A0", "=2+5", "+SUM(A1)", "-room", "@import", "\tTab", "\rCR", "=HYPERLINK(\"http://evil\")"}
	r := &Report{}
	for _, h := range hostile {
		r.Pairs = append(r.Pairs, Pair{Kind: KindTopical, Score: 0.5, A: "a", TitleA: h, B: "b", TitleB: "fine", RoomA: h, SharedTerms: []string{"x"}})
	}
	var buf bytes.Buffer
	if err := r.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2+len(hostile) || rows[len(rows)-1][0] != "total" {
		t.Fatalf("%d rows, want %d and the total last", len(rows), 2+len(hostile))
	}
	for i, row := range rows[1 : len(rows)-1] {
		if len(row) != len(CSVHeader) {
			t.Fatalf("row %d: %d cells", i, len(row))
		}
		for _, cell := range row {
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				t.Errorf("row %d: cell %q would be a formula", i, cell)
			}
		}
		if row[6] != "'"+hostile[i] || row[10] != "fine" {
			t.Errorf("row %d: title %q, want %q", i, row[6], "'"+hostile[i])
		}
	}
}

package web

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/rs/zerolog"
)

// An organizer uploads two submissions files in the browser, reads the
// report (what was read, pair cards with speakers, times and rooms,
// conflicts) and exports it as CSV and JSON.
func TestBrowserUpload(t *testing.T) {
	b := newBrowserOn(t, func() http.Handler {
		e, err := realEngine()
		if err != nil {
			t.Fatal(err)
		}
		h, err := NewHandler(served(e), zerolog.Nop(), Options{ReloadToken: testToken})
		if err != nil {
			t.Fatal(err)
		}
		return h
	})
	ctx := b.tab(t)
	var files []string
	for _, name := range []string{"submissions.csv", "unclosed-quote.csv"} {
		p, err := filepath.Abs(filepath.Join("..", "search", "overlap", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	do(t, ctx,
		chromedp.Navigate(b.base+"/overlaps"),
		chromedp.Click(chromedp.CSS(`details.upload summary`)),
		chromedp.SendKeys(chromedp.ID("token"), testToken),
		chromedp.SetUploadFiles(chromedp.ID("file"), files),
		chromedp.Click(chromedp.CSS(`button[name=format][value=html]`)),
	)
	// The whole report, not only its start: the parser may not have reached
	// the conflicts at the end of the page when the report's head exists.
	waitFor(t, ctx, `document.getElementById('upload-report') !== null && document.readyState === 'complete'`)

	type report struct {
		Files    []string
		Notes    []string
		Kinds    []string
		Meta     []string
		Shared   []string
		Conflict []string
		Links    int
	}
	got := eval[report](t, ctx, `(() => {
		const text = sel => Array.from(document.querySelectorAll(sel)).map(e =>
			(e.cells ? Array.from(e.cells).map(c => c.textContent).join('|') : e.textContent).replace(/\s+/g, ' ').trim());
		return {
			Files: text('table.files tbody tr'),
			Notes: text('ul.notes li'),
			Kinds: text('#pairs .pair .kind'),
			Meta: text('#pairs .pair .side .meta'),
			Shared: text('#pairs .pair .speakers-shared'),
			Conflict: text('table.conflicts tbody tr'),
			Links: document.querySelectorAll('#pairs a[href^="/talks/"]').length,
		};
	})()`)
	wantFiles := []string{
		"submissions.csv|csv|9|9|0|0|0|6 read as Europe/Paris",
		"unclosed-quote.csv|csv|5|3|0|0|2|2 read as Europe/Paris",
	}
	if strings.Join(got.Files, "|") != strings.Join(wantFiles, "|") {
		t.Errorf("files %q, want %q", got.Files, wantFiles)
	}
	if len(got.Notes) != 2 || !strings.HasPrefix(got.Notes[0], "unclosed-quote.csv:3 skipped: malformed csv") {
		t.Errorf("notes %q", got.Notes)
	}
	if len(got.Kinds) < 5 || got.Kinds[0] != "Duplicate" {
		t.Errorf("pair kinds %q", got.Kinds)
	}
	if len(got.Meta) == 0 || !strings.Contains(got.Meta[0], "Ada Lovelace") || !strings.Contains(got.Meta[0], "Wed 8 Apr, 10:00") || !strings.Contains(got.Meta[0], "Room A") {
		t.Errorf("first pair card's facts %q, want speaker, time and room", got.Meta)
	}
	if len(got.Shared) == 0 || !strings.Contains(got.Shared[0], "Same speaker: Ada Lovelace") {
		t.Errorf("shared speakers %q", got.Shared)
	}
	// Ada Lovelace gives s01 (Room A) and u1 (from the other file) at 10:00;
	// the two Compilers talks run at once in rooms A and B.
	wantConflicts := []string{
		"Speaker double-booked: Ada Lovelace|Wed 8 Apr, 10:00–10:30|Scaling RL Post-Training With Monarch ActorsRoom A|Monarch Actors for RL",
		"Track against itself: Compilers|Wed 8 Apr, 14:15–14:30|CUDA Graphs Without TearsRoom A|Less CPU Overhead With torch.compile's C++ WrapperRoom B",
	}
	if strings.Join(got.Conflict, "\n") != strings.Join(wantConflicts, "\n") {
		t.Errorf("conflicts %q, want %q", got.Conflict, wantConflicts)
	}
	if got.Links != 0 {
		t.Errorf("%d links from the upload's pairs to the served corpus", got.Links)
	}
	shot(t, ctx, "overlaps-upload-desktop", 1280, 900)
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector('#pairs .pair').scrollIntoView()`))
	shot(t, ctx, "overlaps-upload-pairs", 1280, 900)

	// Export: the links are the report itself.
	type export struct {
		CSVHeader string
		CSVRows   int
		JSONPairs int
		JSONFiles int
		CSVName   string
		JSONName  string
	}
	ex := eval[export](t, ctx, `(() => {
		const decode = a => new TextDecoder().decode(Uint8Array.from(atob(a.href.split(',')[1]), c => c.charCodeAt(0)));
		const c = document.getElementById('export-csv'), j = document.getElementById('export-json');
		const csv = decode(c).trim().split('\n');
		const rep = JSON.parse(decode(j));
		return {CSVHeader: csv[0], CSVRows: csv.length - 1, JSONPairs: rep.pairs.length, JSONFiles: rep.files.length,
			CSVName: c.getAttribute('download'), JSONName: j.getAttribute('download')};
	})()`)
	if ex.CSVHeader != "section,kind,score,a,conference_a,year_a,title_a,b,conference_b,year_b,title_b,speakers_a,speakers_b,room_a,room_b,start_a,start_b,detail" ||
		ex.CSVRows < len(got.Kinds) || ex.JSONPairs != len(got.Kinds) || ex.JSONFiles != 2 || ex.CSVName != "overlaps.csv" || ex.JSONName != "overlaps.json" {
		t.Errorf("export %+v (page shows %d pairs)", ex, len(got.Kinds))
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

package web

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/rs/zerolog"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/synthetic"
	"github.com/talksearch/talksearch/search"
)

// archiveTalks are three editions of an invented conference, each made
// from the seeds' talks (index/synthetic) and moved to its year: what a
// site serving a conference's archive holds.
func archiveTalks(t *testing.T) []index.Talk {
	t.Helper()
	e, err := realEngine()
	if err != nil {
		t.Fatal(err)
	}
	var out []index.Talk
	for _, year := range []int{2024, 2025, 2026} {
		for i, tk := range synthetic.Talks(e.Talks(), 120, int64(year)) {
			tk.ID = fmt.Sprintf("summit-%d-%d", year, i)
			tk.Conference = index.Conference{ID: fmt.Sprintf("example-summit-%d", year), Name: fmt.Sprintf("Example Summit %d", year)}
			for _, p := range []**time.Time{&tk.Start, &tk.End} {
				if *p != nil {
					moved := (*p).AddDate(year-2026, 0, 0)
					*p = &moved
				}
			}
			out = append(out, tk)
		}
	}
	return out
}

// A person browsing several editions always sees which one a talk is of:
// the home page lists them newest first, every card names its edition and
// a date with the year, and a schedule offers only its own edition's days.
func TestBrowserConferences(t *testing.T) {
	b := newBrowserOn(t, func() http.Handler {
		e, err := search.New(archiveTalks(t))
		if err != nil {
			t.Fatal(err)
		}
		h, err := NewHandler(served(e), zerolog.Nop(), Options{ClientBudget: -1,
			Now: func() time.Time { return time.Date(2026, 12, 4, 9, 0, 0, 0, time.UTC) }})
		if err != nil {
			t.Fatal(err)
		}
		return h
	})
	ctx := b.tab(t)

	do(t, ctx, chromedp.Navigate(b.base+"/"))
	confs := eval[[]string](t, ctx, `[...document.querySelectorAll('.conferences li > a')].map(a => a.textContent)`)
	if strings.Join(confs, "|") != "Example Summit 2026|Example Summit 2025|Example Summit 2024" {
		t.Errorf("conferences listed %q, want the three editions newest first", confs)
	}
	shot(t, ctx, "archive-home", 1280, 900)

	do(t, ctx, chromedp.EmulateViewport(1280, 900))
	do(t, ctx, chromedp.Navigate(b.base+"/?q=monarch"))
	cards := eval[[]string](t, ctx, `[...document.querySelectorAll('.hit .meta')].map(m => (m.querySelector('.edition') || {}).textContent + ' · ' + (m.querySelector('.when') || {}).textContent)`)
	year := regexp.MustCompile(`^Example Summit (20\d\d) · (?:\w{3} \d{1,2} \w{3} (20\d\d), \d\d:\d\d|Not on the schedule$)`)
	if len(cards) == 0 {
		t.Fatal("no results for monarch")
	}
	for _, c := range cards {
		if m := year.FindStringSubmatch(c); m == nil || m[2] != "" && m[1] != m[2] {
			t.Errorf("card %q does not name its edition and the year of its date", c)
		}
	}
	shot(t, ctx, "archive-search", 1280, 900)

	do(t, ctx, chromedp.EmulateViewport(1280, 900))
	do(t, ctx, chromedp.Navigate(b.base+"/schedule"))
	if loc := location(t, ctx); !strings.Contains(loc, "/c/example-summit-2026/schedule") {
		t.Errorf("/schedule opened %s, want the latest edition's", loc)
	}
	days := eval[[]string](t, ctx, `[...document.querySelectorAll('.days a')].map(a => a.textContent)`)
	if len(days) == 0 {
		t.Fatal("no day buttons")
	}
	for _, d := range days {
		if !strings.HasSuffix(d, " 2026") {
			t.Errorf("day buttons %q: not all of the 2026 edition", days)
			break
		}
	}
	shot(t, ctx, "archive-schedule", 1280, 900)
	shot(t, ctx, "archive-schedule-360", 360, 740)
}

package web

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/emersion/go-ical"
)

// atMonarch is 10:40 CEST on the seeds' day, while the Monarch lightning
// talk (10:35–10:45) runs: now and next, and the schedule's mark, at a
// fixed time.
const atMonarch = "2026-04-08T10:40:00%2B02:00"

func TestBrowserAttendee(t *testing.T) {
	b := newBrowser(t)
	ctx := b.tab(t)
	e, err := realEngine()
	if err != nil {
		t.Fatal(err)
	}
	api := talkByTitle(t, e, monarchAPI)
	amd := talkByTitle(t, e, monarchAMD)

	t.Run("star, agenda, calendar file", func(t *testing.T) {
		do(t, ctx, chromedp.Navigate(b.base+"/?q=Monarch"))
		waitFor(t, ctx, `document.readyState === 'complete' && !document.querySelector('button.star').hidden`)
		// The keyboard: Tab reaches a star after its title; Enter presses it.
		do(t, ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector('a.hit-link[href="/talks/%s"]').focus()`, api.ID)))
		do(t, ctx, chromedp.KeyEvent("\t"))
		if got := eval[string](t, ctx, `document.activeElement.dataset.star || document.activeElement.outerHTML`); got != api.ID {
			t.Fatalf("Tab after the title focused %s, want the star of %s", got, api.ID)
		}
		do(t, ctx, chromedp.KeyEvent("\r"))
		waitFor(t, ctx, fmt.Sprintf(`document.querySelector('button.star[data-star="%s"]').getAttribute('aria-pressed') === 'true'`, api.ID))
		if got := eval[string](t, ctx, `document.getElementById('agenda-link').textContent`); got != "Agenda (1)" {
			t.Errorf("agenda link %q, want Agenda (1)", got)
		}
		// Typing a new query swaps the results in: their stars stay on.
		do(t, ctx, chromedp.Evaluate[chromedp.Void](`(() => { const q = document.getElementById('q'); q.focus(); q.setSelectionRange(q.value.length, q.value.length); })()`))
		do(t, ctx, chromedp.KeyEvent(" API"))
		waitFor(t, ctx, `location.search === '?q=Monarch+API'`)
		waitFor(t, ctx, fmt.Sprintf(`(() => { const s = document.querySelector('button.star[data-star="%s"]'); return s !== null && !s.hidden && s.getAttribute('aria-pressed') === 'true'; })()`, api.ID))

		// A talk page stars too.
		do(t, ctx, chromedp.Navigate(b.base+"/talks/"+amd.ID))
		waitFor(t, ctx, `document.readyState === 'complete' && !document.querySelector('button.star').hidden`)
		do(t, ctx, chromedp.Click(chromedp.CSS(`.talk-tools button.star`)))
		waitFor(t, ctx, `document.getElementById('agenda-link').textContent === 'Agenda (2)'`)

		do(t, ctx, chromedp.Click(chromedp.ID("agenda-link")))
		want := "/agenda?ids=" + api.ID + "," + amd.ID
		waitFor(t, ctx, fmt.Sprintf(`location.pathname + location.search === %q && document.readyState === 'complete'`, want))
		titles := eval[[]string](t, ctx, `[...document.querySelectorAll('.agenda-day .hit-link')].map(a => a.textContent)`)
		if len(titles) != 2 || titles[0] != api.Title || titles[1] != amd.Title {
			t.Errorf("agenda lists %q, want the two Monarch talks by time", titles)
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('.agenda .related-list > li').length`); n == 0 {
			t.Error("no talks like the agenda")
		}
		shot(t, ctx, "agenda-desktop", 1280, 900)
		do(t, ctx, chromedp.EmulateViewport(1280, 900)) // EmulateReset leaves the last width

		// The agenda's calendar file, as the browser downloads it.
		href := eval[string](t, ctx, `document.querySelector('a[href^="/agenda.ics"]').getAttribute('href')`)
		body, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`fetch(%q).then(r => r.text())`, href), chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		cal, err := ical.NewDecoder(strings.NewReader(body)).Decode()
		if err != nil {
			t.Fatalf("%s: %v", href, err)
		}
		cest := time.FixedZone("CEST", 2*60*60)
		var starts []string
		for _, ev := range cal.Events() {
			st, err := ev.DateTimeStart(time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			starts = append(starts, st.In(cest).Format("2006-01-02 15:04"))
		}
		if strings.Join(starts, ", ") != "2026-04-08 10:35, 2026-04-08 11:05" {
			t.Errorf("calendar starts %v, want 10:35 and 11:05 CEST on 8 April", starts)
		}

		// /agenda alone opens the agenda kept in this browser.
		do(t, ctx, chromedp.Navigate(b.base+"/agenda"))
		waitFor(t, ctx, fmt.Sprintf(`location.pathname + location.search === %q && document.readyState === 'complete'`, want))
		// Unstarring on one's own agenda updates it.
		do(t, ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`button.star[data-star="%s"]`, api.ID))))
		waitFor(t, ctx, fmt.Sprintf(`location.search === %q && document.readyState === 'complete'`, "?ids="+amd.ID))
	})

	t.Run("now and next at a fixed time", func(t *testing.T) {
		do(t, ctx, chromedp.Navigate(b.base+"/now?at="+atMonarch))
		waitFor(t, ctx, `document.readyState === 'complete'`)
		now := eval[int](t, ctx, `document.querySelectorAll('section[aria-labelledby=now-h] .hit').length`)
		next := eval[int](t, ctx, `document.querySelectorAll('section[aria-labelledby=next-h] .hit').length`)
		if now != 6 || next != 5 {
			t.Errorf("%d on now and %d next, want 6 and 5", now, next)
		}
		if v := eval[string](t, ctx, `document.getElementById('at').value`); v != "2026-04-08T10:40" {
			t.Errorf("the form shows %q", v)
		}
		// Planning ahead with the form.
		do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById('at').value = '2026-04-08T14:05'`))
		do(t, ctx, chromedp.Click(chromedp.CSS(`form.at button`)))
		waitFor(t, ctx, `location.search === '?at=2026-04-08T14%3A05' && document.readyState === 'complete'`)
		if got := eval[string](t, ctx, `document.querySelector('.at-time').textContent`); got != "Wed 8 Apr, 14:05" {
			t.Errorf("now at %q", got)
		}
	})

	t.Run("schedule grid at 1280 and 360 px", func(t *testing.T) {
		do(t, ctx, chromedp.Navigate(b.base+"/schedule?at="+atMonarch))
		waitFor(t, ctx, `document.readyState === 'complete'`)
		rooms := eval[[]string](t, ctx, `[...document.querySelectorAll('.grid thead th')].filter(th => th.checkVisibility()).map(th => th.textContent)`)
		if strings.Join(rooms, "|") != "Time|Central Room|Master Stage|Founders Cafe|Junior Stage|Open Platform" {
			t.Errorf("grid columns %q", rooms)
		}
		if d := eval[string](t, ctx, `getComputedStyle(document.querySelector('.grid')).display`); d != "table" {
			t.Errorf("grid displayed as %s at 1280 px", d)
		}
		// The running Monarch talk is marked and links its page.
		running := eval[[]string](t, ctx, `[...document.querySelectorAll('.session.running > a')].map(a => a.getAttribute('href'))`)
		if !strings.Contains(strings.Join(running, " "), "/talks/"+api.ID) {
			t.Errorf("running sessions %q lack the Monarch talk", running)
		}
		if !eval[bool](t, ctx, `document.getElementById('now-row').checkVisibility()`) {
			t.Error("the current time is not marked")
		}
		shot(t, ctx, "schedule-desktop", 1280, 900)
		shot(t, ctx, "schedule-360", 360, 740)
		if d := eval[string](t, ctx, `getComputedStyle(document.querySelector('.grid tr.slot')).display`); d != "block" {
			t.Errorf("slots displayed as %s at 360 px, want a list", d)
		}
		if eval[bool](t, ctx, `document.querySelector('.grid thead').checkVisibility()`) {
			t.Error("room columns shown at 360 px")
		}
		// On a phone each session names its room; slots read in time order.
		if !eval[bool](t, ctx, `document.querySelector('.session .cell-room').checkVisibility()`) {
			t.Error("rooms not named on a phone")
		}
		times := eval[[]string](t, ctx, `[...document.querySelectorAll('.grid tr.slot .slot-time time')].map(t => t.textContent)`)
		for i := 1; i < len(times); i++ {
			if times[i] <= times[i-1] {
				t.Errorf("slots out of order: %q", times)
				break
			}
		}
		do(t, ctx, chromedp.EmulateViewport(1280, 900)) // EmulateReset leaves the last width
	})

	t.Run("the grid's times stay in view when scrolled sideways", func(t *testing.T) {
		do(t, ctx, chromedp.EmulateViewport(820, 900))
		do(t, ctx, chromedp.Navigate(b.base+"/schedule?at="+atMonarch))
		waitFor(t, ctx, `document.readyState === 'complete'`)
		wrap := `document.querySelector('.grid-wrap')`
		if !eval[bool](t, ctx, wrap+`.scrollWidth > `+wrap+`.clientWidth + 120`) {
			t.Fatalf("the grid does not scroll sideways at 820 px: %v", eval[[]float64](t, ctx, `[`+wrap+`.scrollWidth, `+wrap+`.clientWidth, document.querySelectorAll('.grid thead th').length, innerWidth]`))
		}
		do(t, ctx, chromedp.Evaluate[chromedp.Void](wrap+`.scrollLeft = 120`))
		if d := eval[float64](t, ctx, `document.querySelector('.grid tbody .slot-time').getBoundingClientRect().left - `+wrap+`.getBoundingClientRect().left`); d < -1 || d > 1 {
			t.Errorf("scrolled 120 px sideways, the time column is %.0f px from the grid's edge", d)
		}
		do(t, ctx, chromedp.EmulateViewport(1280, 900))
	})

	t.Run("no sideways scroll at 360 px on any page", func(t *testing.T) {
		paths := []string{"/", "/?q=monarch", "/?q=kv+cache&sort=time", "/talks/" + api.ID, "/talks/" + amd.ID, "/overlaps",
			"/now?at=" + atMonarch, "/schedule?at=" + atMonarch, "/agenda?ids=" + api.ID + "," + amd.ID + ",unknown-id", "/agenda",
			"/speakers/" + speakerSlug(amd.Speakers[0].Name), notFoundPath}
		do(t, ctx, chromedp.EmulateViewport(360, 740))
		for _, p := range paths {
			do(t, ctx, chromedp.Navigate(b.base+p))
			waitFor(t, ctx, `document.readyState === 'complete'`)
			if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 360 {
				wide := eval[[]string](t, ctx, `[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 361).slice(0, 5).map(e => e.tagName + '.' + e.className)`)
				t.Errorf("%s: scrollWidth %d at 360 px; wide: %q", p, w, wide)
			}
			// The header is one line: the brand and the links side by side.
			if h := eval[float64](t, ctx, `document.querySelector('header.site').getBoundingClientRect().height`); h > 56 {
				t.Errorf("%s: the header is %.0f px high at 360 px, more than one line", p, h)
			}
		}
		do(t, ctx, chromedp.EmulateViewport(1280, 900)) // EmulateReset leaves the last width
	})

	t.Run("labels and landmarks of the new pages", func(t *testing.T) {
		for _, p := range []string{"/?kind=keynote&scheduled=true", "/now", "/schedule", "/agenda?ids=" + api.ID, "/speakers/" + speakerSlug(amd.Speakers[0].Name)} {
			do(t, ctx, chromedp.Navigate(b.base+p))
			waitFor(t, ctx, `document.readyState === 'complete'`)
			unlabelled := eval[[]string](t, ctx, `[...document.querySelectorAll('input:not([type=hidden]), select, button, textarea')]
			  .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !(e.tagName === 'BUTTON' && e.textContent.trim()))
			  .map(e => e.outerHTML)`)
			if len(unlabelled) > 0 {
				t.Errorf("%s: controls without a label: %q", p, unlabelled)
			}
			if missing := eval[[]string](t, ctx, `['header', 'nav', 'main', 'footer', 'h1'].filter(s => !document.querySelector(s))`); len(missing) > 0 {
				t.Errorf("%s: missing %q", p, missing)
			}
			if ids := eval[[]string](t, ctx, `(() => { const seen = {}, dup = []; document.querySelectorAll('[id]').forEach(e => { if (seen[e.id]) dup.push(e.id); seen[e.id] = true; }); return dup; })()`); len(ids) > 0 {
				t.Errorf("%s: duplicate ids %q", p, ids)
			}
		}
	})

	t.Run("time filter from the keyboard", func(t *testing.T) {
		do(t, ctx, chromedp.Navigate(b.base+"/"))
		waitFor(t, ctx, `document.readyState === 'complete'`)
		do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector('input[name=scheduled]').focus()`))
		do(t, ctx, chromedp.KeyEvent(" "))
		waitFor(t, ctx, `location.search === '?scheduled=true' && document.getElementById('summary').dataset.total === '62'`)
		// Tab to the time box; type the hours and minutes.
		do(t, ctx, chromedp.KeyEvent("\t"))
		if id := eval[string](t, ctx, `document.activeElement.id`); id != "after" {
			t.Fatalf("Tab from the checkbox focused #%s, want #after", id)
		}
		do(t, ctx, chromedp.KeyEvent("1400"))
		// Nothing applies while typing; Enter does.
		if got := location(t, ctx); got != "/?scheduled=true" {
			t.Errorf("URL while typing a time: %s", got)
		}
		do(t, ctx, chromedp.KeyEvent("\r"))
		waitFor(t, ctx, `location.search === '?scheduled=true&after=14%3A00' && document.getElementById('summary').dataset.total === '28'`)
	})

	t.Run("dark mode and print", func(t *testing.T) {
		do(t, ctx, chromedp.Navigate(b.base+"/agenda?ids="+api.ID))
		waitFor(t, ctx, `document.readyState === 'complete'`)
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}}); err != nil {
			t.Fatal(err)
		}
		if bg := eval[string](t, ctx, `getComputedStyle(document.documentElement).backgroundColor`); bg != "rgb(20, 20, 24)" {
			t.Errorf("dark background %s", bg)
		}
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
			t.Fatal(err)
		}
		hidden := eval[[]bool](t, ctx, `['header.site nav', '.agenda-tools', 'button.star', 'footer.site'].map(s => !document.querySelector(s).checkVisibility())`)
		for i, h := range hidden {
			if !h {
				t.Errorf("control %d shown in print", i)
			}
		}
		if !eval[bool](t, ctx, `document.querySelector('.agenda-day .hit-link').checkVisibility()`) {
			t.Error("the agenda's talks are not printed")
		}
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{}); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("without JavaScript", func(t *testing.T) {
		nojs := b.tab(t)
		if _, err := chromedp.Call(nojs, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			t.Fatal(err)
		}
		do(t, nojs, chromedp.Navigate(b.base+"/agenda?ids="+api.ID+","+amd.ID))
		waitFor(t, nojs, `document.readyState === 'complete'`)
		if n := eval[int](t, nojs, `document.querySelectorAll('.agenda-day .hit').length`); n != 2 {
			t.Errorf("%d talks on a shared agenda without JavaScript, want 2", n)
		}
		if eval[bool](t, nojs, `document.querySelector('button.star').checkVisibility()`) {
			t.Error("star buttons shown without the script that makes them work")
		}
		do(t, nojs, chromedp.Navigate(b.base+"/schedule?at="+atMonarch))
		waitFor(t, nojs, `document.readyState === 'complete'`)
		if n := eval[int](t, nojs, `document.querySelectorAll('.grid .session a').length`); n != 60 {
			t.Errorf("%d sessions linked on the schedule without JavaScript, want 60", n)
		}
	})

	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("browser console:\n%s", strings.Join(errs, "\n"))
	}
}

// TestBrowserTimeZoneSwitch: a visitor in New York asks for their zone on
// now and next; the pages of times show it beside the conference's after a
// reload and on the way to the schedule, until they go back to the
// conference's time only. The switch is a form and a script file: the
// page's strict CSP runs no inline script.
func TestBrowserTimeZoneSwitch(t *testing.T) {
	b := newBrowser(t)
	ctx := b.tab(t)
	if _, err := chromedp.Call(ctx, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "America/New_York"}); err != nil {
		t.Fatal(err)
	}
	const withTZ = `new URLSearchParams(location.search).get('tz') === 'America/New_York' && document.readyState === 'complete'`
	do(t, ctx, chromedp.Navigate(b.base+"/now?at="+atMonarch))
	waitFor(t, ctx, `document.readyState === 'complete' && document.querySelector('button.tz-mine') !== null`)
	if got := eval[string](t, ctx, `document.querySelector('.zone-note').textContent`); got != "Times are in CEST." {
		t.Errorf("zone note %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('button.tz-mine').textContent`); got != "Use mine (America/New_York)" {
		t.Errorf("switch %q", got)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`button.tz-mine`)))
	waitFor(t, ctx, withTZ)
	check := func(when string) {
		t.Helper()
		if got := eval[string](t, ctx, `document.querySelector('.at-time').textContent + ' | ' + document.querySelector('.at-tz').textContent`); got != "Wed 8 Apr, 10:40 CEST | 04:40 EDT in New York" {
			t.Errorf("%s: heading %q", when, got)
		}
		if got := eval[string](t, ctx, `new URLSearchParams(location.search).get('at')`); got != "2026-04-08T10:40:00+02:00" {
			t.Errorf("%s: at %q, want the instant kept", when, got)
		}
	}
	check("after the switch")
	if got := eval[string](t, ctx, `localStorage.getItem('talksearch:tz')`); got != "America/New_York" {
		t.Errorf("kept %q", got)
	}

	// Remembered: a reload, and the page opened again without tz.
	do(t, ctx, chromedp.Reload())
	waitFor(t, ctx, withTZ)
	check("after a reload")
	do(t, ctx, chromedp.Navigate(b.base+"/now?at="+atMonarch))
	waitFor(t, ctx, withTZ)
	check("opened again")

	// The schedule, from the site's menu, is in both zones too.
	if got := eval[string](t, ctx, `document.querySelector('header.site a[href^="/schedule"]').getAttribute('href')`); got != "/schedule?tz=America%2FNew_York" {
		t.Errorf("menu links the schedule as %q", got)
	}
	do(t, ctx, chromedp.Navigate(b.base+"/schedule?at="+atMonarch))
	waitFor(t, ctx, withTZ+` && document.querySelector('.tz-time') !== null`)
	if got := eval[string](t, ctx, `document.querySelector('.grid .slot-time').textContent`); got != "09:00 03:00" {
		t.Errorf("the first slot %q, want 09:00 CEST and 03:00 in New York", got)
	}

	// Back to the conference's time only, and it stays so.
	do(t, ctx, chromedp.Click(chromedp.CSS(`a.tz-off`)))
	waitFor(t, ctx, `!new URLSearchParams(location.search).has('tz') && document.readyState === 'complete'`)
	do(t, ctx, chromedp.Navigate(b.base+"/now?at="+atMonarch))
	waitFor(t, ctx, `document.readyState === 'complete'`)
	if n := eval[int](t, ctx, `document.querySelectorAll('.at-tz').length + (location.search.includes('tz=') ? 1 : 0) + (localStorage.getItem('talksearch:tz') ? 1 : 0)`); n != 0 {
		t.Errorf("the visitor's zone still shown or kept (%d signs)", n)
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("browser console:\n%s", strings.Join(errs, "\n"))
	}
}

package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// The browser tests drive a real headless Chromium (Debian's, installed by
// .ci/run) against the real engine over the seeds. Outside CI they skip when
// no browser is installed; with CI=true a missing browser fails them.
//
// Screenshots go to $TMPDIR/talksearch-screenshots/; with -update they are
// also copied to testdata/screenshots/ for the README.

func findBrowser(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("TALKSEARCH_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no Chromium found (looked for chromium, chromium-browser, google-chrome); CI=true needs one: apt-get install -y chromium")
	}
	t.Skip("no Chromium found: install Debian's chromium (apt-get install -y chromium) to run the browser tests")
	return ""
}

// browser is one Chromium with a fresh profile, and the console messages of
// every tab it opened.
type browser struct {
	ctx     context.Context
	base    string // the test server's URL, without a trailing slash
	srv     *httptest.Server
	mu      sync.Mutex
	console []chromedp.ConsoleMessage
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	return newBrowserOn(t, func() http.Handler { h, _ := newRealHandler(t); return h })
}

// newBrowserOn is newBrowser against the handler h makes.
func newBrowserOn(t *testing.T, h func() http.Handler) *browser {
	t.Helper()
	path := findBrowser(t)
	if testing.Short() {
		t.Skip("browser tests are not short")
	}
	srv := httptest.NewServer(h()) // listens on 127.0.0.1
	t.Cleanup(srv.Close)

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelBrowser := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() {
		cancelTimeout()
		cancelBrowser()
		cancelAlloc()
	})
	// Start the browser now, so a broken install fails here, clearly.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start %s: %v", path, err)
	}
	return &browser{ctx: ctx, base: srv.URL, srv: srv}
}

// tab opens a new tab of the browser whose console is recorded.
func (b *browser) tab(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.console = append(b.console, m)
			b.mu.Unlock()
		}
	}()
	return ctx
}

const notFoundPath = "/no-such-page"

func (b *browser) consoleErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, m := range b.console {
		// The 404 page is visited on purpose; its status is the one
		// failure the console may report.
		if strings.HasSuffix(m.URL, notFoundPath) && strings.Contains(m.Text, "404") {
			continue
		}
		if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException || m.Type == chromedp.ConsoleWarning {
			out = append(out, fmt.Sprintf("%s %s:%d %s", m.Type, m.URL, m.Line+1, m.Text))
		}
	}
	return out
}

func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// waitFor polls a JavaScript condition until it is true. Errors while a
// page navigates (the document goes away under the evaluation) are retried.
func waitFor(t *testing.T, ctx context.Context, js string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	var err error
	for time.Now().Before(deadline) {
		var ok bool
		if ok, err = chromedp.Run(ctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise)); err == nil && ok {
			return
		}
		time.Sleep(30 * time.Millisecond)
	}
	loc, _ := chromedp.Run(ctx, chromedp.Location())
	t.Fatalf("waiting for %s: timed out at %s (last error: %v)", js, loc, err)
}

func location(t *testing.T, ctx context.Context) string {
	t.Helper()
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(loc)
	if err != nil {
		t.Fatal(err)
	}
	return u.RequestURI()
}

// searchState is what a person sees of the search page.
type searchState struct {
	Query   string         `json:"query"`
	Total   int            `json:"total"`
	Titles  []string       `json:"titles"`
	Marks   int            `json:"marks"`
	Checked []string       `json:"checked"`
	Counts  map[string]int `json:"counts"` // "track=Keynote Sessions" → count
	Chips   []string       `json:"chips"`
	Sort    string         `json:"sort"`
}

const readSearchState = `(() => {
  const counts = {};
  document.querySelectorAll('.facet label').forEach(l => {
    const i = l.querySelector('input');
    counts[i.name + '=' + i.value] = parseInt(l.querySelector('.count').textContent, 10);
  });
  return {
    query: document.getElementById('q').value,
    total: parseInt(document.getElementById('summary').dataset.total, 10),
    titles: [...document.querySelectorAll('.hit-link')].map(a => a.textContent),
    marks: document.querySelectorAll('.hits mark').length,
    checked: [...document.querySelectorAll('.facet input:checked')].map(i => i.name + '=' + i.value),
    counts,
    chips: [...document.querySelectorAll('.chip')].map(c => c.getAttribute('aria-label')),
    sort: document.querySelector('select[name=sort]').value,
  };
})()`

func TestBrowser(t *testing.T) {
	b := newBrowser(t)
	ctx := b.tab(t)

	// First load of the home page: weight and timing, as a phone would get it
	// (a fresh profile: nothing cached).
	do(t, ctx, chromedp.Navigate(b.base+"/"))
	waitFor(t, ctx, `document.readyState === 'complete'`)
	stats := pageLoad(t, ctx)
	t.Logf("first load of /: %d bytes transferred (%d encoded, %d decoded) in %d requests; response end %.0f ms, DOMContentLoaded %.0f ms, first contentful paint %.0f ms, load %.0f ms",
		stats.Bytes, stats.Encoded, stats.Decoded, stats.Count, stats.ResponseEnd, stats.DCL, stats.FCP, stats.Load)
	if stats.Bytes == 0 || stats.Bytes > 100_000 {
		t.Errorf("first load transferred %d bytes, want (0, 100 kB]", stats.Bytes)
	}

	t.Run("search box focused on load", func(t *testing.T) {
		if id := eval[string](t, ctx, `document.activeElement.id`); id != "q" {
			t.Errorf("focused element is #%s, want #q", id)
		}
	})

	var home searchState
	t.Run("type Monarch and see highlighted results", func(t *testing.T) {
		home = eval[searchState](t, ctx, readSearchState)
		// Time from the end of typing to the results on screen, debounce
		// included.
		do(t, ctx, chromedp.Evaluate[chromedp.Void](`performance.clearMarks(); window.__typed = performance.now()`))
		do(t, ctx, chromedp.SendKeys(chromedp.ID("q"), "Monarch"))
		do(t, ctx, chromedp.Evaluate[chromedp.Void](`window.__typed = performance.now()`))
		waitFor(t, ctx, `document.getElementById('summary').textContent.includes('Monarch') && document.querySelectorAll('.hits mark').length > 0`)
		took := eval[float64](t, ctx, `(() => { const m = performance.getEntriesByName('talksearch:results'); return m.length ? m[m.length-1].startTime - window.__typed : -1; })()`)
		t.Logf("results %.0f ms after the last key (150 ms of it is the typing debounce)", took)

		st := eval[searchState](t, ctx, readSearchState)
		if st.Marks == 0 || len(st.Titles) == 0 {
			t.Fatalf("no highlighted results: %+v", st)
		}
		if !strings.Contains(st.Titles[0]+st.Titles[min(1, len(st.Titles)-1)], "Monarch") {
			t.Errorf("top results %q do not mention Monarch", st.Titles)
		}
		if got := location(t, ctx); got != "/?q=Monarch" {
			t.Errorf("URL = %s, want /?q=Monarch", got)
		}
		if st.Total >= home.Total {
			t.Errorf("Monarch matches %d talks, all talks are %d", st.Total, home.Total)
		}
	})

	t.Run("tick a track: results, counts and URL change", func(t *testing.T) {
		do(t, ctx, chromedp.Navigate(b.base+"/"))
		waitFor(t, ctx, `document.readyState === 'complete'`)
		before := eval[searchState](t, ctx, readSearchState)
		track := eval[string](t, ctx, `document.querySelector('.facet input[name=track]').value`)
		want := before.Counts["track="+track]
		do(t, ctx, chromedp.Click(chromedp.CSS(`.facet input[name=track]`)))
		waitFor(t, ctx, fmt.Sprintf(`document.getElementById('summary').dataset.total === '%d'`, want))
		after := eval[searchState](t, ctx, readSearchState)
		if got, wantURL := location(t, ctx), "/?track="+url.QueryEscape(track); got != wantURL {
			t.Errorf("URL = %s, want %s", got, wantURL)
		}
		if len(after.Checked) != 1 || after.Checked[0] != "track="+track {
			t.Errorf("checked = %q", after.Checked)
		}
		if len(after.Chips) != 1 || after.Chips[0] != "Remove filter Track: "+track {
			t.Errorf("chips = %q", after.Chips)
		}
		// Level counts now count only the talks of the track (plus those with
		// no level), while the track counts ignore their own selection.
		levels := 0
		for k, n := range after.Counts {
			if strings.HasPrefix(k, "level=") {
				levels += n
			}
			if strings.HasPrefix(k, "track=") && n != before.Counts[k] {
				t.Errorf("%s: count %d changed to %d", k, before.Counts[k], n)
			}
		}
		if levels > want || levels == 0 {
			t.Errorf("level counts add up to %d, want 1..%d", levels, want)
		}
		if strings.Join(before.Titles, "|") == strings.Join(after.Titles, "|") {
			t.Error("results did not change")
		}
		// Focus stays on the checkbox just ticked.
		if got := eval[string](t, ctx, `document.activeElement.name + '=' + document.activeElement.value`); got != "track="+track {
			t.Errorf("focus on %s after the swap", got)
		}

		// The chip removes the filter again.
		do(t, ctx, chromedp.Click(chromedp.CSS(`.chip`)))
		waitFor(t, ctx, fmt.Sprintf(`document.getElementById('summary').dataset.total === '%d'`, before.Total))
		if got := location(t, ctx); got != "/" {
			t.Errorf("URL after removing the chip = %s, want /", got)
		}
	})

	t.Run("open a talk, related talks, back to the same state", func(t *testing.T) {
		do(t, ctx, chromedp.Navigate(b.base+"/?q=Monarch"))
		waitFor(t, ctx, `document.readyState === 'complete'`)
		// Type at the end of what the box holds, as a person would.
		do(t, ctx, chromedp.Evaluate[chromedp.Void](`(() => { const q = document.getElementById('q'); q.focus(); q.setSelectionRange(q.value.length, q.value.length); })()`))
		do(t, ctx, chromedp.KeyEvent(" API"))
		waitFor(t, ctx, `location.search === '?q=Monarch+API'`)
		waitFor(t, ctx, `document.getElementById('summary').textContent.includes('Monarch API')`)
		searched := eval[searchState](t, ctx, readSearchState)

		// Keyboard: j moves to the first result, Enter opens it.
		do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`))
		do(t, ctx, chromedp.KeyEvent("j"))
		if got := eval[string](t, ctx, `document.activeElement.textContent`); got != searched.Titles[0] {
			t.Fatalf("j focused %q, want the first result %q", got, searched.Titles[0])
		}
		do(t, ctx, chromedp.KeyEvent("\r"))
		waitFor(t, ctx, `location.pathname.startsWith('/talks/') && document.readyState === 'complete'`)
		title := eval[string](t, ctx, `document.getElementById('talk-title').textContent`)
		if title != searched.Titles[0] {
			t.Errorf("talk page %q, want %q", title, searched.Titles[0])
		}
		related := eval[[]string](t, ctx, `[...document.querySelectorAll('.related-list > li > a')].map(a => a.textContent)`)
		if len(related) == 0 || !strings.Contains(related[0], "Monarch") {
			t.Errorf("related talks %q: want the other Monarch talk first", related)
		}
		shot(t, ctx, "talk-desktop", 1280, 900)
		shot(t, ctx, "talk-360", 360, 740)
		do(t, ctx, chromedp.EmulateReset())

		do(t, ctx, chromedp.Evaluate[chromedp.Void](`history.back()`))
		waitFor(t, ctx, `location.search === '?q=Monarch+API' && document.readyState === 'complete' && document.getElementById('summary') !== null`)
		back := eval[searchState](t, ctx, readSearchState)
		if back.Query != "Monarch API" || strings.Join(back.Titles, "|") != strings.Join(searched.Titles, "|") {
			t.Errorf("after back: %+v, want %+v", back, searched)
		}
		// Back once more: the state before " API" was typed.
		do(t, ctx, chromedp.Evaluate[chromedp.Void](`history.back()`))
		waitFor(t, ctx, `location.search === '?q=Monarch' && document.getElementById('q').value === 'Monarch'`)
		waitFor(t, ctx, `document.getElementById('summary').textContent.includes('“Monarch”')`)
	})

	t.Run("permalink", func(t *testing.T) {
		do(t, ctx, chromedp.Navigate(b.base+"/?q=kv+cache&sort=time"))
		waitFor(t, ctx, `document.readyState === 'complete'`)
		st := eval[searchState](t, ctx, readSearchState)
		if st.Query != "kv cache" || st.Sort != "time" || st.Marks == 0 {
			t.Errorf("permalink state %+v", st)
		}
		// The results are in the HTML: they are there when the page is.
		stats := pageLoad(t, ctx)
		t.Logf("permalink /?q=kv+cache&sort=time (static files cached): %d bytes transferred; results in the DOM at %.0f ms (DOMContentLoaded), first contentful paint %.0f ms",
			stats.Bytes, stats.DCL, stats.FCP)
		shot(t, ctx, "search-desktop", 1280, 900)
		if !eval[bool](t, ctx, `document.querySelector('.facet input').checkVisibility()`) {
			t.Error("facets hidden on a desktop-wide page")
		}
		shot(t, ctx, "search-360", 360, 740)
		do(t, ctx, chromedp.EmulateReset())
	})

	t.Run("sort and pages", func(t *testing.T) {
		do(t, ctx, chromedp.Navigate(b.base+"/?q=gpu"))
		waitFor(t, ctx, `document.readyState === 'complete'`)
		before := eval[searchState](t, ctx, readSearchState)
		do(t, ctx, chromedp.Evaluate[chromedp.Void](`(() => { const s = document.querySelector('select[name=sort]'); s.value = 'time'; s.dispatchEvent(new Event('change', { bubbles: true })); })()`))
		waitFor(t, ctx, `location.search === '?q=gpu&sort=time'`)
		waitFor(t, ctx, fmt.Sprintf(`document.querySelector('.hit-link').textContent !== %q`, before.Titles[0]))
		after := eval[searchState](t, ctx, readSearchState)
		if after.Total != before.Total || after.Sort != "time" {
			t.Errorf("sorted by time: %d talks, sort %q; want %d, time", after.Total, after.Sort, before.Total)
		}
		if before.Total <= 20 {
			t.Fatalf("gpu matches %d talks: too few to page", before.Total)
		}
		do(t, ctx, chromedp.Click(chromedp.CSS(`.pager a[rel=next]`)))
		waitFor(t, ctx, `location.search === '?q=gpu&sort=time&page=2'`)
		waitFor(t, ctx, `document.querySelector('.hits').start === 21`)
		if id := eval[string](t, ctx, `document.activeElement.id`); id != "summary" {
			t.Errorf("after paging, focus on #%s, want #summary", id)
		}
	})

	t.Run("labels and landmarks", func(t *testing.T) {
		e, err := realEngine()
		if err != nil {
			t.Fatal(err)
		}
		talk := talkByTitle(t, e, monarchAMD)
		for _, path := range []string{"/?q=monarch&track=Training+Systems", "/talks/" + talk.ID, "/overlaps", notFoundPath} {
			do(t, ctx, chromedp.Navigate(b.base+path))
			waitFor(t, ctx, `document.readyState === 'complete'`)
			unlabelled := eval[[]string](t, ctx, `[...document.querySelectorAll('input, select, button, textarea')]
			  .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !(e.tagName === 'BUTTON' && e.textContent.trim()))
			  .map(e => e.outerHTML)`)
			if len(unlabelled) > 0 {
				t.Errorf("%s: controls without a label: %q", path, unlabelled)
			}
			landmarks := eval[[]string](t, ctx, `['header', 'nav', 'main', 'footer', 'h1'].filter(s => !document.querySelector(s))`)
			if len(landmarks) > 0 {
				t.Errorf("%s: missing %q", path, landmarks)
			}
			if ids := eval[[]string](t, ctx, `(() => { const seen = {}, dup = []; document.querySelectorAll('[id]').forEach(e => { if (seen[e.id]) dup.push(e.id); seen[e.id] = true; }); return dup; })()`); len(ids) > 0 {
				t.Errorf("%s: duplicate ids %q", path, ids)
			}
		}
	})

	t.Run("slash focuses the search box", func(t *testing.T) {
		// A keyboard's shortcut: on a wide screen, where the header has
		// its search box (a phone's header leaves it to the search page).
		do(t, ctx, chromedp.EmulateViewport(1280, 900))
		do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`))
		do(t, ctx, chromedp.KeyEvent("/"))
		if id := eval[string](t, ctx, `document.activeElement.id`); id != "q" {
			t.Errorf("after /: focus on #%s", id)
		}
	})

	t.Run("organizer page", func(t *testing.T) {
		do(t, ctx, chromedp.Navigate(b.base+"/overlaps"))
		waitFor(t, ctx, `document.readyState === 'complete'`)
		pairs := eval[int](t, ctx, `document.querySelectorAll('.pair .side-by-side mark').length`)
		if pairs == 0 {
			t.Error("no marked passages side by side")
		}
		shot(t, ctx, "overlaps-desktop", 1280, 900)
	})

	t.Run("without JavaScript", func(t *testing.T) {
		nojs := b.tab(t)
		if _, err := chromedp.Call(nojs, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			t.Fatal(err)
		}
		do(t, nojs, chromedp.Navigate(b.base+"/"))
		waitFor(t, nojs, `document.readyState === 'complete'`)
		// Poll evaluates through the protocol, which works with page scripts off.
		if eval[bool](t, nojs, `document.documentElement.classList.contains('js')`) {
			t.Fatal("the page script ran")
		}
		do(t, nojs,
			chromedp.SendKeys(chromedp.ID("q"), "Monarch"),
			chromedp.Click(chromedp.CSS(`.searchbar button[type=submit]`)),
		)
		// A plain form also sends the sort it shows, and the time window's
		// empty boxes.
		waitFor(t, nojs, `location.search === '?q=Monarch&after=&before=&cancelled=&sort=relevance' && document.readyState === 'complete'`)
		if n := eval[int](t, nojs, `document.querySelectorAll('.hits mark').length`); n == 0 {
			t.Error("no highlighted results without JavaScript")
		}
		track := eval[string](t, nojs, `document.querySelector('.facet input[name=track]').value`)
		do(t, nojs,
			chromedp.Click(chromedp.CSS(`.facet input[name=track]`)),
			chromedp.Click(chromedp.CSS(`button.apply`)),
		)
		want := "?q=Monarch&track=" + url.QueryEscape(track) + "&after=&before=&cancelled=&sort=relevance"
		waitFor(t, nojs, fmt.Sprintf(`location.search === %q && document.readyState === 'complete'`, want))
		if n := eval[int](t, nojs, `document.querySelectorAll('.chip').length`); n != 1 {
			t.Errorf("%d chips, want 1", n)
		}
	})

	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("browser console:\n%s", strings.Join(errs, "\n"))
	}
}

type loadStats struct {
	Bytes       int     `json:"bytes"`   // transferred, headers included
	Encoded     int     `json:"encoded"` // bodies as sent (gzip)
	Decoded     int     `json:"decoded"` // bodies unpacked
	Count       int     `json:"count"`
	ResponseEnd float64 `json:"responseEnd"`
	DCL         float64 `json:"dcl"`
	FCP         float64 `json:"fcp"`
	Load        float64 `json:"load"`
}

// pageLoad reads the Navigation, Resource and Paint Timing of the page.
func pageLoad(t *testing.T, ctx context.Context) loadStats {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[loadStats](`new Promise(resolve => {
	  const nav = performance.getEntriesByType('navigation')[0];
	  const all = [nav, ...performance.getEntriesByType('resource')];
	  const stats = fcp => resolve({
	    bytes: all.reduce((s, e) => s + e.transferSize, 0),
	    encoded: all.reduce((s, e) => s + e.encodedBodySize, 0),
	    decoded: all.reduce((s, e) => s + e.decodedBodySize, 0),
	    count: all.length,
	    responseEnd: nav.responseEnd,
	    dcl: nav.domContentLoadedEventEnd,
	    fcp,
	    load: nav.loadEventEnd,
	  });
	  new PerformanceObserver(list => {
	    const e = list.getEntriesByName('first-contentful-paint')[0];
	    if (e) stats(e.startTime);
	  }).observe({ type: 'paint', buffered: true });
	  setTimeout(() => stats(-1), 2000);
	})`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// shot saves a screenshot of the viewport at the given size under
// $TMPDIR/talksearch-screenshots, and with -update in testdata/screenshots.
func shot(t *testing.T, ctx context.Context, name string, w, h int64) {
	t.Helper()
	do(t, ctx, chromedp.EmulateViewport(w, h))
	if w < 800 {
		// A phone loads the page at its own width (the filters start
		// folded there): reload rather than resize.
		do(t, ctx, chromedp.Reload())
		waitFor(t, ctx, `document.readyState === 'complete'`)
	}
	// Let the layout settle at the new width.
	waitFor(t, ctx, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	dirs := []string{filepath.Join(os.TempDir(), "talksearch-screenshots")}
	if *update {
		dirs = append(dirs, filepath.Join("testdata", "screenshots"))
	}
	for _, dir := range dirs {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name+".png")
		if err := os.WriteFile(p, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot %s (%d bytes)", p, len(png))
	}
}

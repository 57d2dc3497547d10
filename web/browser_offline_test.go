package web

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Conference Wi-Fi fails: with the server gone, the agenda and the talk
// pages a visitor opened are still shown (the service worker's copies),
// and a page never opened says it is not kept.
func TestBrowserOffline(t *testing.T) {
	b := newBrowserOn(t, func() http.Handler { return zoneHandler(t, time.Date(2025, 2, 1, 9, 0, 0, 0, time.UTC)) })
	ctx := b.tab(t)
	do(t, ctx, chromedp.Navigate(b.base+"/"))
	waitFor(t, ctx, `navigator.serviceWorker.ready.then(() => true)`)
	// The worker takes over the pages open at its start (clients.claim).
	waitFor(t, ctx, `!!navigator.serviceWorker.controller`)

	const agenda = "/agenda?ids=kanaal-opening,seine-welcome"
	for _, p := range []string{"/talks/kanaal-opening", agenda} {
		do(t, ctx, chromedp.Navigate(b.base+p))
	}
	// Two pages and the agenda read last are kept.
	waitFor(t, ctx, `caches.open('talksearch-pages-v1').then(c => c.keys()).then(k => k.length === 3)`)

	b.srv.CloseClientConnections()
	b.srv.Close()
	if _, err := http.Get(b.base + "/healthz"); err == nil {
		t.Fatal("the server still answers")
	}

	text := func(p string) string {
		t.Helper()
		do(t, ctx, chromedp.Navigate(b.base+p))
		return eval[string](t, ctx, `document.querySelector('main').innerText`)
	}
	if got := text("/talks/kanaal-opening"); !strings.Contains(got, "Opening the canal locks") || !strings.Contains(got, "Sat 1 Feb 2025, 10:00–10:50") {
		t.Errorf("the talk page offline: %q", got)
	}
	for _, p := range []string{agenda, "/agenda"} {
		got := text(p)
		if !strings.Contains(got, "Opening the canal locks") || !strings.Contains(got, "Welcome to the river bank") {
			t.Errorf("%s offline: %q", p, got)
		}
	}
	if got := text("/talks/seine-bridges"); !strings.Contains(got, "You are offline") {
		t.Errorf("a page never opened, offline: %q", got)
	}
}

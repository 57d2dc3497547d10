// talksearch's service worker: at a venue whose Wi-Fi fails, the agenda and
// the talk, schedule and speaker pages a visitor opened stay readable.
// Those pages are fetched from the network first (a re-index changes them)
// and a copy is kept; without a network, or when it does not answer within a
// few seconds, the copy is shown. Assets are versioned by their URL, so a
// kept one is always right. Nothing else is stored, and nothing is sent.
'use strict';

var PAGES = 'talksearch-pages-v1';
var ASSETS = 'talksearch-assets-v1';
// The copies kept, oldest dropped first: a conference's worth of talk pages.
var MAX_PAGES = 300;
var NETWORK_WAIT_MS = 4000;

self.addEventListener('install', function () { self.skipWaiting(); });

self.addEventListener('activate', function (e) {
  e.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== PAGES && k !== ASSETS; })
      .map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

// kept says whether a page is one a visitor reads again at the venue.
function kept(path) {
  return path === '/agenda' ||
    /^\/talks\/[^/.]+$/.test(path) ||
    /^(\/c\/[^/]+)?\/schedule$/.test(path) ||
    /^(\/c\/[^/]+)?\/speakers\/[^/]+$/.test(path);
}

function trim(cache) {
  return cache.keys().then(function (keys) {
    var extra = keys.length - MAX_PAGES;
    return Promise.all(keys.slice(0, Math.max(extra, 0)).map(function (k) { return cache.delete(k); }));
  });
}

function offline() {
  var page = '<!doctype html><html lang="en"><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Offline · talksearch</title>' +
    '<main style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 2rem auto; padding: 0 1rem">' +
    '<h1>You are offline</h1><p>This page was not opened before, so no copy of it is kept. ' +
    '<a href="/agenda">Your agenda</a> and the talks you opened are readable offline.</p></main>';
  return new Response(page, { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
}

// fromNetwork fetches a page, giving up after NETWORK_WAIT_MS.
function fromNetwork(req) {
  var ctl = new AbortController();
  var timer = setTimeout(function () { ctl.abort(); }, NETWORK_WAIT_MS);
  return fetch(req, { signal: ctl.signal }).finally(function () { clearTimeout(timer); });
}

self.addEventListener('fetch', function (e) {
  var req = e.request;
  if (req.method !== 'GET') return;
  var url = new URL(req.url);
  if (url.origin !== self.location.origin) return;

  if (url.pathname.indexOf('/static/') === 0) {
    e.respondWith(caches.open(ASSETS).then(function (cache) {
      return cache.match(req).then(function (hit) {
        return hit || fetch(req).then(function (res) {
          if (res.ok && url.search) cache.put(req, res.clone());
          return res;
        });
      });
    }));
    return;
  }

  if (req.mode !== 'navigate' || !kept(url.pathname)) return;
  e.respondWith(fromNetwork(req).then(function (res) {
    if (res.ok) {
      var copy = res.clone();
      var last = url.pathname === '/agenda' ? res.clone() : null;
      e.waitUntil(caches.open(PAGES).then(function (cache) {
        // /agenda alone, offline, is the agenda read last.
        var puts = [cache.put(req, copy)];
        if (last) puts.push(cache.put('/agenda', last));
        return Promise.all(puts).then(function () { return trim(cache); });
      }));
    }
    return res;
  }).catch(function () {
    return caches.open(PAGES).then(function (cache) {
      return cache.match(req, { ignoreVary: true }).then(function (hit) {
        if (hit || url.pathname !== '/agenda') return hit;
        return cache.match('/agenda', { ignoreVary: true });
      });
    }).then(function (hit) { return hit || offline(); });
  }));
});

// talksearch: enhances the server-rendered pages. Everything works without
// it: the search page is a plain GET form and every state is a URL. With it,
// results follow typing, filters apply on a tick, and the URL follows along
// (history.pushState) so back/forward and permalinks keep working.
(function () {
  'use strict';
  var doc = document;
  doc.documentElement.classList.add('js');

  // Offline at the venue: the service worker keeps the agenda and the talk
  // pages opened (sw.js). A browser without one, or that refuses it, loses
  // nothing but that.
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.register('/sw.js').catch(function () {});
  }

  function isEditable(el) {
    if (!el || !el.tagName) return false;
    var tag = el.tagName;
    if (tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable) return true;
    return tag === 'INPUT' && !/^(checkbox|radio|submit|button|reset)$/.test(el.type);
  }

  // Keyboard: "/" focuses the search box; j/k (or arrows, once a result has
  // focus) move through the results; Enter opens the focused one (a link).
  doc.addEventListener('keydown', function (e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    var q = doc.getElementById('q');
    if (e.key === '/' && !isEditable(e.target)) {
      if (q) { e.preventDefault(); q.focus(); q.select(); }
      return;
    }
    var down = e.key === 'j' || e.key === 'ArrowDown';
    var up = e.key === 'k' || e.key === 'ArrowUp';
    if (!down && !up) return;
    var links = Array.prototype.slice.call(doc.querySelectorAll('.hit-link'));
    if (!links.length) return;
    if (q && e.target === q) {
      if (e.key === 'ArrowDown') { e.preventDefault(); focusLink(links[0]); }
      return;
    }
    if (isEditable(e.target)) return;
    var i = links.indexOf(doc.activeElement);
    // Arrows scroll the page as usual until a result has focus.
    if (i < 0 && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) return;
    e.preventDefault();
    if (down) {
      focusLink(links[Math.min(i + 1, links.length - 1)]);
    } else if (i <= 0) {
      if (q) q.focus();
    } else {
      focusLink(links[i - 1]);
    }
  });

  function focusLink(a) {
    a.focus();
    a.scrollIntoView({ block: 'nearest' });
  }

  // The agenda: starred talk ids, kept in this browser (no account). The
  // star buttons are hidden without the script; the agenda itself is a
  // URL, /agenda?ids=…, that works without it.
  var AGENDA_KEY = 'talksearch:agenda';
  function starred() {
    try {
      var v = JSON.parse(localStorage.getItem(AGENDA_KEY) || '[]');
      return Array.isArray(v) ? v.filter(function (id) { return typeof id === 'string' && id; }) : [];
    } catch (err) { return []; }
  }
  function saveStarred(ids) {
    try { localStorage.setItem(AGENDA_KEY, JSON.stringify(ids)); } catch (err) { /* storage off: stars last this page */ }
  }
  function agendaURL(ids) { return '/agenda' + (ids.length ? '?ids=' + ids.map(encodeURIComponent).join(',') : ''); }
  function markStars(root) {
    var ids = starred();
    (root || doc).querySelectorAll('button.star').forEach(function (b) {
      var on = ids.indexOf(b.dataset.star) >= 0;
      b.hidden = false;
      b.setAttribute('aria-pressed', on ? 'true' : 'false');
      b.firstElementChild.textContent = on ? '★' : '☆';
    });
    var link = doc.getElementById('agenda-link');
    if (link) {
      link.href = agendaURL(ids);
      link.textContent = ids.length ? 'Agenda (' + ids.length + ')' : 'Agenda';
    }
  }
  function sameSet(a, b) {
    return a.length === b.length && a.every(function (x) { return b.indexOf(x) >= 0; });
  }
  var agendaMain = doc.querySelector('main.agenda');
  var pageIDs = agendaMain && agendaMain.dataset.ids ? agendaMain.dataset.ids.split(',') : [];
  if (agendaMain && !location.search && !pageIDs.length && starred().length) {
    // /agenda alone: the agenda kept in this browser.
    location.replace(agendaURL(starred()));
    return;
  }
  doc.addEventListener('click', function (e) {
    var b = e.target.closest && e.target.closest('button.star');
    if (!b) return;
    e.preventDefault();
    var ids = starred();
    var mine = agendaMain && sameSet(ids, pageIDs);
    var i = ids.indexOf(b.dataset.star);
    if (i >= 0) ids.splice(i, 1); else ids.push(b.dataset.star);
    saveStarred(ids);
    markStars();
    // On one's own agenda page, the page follows the stars.
    if (mine) location.replace(agendaURL(ids));
  });
  markStars();
  if (agendaMain && pageIDs.length && !sameSet(starred(), pageIDs)) {
    // Someone else's agenda (a shared link): offer to keep its talks.
    var keep = doc.createElement('button');
    keep.type = 'button';
    keep.className = 'keep';
    keep.textContent = 'Star all of these talks';
    keep.addEventListener('click', function () {
      var ids = starred();
      pageIDs.forEach(function (id) { if (ids.indexOf(id) < 0) ids.push(id); });
      saveStarred(ids);
      location.replace(agendaURL(ids));
    });
    var tools = agendaMain.querySelector('.agenda-tools');
    if (tools) tools.appendChild(keep);
  }

  // The visitor's time zone: the pages of times (now, schedule) show times
  // in the conference's zone and, with tz=ZONE, in the visitor's as well.
  // The choice is kept in this browser: a page of times opened without tz
  // gets it, and links to those pages carry it.
  var TZ_KEY = 'talksearch:tz';
  function storedTZ() {
    try { return localStorage.getItem(TZ_KEY) || ''; } catch (err) { return ''; }
  }
  function saveTZ(name) {
    try {
      if (name) localStorage.setItem(TZ_KEY, name); else localStorage.removeItem(TZ_KEY);
    } catch (err) { /* storage off: the choice lasts this page's links */ }
  }
  // A zone the browser knows; the server checks it again (400 otherwise).
  function knownTZ(name) {
    try { new Intl.DateTimeFormat('en', { timeZone: name }); return true; } catch (err) { return false; }
  }
  function browserTZ() {
    try { return Intl.DateTimeFormat().resolvedOptions().timeZone || ''; } catch (err) { return ''; }
  }
  var myTZ = storedTZ();
  if (myTZ && !knownTZ(myTZ)) { saveTZ(''); myTZ = ''; }
  var tzForm = doc.querySelector('form.tz-switch');
  if (tzForm && myTZ && !new URLSearchParams(location.search).has('tz')) {
    var withTZ = new URL(location.href);
    withTZ.searchParams.set('tz', myTZ);
    location.replace(withTZ.pathname + withTZ.search + withTZ.hash);
    return;
  }
  if (myTZ) {
    doc.querySelectorAll('a[href^="/now"], a[href^="/schedule"]').forEach(function (a) {
      if (a.classList.contains('tz-off')) return;
      var u = new URL(a.getAttribute('href'), location.href);
      if ((u.pathname !== '/now' && u.pathname !== '/schedule') || u.searchParams.has('tz')) return;
      u.searchParams.set('tz', myTZ);
      a.setAttribute('href', u.pathname + u.search + u.hash);
    });
  }
  if (tzForm) {
    var tzInput = tzForm.querySelector('input[name=tz]');
    var mine = browserTZ();
    if (tzInput && mine && knownTZ(mine) && mine !== tzForm.dataset.tz) {
      var use = doc.createElement('button');
      use.type = 'button';
      use.className = 'tz-mine';
      use.textContent = 'Use mine (' + mine + ')';
      use.addEventListener('click', function () {
        tzInput.value = mine;
        if (tzForm.requestSubmit) tzForm.requestSubmit(); else { saveTZ(mine); tzForm.submit(); }
      });
      tzForm.insertBefore(use, tzForm.querySelector('.tz-off'));
    }
    tzForm.addEventListener('submit', function () {
      var name = tzInput ? tzInput.value.trim() : '';
      // An unknown name is not kept: the server's 400 says what is wrong.
      if (!name || knownTZ(name)) saveTZ(name);
    });
    var off = tzForm.querySelector('a.tz-off');
    if (off) off.addEventListener('click', function () { saveTZ(''); });
  }

  // Talk page: "← Search" goes back to the very search the reader came from.
  var back = doc.getElementById('back');
  if (back && doc.referrer) {
    try {
      var ref = new URL(doc.referrer);
      if (ref.origin === location.origin && ref.pathname === '/' && history.length > 1) {
        back.href = ref.pathname + ref.search;
        back.addEventListener('click', function (e) { e.preventDefault(); history.back(); });
      }
    } catch (err) { /* a malformed referrer: keep the plain link */ }
  }

  var form = doc.getElementById('search');
  var live = doc.getElementById('live');
  var input = doc.getElementById('q');
  if (!form || !live || !input) return;
  var status = doc.getElementById('status');
  var narrow = window.matchMedia('(max-width: 49.99rem)');

  // On a phone the filters start folded unless some are active; on a wide
  // screen they are always open (the fold control is hidden there).
  var filters = live.querySelector('details.filters');
  if (filters && narrow.matches && !live.querySelector('.facet input:checked')) filters.open = false;
  narrow.addEventListener('change', function (e) {
    var det = live.querySelector('details.filters');
    if (det && !e.matches) det.open = true;
  });

  // The same permalink the server builds: q, filters, sort, page, in order.
  function esc(s) {
    return encodeURIComponent(s).replace(/[!'()*]/g, function (c) {
      return '%' + c.charCodeAt(0).toString(16).toUpperCase();
    }).replace(/%20/g, '+');
  }
  function formURL() {
    var parts = [];
    var q = input.value.trim();
    if (q) parts.push('q=' + esc(q));
    ['track', 'level', 'room', 'day', 'kind', 'conference', 'language', 'scheduled'].forEach(function (name) {
      live.querySelectorAll('input[type=checkbox]').forEach(function (el) {
        if (el.name === name && el.checked) parts.push(name + '=' + esc(el.value));
      });
    });
    ['after', 'before'].forEach(function (name) {
      var el = live.querySelector('input[name=' + name + ']');
      if (el && el.value) parts.push(name + '=' + esc(el.value));
    });
    var cancelled = live.querySelector('select[name=cancelled]');
    if (cancelled && cancelled.value) parts.push('cancelled=' + esc(cancelled.value));
    var sort = live.querySelector('select[name=sort]');
    if (sort && sort.value !== 'relevance') parts.push('sort=' + esc(sort.value));
    return '/' + (parts.length ? '?' + parts.join('&') : '');
  }

  var seq = 0;
  var inflight = null;
  var typing = false; // one history entry per burst of typing

  // load puts url in the history at once ("push" a new entry or "replace"
  // the current one; "none" for back/forward), then fetches the
  // server-rendered live fragment for it and swaps it in. Only the latest
  // load is shown.
  function load(url, how, focusSummary) {
    var current = location.pathname + location.search;
    if (url !== current) {
      if (how === 'push') history.pushState(null, '', url);
      else if (how === 'replace') history.replaceState(null, '', url);
    }
    var my = ++seq;
    if (inflight) inflight.abort();
    inflight = new AbortController();
    live.setAttribute('aria-busy', 'true');
    fetch(url, { headers: { 'X-Talksearch-Fragment': '1' }, signal: inflight.signal })
      .then(function (r) {
        if (!r.ok) throw new Error('HTTP ' + r.status);
        return r.text();
      })
      .then(function (html) {
        if (my !== seq) return;
        swap(html, focusSummary);
        var q = new URL(url, location.href).searchParams.get('q') || '';
        doc.title = (q ? q + ' – search talks' : 'Search talks') + ' · talksearch';
        performance.mark('talksearch:results');
      })
      .catch(function (err) {
        if (err.name === 'AbortError' || my !== seq) return;
        // Let the server say what went wrong (a 400 explains itself).
        location.assign(url);
      })
      .finally(function () {
        if (my === seq) live.removeAttribute('aria-busy');
      });
  }

  function swap(html, focusSummary) {
    var active = doc.activeElement;
    var keep = active && live.contains(active) && active.name ? { tag: active.tagName, name: active.name, value: active.value } : null;
    var det = live.querySelector('details.filters');
    var open = det ? det.open : true;
    live.innerHTML = html;
    markStars(live);
    det = live.querySelector('details.filters');
    if (det) det.open = open;
    if (keep) {
      var same = Array.prototype.filter.call(live.querySelectorAll(keep.tag), function (el) {
        return el.name === keep.name && (el.tagName === 'SELECT' || el.value === keep.value);
      });
      if (same.length) same[0].focus();
    }
    var summary = doc.getElementById('summary');
    if (summary) {
      if (status) status.textContent = summary.textContent;
      if (focusSummary) {
        summary.tabIndex = -1;
        summary.focus();
        summary.scrollIntoView({ block: 'nearest' });
      }
    }
  }

  function syncInput(url) {
    input.value = new URL(url, location.href).searchParams.get('q') || '';
  }

  var timer = 0;
  input.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var url = formURL();
      if (url === location.pathname + location.search) return;
      load(url, typing ? 'replace' : 'push');
      typing = true;
    }, 150);
  });

  form.addEventListener('submit', function (e) {
    e.preventDefault();
    clearTimeout(timer);
    typing = false;
    load(formURL(), 'push');
  });

  form.addEventListener('change', function (e) {
    if (e.target === input) return;
    // A time box changes with every digit typed: it applies on Enter (the
    // form's submit) or when focus leaves it, so a swap never cuts typing.
    if (e.target.type === 'time' && doc.activeElement === e.target) return;
    clearTimeout(timer);
    typing = false;
    load(formURL(), 'push');
  });
  live.addEventListener('focusout', function (e) {
    if (e.target.type !== 'time') return;
    var url = formURL();
    if (url !== location.pathname + location.search) load(url, 'push');
  });

  // Chips, "clear all", "did you mean" and pagination are links to other
  // states of this page: fetch them in place.
  live.addEventListener('click', function (e) {
    if (e.defaultPrevented || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    var a = e.target.closest('a[href]');
    if (!a || !live.contains(a)) return;
    var u = new URL(a.href, location.href);
    if (u.origin !== location.origin || u.pathname !== '/') return;
    e.preventDefault();
    clearTimeout(timer);
    typing = false;
    syncInput(u.pathname + u.search);
    load(u.pathname + u.search, 'push', true);
  });

  window.addEventListener('popstate', function () {
    clearTimeout(timer);
    typing = false;
    var url = location.pathname + location.search;
    syncInput(url);
    load(url, 'none');
  });
})();

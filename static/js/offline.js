/* Offline entry (tournaments.views.offline): the staff round page and a player's private
   page keep working when the connection drops.

   - A slip or report sent while the browser is offline (or while earlier ones still wait,
     so that they stay in order, or whose sending failed) is kept in this browser's
     IndexedDB (idb-keyval, store "matchslip-offline"/"queue") with the form's fields, so
     with what the page knew: the match version a staff slip was entered on. The page
     marks it "Waiting to send". A new slip for the same table replaces a waiting one.
   - When the connection returns, and whenever a page of the same queue opens (a reload
     or a closed tab loses nothing), the waiting entries are posted one after the other
     as htmx would have posted them, and the server's answer replaces the table's row or
     the report as usual. The server tells a result already recorded (answered as
     recorded: nothing is written twice) from one that differs from a result recorded
     meanwhile (409): that one changes nothing and is shown with both values; a refused
     one with the reason. Those notes stay, in this browser, until dismissed.
   - The page saves a copy of itself (Cache Storage, "matchslip-pages") on load and after
     every change; the worker (/e/service-worker.js) answers a page asked for without a
     connection with it, marked data-offline-copy. The page then says "Offline since
     14:02" and, once the server answers again, sends what waits and loads itself anew.
   Every text comes from the page (#offline-config), in the visitor's language; "%(name)s"
   placeholders are filled in here. Nothing is posted without this file: the forms then
   work as before. */
(function () {
  "use strict";
  var holder = document.getElementById("offline-config");
  if (!holder || !window.fetch || !window.Promise || window.matchslipOffline) return;
  var config;
  try { config = JSON.parse(holder.textContent); } catch (e) { return; }
  var kv = window.idbKeyval;
  var store = null;
  try { store = kv && window.indexedDB ? kv.createStore("matchslip-offline", "queue") : null; } catch (e) { store = null; }
  var texts = config.texts || {};
  var PAGES = "matchslip-pages";  // the worker reads the same cache
  var SINCE = "matchslip-offline-since";
  var RELOADED = "matchslip-offline-reloaded";
  var RETRY_MS = 15000;
  var root = document.documentElement;
  var copy = root.hasAttribute("data-offline-copy");  // served by the worker, not the server
  var entries = [];  // [key, entry] of this page's queue, oldest first
  var sending = null;  // the key being posted
  var flushing = null;  // the running flush (a promise)
  var heard = false;  // the server answered during this flush
  var signin = false;  // a post was refused for want of a session or token
  var seq = 0;
  var channel = window.BroadcastChannel ? new BroadcastChannel("matchslip-offline") : null;

  function fill(text, values) {
    return String(text || "").replace(/%\((\w+)\)s/g, function (whole, name) {
      return values[name] === undefined ? whole : String(values[name]);
    });
  }
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function clock(ms) { var d = new Date(Number(ms)); return two(d.getHours()) + ":" + two(d.getMinutes()); }
  function words(el) { return el ? el.textContent.replace(/\s+/g, " ").trim() : ""; }
  function each(list, fn) { Array.prototype.forEach.call(list, fn); }

  // --- the queue ------------------------------------------------------------------------
  function load() {
    if (!store) return Promise.resolve();
    return kv.entries(store).then(function (all) {
      entries = all.filter(function (e) { return e[1] && e[1].queue === config.queue; })
        .sort(function (a, b) { return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0; });
      paint();
    }, function () { paint(); });
  }
  function waiting() { return entries.filter(function (e) { return e[1].state === "waiting"; }); }
  function tell() { if (channel) channel.postMessage(config.queue); }
  if (channel) channel.onmessage = function (event) { if (event.data === config.queue) load(); };
  function newKey() {  // sorts in the order entries were made
    seq += 1;
    return String(Date.now()).padStart(15, "0") + "-" + String(seq).padStart(6, "0") + "-" +
      Math.random().toString(36).slice(2, 8);
  }

  // What the person pressed, in the page's own words: "Ash wins", "2-1", "Draw · Brock conceded".
  function described(form, submitter) {
    var parts = [];
    var named = submitter && submitter.name;
    if (named) parts.push(words(submitter));
    else {
      var typed = Array.prototype.map.call(form.querySelectorAll("input[type=number]"), function (i) {
        return i.value;
      }).filter(function (v) { return v !== ""; });
      if (typed.length) parts.push(typed.join("-"));
      else if (submitter) parts.push(words(submitter));
    }
    if (!named || submitter.value === "draw") {  // concessions count only for a draw
      each(form.querySelectorAll("input[type=checkbox]:checked"), function (box) {
        var label = box.closest("label");
        if (label) parts.push(words(label));
      });
    }
    each(form.querySelectorAll("input[type=text]"), function (input) {
      if (input.value.trim()) parts.push(input.value.trim());
    });
    return parts.join(" · ");
  }

  function entryFor(form, submitter) {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") fields.push([name, value]);
    });
    if (submitter && submitter.name) fields.push([submitter.name, submitter.value]);
    var action = form.getAttribute("hx-post") || form.getAttribute("action");
    var match = fields.filter(function (f) { return f[0] === "match"; }).map(function (f) { return f[1]; })[0] || "";
    return {
      queue: config.queue,
      action: action,
      target: form.getAttribute("hx-target") || "",
      slot: action + "#" + match,  // one table: a newer slip replaces a waiting one
      fields: fields,
      table: form.getAttribute("data-offline") || "",
      result: described(form, submitter),
      at: Date.now(),
      state: "waiting"
    };
  }

  function enqueue(entry) {
    var earlier = entries.filter(function (e) {
      return e[1].state === "waiting" && e[1].slot === entry.slot && e[0] !== sending;
    });
    return Promise.all(earlier.map(function (e) { return kv.del(e[0], store); }))
      .then(function () { return kv.set(newKey(), entry, store); })
      .then(load)
      .then(function () { tell(); if (navigator.onLine) flush(); });
  }

  function formOf(elt) {
    return elt && elt.closest ? elt.closest("form[data-offline]") : null;
  }

  // Offline, or behind slips still waiting: keep it instead of letting htmx post it.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!store || !form.matches || !form.matches("form[data-offline]") || event.defaultPrevented) return;
    var entry = entryFor(form, event.submitter);
    if (navigator.onLine && !waiting().length) {
      form.matchslipOffline = entry;  // htmx posts it; kept here in case that fails
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    if (!navigator.onLine) wentOffline();
    enqueue(entry);
  }, true);
  // htmx fires afterRequest before sendError: a request that got no answer keeps its entry.
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || !xhr.status) return;
    var form = formOf(event.detail.elt);
    if (form) form.matchslipOffline = null;
    if (lostSince() && !copy) back();  // the server answered: connected again
  });
  document.addEventListener("htmx:sendError", function (event) {
    wentOffline();
    var form = formOf(event.detail.elt);
    if (!form || !form.matchslipOffline) return;
    var entry = form.matchslipOffline;
    form.matchslipOffline = null;
    enqueue(entry);
  });

  // --- sending --------------------------------------------------------------------------
  function cookie(name) {
    var found = document.cookie.split(";").map(function (c) { return c.trim(); })
      .filter(function (c) { return c.indexOf(name + "=") === 0; })[0];
    return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
  }

  function flush() {
    if (flushing) return flushing;
    if (!store) return Promise.resolve();
    heard = false;
    var run = function () { return load().then(step); };
    var locked = navigator.locks && navigator.locks.request ?
      navigator.locks.request("matchslip-offline:" + config.queue, run) : run();
    flushing = Promise.resolve(locked).catch(function () {}).then(function () {
      flushing = null;
      sending = null;
      return load();
    }).then(function () { if (heard) back(); });
    return flushing;
  }

  function step() {
    var next = waiting()[0];
    if (!next || !navigator.onLine) return null;
    sending = next[0];
    paint();
    return post(next[1]).then(function (outcome) {
      if (!outcome) return null;  // no answer, or sign in again: it keeps waiting
      var done = outcome.state === "sent" ? kv.del(next[0], store) :
        kv.set(next[0], Object.assign({}, next[1], outcome), store);
      return done.then(function () { sending = null; tell(); return load(); }).then(step);
    });
  }

  // The CSRF token of the moment (the cookie), not the one the page had when the slip waited.
  function post(entry) {
    var body = new URLSearchParams();
    var kept = "";
    entry.fields.forEach(function (f) {
      if (f[0] === "csrfmiddlewaretoken") kept = f[1];
      else body.append(f[0], f[1]);
    });
    var headers = { "HX-Request": "true", "X-CSRFToken": cookie(config.csrf_cookie) || kept };
    return fetch(entry.action, {
      method: "POST", body: body, headers: headers, credentials: "same-origin", cache: "no-store"
    }).then(function (response) {
      heard = true;
      return response.text().then(function (html) { return outcomeOf(entry, response, html); });
    }, function () {
      wentOffline();
      return null;
    });
  }

  function outcomeOf(entry, response, html) {
    if (response.headers.get("HX-Redirect") || response.redirected || response.status === 403) {
      signin = true;  // signed out, or the token changed: it waits for a new sign-in
      paint();
      return null;
    }
    signin = false;
    if (response.status >= 500 || response.status === 429) return null;  // tried again later
    var answer = document.createElement("template");
    answer.innerHTML = html;
    var part = answer.content;
    if (response.ok) {
      show(entry, html);
      return { state: "sent" };
    }
    if (response.status !== 409 && response.status !== 422) {
      return { state: "refused", reason: fill(texts.server, { status: response.status }) };
    }
    show(entry, html);
    var recorded = words(part.querySelector("[data-recorded]"));
    var alert = words(part.querySelector("[role=alert]"));
    if (part.querySelector(".override-confirm")) return { state: "question", reason: alert };
    if (response.status === 409 || (config.kind === "player" && recorded)) {
      return { state: "conflict", recorded: recorded || alert, reason: alert };
    }
    return { state: "refused", reason: alert };
  }

  // The server's answer in place of the table's row (or the report), as htmx would put it.
  function show(entry, html) {
    var target = entry.target && document.querySelector(entry.target);
    if (!target || !window.htmx || !window.htmx.swap) return;
    window.htmx.swap(target, html, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0 });
  }

  // --- connection -----------------------------------------------------------------------
  function lostSince() {
    try { return Number(window.localStorage.getItem(SINCE)) || 0; } catch (e) { return 0; }
  }
  function wentOffline() {
    if (!lostSince()) {
      try { window.localStorage.setItem(SINCE, String(Date.now())); } catch (e) { /* private mode */ }
    }
    paint();
  }
  // The server answered again: a copy of the page loads itself anew once nothing waits;
  // an open page asks its live streams for what it missed (static/js/live.js).
  function back() {
    var was = lostSince();
    try { window.localStorage.removeItem(SINCE); } catch (e) { /* private mode */ }
    if (copy) {
      if (!waiting().length && !signin && !reloadedLately()) window.location.reload();
      return;
    }
    if (was && window.matchslipLive) {
      window.matchslipLive.sources.forEach(function (source) { source.shown(); });
    }
    paint();
  }
  // At most one reload a while: a worker that still cannot reach the server answers with
  // the copy again, which must not reload itself in a loop.
  function reloadedLately() {
    try {
      var last = Number(window.sessionStorage.getItem(RELOADED)) || 0;
      if (Date.now() - last < RETRY_MS) return true;
      window.sessionStorage.setItem(RELOADED, String(Date.now()));
    } catch (e) { /* private mode */ }
    return false;
  }
  function probe() {
    return fetch(config.worker, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
      .then(function (response) { if (response.status < 500) back(); }, wentOffline);
  }
  function check() {
    if (!navigator.onLine) { wentOffline(); return; }
    if (waiting().length) flush();
    else if (copy || lostSince()) probe();
  }

  // --- what the page shows --------------------------------------------------------------
  var panel = null;
  var shown = "";

  function mark(entry) {
    var target = entry.target && document.querySelector(entry.target);
    if (!target) return;
    var note = document.createElement("p");
    note.className = "offline-mark";
    note.setAttribute("data-offline-ui", "");
    note.textContent = fill(texts.mark, { result: entry.result, time: clock(entry.at) });
    var form = target.querySelector("form[data-offline]");
    if (form) form.parentNode.insertBefore(note, form);
    else target.appendChild(note);
  }

  function lines() {
    var out = [];
    var since = lostSince();
    if (since) {
      out.push({ kind: "status", text: fill(texts.offline_since, { time: clock(since) }) +
        (copy ? " " + texts.copy : "") });
    }
    var queued = waiting();
    if (queued.length && config.kind === "player") {
      out.push({ kind: "status", text: fill(texts.waiting_one, { result: queued[queued.length - 1][1].result }) });
    } else if (queued.length) {
      out.push({
        kind: "status",
        text: fill(queued.length === 1 ? texts.waiting_one : texts.waiting_other, { count: queued.length }),
        items: queued.map(function (e) {
          return fill(texts.item, { table: e[1].table, result: e[1].result, time: clock(e[1].at) });
        })
      });
    }
    if (signin) out.push({ kind: "problem", text: texts.signin });
    entries.forEach(function (e) {
      var entry = e[1];
      if (entry.state === "waiting") return;
      var values = { table: entry.table, mine: entry.result, recorded: entry.recorded || "",
                     reason: entry.reason || "" };
      out.push({ kind: "problem", key: e[0], text: fill(texts[entry.state] || texts.refused, values).trim() });
    });
    return out;
  }

  function render(list) {
    var main = document.querySelector("main");
    if (!main) return;
    if (!panel || !document.body.contains(panel)) {
      panel = document.createElement("aside");
      panel.className = "offline-panel";
      panel.id = "offline-panel";
      panel.setAttribute("data-offline-ui", "");
      panel.setAttribute("aria-label", texts.panel || "");
      panel.setAttribute("aria-live", "polite");
      main.parentNode.insertBefore(panel, main);
      shown = "";
    }
    var state = JSON.stringify(list);
    if (state === shown) return;
    shown = state;
    panel.replaceChildren();
    panel.hidden = !list.length;
    list.forEach(function (line) {
      var p = document.createElement("p");
      p.className = "message " + (line.kind === "problem" ? "message-error offline-problem" : "message-warning offline-status");
      p.textContent = line.text;
      if (line.key) {
        var dismiss = document.createElement("button");
        dismiss.type = "button";
        dismiss.className = "small";
        dismiss.textContent = texts.dismiss;
        dismiss.setAttribute("data-offline-dismiss", line.key);
        p.appendChild(document.createTextNode(" "));
        p.appendChild(dismiss);
      }
      panel.appendChild(p);
      if (line.items && line.items.length) {
        var ul = document.createElement("ul");
        ul.className = "offline-waiting";
        line.items.forEach(function (item) {
          var li = document.createElement("li");
          li.textContent = item;
          ul.appendChild(li);
        });
        panel.appendChild(ul);
      }
    });
  }

  function paint() {
    each(document.querySelectorAll(".offline-mark[data-offline-ui]"), function (el) { el.remove(); });
    waiting().forEach(function (e) { mark(e[1]); });
    render(lines());
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-offline-dismiss]");
    if (!button || !store) return;
    kv.del(button.getAttribute("data-offline-dismiss"), store).then(load).then(tell);
  });

  // --- the page's own copy, for a reload without a connection ------------------------------
  var saveTimer = 0;
  function pageKey() {
    var url = new URL(window.location.href);
    url.searchParams.delete("live");
    url.hash = "";
    return url.href;
  }
  function save() {
    if (copy || !window.caches) return Promise.resolve();
    var clone = root.cloneNode(true);
    each(clone.querySelectorAll("[data-offline-ui]"), function (el) { el.remove(); });
    clone.removeAttribute("data-offline-ready");
    var box = clone.querySelector("#messages");
    if (box) box.replaceChildren();  // one-time messages are not shown again
    each(clone.querySelectorAll("[data-live-dirty], [data-live-hold], [data-live-go]"), function (el) {
      ["data-live-dirty", "data-live-hold", "data-live-go"].forEach(function (name) { el.removeAttribute(name); });
    });
    each(clone.querySelectorAll(".htmx-request, .htmx-settling, .htmx-swapping, .htmx-added"), function (el) {
      el.classList.remove("htmx-request", "htmx-settling", "htmx-swapping", "htmx-added");
    });
    var headers = { "Content-Type": "text/html; charset=utf-8", "X-Matchslip-Saved": String(Date.now()) };
    if (config.csp) headers["Content-Security-Policy"] = config.csp;
    var html = "<!doctype html>\n" + clone.outerHTML;
    return caches.open(PAGES).then(function (cache) {
      return cache.put(pageKey(), new Response(html, { headers: headers }));
    }).catch(function () { /* no room, or not allowed: the page works without its copy */ });
  }
  function saveSoon() {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(save, 500);
  }

  function register() {
    if (!navigator.serviceWorker) return Promise.resolve();
    return navigator.serviceWorker.register(config.worker, { scope: config.scope })
      .then(function () { return navigator.serviceWorker.ready; });
  }

  // --- start ----------------------------------------------------------------------------
  if (copy) {
    if (!lostSince()) wentOffline();
  } else if (!navigator.onLine) {
    wentOffline();
  } else {
    try { window.localStorage.removeItem(SINCE); } catch (e) { /* private mode */ }
  }
  window.addEventListener("online", check);
  window.addEventListener("offline", wentOffline);
  window.addEventListener("pagehide", function () { save(); });
  document.addEventListener("htmx:afterSettle", function () { paint(); saveSoon(); });
  setInterval(function () { if (waiting().length || copy || lostSince()) check(); }, RETRY_MS);
  load().then(check);
  Promise.all([register(), save()]).then(function () {
    root.setAttribute("data-offline-ready", "");  // the worker runs and the copy is kept
  }, function () { /* no worker here (plain HTTP): the queue still works in this tab */ });
  window.matchslipOffline = { flush: flush, entries: function () { return entries.slice(); } };
})();

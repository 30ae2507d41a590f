/* The offline worker. Served by tournaments.views.offline.service_worker at
   /e/service-worker.js (so it controls /e/: every event's staff pages and private links),
   after a first line that sets MATCHSLIP: {version, static (the static files' prefix),
   assets (the files the pages load)}. Registered by static/js/offline.js.

   - Static files: from the network, a copy kept ("matchslip-assets-<version>", filled
     when the worker is installed); without a connection, the copy.
   - A page (a navigation): from the network, always. Without a connection, the copy the
     page saved of itself ("matchslip-pages", static/js/offline.js), marked
     <html data-offline-copy> so that it says so; the same address without its query
     string when that one has no copy. A page that now answers with a login, a refusal
     or a 404 (signed out, the event gone) loses its copy.
   - Everything else (slips and reports posted, htmx fragments, the live streams) goes to
     the network untouched: the page itself keeps what it could not send. */
/* global MATCHSLIP */
"use strict";

var ASSETS = "matchslip-assets-" + MATCHSLIP.version;
var PAGES = "matchslip-pages";

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(ASSETS).then(function (cache) {
    // one missing file must not stop the others from being kept
    return Promise.all(MATCHSLIP.assets.map(function (url) {
      return cache.add(url).catch(function () { return null; });
    }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("matchslip-assets-") === 0 && name !== ASSETS;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function pageKey(address) {
  var url = new URL(address);
  url.searchParams.delete("live");
  url.hash = "";
  return url.href;
}

function asset(request) {
  return fetch(request).then(function (response) {
    if (response.ok) {
      var kept = response.clone();
      caches.open(ASSETS).then(function (cache) { return cache.put(request, kept); });
    }
    return response;
  }, function () {
    return caches.open(ASSETS).then(function (cache) { return cache.match(request); })
      .then(function (found) { return found || Response.error(); });
  });
}

function savedCopy(request) {
  var key = pageKey(request.url);
  return caches.open(PAGES).then(function (cache) {
    return cache.match(key).then(function (found) {
      return found || cache.match(key, { ignoreSearch: true });
    });
  }).then(function (found) {
    if (!found) return Response.error();
    return found.text().then(function (html) {
      var marked = html.replace(/<html\b/i, "<html data-offline-copy=\"" +
        (found.headers.get("X-Matchslip-Saved") || "") + "\"");
      return new Response(marked, { status: 200, headers: found.headers });
    });
  });
}

function page(request) {
  return fetch(request).then(function (response) {
    var gone = response.type === "opaqueredirect" || response.redirected ||
      response.status === 403 || response.status === 404 || response.status === 410;
    if (gone) {
      caches.open(PAGES).then(function (cache) { return cache.delete(pageKey(request.url)); });
    }
    return response;
  }, function () { return savedCopy(request); });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf(MATCHSLIP.static) === 0) {
    event.respondWith(asset(request));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request));
  }
});

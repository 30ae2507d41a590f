/* Live pages (tournaments.live): an open page follows its event without a reload.

   The page's <main> names its stream (hx-ext="sse" sse-connect="…/live/?public=12"): the
   versions it shows are in the query string. Elements refresh themselves on the topics
   they show (hx-trigger="sse:public", "sse:me", "sse:staff", "sse:clock"), through the
   htmx SSE extension; the server sends only "this topic is now at version N", and the
   element fetches its own part (the prebuilt public fragment with its ETag, the player's
   own table, a staff panel).

   The extension asks htmx.createEventSource for its connection; this file answers with a
   LiveSource, which behaves as one EventSource for the whole life of the page but:
   - closes the real connection while the tab is hidden and opens it again when shown,
     sending the versions it has, so the server sends at once what changed meanwhile;
   - falls back to polling "?once=1" (the versions as JSON, revalidated by ETag) every
     "poll" seconds when push does not get through (no "hello" within 5 s: a buffering
     proxy; or three failed connections), and tries push again every minute;
   - stops for good at "finished" (the event is over).
   A refresh caused by a notice waits while the person is typing in the part it would
   replace (a slip, a search) and runs when they leave it, or when they press "Show now"
   on the note that says updates are waiting (what they typed is kept, or shown to them
   if its form went away with the update); one that needs the database
   (data-live-spread) is spread over the few seconds the server asks for, so a few
   thousand phones do not ask in the same instant. */
(function () {
  "use strict";
  if (!window.htmx || !window.EventSource || !window.EventTarget) return;

  // "seat": a player's own table pushed as HTML (swapped in by sse-swap); "seatfetch":
  // the same, to be fetched (it was not ready to push).
  var NAMES = ["hello", "public", "staff", "clock", "results", "me", "seat", "seatfetch", "finished"];
  var HELLO_WAIT_MS = 5000;
  var RETRY_MAX_MS = 30000;
  var PUSH_AGAIN_MS = 60000;
  var sources = new Set();
  var spreadSeconds = 0;  // from the server's latest notice: how widely to spread DB fetches

  function versionOf(data) { return parseInt(String(data), 10) || 0; }

  class LiveSource extends EventTarget {
    constructor(url) {
      super();
      var parsed = new URL(url, window.location.href);
      this.url = url;
      this.base = parsed.origin + parsed.pathname;
      this.known = {};
      this.pollMs = 20000;
      var self = this;
      parsed.searchParams.forEach(function (value, name) {
        if (name === "poll") self.pollMs = Math.max(2, Number(value) || 20) * 1000;
        else self.known[name] = versionOf(value);
      });
      this.withCredentials = true;
      this.readyState = 0;  // CONNECTING, as an EventSource starts
      this.onopen = null;
      this.onerror = null;  // never called: this source reconnects (or polls) by itself
      this.onmessage = null;
      this.real = null;
      this.failures = 0;
      this.polling = false;
      this.over = false;
      sources.add(this);
      this.connect();
    }

    address(extra) {
      var params = new URLSearchParams();
      var known = this.known;
      Object.keys(known).forEach(function (name) { params.set(name, known[name]); });
      if (extra) params.set(extra, "1");
      return this.base + "?" + params.toString();
    }

    connect() {
      if (this.over || document.hidden) return;
      this.disconnect();
      var self = this;
      var real = new EventSource(this.address(), { withCredentials: true });
      this.real = real;
      this.sawHello = false;
      NAMES.forEach(function (name) {
        real.addEventListener(name, function (event) { self.receive(real, name, event); });
      });
      real.onerror = function () { self.failed(real); };
      this.helloTimer = setTimeout(function () {
        if (self.real === real && !self.sawHello) self.failed(real, true);
      }, HELLO_WAIT_MS);
    }

    disconnect() {
      clearTimeout(this.helloTimer);
      clearTimeout(this.retryTimer);
      if (this.real) { this.real.close(); this.real = null; }
    }

    receive(real, name, event) {
      if (this.real !== real) return;
      if (name === "hello") {
        this.sawHello = true;
        this.failures = 0;
        this.readyState = 1;
        this.stopPolling();
        try { spreadSeconds = JSON.parse(event.data).spread || 0; } catch (e) { spreadSeconds = 0; }
        if (this.onopen) this.onopen(new Event("open"));
        return;
      }
      this.take(name, event.data);
    }

    // A topic's new version (from push or a poll): handed to the page once.
    take(name, data) {
      if (name === "seat") {  // HTML, not a version: handed on as it came
        this.dispatchEvent(new MessageEvent(name, { data: String(data) }));
        return;
      }
      var version = versionOf(data);
      if (version <= (this.known[name] || 0)) return;
      this.known[name] = version;
      var parts = String(data).split(" ");
      if (parts.length > 1) spreadSeconds = Number(parts[1]) || 0;
      this.dispatchEvent(new MessageEvent(name, { data: String(version) }));
      if (name === "finished") this.close();
    }

    failed(real, silent) {
      if (this.real !== real) return;
      this.disconnect();
      this.failures += 1;
      if (silent || this.failures >= 3) this.startPolling();
      var wait = Math.min(RETRY_MAX_MS, 1000 * Math.pow(2, this.failures - 1));
      var self = this;
      this.retryTimer = setTimeout(function () { self.connect(); },
        this.polling ? PUSH_AGAIN_MS : wait * (0.5 + Math.random() / 2));
    }

    startPolling() {
      if (this.polling || this.over) return;
      this.polling = true;
      var self = this;
      this.pollTimer = setInterval(function () { self.poll(); }, this.pollMs);
      this.poll();
    }

    stopPolling() {
      this.polling = false;
      clearInterval(this.pollTimer);
    }

    poll() {
      if (document.hidden || this.over) return;
      var self = this;
      fetch(this.address("once"), { credentials: "same-origin", cache: "no-cache" })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (answer) {
          if (!answer) return;
          Object.keys(answer.versions).forEach(function (name) {
            self.take(name, String(answer.versions[name]));
          });
          if (answer.finished) self.take("finished", "1");
        })
        .catch(function () { /* offline: the next poll tries again */ });
    }

    shown() {
      if (this.over) return;
      if (this.polling) this.poll();
      this.connect();
    }

    close() {
      this.over = true;
      this.readyState = 2;
      this.disconnect();
      this.stopPolling();
      sources.delete(this);
    }
  }
  LiveSource.CONNECTING = 0;
  LiveSource.OPEN = 1;
  LiveSource.CLOSED = 2;

  htmx.createEventSource = function (url) { return new LiveSource(url); };
  window.matchslipLive = { sources: sources };

  document.addEventListener("visibilitychange", function () {
    sources.forEach(function (source) {
      if (document.hidden) source.disconnect();
      else source.shown();
    });
  });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) sources.forEach(function (source) { source.shown(); });
  });

  // A refresh caused by a notice ("sse:…") waits while someone types in what it would
  // replace, and runs once when they leave it; with data-live-spread it waits a random
  // moment within the server's spread first.
  var waiting = new Map();  // element → the notice it waits to act on ({type, detail})
  var spreading = new Set();  // elements whose spread moment has not come yet
  function busy(elt) {
    if (elt.querySelector(".htmx-request")) return true;  // a slip on its way: its answer first
    if (Date.now() < Number(elt.dataset.liveHold || 0)) return true;  // its answer is showing
    return typingIn(elt);
  }
  // A form filled in but not sent keeps what was entered through a refresh: its fields'
  // values are noted before the swap and put back into the same form (by its address)
  // after it, still marked as being filled in. The page itself goes on following.
  function snapshot(elt) {
    var saved = [];
    elt.querySelectorAll("form[data-live-dirty]").forEach(function (form) {
      var fields = [];
      Array.prototype.forEach.call(form.elements, function (field) {
        if (!field.name) return;
        fields.push({ name: field.name, value: field.value, checked: field.checked,
                      choice: field.type === "checkbox" || field.type === "radio",
                      typed: typed(field), label: labelOf(field) });
      });
      saved.push({ action: form.getAttribute("action"), fields: fields });
    });
    return saved;
  }
  // Text someone typed into a field (not a choice, not the value the page came with).
  function typed(field) {
    return field.matches("textarea, input:not([type=hidden], [type=checkbox], [type=radio])") &&
      field.value.trim() !== "" && field.value !== field.defaultValue;
  }
  function labelOf(field) {
    var label = field.labels && field.labels[0];
    return label ? label.textContent.replace(/\s+/g, " ").trim() : "";
  }
  // Returns the fields typed into forms that are gone (to show them to the person).
  function restore(root, saved) {
    var lost = [];
    saved.forEach(function (entry) {
      var form = Array.prototype.find.call(root.querySelectorAll("form"), function (f) {
        return f.getAttribute("action") === entry.action;
      });
      if (!form) {  // gone with the change (the call was claimed, the round ended)
        entry.fields.forEach(function (kept) { if (kept.typed) lost.push(kept); });
        return;
      }
      form.setAttribute("data-live-dirty", "");
      entry.fields.forEach(function (kept) {
        Array.prototype.forEach.call(form.elements, function (field) {
          if (field.name !== kept.name) return;
          if (kept.choice) {  // a checkbox or radio button: by its value
            if (field.value === kept.value) field.checked = kept.checked;
          } else if (field.type !== "hidden") {  // hidden fields are the server's (versions)
            field.value = kept.value;
          }
        });
      });
    });
    return lost;
  }
  var keeping = new Map();  // refreshing element → the entries to put back
  document.addEventListener("htmx:beforeSwap", function (event) {
    var cause = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
    if (!cause || String(cause.type).indexOf("sse:") !== 0) return;
    var saved = snapshot(event.detail.elt);
    if (saved.length) keeping.set(event.detail.target, saved);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail.target;
    var saved = keeping.get(target);
    if (!saved) return;
    keeping.delete(target);
    var root = document.body.contains(target) ? target : document;
    var lost = restore(root, saved);
    if (lost.length) warnLost(lost);
  });
  // A form being filled in on a live page is marked, so its entries survive a refresh.
  function dirty(event) {
    var form = event.target.form;
    if (form && form.closest("[data-live]") && !form.matches("[role=search]")) {
      form.setAttribute("data-live-dirty", "");
    }
  }
  document.addEventListener("input", dirty);
  document.addEventListener("change", dirty);
  function clean(event) {
    var form = event.target.closest && event.target.closest("form");
    if (form && form.hasAttribute("data-live-dirty")) {
      form.removeAttribute("data-live-dirty");
      setTimeout(flush, 0);
    }
  }
  document.addEventListener("submit", clean);
  document.addEventListener("reset", clean);
  // A refresh whose answer comes while someone's own request inside the part is on its
  // way (a slip) is dropped and done again after that answer, which would otherwise
  // land in a part already replaced.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var elt = event.detail.elt;
    var cause = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
    if (!cause || String(cause.type).indexOf("sse:") !== 0) return;
    if (elt.querySelector(".htmx-request")) {
      event.detail.shouldSwap = false;
      waiting.set(elt, { type: cause.type, detail: cause.detail });
    }
  });
  document.addEventListener("htmx:afterRequest", clean);
  document.addEventListener("htmx:afterRequest", function () { setTimeout(flush, 0); });
  // Someone's own answer ("Result recorded", a slip's row) stays in view a few seconds:
  // the notice of their own change does not replace it at once (it comes after).
  var HOLD_MS = 4000;
  document.addEventListener("htmx:afterRequest", function (event) {
    var cause = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
    if (!cause || String(cause.type).indexOf("sse:") === 0) return;
    var part = event.detail.elt.parentElement &&
      event.detail.elt.parentElement.closest("[hx-trigger*='sse:']");
    if (!part) return;
    part.dataset.liveHold = String(Date.now() + HOLD_MS);
    setTimeout(flush, HOLD_MS + 50);
  });
  // Once the page is being left (a form posted the usual way, a link followed), a notice
  // refreshes nothing: the page asked for may be gone with the change just made (a round
  // discarded), and the answer would land on a page that is going away.
  var leaving = false;
  window.addEventListener("beforeunload", function () { leaving = true; });
  window.addEventListener("pageshow", function () { leaving = false; });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var cause = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
    var elt = event.detail.elt;
    if (!cause || String(cause.type).indexOf("sse:") !== 0) return;
    if (leaving) { event.preventDefault(); return; }
    if (elt.dataset.liveGo === "1") { delete elt.dataset.liveGo; return; }
    if (busy(elt)) {
      event.preventDefault();
      waiting.set(elt, { type: cause.type, detail: cause.detail });
      tellHeld();
      return;
    }
    var spreadOn = elt.getAttribute("data-live-spread");  // the notices to spread, or all
    var spread = spreadOn !== null &&
      (spreadOn === "" || spreadOn.split(/[ ,]+/).indexOf(cause.type) >= 0) ? spreadSeconds : 0;
    if (spread > 0 && !spreading.has(elt)) {
      event.preventDefault();
      waiting.set(elt, { type: cause.type, detail: cause.detail });
      spreading.add(elt);
      setTimeout(function () { spreading.delete(elt); go(elt); }, Math.random() * spread * 1000);
    }
  });
  // A refresh on a notice asks for that version ("?live=public-17"): a browser or proxy
  // cache that holds the page from before the change cannot answer it (the server
  // ignores the parameter); a cache shared by many phones answers them all once fetched.
  document.addEventListener("htmx:configRequest", function (event) {
    var cause = event.detail.triggeringEvent;
    if (!cause || String(cause.type).indexOf("sse:") !== 0 || event.detail.verb !== "get") return;
    var message = cause.detail;
    event.detail.path = event.detail.path.replace(/([?&])live=[^&]*&?/, "$1").replace(/[?&]$/, "");
    event.detail.parameters.live = cause.type.slice(4) + "-" + (message && message.data || "0");
    // A staff page refreshes as a whole page (its views answer HTMX with fragments).
    if (event.detail.elt.hasAttribute("data-live-page")) delete event.detail.headers["HX-Request"];
  });

  // ``now``: "Show now" was pressed, so whatever is being typed does not hold it.
  function go(elt, now) {
    var notice = waiting.get(elt);
    if (!notice || spreading.has(elt)) return;
    waiting.delete(elt);
    if (!document.body.contains(elt)) return;
    if (!now && busy(elt)) { waiting.set(elt, notice); tellHeld(); return; }
    elt.dataset.liveGo = "1";
    htmx.trigger(elt, notice.type, notice.detail);
  }
  // A snapshot: go() may put an element back (still busy), which a live forEach would
  // visit again, for ever.
  function flush() {
    Array.from(waiting.keys()).forEach(function (elt) { go(elt); });
    tellHeld();
  }
  document.addEventListener("focusout", function () { setTimeout(flush, 0); });
  document.addEventListener("focusin", tellHeld);
  document.addEventListener("htmx:afterSettle", tellHeld);

  // --- saying so: updates held while someone types, and typed text a refresh took away ---
  // The texts come translated with the page (data-live-texts on its live root).
  function texts() {
    var root = document.querySelector("[data-live-texts]");
    try { return root ? JSON.parse(root.getAttribute("data-live-texts")) : null; } catch (e) { return null; }
  }
  function typingIn(elt) {
    var active = document.activeElement;
    return active && active !== document.body && elt.contains(active) &&
      active.matches("input, select, textarea");
  }
  // The note (role=status) sits right after the form being filled in, where the eyes
  // are, with "Show now"; it goes once nothing waits for the typing any more.
  var held = null;
  function tellHeld() {
    var elts = Array.from(waiting.keys()).filter(function (elt) {
      return !spreading.has(elt) && document.body.contains(elt) && typingIn(elt);
    });
    var words = elts.length && texts();
    if (!words) {
      // not while the note holds the focus ("Show now" pressed): the refresh replaces it
      if (held && !held.contains(document.activeElement)) { held.remove(); held = null; }
      return;
    }
    var active = document.activeElement;
    var anchor = active.form || active;
    if (held && document.body.contains(held) && held.previousElementSibling === anchor) return;
    if (held) held.remove();
    held = document.createElement("div");
    held.className = "live-held";
    held.setAttribute("role", "status");
    held.setAttribute("data-offline-ui", "");  // never part of the page's saved copy
    anchor.after(held);
    var note = held;
    // Filled once it is in the page, so a screen reader hears it as a change.
    setTimeout(function () {
      if (note !== held) return;
      var text = document.createElement("span");
      text.textContent = words.held;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "small";
      button.setAttribute("data-live-show", "");
      button.textContent = words.show;
      note.replaceChildren(text, " ", button);
    }, 50);
  }
  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest("[data-live-show]")) return;
    Array.from(waiting.keys()).forEach(function (elt) { go(elt, true); });
  });
  // A refresh that took away a form holding what someone typed (another judge claimed
  // the call): the warning above the page, with what they typed, until dismissed (a
  // second one adds to the list of the first).
  function warnLost(fields) {
    var words = texts();
    var main = document.querySelector("main");
    if (!words || !main) return;
    var box = document.getElementById("live-lost");
    var list = box && box.querySelector("ul");
    if (!list) {
      box = document.createElement("div");
      box.id = "live-lost";
      box.className = "message message-error live-lost";
      box.setAttribute("role", "alert");
      box.setAttribute("data-offline-ui", "");
      var intro = document.createElement("p");
      intro.textContent = words.lost;
      list = document.createElement("ul");
      var dismiss = document.createElement("button");
      dismiss.type = "button";
      dismiss.className = "small";
      dismiss.textContent = words.dismiss;
      dismiss.addEventListener("click", function () { box.remove(); });
      box.replaceChildren(intro, list, dismiss);
      main.parentNode.insertBefore(box, main);
    }
    fields.forEach(function (field) {
      var item = document.createElement("li");
      if (field.label) {
        var label = document.createElement("strong");
        label.textContent = field.label + ": ";
        item.appendChild(label);
      }
      item.appendChild(document.createTextNode(field.value));
      list.appendChild(item);
    });
    box.scrollIntoView({ block: "nearest" });
  }
})();

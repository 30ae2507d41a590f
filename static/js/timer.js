/* Round clock (tournaments.clock): counts from the round start using the server's clock.
   Each clock carries its start (data-started-ms), its ended pauses (data-paused-s) and
   its limit (data-limit-s, absent when untimed); a paused clock (data-paused) shows the
   server's frozen time and does not count, nor does the clock of a complete round
   (data-complete: the time when its last result came in). A ".live-clock" element
   (the floor board's waiting times and each table's time used) is its own
   value and counts up from its data-started-ms the same way. The page carries the server's "now"
   (data-server-ms); the offset between it and this device's clock is measured when the
   page (or its refreshed part) arrives, so a phone or projector with a wrong clock still
   shows the server's time. The page's own refresh (hx-trigger) pauses on hidden tabs;
   so does this count. */
(function () {
  "use strict";
  if (window.matchslipTimer) return; // a partial may bring the script again
  var offset = 0;

  function text(seconds) {
    var sign = seconds < 0 ? "-" : "";
    var s = Math.abs(seconds);
    var minutes = Math.floor(s / 60);
    var rest = s % 60;
    return sign + minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }

  // Measured again only when the server's time on the page is new (a refreshed part
  // brings one): a swap elsewhere on the page must not read the old one as "now".
  var seen = null;
  function sync() {
    var holder = document.querySelector("[data-server-ms]");
    if (!holder || holder.dataset.serverMs === seen) return;
    seen = holder.dataset.serverMs;
    offset = Number(seen) - Date.now();
  }

  function tick() {
    if (document.hidden) return;
    var now = Date.now() + offset;
    var clocks = ".round-clock[data-started-ms], .live-clock[data-started-ms]";
    document.querySelectorAll(clocks).forEach(function (el) {
      if (el.hasAttribute("data-paused") || el.hasAttribute("data-complete")) return;
      var run = (now - Number(el.dataset.startedMs)) / 1000 - Number(el.dataset.pausedS || 0);
      var elapsed = Math.max(0, Math.floor(run));
      var limit = el.dataset.limitS;
      var shown = limit === undefined ? elapsed : Number(limit) - elapsed;
      var out = el.classList.contains("live-clock") ? el : el.querySelector(".clock-value");
      if (out) out.textContent = text(shown);
    });
  }

  function start() {
    sync();
    tick();
    setInterval(tick, 1000);
  }

  window.matchslipTimer = { text: text, offset: function () { return offset; } };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
  document.addEventListener("htmx:afterSwap", function () { sync(); tick(); });
  document.addEventListener("visibilitychange", tick);
})();

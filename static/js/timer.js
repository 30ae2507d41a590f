/* Round timer (MP-TIME-1): counts from the round start using the server's clock.
   The page carries the server's "now" (data-server-ms); the offset between it and this
   device's clock is measured when the page (or its refreshed part) arrives, so a phone
   or projector with a wrong clock still shows the server's time. */
(function () {
  "use strict";
  var offset = 0;

  function text(seconds) {
    var sign = seconds < 0 ? "-" : "";
    var s = Math.abs(seconds);
    var minutes = Math.floor(s / 60);
    var rest = s % 60;
    return sign + minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function sync() {
    var live = document.getElementById("live");
    if (live && live.dataset.serverMs) {
      offset = Number(live.dataset.serverMs) - Date.now();
    }
  }

  function tick() {
    var now = Date.now() + offset;
    document.querySelectorAll(".round-clock[data-started-ms]").forEach(function (el) {
      var elapsed = Math.max(0, Math.floor((now - Number(el.dataset.startedMs)) / 1000));
      var limit = el.dataset.limitS;
      var shown = limit === undefined ? elapsed : Number(limit) - elapsed;
      var out = el.querySelector(".clock-value");
      if (out) out.textContent = text(shown);
    });
  }

  window.matchslipTimer = { text: text, offset: function () { return offset; } };
  document.addEventListener("DOMContentLoaded", function () {
    sync();
    tick();
    setInterval(tick, 1000);
  });
  document.addEventListener("htmx:afterSwap", function () { sync(); tick(); });
})();

// Matchslip: small enhancements. Every page works without this file.
(function () {
  "use strict";

  // Forms with data-confirm ask before submitting (e.g. dropping a player).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  // "Use these" on the new-event page copies the recommended rounds and cut into the form.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-fill-rounds]");
    if (!button) return;
    var rounds = document.getElementById("id_swiss_rounds");
    var cut = document.getElementById("id_top_cut_size");
    if (rounds) rounds.value = button.dataset.fillRounds;
    if (cut) cut.value = button.dataset.fillCut;
    var day2 = document.getElementById("id_day2_rounds");  // P-RT-2 two-day table
    if (day2 && button.dataset.fillDay2 !== undefined) day2.value = button.dataset.fillDay2;
  });

  // A failed HTMX request (server error, lost connection) says so instead of doing nothing.
  function showProblem(text) {
    var box = document.getElementById("messages");
    if (!box) return;
    var p = document.createElement("p");
    p.className = "message message-error";
    p.setAttribute("role", "alert");
    p.textContent = text;
    box.replaceChildren(p);
  }
  document.addEventListener("htmx:responseError", function (event) {
    showProblem("That did not work (error " + event.detail.xhr.status + "). Reload the page and try again.");
  });
  document.addEventListener("htmx:sendError", function () {
    showProblem("No connection to the server. Check the network and try again.");
  });
})();

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

  // "Use these" on the new-event page copies the recommended structure, rounds and cut
  // into the form (single elimination for a row without Swiss rounds), and each planned
  // division's own rounds and cut.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-fill-rounds]");
    if (!button) return;
    var fill = {
      id_structure: button.dataset.fillStructure,
      id_swiss_rounds: button.dataset.fillRounds,
      id_top_cut_size: button.dataset.fillCut,
      id_day2_rounds: button.dataset.fillDay2,  // P-RT-2 two-day table
      // every planned division's own rounds and cut ("senior:3:2,…")
      id_division_structure: button.dataset.fillDivisions
    };
    Object.keys(fill).forEach(function (id) {
      var field = document.getElementById(id);
      if (field && fill[id] !== undefined) field.value = fill[id];
    });
  });

  // New-event page: show only what the chosen ruleset uses (age divisions, season,
  // Championship Points, Day 2: elements with data-feature) and its top-cut sizes.
  // Without this script every field shows and the form ignores the unused ones.
  function showRulesetFields() {
    var select = document.getElementById("id_ruleset");
    var data = document.getElementById("ruleset-features");
    var ruleset = select && data && JSON.parse(data.textContent)[select.value];
    if (!ruleset) return;
    document.querySelectorAll("[data-feature]").forEach(function (element) {
      element.hidden = ruleset.features.indexOf(element.dataset.feature) < 0;
    });
    var cut = document.getElementById("id_top_cut_size");
    Array.prototype.forEach.call(cut ? cut.options : [], function (option) {
      option.hidden = option.disabled = ruleset.cuts.indexOf(Number(option.value)) < 0;
    });
    document.querySelectorAll("[data-ruleset-copy]").forEach(function (input) {
      input.value = select.value;  // the Recommend button reads the chosen ruleset's table
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target.id === "id_ruleset") showRulesetFields();
  });
  document.addEventListener("DOMContentLoaded", showRulesetFields);

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
  document.addEventListener("htmx:sendError", function (event) {
    // a slip or report is kept to send later instead (static/js/offline.js says so)
    var elt = event.detail.elt;
    if (window.matchslipOffline && elt && elt.closest && elt.closest("form[data-offline]")) return;
    showProblem("No connection to the server. Check the network and try again.");
  });

  // Live panels poll only while the tab is visible. htmx runs with allowEval off (the
  // Content-Security-Policy forbids eval), so it ignores hx-trigger filters such as
  // [document.visibilityState === 'visible']: a poll (no triggering event) or a
  // visibilitychange trigger is dropped here while the page is hidden.
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (document.visibilityState !== "hidden") return;
    var cause = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
    if (!cause || cause.type === "visibilitychange") event.preventDefault();
  });
})();

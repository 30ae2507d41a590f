// Print pages: the toolbar's Print button (no inline handler: the Content-Security-Policy
// refuses them).
document.addEventListener("click", function (event) {
  if (event.target.closest("[data-print]")) window.print();
});

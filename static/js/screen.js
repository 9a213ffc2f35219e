/* The big screen (templates/public/screen.html): shows its panels (the tables, the standings)
   one at a time, each for data-rotate seconds, and keeps the turn when htmx brings fresh ones.
   Without JavaScript the page shows both and reloads itself. */
(function () {
  "use strict";
  var turn = 0;
  var since = Date.now();

  function panels() {
    return Array.prototype.slice.call(document.querySelectorAll("#screen .screen-panel"));
  }

  function show() {
    var all = panels();
    if (all.length < 2) return;
    turn = turn % all.length;
    all.forEach(function (panel, i) { panel.hidden = i !== turn; });
  }

  function step() {
    var root = document.getElementById("screen");
    var seconds = root ? Number(root.dataset.rotate) || 20 : 20;
    if (Date.now() - since >= seconds * 1000) {
      turn += 1;
      since = Date.now();
    }
    show();
  }

  function start() {
    document.documentElement.classList.add("screen-rotating");
    show();
    setInterval(step, 1000);
    document.body.addEventListener("htmx:afterSettle", show);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

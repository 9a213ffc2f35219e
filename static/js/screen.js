/* The big screen (templates/public/screen.html): shows its panels (the tables, the standings)
   one at a time, and each panel a page at a time when its list does not fit the screen: the
   tables (or standings rows) that fit below the panel's heading make a page, the next ones the
   next page. Each page shows for data-rotate seconds. When htmx brings fresh panels the turn
   is kept, and the pages are laid out again before the browser paints them (no flash of the
   whole list). Without JavaScript the page shows everything and reloads itself. */
(function () {
  "use strict";
  var panel = 0;
  var page = 0;
  var pages = 1;
  var since = Date.now();
  var reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");

  function root() { return document.getElementById("screen"); }

  function panels() {
    return Array.prototype.slice.call(document.querySelectorAll("#screen .screen-panel"));
  }

  function items(list) {
    return Array.prototype.slice.call(list.children);
  }

  /* Number each item of the panel's list with its page (data-page); returns the page count.
     Measured with every item shown, so the panel must be shown. */
  function paginate(shown) {
    var list = shown.querySelector("[data-paged]");
    if (!list) return 1;
    var all = items(list);
    all.forEach(function (item) { item.hidden = false; });
    if (!all.length) return 1;
    var box = shown.querySelector("[data-pages]") || list;
    var after = 0; // what the panel shows below its list (byes, notes): stays in sight
    for (var el = box.nextElementSibling; el; el = el.nextElementSibling) {
      after += el.getBoundingClientRect().height + 12;
    }
    var bottom = Math.min(shown.getBoundingClientRect().bottom, window.innerHeight) - after;
    var room = bottom - all[0].getBoundingClientRect().top;
    var count = 0;
    var start = all[0].getBoundingClientRect().top;
    all.forEach(function (item) {
      var rect = item.getBoundingClientRect();
      if (rect.bottom - start > room && rect.top > start) {
        count += 1;
        start = rect.top;
      }
      item.dataset.page = String(count);
    });
    return count + 1;
  }

  function label(shown) {
    var text = root() ? root().dataset.pageText || "" : "";
    var of = shown.querySelector(".screen-page-of");
    if (!of) return;
    of.textContent = pages > 1
      ? text.replace("{page}", String(page + 1)).replace("{pages}", String(pages))
      : "";
  }

  function show(turning) {
    var all = panels();
    if (!all.length) return;
    panel = panel % all.length;
    all.forEach(function (p, i) { p.hidden = all.length > 1 && i !== panel; });
    var shown = all[panel];
    pages = paginate(shown);
    page = Math.min(page, pages - 1);
    var list = shown.querySelector("[data-paged]");
    if (list) {
      items(list).forEach(function (item) { item.hidden = item.dataset.page !== String(page); });
      if (turning && !(reduced && reduced.matches)) {
        list.classList.remove("screen-turn");
        void list.offsetWidth; // restart the fade-in
        list.classList.add("screen-turn");
      }
    }
    label(shown);
  }

  function step() {
    var el = root();
    var seconds = el ? Number(el.dataset.rotate) || 20 : 20;
    if (Date.now() - since < seconds * 1000) return;
    since = Date.now();
    if (page + 1 < pages) {
      page += 1;
    } else {
      page = 0;
      panel += 1;
    }
    show(true);
  }

  function start() {
    document.documentElement.classList.add("screen-rotating");
    show(false);
    setInterval(step, 1000);
    // afterSwap: the fresh panels are laid out in the same task as the swap, before a paint
    document.body.addEventListener("htmx:afterSwap", function () { show(false); });
    window.addEventListener("resize", function () { show(false); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

/* The round clock (templates/public/_clock.html): counts down to the round's end from the
   server's time, not the phone's. Every minute (while the page is visible) it asks the
   tournament's clock URL for the server's time and the clock as it stands, so a clock set,
   changed or stopped after the page was loaded shows too. The words come from the page
   (data-left-text, data-over-text, the JSON's text), none are made here. */
(function () {
  "use strict";
  if (window.tncClock) {  // loaded again (an htmx swap brought a clock): look for new ones
    window.tncClock.scan();
    return;
  }
  var offset = 0;  // the server's time minus the browser's, in ms
  var urls = {};

  function clocks() {
    return Array.prototype.slice.call(document.querySelectorAll("[data-clock]"));
  }

  function left(ms) {
    var s = Math.ceil(ms / 1000);
    var h = Math.floor(s / 3600);
    var m = Math.floor((s % 3600) / 60);
    var sec = s % 60;
    var mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(sec).padStart(2, "0");
  }

  function tick() {
    var now = Date.now() + offset;
    clocks().forEach(function (el) {
      var out = el.querySelector(".clock-left");
      var ends = el.dataset.endsAt ? Date.parse(el.dataset.endsAt) : NaN;
      if (!out || isNaN(ends)) return;
      var ms = ends - now;
      var text = ms > 0 ? el.dataset.leftText.replace("{left}", left(ms)) : el.dataset.overText;
      if (out.textContent !== text) out.textContent = text;
      el.classList.toggle("clock-over", ms <= 0);
      el.classList.toggle("clock-soon", ms > 0 && ms <= 5 * 60 * 1000);
    });
  }

  function show(url, clock) {
    clocks().forEach(function (el) {
      if (el.dataset.clock !== url) return;
      var words = el.querySelector(".clock-text");
      if (!clock) {
        el.hidden = true;
        delete el.dataset.endsAt;
        return;
      }
      if (el.dataset.endsAt !== clock.ends_at && words) words.textContent = clock.text;
      el.dataset.endsAt = clock.ends_at;
      el.dataset.overText = clock.over;
      el.hidden = false;
    });
    tick();
  }

  function sync(url) {
    var sent = Date.now();
    fetch(url, { headers: { Accept: "application/json" }, cache: "no-store", credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        if (!data) return;
        var back = Date.now();
        var server = Date.parse(data.now);
        if (!isNaN(server)) offset = server - (sent + back) / 2;
        show(url, data.clock);
      })
      .catch(function () { /* offline: keep counting with what we have */ });
  }

  function scan() {
    clocks().forEach(function (el) {
      var url = el.dataset.clock;
      if (!urls[url]) {
        urls[url] = true;
        sync(url);
      }
    });
    tick();
  }

  window.tncClock = { scan: scan, tick: tick };
  function start() {
    scan();
    setInterval(tick, 1000);
    setInterval(function () {
      if (document.visibilityState !== "visible") return;
      Object.keys(urls).forEach(sync);
    }, 60000);
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") Object.keys(urls).forEach(sync);
    });
    document.body.addEventListener("htmx:afterSettle", scan);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

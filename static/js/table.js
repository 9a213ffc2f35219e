/* Trick-n-Chef, the scorekeeper's table page (games/tricknchef/templates/tricknchef/table.html).
 *
 * Small enhancements only: every form on the page works as a plain HTML form without this file.
 *
 * - The deal: tap a card to put it in the hand you are dealing to (tap it again to take it
 *   back); the next hand is chosen when one is full; when every hand but the last is full the
 *   last one gets the cards left (games/tricknchef/forms.py does the same on the server). The deal in
 *   progress lives in the form's selects and, in case the page is reloaded, in localStorage.
 * - The coins: a -2 / +2 stepper over the coin select; each card shows its value in the trick.
 * - After an htmx swap: focus goes to the new controls' heading (without scrolling); the hand
 *   (or the controls) stays where it was on the screen, under the thumb, unless the kind of tap
 *   changed (then the trick comes into view); the panel opts out of Chrome's scroll anchoring
 *   (static/css/table.css), which jumped to the page's bottom.
 */
(function () {
  "use strict";

  var HAND = 10; // cards per hand (R2.1)
  var STEP = 2; // each coin is worth +2 or -2 (R1.4)

  // The script's own words in the page's language (games/tricknchef/table_presenters.py table_texts).
  var textsNode = document.getElementById("table-texts");
  var TEXTS = textsNode ? JSON.parse(textsNode.textContent) : {};
  function fmt(name, values, count) {
    var text = TEXTS[name];
    if (Array.isArray(text)) text = text[Math.min(count, text.length - 1)];
    return String(text === undefined ? name : text).replace(/%\((\w+)\)s/g, function (all, key) {
      return values && key in values ? values[key] : all;
    });
  }

  function each(root, selector, fn) {
    Array.prototype.forEach.call(root.querySelectorAll(selector), fn);
  }

  function reveal(form) {
    form.classList.add("is-js");
    each(form, "[data-js-only]", function (el) { el.hidden = false; });
  }

  function store() {
    try { return window.localStorage; } catch (e) { return null; }
  }

  // ------------------------------------------------------------------ the deal

  function enhanceDeal(form) {
    form.setAttribute("data-enhanced", "");
    reveal(form);
    var radios = Array.prototype.slice.call(form.querySelectorAll('input[name="dealer"]'));
    var names = {};
    radios.forEach(function (r) {
      names[r.value] = r.closest("label").querySelector(".tbl-dealer-name").textContent;
    });
    var status = form.querySelector("[data-deal-status]");
    var confirmButton = form.querySelector("[data-deal-confirm]");
    var key = "tnc-deal-" + form.dataset.game + "-" + form.dataset.round;
    var slots = Array.prototype.slice.call(form.querySelectorAll(".tbl-deal-slot"));

    slots.forEach(function (slot) {
      var face = slot.querySelector(".tbl-deal-card");
      var button = document.createElement("button");
      button.type = "button";
      button.className = "tbl-deal-tap";
      button.appendChild(face);
      var owner = document.createElement("span");
      owner.className = "tbl-deal-owner";
      owner.setAttribute("aria-hidden", "true");
      button.appendChild(owner);
      slot.insertBefore(button, slot.firstChild);
      slot.cardLabel = face.querySelector(".card").getAttribute("aria-label");
      slot.select = slot.querySelector("select");
      slot.button = button;
      slot.owner = owner;
      button.addEventListener("click", function () { tap(slot); });
      slot.select.addEventListener("change", function () { changed(null); });
    });
    radios.forEach(function (r) { r.addEventListener("change", update); });

    restore();
    dealToFirstShort();
    if (slots.some(function (s) { return s.select.value !== ""; })) save();
    update();

    function dealer() {
      var checked = form.querySelector('input[name="dealer"]:checked');
      return checked ? checked.value : null;
    }

    function counts() {
      var c = {};
      radios.forEach(function (r) { c[r.value] = 0; });
      slots.forEach(function (s) { if (s.select.value !== "") c[s.select.value] += 1; });
      return c;
    }

    function say(text) { status.textContent = text; }

    function tap(slot) {
      var d = dealer();
      if (d === null) return;
      if (slot.select.value === d) {
        slot.select.value = "";
        say(fmt("takenBack", { card: slot.cardLabel, player: names[d] }));
      } else if (counts()[d] >= HAND) {
        say(fmt("handFull", { player: names[d] }));
        return;
      } else {
        slot.select.value = d;
        say("");
      }
      changed(d);
    }

    function changed(d) {
      var c = counts();
      if (d !== null && c[d] >= HAND) {
        // The hand is full: deal to the next one that is not (clockwise from it).
        var at = radios.findIndex(function (r) { return r.value === d; });
        for (var i = 1; i < radios.length; i++) {
          var next = radios[(at + i) % radios.length];
          if (c[next.value] < HAND) { next.checked = true; break; }
        }
      }
      fillLast();
      update();
      save();
    }

    function dealToFirstShort() {
      // After a reload or a refusal the deal is back as tapped: deal on to the first hand
      // that is not full (seat 1's hand may be), so the next tap is not ignored.
      var c = counts();
      var d = dealer();
      if (d !== null && c[d] < HAND) return;
      var next = radios.find(function (r) { return c[r.value] < HAND; });
      if (next) next.checked = true;
    }

    function fillLast() {
      var c = counts();
      var short = Object.keys(c).filter(function (k) { return c[k] < HAND; });
      var rest = slots.filter(function (s) { return s.select.value === ""; });
      if (short.length !== 1 || !rest.length || c[short[0]] + rest.length !== HAND) return;
      var others = Object.keys(c).every(function (k) { return k === short[0] || c[k] === HAND; });
      if (!others) return;
      rest.forEach(function (s) { s.select.value = short[0]; });
      say(fmt("restWent", { player: names[short[0]] }, rest.length));
    }

    function update() {
      var c = counts();
      var d = dealer();
      radios.forEach(function (r) {
        form.querySelector('[data-count="' + r.value + '"]').textContent = c[r.value];
        r.closest("label").classList.toggle("is-full", c[r.value] === HAND);
      });
      var left = 0;
      slots.forEach(function (s) {
        var v = s.select.value;
        if (v === "") left += 1;
        s.button.classList.toggle("is-mine", v !== "" && v === d);
        s.button.classList.toggle("is-dealt", v !== "" && v !== d);
        s.owner.textContent = v === "" ? "" : names[v];
        s.button.setAttribute("aria-pressed", v !== "" && v === d ? "true" : "false");
        s.button.setAttribute(
          "aria-label", v === "" ? fmt("notDealt", { card: s.cardLabel }) : fmt("inHand", { card: s.cardLabel, player: names[v] })
        );
      });
      var complete = Object.keys(c).every(function (k) { return c[k] === HAND; });
      confirmButton.disabled = !complete;
      confirmButton.textContent = complete
        ? fmt("confirm")
        : fmt("confirmLeft", null, left);
    }

    function save() {
      var s = store();
      if (!s) return;
      var seats = {};
      slots.forEach(function (slot) {
        if (slot.select.value !== "") seats[slot.dataset.card] = slot.select.value;
      });
      try { s.setItem(key, JSON.stringify(seats)); } catch (e) { /* full or private */ }
    }

    function restore() {
      // Only into an empty deal: a deal the server re-showed (after a refusal) wins.
      if (slots.some(function (s) { return s.select.value !== ""; })) return;
      var s = store();
      var saved = null;
      try { saved = s && JSON.parse(s.getItem(key) || "null"); } catch (e) { saved = null; }
      if (!saved) return;
      slots.forEach(function (slot) {
        var seat = saved[slot.dataset.card];
        if (seat !== undefined && names[seat] !== undefined) slot.select.value = seat;
      });
      say(fmt("restored"));
    }
  }

  function forgetDeals() {
    // No deal form on the page: any deal kept for this game is done with. The whole page is
    // asked, not the piece just swapped in (the turn banner, swapped out of band, holds no
    // deal form: asking it forgot the deal a refusal had just shown again).
    var table = document.querySelector(".tbl[data-game]");
    var s = store();
    if (!table || !s || document.querySelector("[data-deal]")) return;
    var prefix = "tnc-deal-" + table.dataset.game + "-";
    for (var i = s.length - 1; i >= 0; i--) {
      var k = s.key(i);
      if (k && k.indexOf(prefix) === 0) s.removeItem(k);
    }
  }

  // ------------------------------------------------------------------ the coins

  function enhancePlay(form) {
    form.setAttribute("data-enhanced", "");
    reveal(form);
    var select = form.querySelector("[data-coins]");
    if (!select) return;
    var box = select.closest(".tbl-coins");
    var held = parseInt(box.dataset.held, 10) || 0;
    var words = form.querySelector("[data-coin-words]");
    var minus = form.querySelector('[data-step="-1"]');
    var plus = form.querySelector('[data-step="1"]');
    box.classList.add("is-js");
    [minus, plus].forEach(function (b) {
      b.addEventListener("click", function () {
        var k = (parseInt(select.value, 10) || 0) + parseInt(b.dataset.step, 10);
        if (Math.abs(k) <= held) select.value = String(k);
        update();
      });
    });
    select.addEventListener("change", update);
    update();

    function update() {
      var k = parseInt(select.value, 10) || 0;
      var text = select.options[select.selectedIndex].textContent;
      words.textContent = text;
      minus.disabled = k <= -held;
      plus.disabled = k >= held;
      each(form, ".tbl-card", function (b) {
        var value = parseInt(b.dataset.value, 10) + STEP * k;
        b.querySelector("[data-counts]").textContent = k ? fmt("counts", { value: value }) : "";
        b.setAttribute(
          "aria-label", k ? fmt("withCoins", { card: b.dataset.label, coins: text, value: value }) : b.dataset.label
        );
      });
    }
  }

  // ------------------------------------------------------------------ wiring

  function init(root) {
    each(root, "[data-deal]:not([data-enhanced])", enhanceDeal);
    each(root, "[data-play]:not([data-enhanced])", enhancePlay);
    forgetDeals();
  }

  var lastPhase = null;
  var pinned = null; // where the thumb was before a swap: {selector, top}

  function thumbMark(root) {
    // What the next tap aims at: the hand of cards, else the current controls.
    var selectors = [".tbl-hand", ".tbl-action"];
    for (var i = 0; i < selectors.length; i++) {
      var el = root.querySelector(selectors[i]);
      if (el) return { selector: selectors[i], el: el };
    }
    return null;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || target.id !== "table-panel") return;
    var mark = thumbMark(target);
    pinned = mark ? { selector: mark.selector, top: mark.el.getBoundingClientRect().top } : null;
  });

  document.addEventListener("htmx:afterSwap", function () {
    // Right after the swap, before the page is painted (htmx:load comes after the settle):
    // the same kind of tap next, so the controls stay put.
    var panel = document.getElementById("table-panel");
    if (panel && panel.dataset.phase === lastPhase) keepUnderThumb(panel);
    pinned = null;
  });

  function keepUnderThumb(panel) {
    // The panel was replaced: scroll by what the same controls moved, so they stay where the
    // thumb is (the trick growing above the hand, a longer refusal, the Undo button's label).
    if (!pinned) return;
    var el = panel.querySelector(pinned.selector) || panel.querySelector(".tbl-action");
    if (el) window.scrollBy(0, el.getBoundingClientRect().top - pinned.top);
    pinned = null;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var panel = document.getElementById("table-panel");
    lastPhase = panel ? panel.dataset.phase : null;
    init(document);
  });
  document.addEventListener("htmx:load", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || !elt.querySelectorAll) return;
    init(elt);
    if (elt.id !== "table-panel") return;
    // The new controls: focus their heading; bring them into view when the kind of tap changed
    // (a deal confirmed at the bottom of a long page, a trick's last card, a Chef taken), but
    // not between two cards of a trick, so the next hand stays under the thumb.
    var heading = elt.querySelector("#action-h");
    var refusal = elt.querySelector("#table-refusal");
    if (heading) heading.focus({ preventScroll: true });
    if (heading && elt.dataset.phase !== lastPhase) {
      (elt.querySelector("#trick-h") || heading).scrollIntoView({ block: "start" });
    }
    if (refusal) refusal.scrollIntoView({ block: "nearest" });
    lastPhase = elt.dataset.phase;
  });
})();

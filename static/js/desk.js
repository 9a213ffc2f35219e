/* The organizer desk's little script. Everything works without it (plain forms, the two-tap
   swap, the box that asks first); with it: drag a player onto another to swap them, print
   buttons, the focus on the box that asks first and Escape to cancel it, and a clear word when
   the connection drops. Events are delegated, so panels htmx swaps in work too. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  // Its words, in the page's language (templates/desk/base.html puts them on this script tag).
  var script = document.currentScript;
  var words = {
    offline: (script && script.dataset.offline) ||
      "No connection: your last action did not reach the server and nothing changed. Try again.",
    serverError: (script && script.dataset.serverError) ||
      "Something went wrong on the server; nothing changed. Reload the page and try again."
  };

  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) {
      window.print();
    }
  });

  // --- drag a seat onto another: fill the "Swap two players" form and submit it (htmx posts it)
  var dragged = null;

  function seatOf(target) {
    return target && target.closest ? target.closest(".seat[draggable='true'][data-player]") : null;
  }

  document.addEventListener("dragstart", function (event) {
    var seat = seatOf(event.target);
    if (!seat) return;
    dragged = seat.dataset.player;
    seat.classList.add("dragging");
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", dragged);
  });

  document.addEventListener("dragend", function (event) {
    var seat = seatOf(event.target);
    if (seat) seat.classList.remove("dragging");
    document.querySelectorAll(".seat.drag-over").forEach(function (s) {
      s.classList.remove("drag-over");
    });
    dragged = null;
  });

  document.addEventListener("dragover", function (event) {
    var seat = seatOf(event.target);
    if (!seat || !dragged || seat.dataset.player === dragged) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
    seat.classList.add("drag-over");
  });

  document.addEventListener("dragleave", function (event) {
    var seat = seatOf(event.target);
    if (seat && !seat.contains(event.relatedTarget)) seat.classList.remove("drag-over");
  });

  document.addEventListener("drop", function (event) {
    var seat = seatOf(event.target);
    var form = document.getElementById("swap-form");
    if (!seat || !form) return;
    event.preventDefault();
    var a = dragged || event.dataTransfer.getData("text/plain");
    var b = seat.dataset.player;
    seat.classList.remove("drag-over");
    if (!a || !b || a === b) return;
    form.elements.a.value = a;
    form.elements.b.value = b;
    if (form.requestSubmit) {
      form.requestSubmit();
    } else {
      form.submit();
    }
  });

  // --- after a panel is swapped in, keep the keyboard's place: htmx restores the focus to an
  // element with the same id; where there is none, go to the panel's message or heading.
  var lastTarget = null;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var target = event.detail.target;
    lastTarget = target && target.id ? target.id : null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    var active = document.activeElement;
    var panel = lastTarget ? document.getElementById(lastTarget) : null;
    lastTarget = null;
    if (!panel) return;
    // A question asked first (templates/desk/_confirm.html) takes the focus, whatever had it.
    var asked = panel.querySelector("[data-confirm]");
    if (asked) {
      asked.focus();
      return;
    }
    if (active && active !== document.body) return;
    var spot = null;
    [".error", ".notice", ".pick-banner", "h2", "h1"].some(function (selector) {
      spot = panel.querySelector(selector);
      return spot !== null;
    });
    if (!spot) return;
    if (!spot.hasAttribute("tabindex")) spot.setAttribute("tabindex", "-1");
    spot.focus();
  });

  // --- Escape answers the box that asks first "Cancel" (its link: the round panel as it was).
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var cancel = document.querySelector("[data-confirm] [data-cancel]");
    if (!cancel) return;
    event.preventDefault();
    // The box may have just been swapped in (its autofocus already has the focus) before htmx
    // set up its links: set it up now (once only), else the click is a plain link to the page
    // the desk is on, which goes nowhere.
    if (window.htmx) window.htmx.process(cancel);
    cancel.click();
  });

  // --- when a request cannot reach the server, say so where the organizer looks
  function warn(text) {
    var main = document.getElementById("main");
    if (!main) return;
    var box = document.getElementById("desk-offline");
    if (!box) {
      box = document.createElement("p");
      box.id = "desk-offline";
      box.className = "error";
      box.setAttribute("role", "alert");
      main.insertBefore(box, main.firstChild);
    }
    box.textContent = text;
  }

  document.addEventListener("htmx:sendError", function () {
    warn(words.offline);
  });
  document.addEventListener("htmx:responseError", function () {
    warn(words.serverError);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var box = document.getElementById("desk-offline");
    if (box && event.detail.successful) box.remove();
  });

  // --- the message a page was loaded with ("Club night is created.") is about what happened
  // before it: once an action is answered in place, that action's own words replace it.
  document.addEventListener("htmx:afterSwap", function () {
    document.querySelectorAll("#main > .messages").forEach(function (list) {
      list.remove();
    });
  });
})();

/* A seat's phone (templates/phone/seat.html, docs/scorekeeping.md "Phones at the table").

 - Polls state/ every ~500 ms with the ETag it last got: a 304 costs the server a token check
   and one query; a 200 is the live panel, swapped in.
 - The hand being tapped in lives in localStorage (per round and seat) and is posted whole at
   every tap (hand/): a reload or a phone switched off loses nothing.
 - Every play tap goes into an outbox in localStorage {key, fields, label, queued} and is sent
   in order (act/). Offline (or when a send fails) it stays there, shown as "not sent yet", and
   is sent when the connection returns, marked queued: the server records it at the table's
   current version only in its own slot (same type, player, round and trick). The same key on
   every retry: nothing is recorded twice. A queued tap the rules refuse stays at the head of
   the outbox with the rule's words and a button to drop it; the rest waits.
 - Every POST carries the CSRF token (X-CSRFToken).
*/
(() => {
  "use strict";
  const root = document.querySelector("[data-seat-page]");
  if (!root) return;
  const base = root.dataset.base;
  const store = root.dataset.store;
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const live = document.getElementById("seat-live");
  const outboxBox = root.querySelector("[data-outbox]");
  const netBox = root.querySelector("[data-net]");
  const POLL_MS = 500;
  const RETRY_MS = 1500;

  let etag = null;
  let sending = false;      // an act/ POST on its way
  let handSending = false;  // a hand/ POST on its way
  let handAgain = false;
  let offline = !navigator.onLine;
  let retryTimer = null;
  let epoch = 0; // bumped by every POST: a poll answer from before it is stale, never shown

  // The script's own words, in the page's language (games/phone/views.py seat_texts).
  const textsNode = document.getElementById("seat-texts");
  const texts = textsNode ? JSON.parse(textsNode.textContent) : {};
  const fmt = (name, values) =>
    (texts[name] || name).replace(/%\((\w+)\)s/g, (all, key) => (key in (values || {}) ? values[key] : all));

  const load = (name, fallback) => {
    try {
      const value = JSON.parse(localStorage.getItem(store + name));
      return value === null ? fallback : value;
    } catch (e) {
      return fallback;
    }
  };
  const keep = (name, value) => localStorage.setItem(store + name, JSON.stringify(value));
  const drop = (name) => localStorage.removeItem(store + name);

  const newKey = () => {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  };

  let focus = Number(load(":as", 0)) || 0;
  let outbox = load(":outbox", []);
  const saveOutbox = () => keep(":outbox", outbox);

  // ------------------------------------------------------------------ sending

  async function post(path, fields) {
    epoch += 1;
    const body = new URLSearchParams(fields);
    if (focus) body.set("as", String(focus));
    return fetch(base + path, {
      method: "POST",
      body,
      headers: { "X-CSRFToken": csrf, "X-Seat-Fetch": "1" },
      credentials: "same-origin",
      cache: "no-store",
    });
  }

  function setOffline(value) {
    offline = value;
    netBox.hidden = !value;
    applyOffline();
  }

  function render(html, tag) {
    live.innerHTML = html;
    if (tag) etag = tag;
    applyDeal();
    applyOffline();
    showOutbox();
  }

  function refusalIn(html) {
    const box = document.createElement("div");
    box.innerHTML = html;
    const refusal = box.querySelector("[data-refusal]");
    if (!refusal) return "";
    // The refusal without its "Refused:" label (in the page's language).
    const label = refusal.querySelector("strong");
    if (label) label.remove();
    return refusal.textContent.trim();
  }

  // ------------------------------------------------------------------ the poll

  async function poll() {
    if (!sending && !handSending) {
      const asked = epoch;
      try {
        const headers = { "X-Seat-Fetch": "1" };
        if (etag) headers["If-None-Match"] = etag;
        const url = base + "state/" + (focus ? "?as=" + focus : "");
        const response = await fetch(url, { headers, cache: "no-store", credentials: "same-origin" });
        if (response.status === 200) {
          const html = await response.text();
          if (!sending && !handSending && asked === epoch) {
            render(html, response.headers.get("ETag"));
            if (outbox.length) flush(); // the table moved: a tap waiting for its turn may go now
          }
        } else if (response.status === 403 || response.status === 404) {
          window.location.reload(); // the link was revoked: the page says what to do
          return;
        }
        if (offline) {
          setOffline(false);
          flush();
          if (load(dealKey() + ":dirty", false)) sendHand();
        }
      } catch (e) {
        setOffline(true);
      }
    }
    window.setTimeout(poll, POLL_MS);
  }

  // ------------------------------------------------------------------ the deal

  const dealForm = () => live.querySelector("form[data-hand]");
  const dealKey = () => {
    const form = dealForm();
    return form ? ":deal:" + form.dataset.round + ":" + form.dataset.seat : ":deal:none";
  };

  function paintDeal(form, cards) {
    const chosen = new Set(cards);
    form.querySelectorAll("button[name=toggle]").forEach((button) => {
      button.setAttribute("aria-pressed", chosen.has(button.value) ? "true" : "false");
    });
    form.elements.cards.value = cards.join(",");
    const count = live.querySelector("[data-count]");
    if (count) count.textContent = String(cards.length);
  }

  function applyDeal() {
    const form = dealForm();
    if (!form) return;
    const server = form.elements.cards.value.split(",").filter(Boolean);
    const dirty = load(dealKey() + ":dirty", false);
    const mine = dirty ? load(dealKey(), server) : server;
    if (!dirty) keep(dealKey(), server);
    paintDeal(form, mine);
  }

  function tapDealCard(form, card) {
    const cards = load(dealKey(), form.elements.cards.value.split(",").filter(Boolean));
    const at = cards.indexOf(card);
    if (at >= 0) {
      cards.splice(at, 1);
    } else if (cards.length >= 10) {
      say(fmt("handFull"));
      return;
    } else {
      cards.push(card);
    }
    keep(dealKey(), cards);
    keep(dealKey() + ":dirty", true);
    paintDeal(form, cards);
    sendHand();
  }

  function takeHand(cards) {
    // "That's my hand": the cards the other hands left, all at once (one tap, not ten).
    const form = dealForm();
    if (!form) return;
    keep(dealKey(), cards);
    keep(dealKey() + ":dirty", true);
    paintDeal(form, cards);
    sendHand();
  }

  async function sendHand() {
    const form = dealForm();
    if (!form) return;
    if (handSending) {
      handAgain = true;
      return;
    }
    handSending = true;
    const key = dealKey();
    const cards = load(key, []);
    try {
      const response = await post("hand/", {
        round: form.dataset.round,
        seat: form.dataset.seat,
        cards: cards.join(","),
      });
      const html = await response.text();
      handSending = false;
      if (response.status === 204) {
        // Saved; the phone already shows the hand. Only the stamp changed (our own hand).
        if (load(key, []).join(",") === cards.join(",")) drop(key + ":dirty");
        etag = response.headers.get("ETag") || etag;
        showOutbox();
        if (handAgain) {
          handAgain = false;
          sendHand();
        }
        return;
      }
      if (response.status >= 500) {
        window.setTimeout(sendHand, RETRY_MS); // kept on the phone (dirty): sent again
        return;
      }
      const now = load(key, []);
      if (response.status === 200 && now.join(",") === cards.join(",")) drop(key + ":dirty");
      if (response.status === 409 || response.status === 422 || response.status === 403) {
        drop(key + ":dirty"); // the server's answer says why; its hand is the one shown
      }
      render(html, response.status === 200 ? response.headers.get("ETag") : null);
    } catch (e) {
      handSending = false;
      setOffline(true);
      showOutbox();
      return;
    }
    if (handAgain) {
      handAgain = false;
      sendHand();
    }
  }

  // ------------------------------------------------------------------ the outbox

  function showOutbox() {
    const dirtyHand = load(dealKey() + ":dirty", false) && offline;
    if (!outbox.length && !dirtyHand) {
      outboxBox.replaceChildren();
      return;
    }
    const list = document.createElement("ol");
    outbox.forEach((entry, index) => {
      const item = document.createElement("li");
      const what = document.createElement("span");
      what.className = "ph-pending";
      what.textContent = fmt(entry.waiting ? "notSentWaiting" : "notSent", { tap: entry.label });
      item.append(what);
      if (entry.refused) {
        const why = document.createElement("p");
        why.className = "error";
        why.setAttribute("role", "alert");
        why.textContent = fmt("refused", { reason: entry.refused });
        const dropButton = document.createElement("button");
        dropButton.type = "button";
        dropButton.textContent = fmt("dropTap");
        dropButton.addEventListener("click", () => {
          outbox.splice(index, 1);
          saveOutbox();
          showOutbox();
          flush();
        });
        item.append(why, dropButton);
      }
      list.append(item);
    });
    const parts = [];
    if (dirtyHand) {
      const hand = document.createElement("p");
      hand.className = "ph-pending";
      hand.textContent = fmt("handNotSent");
      parts.push(hand);
    }
    if (outbox.length) parts.push(list);
    outboxBox.replaceChildren(...parts);
    applyOffline();
  }

  function pendingCards() {
    return new Set(outbox.filter((e) => e.fields.type === "card_played").map((e) => e.fields.card));
  }

  function applyOffline() {
    const pending = pendingCards();
    live.querySelectorAll("form[data-cards] button[name=card]").forEach((button) => {
      const sent = pending.has(button.value);
      button.classList.toggle("is-pending", sent);
      // Offline (or with taps still queued) the player may tap ahead of the page: they see the
      // physical table; the server records each tap in its own slot only.
      button.disabled = sent || !(button.dataset.legal === "1" || offline || outbox.length > 0);
    });
  }

  function tapPlay(form, button) {
    const fields = {};
    new FormData(form).forEach((value, name) => {
      if (name !== "csrfmiddlewaretoken" && name !== "as" && name !== "key") fields[name] = String(value);
    });
    fields[button.name] = button.value;
    let label = button.dataset.label || button.value;
    if (button.name === "card") {
      const coins = Number(fields.coins || 0);
      const coinsInput = form.querySelector(`input[name=coins][value="${fields.coins}"]`);
      if (coins) label = fmt("withCoins", { card: label, coins: (coinsInput && coinsInput.dataset.label) || String(coins) });
      // Taps made offline: this player's next cards go to the tricks after this one.
      const earlier = outbox.filter(
        (e) => e.fields.type === "card_played" && e.fields.player === fields.player && e.fields.round === fields.round
      ).length;
      fields.trick = String(Number(form.dataset.trick) + earlier);
    } else {
      delete fields.coins;
    }
    const entry = { key: newKey(), fields, label, queued: offline || outbox.length > 0, refused: "" };
    outbox.push(entry);
    saveOutbox();
    button.disabled = true;
    const coinZero = form.querySelector("input[name=coins][value='0']");
    if (coinZero) coinZero.checked = true; // coins are for one card
    showOutbox();
    flush();
  }

  async function flush() {
    if (sending || !outbox.length) return;
    const entry = outbox[0];
    if (entry.refused) return; // waits for the player to look (and drop it)
    sending = true;
    let response;
    try {
      response = await post("act/", { ...entry.fields, key: entry.key, queued: entry.queued ? "1" : "0" });
    } catch (e) {
      entry.queued = true;
      saveOutbox();
      sending = false;
      setOffline(true);
      showOutbox();
      scheduleRetry();
      return;
    }
    if (response.status >= 500) {
      entry.queued = true;
      saveOutbox();
      sending = false;
      showOutbox();
      scheduleRetry();
      return;
    }
    const html = await response.text();
    let again = true;
    if (response.status === 422 && entry.queued) {
      entry.refused = refusalIn(html) || fmt("refusedTap");
    } else if (response.status === 409 && entry.queued) {
      entry.waiting = true; // for a turn the table has not reached: sent again on its next change
      again = false;
    } else {
      outbox.shift(); // recorded (200), or answered with the table as it stands (409, 422, 403)
    }
    saveOutbox();
    sending = false;
    if (offline) setOffline(false);
    render(html, response.status === 200 ? response.headers.get("ETag") : null);
    if (again && outbox.length && !outbox[0].refused) flush();
  }

  function scheduleRetry() {
    if (retryTimer) return;
    retryTimer = window.setTimeout(() => {
      retryTimer = null;
      flush();
    }, RETRY_MS);
  }

  function say(text) {
    const status = live.querySelector(".ph-turn");
    const note = document.createElement("p");
    note.className = "error";
    note.setAttribute("role", "alert");
    note.textContent = text;
    if (status) status.after(note);
  }

  // ------------------------------------------------------------------ taps

  live.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    const seatLink = target.closest("a[data-as]");
    if (seatLink) {
      event.preventDefault();
      focus = Number(seatLink.dataset.as);
      keep(":as", focus);
      etag = null;
      return;
    }
    const button = target.closest("button[type=submit]");
    if (!button || !button.form) return;
    const form = button.form;
    if (form.matches("[data-hand]")) {
      event.preventDefault();
      tapDealCard(form, button.value);
    } else if (form.matches("[data-hand-all]")) {
      event.preventDefault();
      takeHand(form.elements.cards.value.split(",").filter(Boolean));
    } else if (form.matches("[data-first]")) {
      event.preventDefault();
      post("first/", { round: form.elements.round.value, first_player: button.value })
        .then(async (response) => render(await response.text(), response.status === 200 ? response.headers.get("ETag") : null))
        .catch(() => setOffline(true));
    } else if (form.matches("[data-act]")) {
      event.preventDefault();
      tapPlay(form, button);
    }
  });

  window.addEventListener("online", () => {
    setOffline(false);
    flush();
    if (load(dealKey() + ":dirty", false)) sendHand();
  });
  window.addEventListener("offline", () => setOffline(true));

  applyDeal();
  applyOffline();
  showOutbox();
  netBox.hidden = !offline;
  if (!offline && outbox.length) flush();
  if (load(dealKey() + ":dirty", false)) sendHand();
  window.setTimeout(poll, POLL_MS);
})();

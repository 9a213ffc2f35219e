/* A seat's phone (templates/phone/seat.html, docs/scorekeeping.md "Phones at the table"): the
   frame's script, the same for every game (games/phone/).

 - A game's panel (games.phone.panel) posts its taps from forms marked data-act: each tap goes
   through the outbox below to the form's data-path (default "act/", Trick-n-Chef's), with
   its idempotency key and the version the panel showed; a button's name and value are the
   tap's. Trick-n-Chef's own forms (data-hand, data-hand-all, data-first, and data-cards for
   a hand to play from, with its coins) have their rules below.

 - Polls state/ every ~500 ms with the ETag it last got (the page's own at first): a 304 costs
   the server a token check and one query; a 200 is the live panel, swapped in.
 - The hand being tapped in lives in localStorage (per round and seat) and is posted whole at
   every tap (hand/): a reload or a phone switched off loses nothing.
 - A coin choice lives in localStorage too, per player and card slot (round, trick), until the
   card goes with it or the player changes it: every redraw of the panel (a poll, a tap's
   answer) shows it again, and a choice made before this script ran is taken as made.
 - Every play tap (a card, a Chef, who plays first) goes into the outbox, kept in localStorage,
   in the table's order (round, trick, the cards before the Chef taken after them), whatever
   order the taps came in; docs/scorekeeping.md ("A phone that loses the connection") has its
   rules. In short: each tap keeps one idempotency key for every retry; a tap made offline,
   or sent again after a failure or a conflict, is marked queued and is recorded only in its
   own slot; a tap for a turn the table has not reached (409 queued_early) waits and is sent
   again when the table moves, and holds back only its own player's later taps; a queued tap
   the server refuses stays in sight with the words why and a button to drop it, and holds
   back nothing.
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

  let etag = root.dataset.etag || null; // the page's: the first poll is a 304 if nothing moved
  let sending = false;      // the outbox being sent (an act/ or first/ POST on its way)
  let sendAgain = false;
  let handSending = false;  // a hand/ POST on its way
  let handAgain = false;
  let offline = !navigator.onLine;
  let retryTimer = null;
  let epoch = 0; // bumped by every POST: a poll answer from before it is stale, never shown
  const shownVersion = () => {
    const panel = live.querySelector("[data-live]");
    return panel ? Number(panel.dataset.version) : 0;
  };
  let tableVersion = shownVersion();

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
    tableVersion = shownVersion();
    applyDeal();
    applyCoins();
    applyOffline();
    showOutbox();
  }

  function refusalIn(html) {
    const box = document.createElement("div");
    box.innerHTML = html;
    const refusal = box.querySelector("[data-refusal]") || box.querySelector("[data-notice]");
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

  // ------------------------------------------------------------------ coins

  // The player's coin choice for their next card, per player: {"round:trick": coins}. The
  // panel is redrawn at every poll that finds the table moved and at every tap's answer; the
  // choice is never the panel's to keep.
  const coinsKey = (player) => ":coins:" + player;

  function cardSlot(form) {
    // The trick of the player's next card: the first from the panel's on that no tap in the
    // outbox already holds (a refused tap holds none: the next card goes in its place).
    const { player, round } = form.dataset;
    const held = new Set(
      outbox
        .filter((e) => !e.refused && e.fields.type === "card_played" && e.fields.player === player && e.fields.round === round)
        .map((e) => Number(e.fields.trick))
    );
    let trick = Number(form.dataset.trick);
    while (held.has(trick)) trick += 1;
    return trick;
  }

  const slotName = (form) => form.dataset.round + ":" + cardSlot(form);

  function rememberCoins(form, value) {
    const chosen = load(coinsKey(form.dataset.player), {});
    chosen[slotName(form)] = String(value);
    keep(coinsKey(form.dataset.player), chosen);
  }

  function forgetCoins(form, slot) {
    const chosen = load(coinsKey(form.dataset.player), {});
    delete chosen[slot];
    keep(coinsKey(form.dataset.player), chosen);
  }

  function applyCoins() {
    live.querySelectorAll("form[data-cards]").forEach((form) => {
      const chosen = load(coinsKey(form.dataset.player), {});
      const round = Number(form.dataset.round);
      const trick = cardSlot(form);
      let moot = false;
      Object.keys(chosen).forEach((slot) => {
        const [r, t] = slot.split(":").map(Number);
        if (r < round || (r === round && t < trick)) {
          delete chosen[slot]; // that card is in the record (entered from another phone)
          moot = true;
        }
      });
      if (moot) keep(coinsKey(form.dataset.player), chosen);
      const value = chosen[round + ":" + trick];
      const input = value === undefined ? null : form.querySelector(`input[name=coins][value="${value}"]`);
      if (input) input.checked = true;
    });
  }

  function takeEarlyCoins() {
    // A choice made before this script ran (the page is on screen before it): the player's.
    live.querySelectorAll("form[data-cards]").forEach((form) => {
      const checked = form.querySelector("input[name=coins]:checked");
      if (checked && !checked.defaultChecked) rememberCoins(form, checked.value);
    });
  }

  // ------------------------------------------------------------------ the outbox

  const pathOf = (entry) => entry.path || "act/";

  function slotOf(entry) {
    // The table's order: [round, trick, step]; who plays first before the round's Chef picks
    // (trick 0), a trick's cards before the Chef taken after them.
    const f = entry.fields;
    const round = Number(f.round || 0);
    if (pathOf(entry) === "first/") return [round, -1, 0];
    if (f.type === "chef_chosen") return [round, 0, 0];
    return [round, Number(f.trick || 0), f.type === "chef_taken" ? 1 : 0];
  }

  const compareSlots = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

  function enqueue(entry) {
    // After every tap of the same slot or an earlier one (taps of one slot keep their order).
    const slot = slotOf(entry);
    let at = outbox.length;
    while (at > 0 && compareSlots(slot, slotOf(outbox[at - 1])) < 0) at -= 1;
    outbox.splice(at, 0, entry);
    saveOutbox();
  }

  const unsettled = () => outbox.filter((e) => !e.refused).length;

  function showOutbox() {
    const dirtyHand = load(dealKey() + ":dirty", false) && offline;
    if (!outbox.length && !dirtyHand) {
      outboxBox.replaceChildren();
      return;
    }
    const list = document.createElement("ol");
    outbox.forEach((entry) => {
      const item = document.createElement("li");
      const what = document.createElement("span");
      what.className = "ph-pending";
      const words = entry.refused ? "notRecorded" : entry.waiting ? "notSentWaiting" : "notSent";
      what.textContent = fmt(words, { tap: entry.label });
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
          outbox = outbox.filter((e) => e.key !== entry.key);
          saveOutbox();
          showOutbox();
          applyCoins();
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
    return new Set(outbox.filter((e) => !e.refused && e.fields.type === "card_played").map((e) => e.fields.card));
  }

  function applyOffline() {
    const pending = pendingCards();
    live.querySelectorAll("form[data-cards] button[name=card]").forEach((button) => {
      const sent = pending.has(button.value);
      button.classList.toggle("is-pending", sent);
      // Offline (or with taps still queued) the player may tap ahead of the page: they see the
      // physical table; the server records each tap in its own slot only.
      button.disabled = sent || !(button.dataset.legal === "1" || offline || unsettled() > 0);
    });
  }

  function tapPlay(form, button) {
    const fields = {};
    new FormData(form).forEach((value, name) => {
      if (name !== "csrfmiddlewaretoken" && name !== "as" && name !== "key") fields[name] = String(value);
    });
    fields[button.name] = button.value;
    let label = button.dataset.label || button.value;
    if (button.name === "card" && form.matches("[data-cards]")) {
      // The coins on screen are the player's choice for this card (applyCoins keeps them).
      const coins = Number(fields.coins || 0);
      const coinsInput = form.querySelector(`input[name=coins][value="${fields.coins}"]`);
      if (coins) label = fmt("withCoins", { card: label, coins: (coinsInput && coinsInput.dataset.label) || String(coins) });
      // Taps ahead of the page (offline): this player's next cards go to the tricks after it.
      const slot = slotName(form);
      fields.trick = String(cardSlot(form));
      forgetCoins(form, slot); // coins are for one card
    } else {
      delete fields.coins;
    }
    const path = form.dataset.path || undefined; // the panel's action (default act/)
    enqueue({ key: newKey(), path, fields, label, queued: offline || unsettled() > 0, refused: "" });
    button.disabled = true;
    const coinZero = form.querySelector("input[name=coins][value='0']");
    if (coinZero) coinZero.checked = true;
    applyCoins(); // a choice already made for the card after this one
    showOutbox();
    flush();
  }

  function tapFirst(form, button) {
    const fields = { round: form.elements.round.value, first_player: button.value };
    const label = fmt("firstPlayer", { player: button.value });
    enqueue({ key: newKey(), path: "first/", fields, label, queued: offline || unsettled() > 0, refused: "" });
    showOutbox();
    flush();
  }

  function nextToSend() {
    // The first tap in the table's order that may go now: not refused (it waits for the
    // player), not waiting for a turn the table has not reached since it was last sent, and
    // not behind a tap of the same player that waits so.
    const held = new Set();
    for (const entry of outbox) {
      const who = entry.fields.player || "";
      if (entry.refused || held.has(who)) continue;
      if (entry.waiting && entry.waitingAt === tableVersion) {
        held.add(who);
        continue;
      }
      return entry;
    }
    return null;
  }

  async function flush() {
    if (sending) {
      sendAgain = true;
      return;
    }
    sending = true;
    try {
      do {
        sendAgain = false;
        for (let entry = nextToSend(); entry; entry = nextToSend()) {
          if (!(await send(entry))) return; // offline, or the server failed: retried later
        }
      } while (sendAgain);
    } finally {
      sending = false;
    }
  }

  async function send(entry) {
    const path = pathOf(entry);
    // A data-act form's tap carries the envelope; who plays first is a draft of the deal (the
    // last tap wins), sent as it is.
    const envelope = path !== "first/";
    const fields = envelope ? { ...entry.fields, key: entry.key, queued: entry.queued ? "1" : "0" } : entry.fields;
    let response;
    try {
      response = await post(path, fields);
    } catch (e) {
      entry.queued = true;
      saveOutbox();
      setOffline(true);
      showOutbox();
      scheduleRetry();
      return false;
    }
    if (response.status >= 500) {
      entry.queued = true;
      saveOutbox();
      showOutbox();
      scheduleRetry();
      return false;
    }
    const html = await response.text();
    if (offline) setOffline(false);
    if ((response.status === 403 || response.status === 404) && !html.includes("data-live")) {
      window.location.reload(); // the link was revoked: the page says what to do (taps kept)
      return false;
    }
    const code = response.headers.get("X-Seat-Refusal") || "";
    const settle = () => {
      outbox = outbox.filter((e) => e.key !== entry.key);
    };
    if (response.status === 200) {
      settle(); // recorded (or found in its slot already)
    } else if (code === "queued_early") {
      entry.waiting = true; // for a turn the table has not reached: sent again when it moves
    } else if (code === "conflict" && envelope) {
      if (entry.queued) {
        saveOutbox();
        scheduleRetry(); // a race at the server: the same tap again in a moment
        return false;
      }
      entry.queued = true; // the table moved under the tap: sent again, for its own slot only
    } else if (entry.queued) {
      entry.refused = refusalIn(html) || fmt("refusedTap"); // shown, with the words why
      entry.waiting = false;
    } else {
      settle(); // a tap answered at once: the panel shows why, and the table as it stands
    }
    render(html, response.status === 200 ? response.headers.get("ETag") : null);
    if (entry.waiting) entry.waitingAt = tableVersion;
    saveOutbox();
    showOutbox();
    return true;
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
      tapFirst(form, button);
    } else if (form.matches("[data-act]")) {
      event.preventDefault();
      tapPlay(form, button);
    } else if (form.matches("[data-undo]")) {
      event.preventDefault();
      sendUndo(form, button);
    }
  });

  // Undo (games.services.undo): sent at once, never through the outbox. The taps still in the
  // outbox come first (the undo is for the last tap recorded): it waits until they are sent.
  async function sendUndo(form, button) {
    if (outbox.length || sending) {
      say(fmt("undoOutbox"));
      return;
    }
    const fields = {};
    new FormData(form).forEach((value, name) => {
      if (name !== "csrfmiddlewaretoken" && name !== "as") fields[name] = String(value);
    });
    if (button.name) fields[button.name] = button.value;
    button.disabled = true;
    sending = true;
    let response;
    try {
      response = await post(form.dataset.path, fields);
    } catch (e) {
      setOffline(true);
      button.disabled = false;
      return;
    } finally {
      sending = false;
    }
    const html = await response.text();
    if ((response.status === 403 || response.status === 404) && !html.includes("data-live")) {
      window.location.reload();
      return;
    }
    render(html, response.status === 200 ? response.headers.get("ETag") : null);
  }

  live.addEventListener("change", (event) => {
    const input = event.target;
    if (input instanceof HTMLInputElement && input.name === "coins" && input.form && input.form.matches("[data-cards]")) {
      rememberCoins(input.form, input.value);
    }
  });

  window.addEventListener("online", () => {
    setOffline(false);
    flush();
    if (load(dealKey() + ":dirty", false)) sendHand();
  });
  window.addEventListener("offline", () => setOffline(true));

  takeEarlyCoins();
  applyDeal();
  applyCoins();
  applyOffline();
  showOutbox();
  netBox.hidden = !offline;
  if (!offline && outbox.length) flush();
  if (load(dealKey() + ":dirty", false)) sendHand();
  window.setTimeout(poll, POLL_MS);
})();

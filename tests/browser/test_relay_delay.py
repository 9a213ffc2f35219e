"""Spectators follow a tournament table live, the delay behind (issue 27, docs/relay.md).

A tournament relays its tables with a delay of ``DELAY`` seconds (``relay_delay``). Its round 1
is published: one Trick-n-Chef table of four, whose four seat phones (Debian's Chromium at a
phone's size, the seat links, tests/browser/test_phones.py's helpers) enter the dealt hands of
a simulated game, pick their Chefs and play the first ``TRICKS`` tricks. An anonymous spectator
(a browser context of its own, no cookies but its own) follows the table meanwhile: the game's
public page and its events in the API, read again and again as a spectator's page does
(``SPECTATE``: every answer kept with the moment it arrived). Checked:

* every answer the spectator received, on every path, shows no card still held at the table
  (the true game's hands, read at each check), and no card before the delay passed since it
  was tapped (``seen >= sent + DELAY``: the server cannot have recorded a card before its tap
  was sent, and shows it only ``DELAY`` after it recorded it);
* every card played shows up for the spectator in the end, and the time from the tap's answer
  (on the tapping phone) to the spectator's first sight of it is printed (minimum, median,
  maximum): it is at least the delay, but for the few milliseconds the answer takes to reach the
  phone after the server recorded the card (the bound asserted is from the tap's sending, and
  from the event's ``recorded_at``);
* in the middle of the play (the first card of trick 2 just answered, trick 1 a second or two
  old) every read path a spectator has is probed with Django's test client, anonymous and as a
  logged-in user who is no official of the tournament: the game's page (each step), the game
  and its events in the API, the global log, the record file and the tournament's games.zip
  (downloads released), the standings page and its htmx partial, the round page, the
  tournament's page and screen, and the round's relay pages if the app has them: none shows a
  card held or played less than the delay ago; once the delay has passed the trick shows on the
  game's page and in its events (the paths are not merely empty).

Sleeps decide nothing: the test waits for conditions (Playwright's waits, with timeouts), and
the only timing asserted is a lower bound.
"""

from __future__ import annotations

import functools
import io
import statistics
import time
import uuid
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from django.contrib.auth.models import User  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import NoReverseMatch, reverse  # noqa: E402
from playwright.sync_api import Browser, BrowserContext, Page  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from engine.tricknchef.events import to_json  # noqa: E402
from engine.tricknchef.referee import forced_next  # noqa: E402
from engine.tricknchef.replay import replay  # noqa: E402
from engine.tricknchef.simulate import simulate  # noqa: E402
from games.models import Event, GameProjection  # noqa: E402
from games.tricknchef.table_presenters import card_label  # noqa: E402
from tests.browser.helpers import WATCH  # noqa: E402
from tests.browser.test_phones import (  # noqa: E402
    TIMEOUT_MS,
    Phone,
    _page_error,
    dealt_hands_only,
    grid,
    play,
)
from tests.phones.tables import leaks  # noqa: E402
from tests.tournaments.helpers import new_tournament, summary  # noqa: E402
from tournaments import services as t  # noqa: E402

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

DELAY = 3
"""The tournament's relay delay, in seconds."""
NAMES = ["Ana", "Ben", "Cleo", "Dev"]
SEED = 11
TRICKS = 2
"""Tricks played (after the deal and the Chefs picked): enough to see cards pass the delay."""
ANSWERS = """
(() => {
  window.__answers = [];
  const original = window.fetch;
  window.fetch = async (...args) => {
    const response = await original(...args);
    const method = (args[1] && args[1].method) || "GET";
    window.__answers.push([String(args[0]), method.toUpperCase(), response.status, Date.now()]);
    return response;
  };
})();
"""
"""A phone's init script besides WATCH: when each of its fetches was answered (Date.now())."""
SPECTATE = """
(urls) => {
  window.__spec = [];
  window.__firstSeen = {};
  const cursors = {};
  const pause = (ms) => new Promise((done) => setTimeout(done, ms));
  (async () => {
    for (;;) {
      for (const base of urls) {
        const url = cursors[base] ? `${base}?since=${cursors[base]}` : base;
        let status = 0, body = "";
        try {
          const response = await fetch(url, { cache: "no-store", credentials: "same-origin" });
          status = response.status;
          body = await response.text();
        } catch (error) {
          body = String(error);
        }
        if (status === 200 && base.endsWith(".jsonl")) {  // followed from its last cursor
          const lines = body.trim().split("\\n");
          cursors[base] = JSON.parse(lines[lines.length - 1]).cursor || cursors[base];
        }
        const t = Date.now();
        window.__spec.push({ url, status, t, body });
        if (status === 200 && url.includes("/events/")) {
          for (const e of JSON.parse(body).events) {
            if (e.type === "card_played" && !(e.data.card in window.__firstSeen)) {
              window.__firstSeen[e.data.card] = t;
            }
          }
        }
      }
      await pause(150);
    }
  })();
}
"""
"""The spectator's reading: each of ``urls`` fetched in turn, again and again (150 ms apart; a
JSON Lines stream followed with the cursor of its last line, ``?since=``), every answer kept
(``window.__spec``: url, status, arrival in ms since the epoch, body), and the first sight of
each card played in the events (``window.__firstSeen``)."""
SEEN_ALL = "cards => cards.every((c) => c in window.__firstSeen)"
SHOWN = """
(() => {
  window.__dom = [];
  const note = () => {
    const box = document.getElementById("relay") || document.querySelector("main");
    if (box) window.__dom.push({ t: Date.now(), html: box.outerHTML });
  };
  document.addEventListener("DOMContentLoaded", () => {
    note();
    new MutationObserver(note).observe(document.body, { childList: true, subtree: true });
  });
})();
"""
"""The spectator's page, as shown: what its relay box (or main) held at each change (htmx's
polls swap it), with the moment (``window.__dom``)."""


@dataclass
class Tap:
    card: str
    version: int
    """The game's version the card is."""
    sent: float
    """time.time() just before the click."""
    phone: Phone
    answers_before: int


@dataclass
class Table:
    tid: uuid.UUID
    game_id: uuid.UUID
    seats: list[str]
    record: list[dict[str, Any]]
    events: list[Any]
    phones: dict[str, Phone]
    spectator: Page
    taps: dict[str, Tap] = field(default_factory=dict)
    checked: int = 0
    """Spectator answers checked."""
    shown_at: dict[str, float] = field(default_factory=dict)
    """When each card first showed in the spectator's page (seconds since the epoch)."""

    # ------------------------------------------------------------------- the true table

    def version(self) -> int:
        return int(GameProjection.objects.get(stream_id=self.game_id).version)

    def held(self) -> set[str]:
        """The cards held at the table now (the true game, not what anyone is shown)."""
        stored = Event.objects.filter(stream_id=self.game_id).exclude(type="game_published")
        state = replay(self.events[: stored.count()])
        return {c for hand in state.hands.values() for c in hand}

    def recorded_at(self, version: int) -> datetime:
        found: datetime = Event.objects.get(stream_id=self.game_id, version=version).recorded_at
        return found

    # ------------------------------------------------------------------- the checks

    def check_body(self, body: str, at: float, what: str) -> None:
        """No card held now, and none tapped less than the delay before ``at`` (seconds since
        the epoch: when the reader had the answer)."""
        held = self.held()
        shown = set(leaks(body, held)) | {c for c in held if card_label(c) in body}
        assert not shown, f"{what} shows {sorted(shown)}, still held at the table"
        early = {c for c, tap in self.taps.items() if at < tap.sent + DELAY and self.shows(body, c)}
        assert not early, (
            f"{what} shows {sorted(early)} "
            + ", ".join(f"{c} {at - self.taps[c].sent:.2f} s after its tap" for c in early)
            + f" (the delay is {DELAY} s)"
        )
        self.checked += 1

    @staticmethod
    def shows(body: str, card: str) -> bool:
        return bool(leaks(body, [card])) or card_label(card) in body

    def drain(self) -> None:
        """Check every answer the spectator received, and every state its page showed, since
        the last drain."""
        for entry in self.spectator.evaluate("window.__spec.splice(0)"):
            status = int(entry["status"])
            assert status in (200, 304), f"spectator: {entry['url']} answered {status}"
            self.check_body(str(entry["body"]), float(entry["t"]) / 1000, entry["url"])
        for shown in self.spectator.evaluate("window.__dom.splice(0)"):
            at, html = float(shown["t"]) / 1000, str(shown["html"])
            self.check_body(html, at, f"the spectator's page ({self.spectator.url})")
            for card in self.taps:
                if card not in self.shown_at and card_label(card) in html:
                    self.shown_at[card] = at


def _tournament(organizer: User) -> tuple[uuid.UUID, uuid.UUID, list[str]]:
    tid = new_tournament(organizer, NAMES, relay_delay=DELAY, rounds=1)
    t.tournament_change_settings(
        tournament_id=tid, changes={"downloads_released": True}, user=organizer
    )
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    entry = summary(tid)["rounds"][0]["tables"][0]
    return tid, uuid.UUID(entry["game"]), [s["name"] for s in entry["seats"]]


def _phone(browser: Browser, base: str, player: str, seat: int, token: str) -> Phone:
    context: BrowserContext = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True
    )
    context.add_init_script(WATCH)
    context.add_init_script(ANSWERS)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    phone = Phone(player, seat, context, page)
    page.on("pageerror", functools.partial(_page_error, phone))
    response = page.goto(f"{base}/seat/{token}/")
    assert response is not None and response.status == 200
    phone.first_html = response.text()
    return phone


@pytest.fixture
def organizer(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="pw")


@pytest.fixture
def table(
    browser: Browser, live_server: LiveServer, transactional_db: None, organizer: User
) -> Iterator[Table]:
    tid, game_id, seats = _tournament(organizer)
    links = t.tournament_seat_links(tournament_id=tid, round=1, user=organizer)[1]
    events = simulate(SEED, 4, names=tuple(seats), first_player=seats[0])
    phones = {
        link.player: _phone(browser, live_server.url, link.player, link.seat, link.token)
        for link in links
    }
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(SHOWN)
    spectator = context.new_page()
    spectator.set_default_timeout(TIMEOUT_MS)
    follows = (_relay_paths(tid, game_id) or [f"/g/{game_id}/"])[0]
    response = spectator.goto(f"{live_server.url}{follows}")
    assert response is not None and response.status == 200
    found = Table(tid, game_id, seats, [to_json(e) for e in events], events, phones, spectator)
    yield found
    context.close()
    for phone in phones.values():
        phone.context.close()


# ----------------------------------------------------------------------------- the read paths


def _relay_paths(tid: uuid.UUID, game_id: uuid.UUID) -> list[str]:
    """The round's relay pages, where the app has them (issue 27): the relay page, its table 1
    alone (the live table view), and the round's stream."""
    out = []
    for name, args in (
        ("public:relay", [tid, 1]),
        ("public:relay-stream", [tid, 1]),
        ("public:relay-jsonl", [tid, 1]),
        ("tournaments-api:relay-stream", [tid, 1]),
    ):
        try:
            out.append(reverse(name, args=args))
        except NoReverseMatch:
            continue
    if out and out[0] == f"/t/{tid}/round/1/live/":
        out.insert(1, f"{out[0]}?table=1")
    return out


def _bodies(client: Client, path: str, htmx: bool = False) -> list[tuple[str, str, float]]:
    """What ``client`` reads at ``path``: (what, text, when it had the answer), each member of
    a zip apart."""
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.get(path, headers=headers)
    assert response.status_code < 500, f"{path}: {response.status_code}"
    what = f"{path}{' (htmx)' if htmx else ''} [{response.status_code}]"
    if getattr(response, "streaming", False):
        data = b"".join(response.streaming_content)  # type: ignore[attr-defined]
    else:
        data = response.content
    at = time.time()
    if path.endswith(".zip") and response.status_code == 200:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return [(f"{what} {n}", archive.read(n).decode(), at) for n in archive.namelist()]
    return [(what, data.decode(errors="replace"), at)]


def _log(client: Client) -> list[tuple[str, str, float]]:
    """The global log from its beginning, page after page (401 for an anonymous reader)."""
    out = []
    after = "0.0"
    for _ in range(50):
        response = client.get("/api/events/", {"after": after, "limit": "500"})
        what = f"/api/events/?after={after} [{response.status_code}]"
        out.append((what, response.content.decode(), time.time()))
        if response.status_code != 200:
            break
        page = response.json()
        if not page["events"]:
            break
        after = page["next"]
    return out


def probe(table: Table, spectators: dict[str, Client]) -> list[str]:
    """Every read path a spectator has, read now; each answer checked as the spectator's."""
    tid, gid = table.tid, table.game_id
    paths = [
        f"/g/{gid}/",
        *(f"/g/{gid}/?step={n}" for n in range(TRICKS + 2)),
        f"/api/games/{gid}/",
        f"/api/games/{gid}/events/",
        f"/api/games/{gid}/events/?since=1",
        f"/api/games/{gid}/record/",
        f"/api/tournaments/{tid}/games.zip",
        f"/api/tournaments/{tid}/",
        f"/api/tournaments/{tid}/standings/",
        f"/api/tournaments/{tid}/results.jsonl",
        f"/t/{tid}/",
        f"/t/{tid}/round/1/",
        f"/t/{tid}/standings/",
        f"/t/{tid}/screen/",
        *_relay_paths(tid, gid),
    ]
    htmx = [f"/t/{tid}/standings/", f"/t/{tid}/round/1/", f"/g/{gid}/?step=1"]
    htmx += _relay_paths(tid, gid)
    read: list[str] = []
    for who, client in spectators.items():
        answers = [b for p in paths for b in _bodies(client, p)]
        answers += [b for p in htmx for b in _bodies(client, p, htmx=True)]
        answers += _log(client)
        for what, body, at in answers:
            table.check_body(body, at, f"{who}: {what}")
        read += [f"{who}: {what}" for what, _, _ in answers]
    return read


# ----------------------------------------------------------------------------- the test


def test_a_spectator_sees_each_play_only_after_the_delay(
    table: Table, live_server: LiveServer, django_user_model: type[User]
) -> None:
    started = time.monotonic()
    gid = table.game_id
    anonymous = Client()
    stranger = Client()  # logged in, no role in the tournament: a spectator too
    stranger.force_login(django_user_model.objects.create_user("sam", password="pw"))
    spectators = {"anonymous": anonymous, "logged-in spectator": stranger}
    relay_paths = _relay_paths(table.tid, gid)
    reads = [f"/api/games/{gid}/events/", f"/g/{gid}/?step=99", *relay_paths[1:]]
    table.spectator.evaluate(SPECTATE, reads)

    record, phones = table.record, table.phones
    taken = [i for i, e in enumerate(record) if e["type"] == "chef_taken"]
    last = taken[TRICKS - 1]
    forced = {at for at in range(1, last + 1) if forced_next(replay(table.events[:at])) is not None}
    second_trick = taken[0] + 1  # the first card of trick 2
    assert record[second_trick]["type"] == "card_played"
    version = table.version()  # game_started (and published, for a tournament's table)
    base = version  # the record's event at ``at`` is version ``base + at``
    midway: list[str] = []
    dealt = probed = 0.0
    tapped: Tap | None = None  # the last tap
    at = 1
    while at <= last:
        event = record[at]
        assert event.get("round", 1) == 1, "the test stays in round 1 (its held cards shrink)"
        if event["type"] == "round_started":
            for phone in phones.values():
                phone.wait_version(version)
                phone.page.locator("form[data-hand]").wait_for()
            hands: dict[str, list[str]] = event["hands"]
            for k in range(10):  # the four phones tap their hands in at once
                for name in table.seats:
                    phones[name].tap(grid(phones[name], hands[name][k]), 1)
            dealt_hands_only(phones, event, version + 1)
            dealt = time.monotonic() - started
        elif at in forced:  # recorded by the server after the tap before it: as sent then
            if event["type"] == "card_played":
                assert tapped is not None
                table.taps[event["card"]] = Tap(
                    event["card"], base + at, tapped.sent, tapped.phone, tapped.answers_before
                )
        else:
            actor = phones[event["player"]]
            actor.wait_version(version)
            answers = int(actor.page.evaluate("window.__answers.length"))
            tapped = Tap(str(event.get("card", "")), base + at, time.time(), actor, answers)
            if event["type"] == "card_played":
                table.taps[event["card"]] = tapped
            play(actor, event, 1, {})
            if at == second_trick:
                # Trick 1 is a second or two old; trick 2's first card just answered.
                actor.wait_version(version + 1)
                probing = time.monotonic()
                midway = probe(table, spectators)
                probed = time.monotonic() - probing
        table.drain()
        version += 1
        at += 1
    for phone in phones.values():
        phone.wait_version(base + last)
    played = time.monotonic() - started

    # Every card played reaches the spectator, the delay after it (the only wait that long).
    table.spectator.wait_for_function(SEEN_ALL, arg=list(table.taps), timeout=(DELAY + 15) * 1000)
    trick_two = [record[i]["card"] for i in range(second_trick, last) if "card" in record[i]]
    if relay_paths:  # the relay page shows the last trick taken, once the delay let it through
        table.spectator.wait_for_function(
            "labels => labels.every((l) => document.getElementById('relay').innerHTML.includes(l))",
            arg=[card_label(c) for c in trick_two],
            timeout=(DELAY + 15) * 1000,
        )
    table.drain()
    first_seen: dict[str, float] = table.spectator.evaluate("window.__firstSeen")
    # Once the delay passed, the paths show the tricks (they are not merely empty).
    after = probe(table, spectators)
    page = anonymous.get(f"/g/{gid}/?step={TRICKS}").content.decode()
    events = anonymous.get(f"/api/games/{gid}/events/").json()
    assert events["delay"] == DELAY or events["version"] == table.version()
    shown_cards = {e["data"]["card"] for e in events["events"] if e["type"] == "card_played"}
    assert shown_cards == set(table.taps), "the spectator's events lack cards played long ago"
    for card in trick_two:
        assert card_label(card) in page, f"the game page's trick {TRICKS} lacks {card}"

    # How late the spectator saw each card: from the tap's answer on the phone; the bound
    # asserted is from the tap's sending and from the event's recording.
    lates, from_answer, on_page = [], [], []
    for card, tap in table.taps.items():
        seen = first_seen[card] / 1000
        answers = tap.phone.page.evaluate("n => window.__answers.slice(n)", tap.answers_before)
        answer = next(a for a in answers if a[1] == "POST")
        assert int(answer[2]) == 200, f"{tap.phone.player}'s tap of {card}: {answer}"
        recorded = table.recorded_at(tap.version).timestamp()
        assert seen - tap.sent >= DELAY, f"{card} seen {seen - tap.sent:.3f} s after its tap"
        assert seen - recorded >= DELAY, f"{card} seen {seen - recorded:.3f} s after recorded"
        lates.append(seen - recorded)
        from_answer.append(seen - float(answer[3]) / 1000)
        if card in table.shown_at:  # the relay page's polls may skip a card shown briefly
            shown = table.shown_at[card]
            assert shown - tap.sent >= DELAY, f"{card} on the page {shown - tap.sent:.3f} s"
            on_page.append(shown - float(answer[3]) / 1000)
    for phone in phones.values():
        assert not phone.errors, f"{phone.player}'s page: {phone.errors}"
    print(
        f"\nrelay delay {DELAY} s, {len(table.taps)} cards played in {played:.1f} s "
        f"(the deal, the Chefs, {TRICKS} tricks); the spectator saw each card after its tap's "
        f"answer: min {min(from_answer):.3f} s, median {statistics.median(from_answer):.3f} s, "
        f"max {max(from_answer):.3f} s; after its recording: min {min(lates):.3f} s, "
        f"max {max(lates):.3f} s; on the spectator's page ({table.spectator.url}): "
        + (
            f"{len(on_page)} cards, after the answer min {min(on_page):.3f} s, median "
            f"{statistics.median(on_page):.3f} s, max {max(on_page):.3f} s; "
            if on_page
            else "no card; "
        )
        + f"{table.checked} spectator answers and page states checked; "
        f"{len(midway)} reads probed midway and {len(after)} after; relay pages: "
        f"{relay_paths or 'none yet'}; "
        f"test {time.monotonic() - started:.1f} s (the deal {dealt:.1f} s, the probe midway "
        f"{probed:.1f} s)"
    )

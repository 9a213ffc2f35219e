"""Four phones play a whole game at once (issue 12, docs/scorekeeping.md "Phones at the table").

Four browser contexts of Debian's Chromium at a phone's size (390x844), one per seat link, play
a 3-round 4-player game from engine.tricknchef.simulate's record: each taps its own hand in at
every deal (at the same time as the others; in round 1 Ana first taps one of Ben's cards, and both
phones, and only they, say so), its Chef picks, its cards with their coins and its Chefs taken.
Checked:

* each phone sees only its own hand: in its DOM, and in every answer it received (the page wraps
  fetch and logs every body);
* every accepted play appears on the other three phones (the page notes the time each version
  shows up; the delays' median and maximum are printed);
* Dev's phone goes offline for three of its cards (Chromium's network emulation), taps them
  along with the table, shows them as "not sent yet", and catches up when the connection
  returns, each recorded once, in its own slot;
* the final scores on every phone equal the engine's replay of the record; the taps per player
  per round are counted and printed.

With TNC_SCREENSHOTS=1 it saves the pictures of docs/scorekeeping.md to docs/images/phones-*.png.
"""

from __future__ import annotations

import functools
import os
import re
import statistics
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser, BrowserContext, Error, Locator, Page  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from engine.tricknchef.events import to_json  # noqa: E402
from engine.tricknchef.referee import forced_next  # noqa: E402
from engine.tricknchef.replay import replay  # noqa: E402
from engine.tricknchef.simulate import simulate  # noqa: E402
from games import services  # noqa: E402
from games.models import Event  # noqa: E402
from games.tricknchef.deals import first_player_choices  # noqa: E402
from games.tricknchef.table_presenters import card_label  # noqa: E402
from tests.browser.helpers import VERSION_AT_LEAST, WATCH  # noqa: E402

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

NAMES = ("Ana", "Ben", "Cleo", "Dev")
SEED = 3
EVENTS = simulate(SEED, 4, names=NAMES, first_player="Ana")
GAME = [to_json(e) for e in EVENTS]
FORCED = {at for at in range(1, len(GAME)) if forced_next(replay(EVENTS[:at])) is not None}
"""Events the rules leave no choice about: the phones record them by themselves, untapped."""
CONFIRMS = {2: "Cleo", 3: "Ben"}
"""Rounds where one player taps 4 cards, then confirms the 10 the others left in one tap."""
TIMEOUT_MS = 15_000
IMAGES = Path(__file__).resolve().parent.parent.parent / "docs" / "images"


@dataclass
class Phone:
    player: str
    seat: int
    context: BrowserContext
    page: Page
    taps: Counter[int] = field(default_factory=Counter)
    """Taps per round (the deal of round n counts in round n)."""
    first_html: str = ""
    errors: list[str] = field(default_factory=list)

    def wait_version(self, version: int) -> None:
        self.page.wait_for_function(VERSION_AT_LEAST, arg=version)

    def tap(self, target: Locator, round: int) -> None:
        target.click()
        self.taps[round] += 1

    def shot(self, name: str) -> None:
        if os.environ.get("TNC_SCREENSHOTS") == "1":
            IMAGES.mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(IMAGES / f"phones-{name}.png"))


def offline_window() -> list[int]:
    """Three cards of Dev's in round 2 in a row with no other event of his between and no
    coins (coins are set on the page the table drew, which an offline phone cannot redraw)."""
    starts = [i for i, e in enumerate(GAME) if e["type"] == "round_started"]
    devs = [
        i
        for i in range(starts[1], starts[2])
        if GAME[i].get("player") == "Dev" and GAME[i]["type"] != "chef_chosen"
    ]
    for at in range(len(devs) - 2):
        window = devs[at : at + 3]
        if all(
            GAME[k]["type"] == "card_played" and not GAME[k].get("coins") and k not in FORCED
            for k in window
        ):
            return window
    raise AssertionError("the simulated game has no offline window for Dev: pick another seed")


@pytest.fixture
def phones(
    browser: Browser, live_server: LiveServer, transactional_db: None
) -> Iterator[dict[str, Phone]]:
    game_id = services.game_create(players=list(NAMES)).game_id
    links = services.seat_links_issue(game_id=game_id, user=None)
    out: dict[str, Phone] = {}
    for link in links:
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
        context.add_init_script(WATCH)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        phone = Phone(link.player, link.seat, context, page)
        page.on("pageerror", functools.partial(_page_error, phone))
        response = page.goto(f"{live_server.url}/seat/{link.token}/")
        assert response is not None and response.status == 200
        phone.first_html = response.text()
        out[link.player] = phone
    yield out
    for phone in out.values():
        phone.context.close()


def _page_error(phone: Phone, error: Error) -> None:
    phone.errors.append(str(error))


def grid(phone: Phone, card: str) -> Locator:
    return phone.page.locator(f'form[data-hand] button[value="{card}"]')


def deal(phones: dict[str, Phone], at: int, version: int) -> tuple[str, str]:
    """Every phone taps its hand at once; returns Ana's wrong card and her right one (round 1)."""
    event = GAME[at]
    number: int = event["round"]
    hands: dict[str, list[str]] = event["hands"]
    for phone in phones.values():
        phone.wait_version(version)
        phone.page.locator("form[data-hand]").wait_for()
    choices = first_player_choices(replay(EVENTS[:at]), None)
    first = event["first_player"]
    if first != choices[0]:  # one tap on any phone (the first player's own here)
        phone = phones[first]
        phone.tap(phone.page.locator(f'form[data-first] button[value="{first}"]'), number)
        phone.page.locator(
            f'form[data-first] button[value="{first}"][aria-pressed="true"]'
        ).wait_for()
    mistake = ("", "")
    taps = {p: list(hands[p]) for p in NAMES}
    if number == 1:  # Ana taps one of Ben's cards in place of her last one
        mistake = (hands["Ben"][0], hands["Ana"][-1])
        taps["Ana"][-1] = mistake[0]
    last = CONFIRMS.get(number)
    for k in range(10):
        for name in NAMES:
            if name == last and k >= 4:
                continue  # slower than the others: the other hands will be in first
            phones[name].tap(grid(phones[name], taps[name][k]), number)
            if number == 1 and name == "Ana" and k == 5:
                phones["Ana"].shot("hand-entry")
    if last is not None:
        phone = phones[last]
        offer = phone.page.locator("form[data-hand-all]")
        offer.wait_for()
        shown = offer.locator("input[name=cards]").get_attribute("value") or ""
        assert sorted(shown.split(",")) == sorted(hands[last])  # its own 10, and only to it
        for other in NAMES:
            if other != last:
                assert phones[other].page.locator("form[data-hand-all]").count() == 0
        if number == 2:
            phone.shot("hand-confirm")
        phone.tap(offer.locator("button[type=submit]"), number)
    return mistake


def dealt_hands_only(phones: dict[str, Phone], event: dict[str, Any], version: int) -> None:
    """Once the round started, each phone's DOM holds its own 10 cards and no other card."""
    for phone in phones.values():
        phone.wait_version(version)
        shown = phone.page.locator("form[data-cards] button[name=card]")
        values = {shown.nth(i).get_attribute("value") for i in range(shown.count())}
        assert values == set(event["hands"][phone.player]), phone.player
        assert phone.page.locator("form[data-hand]").count() == 0


def play(phone: Phone, event: dict[str, Any], number: int, shots: dict[str, bool]) -> None:
    page = phone.page
    if event["type"] in ("chef_chosen", "chef_taken"):
        phone.tap(
            page.locator(f'form[data-act] button[name=suit][value="{event["suit"]}"]'), number
        )
        return
    coins = int(event.get("coins", 0))
    card = page.locator(f'form[data-cards] button[name=card][value="{event["card"]}"]')
    card.wait_for()
    assert card.is_enabled(), f"{phone.player}'s {event['card']} is not enabled on their turn"
    if coins:
        phone.tap(page.locator(f'label.ph-coin:has(input[value="{coins}"])'), number)
        if not shots.get("coins"):
            shots["coins"] = True
            phone.shot("my-turn-coins")
    phone.tap(card, number)


def check_own_hand_only(phone: Phone, bodies: list[dict[str, Any]], mistake: str) -> int:
    """No answer this phone received carries a card another seat still held at that moment;
    its deal grid marks only its own cards. Returns how many bodies were checked."""
    checked = 0
    for body in [{"body": phone.first_html}, *bodies]:
        html = unescape(str(body["body"]))
        found = re.search(r'data-version="(\d+)" data-phase="([a-z_]+)"', html)
        if not found:
            continue
        version, phase = int(found.group(1)), found.group(2)
        checked += 1
        if phase == "round_started":
            dealing = re.search(r'data-hand data-round="(\d+)" data-seat="(\d+)"', html)
            if dealing is None:
                continue
            number = int(dealing.group(1))
            start = next(e for e in GAME if e["type"] == "round_started" and e["round"] == number)
            mine = set(start["hands"][phone.player]) | ({mistake} if number == 1 else set())
            pressed = re.findall(
                r'value="([A-Z]\d+)" class="ph-gridcard" aria-pressed="true"', html
            )
            assert set(pressed) <= mine, f"{phone.player}'s grid marks {set(pressed) - mine}"
            continue
        state = replay(EVENTS[:version])
        secret = {c for p, hand in state.hands.items() if p != phone.player for c in hand}
        for card in secret:
            assert card_label(card) not in html, f"{phone.player} received {card} at v{version}"
            assert f'value="{card}"' not in html, f"{phone.player} received {card} at v{version}"
    return checked


def test_four_phones_play_a_whole_game_at_once(phones: dict[str, Phone]) -> None:
    started = time.monotonic()
    window = offline_window()
    shots: dict[str, bool] = {}
    mistake = ("", "")
    version = 1  # game_started
    number = 0
    at = 1
    while at < len(GAME):
        event = GAME[at]
        if event["type"] == "round_started":
            number = event["round"]
            wrong = deal(phones, at, version)
            if number > 1:
                dealt_hands_only(phones, event, version + 1)
            if number == 1:
                mistake = wrong
                ana, ben = phones["Ana"], phones["Ben"]
                for phone in (ana, ben):  # once every hand holds 10: with what to check
                    phone.page.locator(".ph-clash", has_text="instead").wait_for()
                ana.shot("contradiction")
                for phone in (phones["Cleo"], phones["Dev"]):
                    assert phone.page.locator(".ph-clash").count() == 0
                clash = ana.page.locator(".ph-clash").inner_text()
                assert clash.startswith("You and Ben both entered") and "check your cards" in clash
                # Ana puts it right: two taps (the counts below include them).
                ana.tap(grid(ana, mistake[0]), 1)
                ana.tap(grid(ana, mistake[1]), 1)
                dealt_hands_only(phones, event, version + 1)
        elif at == window[0]:
            dev = phones["Dev"]
            dev.wait_version(version)
            dev.context.set_offline(True)
            for k in window:
                play(dev, GAME[k], number, shots)
            pending = dev.page.locator(".ph-outbox .ph-pending")
            assert pending.count() == 3
            assert all("Not sent yet" in t for t in pending.all_inner_texts())
            dev.shot("offline")
            assert Event.objects.filter(stream_id=game_of(dev)).count() == version
            dev.context.set_offline(False)
        elif at in window:
            pass  # queued on Dev's phone: it sends it when the record gets to its slot
        elif at in FORCED:
            pass  # no choice: recorded by the phone whose tap came before it
        else:
            actor = phones[event["player"]]
            actor.wait_version(version)
            if event["type"] == "card_played" and not shots.get("waiting"):
                waiting = phones[NAMES[(NAMES.index(event["player"]) + 1) % 4]]
                waiting.wait_version(version)
                assert f"Waiting for {event['player']}" in waiting.page.inner_text("[data-live]")
                shots["waiting"] = True
                waiting.shot("waiting")
            play(actor, event, number, shots)
        version += 1
        at += 1
    for phone in phones.values():
        phone.wait_version(len(GAME))
    elapsed = time.monotonic() - started

    # The record is the simulated game, each event once; the scores are the engine's.
    stored = Event.objects.filter(stream_id=game_of(phones["Ana"])).order_by("version")
    assert [{"type": e.type, **e.data} for e in stored][1:] == GAME[1:]
    totals = replay(EVENTS).totals
    for phone in phones.values():
        for name in NAMES:
            shown = phone.page.locator(f'[data-total="{name}"]').inner_text()
            assert int(shown) == totals[name], f"{phone.player}'s phone says {name} {shown}"

    # Each phone saw only its own hand (DOM at the end of each round is checked by the grid and
    # hand assertions above; here every answer it received).
    checked = 0
    for phone in phones.values():
        bodies = phone.page.evaluate("window.__seatLog")
        checked += check_own_hand_only(phone, bodies, mistake[0])
        assert not phone.errors, f"{phone.player}'s page: {phone.errors}"

    # Every accepted play showed on the other three phones; how long it took.
    seen = {p: phone.page.evaluate("window.__versions") for p, phone in phones.items()}
    delays = []
    for v in range(2, len(GAME) + 1):
        times = sorted(next(t for ver, t in seen[p] if ver >= v) for p in NAMES)
        delays += [t - times[0] for t in times[1:]]
    taps = [phone.taps[r] for phone in phones.values() for r in (1, 2, 3)]
    print(
        f"\nfour phones: {len(GAME)} events in {elapsed:.1f} s; "
        f"{checked} answers checked for other hands; "
        f"delay to the other phones: median {statistics.median(delays):.0f} ms, "
        f"max {max(delays):.0f} ms over {len(delays)} sightings; "
        f"taps per player per round: mean {statistics.mean(taps):.1f}, max {max(taps)} "
        f"(round 1 includes Ana's 2-tap correction); {len(FORCED)} events recorded by "
        f"themselves; " + ", ".join(f"{p}: {[phones[p].taps[r] for r in (1, 2, 3)]}" for p in NAMES)
    )
    # Every phone reached every version (wait_version above; next() above finds each sighting).
    # How fast is a figure, printed, not a pass mark: on a loaded two-core CI machine one late
    # poll took 5.7 s. The 1 s target is measured by benchmarks/phones.py.


def game_of(phone: Phone) -> Any:
    found = re.search(r"seat:([0-9a-f-]{36}):", phone.first_html)
    assert found
    return found.group(1)

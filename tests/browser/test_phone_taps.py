"""One seat's phone in Chromium, a few taps at a chosen moment of a game (docs/scorekeeping.md,
"Phones at the table"): what the player chose is what is recorded, whatever the page redraws
and whatever the connection does (issue 22, item 8).

* A coin choice made before the page's script ran, or before its first poll answered (held
  with Playwright's routing, then answered with a fresh panel), goes in with the card.
* A phone offline queues its cards; back online its card makes it take a Chef, which it taps
  while offline again: the Chef goes before the card still queued, which goes in when the
  table reaches it. The record is what the player did, each tap once.
* A queued card the rules refuse is shown in words and stops nothing: the card behind it waits
  for its own turn, the card the player taps instead goes in the slot the refused one had.

The table's other players are entered directly (games.services), as their phones would; the
game is engine.tricknchef.simulate's (the four-phone test's seed), set up to the moment each test
needs.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser, BrowserContext, Page, Request, Route, expect  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from engine.tricknchef.events import to_json  # noqa: E402
from engine.tricknchef.simulate import simulate  # noqa: E402
from games import services  # noqa: E402
from games.models import Event  # noqa: E402
from games.tricknchef.table_presenters import card_label  # noqa: E402
from tests.browser.helpers import VERSION_AT_LEAST  # noqa: E402

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Ana", "Ben", "Cleo", "Dev")
GAME = [to_json(e) for e in simulate(3, 4, names=NAMES, first_player="Ana")]
TIMEOUT_MS = 10_000
STATE = re.compile(r"/state/(\?.*)?$")

# Moments of that game (no event in them is one the rules force).
COINS = 23
"""Ana plays yellow 7 with two -2 coins (it counts 3, and she takes the Chef at 25)."""
CHEF = (14, 18)
"""Dev plays yellow 4, the trick's last and lowest card, takes a blue Chef (15); Ben and Cleo
lead trick 3 (16, 17); Dev plays green 1 (18)."""
REVOKE = (17, 21)
"""Cleo must follow red with red 8 (17); Dev, Ana and Dev's Chef (18-20); Cleo leads trick 4
with yellow 10 (21)."""


@dataclass
class Seat:
    player: str
    game_id: Any
    context: BrowserContext
    page: Page
    polls: list[Request] = field(default_factory=list)
    """Every poll the page sent (state/), in order."""
    errors: list[str] = field(default_factory=list)

    def wait_version(self, version: int) -> None:
        self.page.wait_for_function(VERSION_AT_LEAST, arg=version)

    def wait_polls(self, count: int) -> None:
        """Until the page sent ``count`` polls: the next poll leaves only once the last one's
        answer is dealt with (seat.js)."""
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while len(self.polls) < count:
            assert time.monotonic() < deadline, f"the page sent {len(self.polls)} polls"
            self.page.wait_for_timeout(50)

    def card(self, card: str) -> None:
        self.page.locator(f'form[data-cards] button[name=card][value="{card}"]').click()

    def coins(self, coins: int) -> None:
        self.page.locator(f'label.ph-coin:has(input[value="{coins}"])').click()

    def chef(self, suit: str) -> None:
        self.page.locator(f'form[data-act] button[name=suit][value="{suit}"]').click()

    def outbox(self) -> list[str]:
        return self.page.locator(".ph-outbox li").all_inner_texts()


def recorded(game_id: Any) -> list[dict[str, Any]]:
    events = Event.objects.filter(stream_id=game_id).order_by("version")
    return [{"type": e.type, **e.data} for e in events]


def others_play(seat: Seat, start: int, stop: int) -> None:
    """The table's other phones enter ``GAME[start:stop]`` (none of it this seat's)."""
    assert all(e.get("player") != seat.player for e in GAME[start:stop])
    services.game_append(game_id=seat.game_id, expected_version=start, events=GAME[start:stop])


@pytest.fixture
def open_seat(
    browser: Browser, live_server: LiveServer, transactional_db: None
) -> Iterator[Callable[..., Seat]]:
    """``open_seat(player, until, route=None, wait_until="load")``: a game with ``GAME[:until]``
    recorded and ``player``'s phone opened on it; ``route(page)`` runs before the page loads."""
    opened: list[Seat] = []

    def open_(
        player: str,
        until: int,
        route: Callable[[Page], None] | None = None,
        wait_until: Any = "load",
    ) -> Seat:
        game_id = services.game_create(players=list(NAMES)).game_id
        services.game_append(game_id=game_id, expected_version=1, events=GAME[1:until])
        link = next(
            link
            for link in services.seat_links_issue(game_id=game_id, user=None)
            if link.player == player
        )
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        seat = Seat(player, game_id, context, page)
        opened.append(seat)
        page.on("pageerror", lambda error: seat.errors.append(str(error)))
        page.on("request", lambda r: seat.polls.append(r) if STATE.search(r.url) else None)
        if route is not None:
            route(page)
        page.goto(f"{live_server.url}/seat/{link.token}/", wait_until=wait_until)
        return seat

    yield open_
    for seat in opened:
        assert not seat.errors, f"{seat.player}'s page: {seat.errors}"
        seat.context.close()


def held(page: Page, url: str | re.Pattern[str], routes: list[Route]) -> None:
    """Holds the first request to ``url`` in ``routes`` (the test answers it); the others go
    through."""

    def hold(route: Route) -> None:
        if routes:
            route.continue_()
        else:
            routes.append(route)

    page.route(url, hold)


def wait_held(seat: Seat, routes: list[Route]) -> Route:
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not routes:
        assert time.monotonic() < deadline, "the request was never sent"
        seat.page.wait_for_timeout(50)
    return routes[0]


# ----------------------------------------------------------------------------- coins


@pytest.mark.parametrize("moment", ["before_the_script_ran", "before_the_first_poll_answered"])
def test_a_coin_choice_made_as_the_page_opens_goes_in_with_the_card(
    open_seat: Callable[..., Seat], moment: str
) -> None:
    play = GAME[COINS]
    assert play == {"type": "card_played", "player": "Ana", "card": "Y7", "coins": -2}
    routes: list[Route] = []
    if moment == "before_the_script_ran":
        # The page is on screen (its script is deferred) but seat.js has not arrived yet.
        ana = open_seat(
            "Ana",
            COINS,
            route=lambda page: held(page, re.compile(r"/js/seat\.js"), routes),
            wait_until="commit",
        )
        script = wait_held(ana, routes)
        ana.coins(-2)
        script.continue_()
        ana.wait_polls(2)  # the first poll answered and dealt with
    else:
        ana = open_seat("Ana", COINS, route=lambda page: held(page, STATE, routes))
        poll = wait_held(ana, routes)
        ana.coins(-2)
        # The held poll is answered with the panel afresh (as when the table changed): the
        # page redraws the coins.
        ana.page.evaluate("document.querySelector('[data-live]').dataset.old = '1'")
        headers = {k: v for k, v in poll.request.headers.items() if k != "if-none-match"}
        poll.fulfill(response=poll.fetch(headers=headers))
        ana.page.wait_for_function("() => !document.querySelector('[data-live]').dataset.old")
    expect(ana.page.locator('input[name=coins][value="-2"]')).to_be_checked()
    ana.card("Y7")
    ana.wait_version(COINS + 1)
    assert recorded(ana.game_id)[COINS] == play  # with its two coins


# ----------------------------------------------------------------------------- the outbox


def test_an_offline_queue_with_a_chef_to_take_drains_in_order(
    open_seat: Callable[..., Seat],
) -> None:
    start, last = CHEF
    assert [GAME[k].get("card") or GAME[k].get("suit") for k in (14, 15, 18)] == [
        "Y4",
        "blue",
        "G1",
    ]
    dev = open_seat("Dev", start)
    dev.context.set_offline(True)
    dev.card("Y4")  # the last card of trick 2
    dev.card("G1")  # and, ahead of the page, his card of trick 3
    expect(dev.page.locator(".ph-outbox li")).to_have_count(2)
    dev.context.set_offline(False)
    # Yellow 4 goes in and was the lowest: Dev takes a Chef; green 1 waits for its turn.
    chef = dev.page.locator('form[data-act] button[name=suit][value="blue"]')
    chef.wait_for()
    expect(dev.page.locator(".ph-outbox li")).to_have_text(
        [re.compile(re.escape(card_label("G1")) + r".*waits for its turn")]
    )
    dev.context.set_offline(True)
    dev.chef("blue")
    # The Chef goes before the card still queued (the table's order, not the taps').
    expect(dev.page.locator(".ph-outbox li")).to_have_text(
        [re.compile("blue Chef"), re.compile(re.escape(card_label("G1")))]
    )
    dev.context.set_offline(False)
    dev.wait_version(start + 2)  # the Chef is in
    others_play(dev, start + 2, last)  # Ben and Cleo lead trick 3
    dev.wait_version(last + 1)  # Dev's green 1 went in by itself
    expect(dev.page.locator(".ph-outbox li")).to_have_count(0)
    assert recorded(dev.game_id)[1:] == GAME[1 : last + 1]  # what Dev did, in order, each once


def test_a_queued_tap_the_rules_refuse_is_shown_and_stops_nothing(
    open_seat: Callable[..., Seat],
) -> None:
    start, last = REVOKE
    assert GAME[start]["card"] == "R8" and GAME[last]["card"] == "Y10"
    cleo = open_seat("Cleo", start)
    cleo.context.set_offline(True)
    cleo.card("G7")  # red was led and Cleo holds red 8: refused when it reaches the server
    cleo.card("Y10")  # her lead of trick 4
    cleo.context.set_offline(False)
    refusal = cleo.page.locator(".ph-outbox li [role=alert]")
    expect(refusal).to_have_text("Refused: Cleo must follow red: red was led and Cleo holds red 8")
    expect(cleo.page.locator(".ph-outbox li").nth(1)).to_contain_text("waits for its turn")
    cleo.card("R8")  # instead: it goes in trick 3, where the refused card was meant
    cleo.wait_version(start + 1)
    others_play(cleo, start + 1, last)
    cleo.wait_version(last + 1)  # yellow 10 went in by itself
    assert recorded(cleo.game_id)[1:] == GAME[1 : last + 1]
    # The refused tap stays in sight until Cleo drops it.
    expect(cleo.page.locator(".ph-outbox li")).to_have_count(1)
    cleo.page.get_by_role("button", name="Drop this tap").click()
    expect(cleo.page.locator(".ph-outbox li")).to_have_count(0)

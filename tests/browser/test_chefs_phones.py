"""Chefs on three phones in Chromium at 390x844 (docs/scorekeeping.md, "Chefs on the phones"):
Ann's phone taps the set-up's meal cards (one button per card) and round 1 starts by itself with
her; every phone shows the cards laid and whose turn it is; the chefs put down their markers on
their own phones and Ann cooks a meal of the window's cards, giving up its ingredients; no phone
scrolls sideways. With TNC_SCREENSHOTS=1 it saves docs/images/phones-chefs-*.png."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser, Page  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from engine.chefs.state import ChefsState  # noqa: E402
from games import services  # noqa: E402
from games.gametypes import GAME_TYPES  # noqa: E402
from games.models import GameProjection  # noqa: E402
from tests.browser.helpers import VERSION_AT_LEAST  # noqa: E402

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

PLAYERS = ("Ann", "Bo", "Cy")
IMAGES = Path(__file__).resolve().parent.parent.parent / "docs" / "images"
TIMEOUT_MS = 15_000
NO_SIDEWAYS = "() => document.documentElement.scrollWidth <= window.innerWidth"


def shot(page: Page, name: str) -> None:
    if os.environ.get("TNC_SCREENSHOTS") == "1":
        IMAGES.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(IMAGES / f"phones-chefs-{name}.png"))


@pytest.fixture
def table(
    browser: Browser, live_server: LiveServer, transactional_db: None
) -> Iterator[tuple[str, dict[str, Page]]]:
    game_id = services.game_create(players=list(PLAYERS), game_type="chefs").game_id
    links = services.seat_links_issue(game_id=game_id, user=None)
    pages: dict[str, Page] = {}
    contexts = []
    for link in links:
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        response = page.goto(f"{live_server.url}/seat/{link.token}/")
        assert response is not None and response.status == 200
        pages[link.player] = page
    yield str(game_id), pages
    for context in contexts:
        context.close()


def version(game_id: str) -> int:
    return int(GameProjection.objects.get(stream_id=game_id).version)


def state(game_id: str) -> ChefsState:
    game = GameProjection.objects.get(stream_id=game_id)
    chefs: ChefsState = GAME_TYPES["chefs"].restore(game.snapshot).state
    return chefs


def tap(page: Page, game_id: str, label: str) -> None:
    at = version(game_id)
    target = page.get_by_role("button", name=label, exact=True)
    target.click()
    page.wait_for_function(VERSION_AT_LEAST, arg=at + 1)


def test_chefs_play_on_their_phones(table: tuple[str, dict[str, Page]]) -> None:
    game_id, pages = table
    ann, bo = pages["Ann"], pages["Bo"]
    assert ann.locator("button[data-move]").count() == 32
    assert bo.locator("button[data-move]").count() == 0
    assert "Waiting for Ann" in bo.inner_text("[data-live]")
    shot(ann, "meal-cards")
    for steps, need in ((3, 2), (5, 3), (2, 1), (4, 2)):
        tap(ann, game_id, f"{steps} steps, {need} ingredient{'s' if need > 1 else ''}")
    game = state(game_id)
    assert game.round_no == 1 and game.starting == "Ann"
    bo.wait_for_function(VERSION_AT_LEAST, arg=version(game_id))
    board = bo.inner_text("[data-live]")
    assert "3 steps (2 ingredients)" in board and "Ann puts down an action marker" in board
    shot(ann, "markers")
    # Ann, Bo and Cy put their markers down in turn, each on their own phone.
    for player, label in [
        ("Ann", "The cooker at the window (circle 1)"),
        ("Bo", "The counter of ingredients (circle 1)"),
        ("Cy", "The door (circle 1)"),
        ("Ann", "The service counter (circle 1)"),
        ("Bo", "The cooker at the window (circle 2)"),
        ("Cy", "The cooker at the wall (circle 1)"),
        ("Ann", "The door (circle 2)"),
        ("Bo", "The service counter (circle 2)"),
        ("Cy", "The service counter (circle 3)"),
    ]:
        pages[player].wait_for_function(VERSION_AT_LEAST, arg=version(game_id))
        tap(pages[player], game_id, label)
    tap(bo, game_id, "Take 2 ingredient cards")
    ann.wait_for_function(VERSION_AT_LEAST, arg=version(game_id))
    shot(ann, "cook")
    tap(ann, game_id, "Meal of 3 steps: give 2 ingredient cards")
    assert state(game_id).meals["Ann"] == [3]
    cy = pages["Cy"]
    cy.wait_for_function(VERSION_AT_LEAST, arg=version(game_id))
    seen = cy.inner_text("[data-live]")
    assert "Waiting for Bo" in seen and cy.locator("button[data-move]").count() == 0
    assert "Meals held (steps)" in seen  # every chef's field, hand size and meals
    shot(cy, "waiting")
    for page in pages.values():
        assert page.evaluate(NO_SIDEWAYS)

"""Food Truck's seat phones in Chromium (games/foodtruck/phone.py; docs/scorekeeping.md, "Food
Truck on the phones"): the player to act taps the dish they turn over and the other phones show
it; an eliminated player's phone offers the market and their Company card; no panel scrolls
sideways at 320 or 390 px, in English, Russian and Japanese.

With TNC_SCREENSHOTS=1 it saves the pictures of docs/scorekeeping.md to
docs/images/phones-foodtruck-*.png (390 px wide).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser, Page, expect  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from games import services  # noqa: E402
from tests.browser.helpers import WIDER_THAN_THE_SCREEN  # noqa: E402

pytestmark = [pytest.mark.django_db(transaction=True)]

NAMES = ["Ana", "Ben", "Cleo", "Dev"]
ROUND_1 = {
    "type": "round_started",
    "round": 1,
    "first_player": "Ana",
    "market": ["taco", "fries", "kebab", "sushi"],
    "companies": {"Ana": "remove", "Ben": "rearrange", "Cleo": "copy", "Dev": "swap"},
}
PLAYED = [
    {"type": "dish_revealed", "player": "Ana", "dish": "burger"},
    {"type": "dish_revealed", "player": "Ben", "dish": "dessert"},
    {"type": "dish_revealed", "player": "Cleo", "dish": "pizza"},
    {"type": "dish_revealed", "player": "Dev", "dish": "hotdog"},
    {"type": "dish_revealed", "player": "Ana", "dish": "burger"},
    {"type": "dish_revealed", "player": "Ben", "dish": "pizza"},  # refused: Cleo served pizza
]
IMAGES = Path(__file__).resolve().parent.parent.parent / "docs" / "images"
TIMEOUT_MS = 15_000


def table(events: list[dict[str, Any]]) -> list[str]:
    game = services.game_create(players=NAMES, game_type="food-truck")
    services.game_append(game_id=game.game_id, expected_version=1, events=[ROUND_1, *events])
    return [link.token for link in services.seat_links_issue(game_id=game.game_id, user=None)]


@pytest.fixture
def open_phone(browser: Browser, live_server: LiveServer, transactional_db: None) -> Iterator[Any]:
    contexts = []

    def opened(token: str, width: int = 390, height: int = 844, locale: str = "en") -> Page:
        context = browser.new_context(
            viewport={"width": width, "height": height}, is_mobile=True, locale=locale
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        response = page.goto(f"{live_server.url}/seat/{token}/")
        assert response is not None and response.status == 200
        return page

    yield opened
    for context in contexts:
        context.close()


def shot(page: Page, name: str) -> None:
    if os.environ.get("TNC_SCREENSHOTS") == "1":
        IMAGES.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(IMAGES / f"phones-foodtruck-{name}.png"))


def test_a_reveal_tapped_on_one_phone_shows_on_the_others(open_phone: Any) -> None:
    tokens = table(PLAYED[:4])
    ana, cleo = open_phone(tokens[0]), open_phone(tokens[2])
    reveal = ana.locator('form[data-act] button[data-move][name="dish"]')
    expect(reveal.first).to_be_visible()
    shot(ana, "reveal")
    assert cleo.locator("form[data-act]").count() == 0  # not Cleo's turn: no move, no pile
    ana.locator('form[data-act] button[data-move][value="burger"]').first.click()
    expect(cleo.locator('[data-seat-player="Ana"]')).to_contain_text("burger ×2")
    expect(cleo.locator("[data-waiting]")).to_contain_text("Ben")
    shot(cleo, "waiting")


def test_an_eliminated_player_takes_a_market_card_and_may_play_their_company(
    open_phone: Any,
) -> None:
    tokens = table(PLAYED)
    ben = open_phone(tokens[1])
    expect(ben.locator(".ft-market button[data-move]")).to_have_count(4)
    expect(ben.locator(".ft-company button[data-move]")).to_have_count(1)
    shot(ben, "refused")
    ben.locator('.ft-market button[value="taco"]').click()
    expect(ben.locator("[data-waiting]")).to_contain_text("Cleo")
    expect(ben.locator(".ft-market")).to_have_count(0)


@pytest.mark.parametrize(
    ("locale", "width", "height"),
    [("en", 320, 640), ("ru", 320, 640), ("ja", 320, 640), ("en", 390, 844)],
)
def test_no_panel_scrolls_sideways(open_phone: Any, locale: str, width: int, height: int) -> None:
    tokens = table(PLAYED)
    for token in tokens:  # Ben's market and Company card, Cleo's turn, the others waiting
        page = open_phone(token, width, height, locale)
        wide = page.evaluate(WIDER_THAN_THE_SCREEN)
        assert not wide, f"{locale} at {width} px: {wide}"

"""Crazy Kitchen's two team phones in Chromium at 390x844 (docs/scorekeeping.md, "Crazy Kitchen
on the phones"): the cooks' head chef taps the orders as the customers check them, the
customers' phone shows each one within the poll and confirms the round, the roles swap, and
after round 2 the team behind buys an upgrade within its budget while the other phone waits.
Neither page scrolls sideways, at 390 px or 320 px. With TNC_SCREENSHOTS=1 it saves the
section's pictures (docs/images/phones-crazykitchen-*.png)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from games import services  # noqa: E402
from games.models import GameProjection  # noqa: E402
from tests.browser.helpers import VERSION_AT_LEAST  # noqa: E402

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

IMAGES = Path(__file__).resolve().parent.parent.parent / "docs" / "images"
MEMBERS = {"Pizza": ["Vera", "Wim"], "French Fries": ["Xia", "Yusuf", "Zoe"]}
NO_SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth"
NARROW: ViewportSize = {"width": 320, "height": 640}
WIDE: ViewportSize = {"width": 390, "height": 844}


def no_sideways(page: Page) -> bool:
    """Neither at 390 px nor at 320 px (the narrowest phones still in use)."""
    page.set_viewport_size(NARROW)
    narrow = bool(page.evaluate(NO_SIDEWAYS))
    page.set_viewport_size(WIDE)
    return narrow and bool(page.evaluate(NO_SIDEWAYS))


def shot(page: Page, name: str) -> None:
    if os.environ.get("TNC_SCREENSHOTS") == "1":
        IMAGES.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(IMAGES / f"phones-crazykitchen-{name}.png"))


@pytest.fixture
def phones(
    browser: Browser, live_server: LiveServer, transactional_db: None
) -> Iterator[tuple[str, dict[str, Page]]]:
    game = services.game_create(
        players=["Pizza", "French Fries"],
        game_type="crazy-kitchen",
        options={"members": MEMBERS, "head_chefs": {"French Fries": "Yusuf"}},
    )
    contexts: list[BrowserContext] = []
    pages: dict[str, Page] = {}
    for link in services.seat_links_issue(game_id=game.game_id, user=None):
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        response = page.goto(f"{live_server.url}/seat/{link.token}/")
        assert response is not None and response.status == 200
        pages[link.player] = page
    yield str(game.game_id), pages
    for context in contexts:
        context.close()


def version(game_id: str) -> int:
    return int(GameProjection.objects.get(stream_id=game_id).version)


def tap(page: Page, label: str, game_id: str, others: list[Page]) -> None:
    before = version(game_id)
    page.get_by_role("button", name=label, exact=True).click()
    for other in [page, *others]:
        other.wait_for_function(VERSION_AT_LEAST, arg=before + 1)


def test_the_team_phones_enter_a_round_and_an_upgrade(
    phones: tuple[str, dict[str, Page]],
) -> None:
    game_id, pages = phones
    pizza, fries = pages["Pizza"], pages["French Fries"]
    assert "you cook" in pizza.locator("[data-live]").inner_text()
    for label in ("Fulfilled, 3 points", "Fulfilled, 5 points", "Failed, penalty 2"):
        tap(pizza, label, game_id, [fries])
    assert "+3" in fries.locator(".ph-ck-list").inner_text()
    assert "−2" in fries.locator(".ph-ck-list").inner_text()
    assert no_sideways(pizza) and no_sideways(fries)
    shot(pizza, "cooks")
    shot(fries, "customers")
    tap(fries, "Confirm round 1", game_id, [pizza])
    assert "Pizza cooked: 6" in fries.locator(".ph-ck-rounds").inner_text()
    # Round 2: French Fries cook on their head chef's phone, Pizza confirms.
    tap(fries, "Fulfilled, 8 points", game_id, [pizza])
    tap(pizza, "Confirm round 2", game_id, [fries])
    # The break: Pizza (6) is behind French Fries (8) and upgrades first, for up to 8.
    assert "upgrade for up to 8 victory points" in pizza.locator("[data-live]").inner_text()
    assert "Waiting for Pizza" in fries.locator("[data-live]").inner_text()
    tap(pizza, "Speed up the oven for 3", game_id, [fries])
    assert "Upgrades: 5 left" in pizza.locator("[data-live]").inner_text()
    assert no_sideways(pizza)
    shot(pizza, "upgrades")
    tap(pizza, "Done upgrading", game_id, [fries])
    tap(fries, "Done upgrading", game_id, [pizza])
    assert "you cook" in pizza.locator("[data-live]").inner_text()  # round 3

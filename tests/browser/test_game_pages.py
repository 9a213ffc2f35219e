"""One table of each other game (Food Truck, Chefs, Crazy Kitchen) entered as results only
through its table page in a real browser (Debian's Chromium): the link from the table page, the
game's own form found by its labels, the accessibility checker on each page, and the final
ranking on the table page. Short on purpose: it runs in CI on 2 cores.
"""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api")

from django.contrib.auth.models import User  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from games import services  # noqa: E402
from tests.browser.helpers import look  # noqa: E402
from tests.browser.recorders import Shots  # noqa: E402

pytestmark = pytest.mark.django_db(transaction=True)

USERNAME, PASSWORD = "keeper", "Trick-n-Chef 2026!"
TIMEOUT_MS = 10_000


def test_one_table_of_each_other_game_is_entered_as_results_only(
    live_server: LiveServer,
    transactional_db: None,
    django_user_model: type[User],
    page: Page,
    shots: Shots,
) -> None:
    page.set_default_timeout(TIMEOUT_MS)
    keeper = django_user_model.objects.create_user(USERNAME, password=PASSWORD)
    names = ["Ana", "Ben", "Cleo"]
    truck = services.game_create(players=names, game_type="food-truck", user=keeper).game_id
    chefs = services.game_create(players=names, game_type="chefs", user=keeper).game_id
    kitchen = services.game_create(
        players=["Pizza", "Fries"],
        game_type="crazy-kitchen",
        options={"members": {"Pizza": ["Ana", "Ben", "Cleo"], "Fries": ["Dev", "Eli"]}},
        user=keeper,
    ).game_id

    page.goto(f"{live_server.url}/table/{truck}/")
    page.get_by_label("Username").fill(USERNAME)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    # Food Truck: victory points and the winner (a refused sheet, its 422 and the input kept:
    # tests/web/test_game_pages.py).
    page.get_by_role("link", name="Enter the results").click()
    for name, points in zip(names, ["3", "1", "0"], strict=True):
        page.get_by_label(f"{name}'s victory points").fill(points)
    page.get_by_role("radio", name="Ana").check()
    look(page, shots, "food truck results form")
    page.get_by_role("button", name="Record the results").click()
    expect(page.get_by_role("heading", name="Final ranking")).to_be_visible()
    expect(page.locator(".tbl-ranking")).to_contain_text("Ana")
    look(page, shots, "food truck table entered")

    # Chefs: each chef's final position.
    page.goto(f"{live_server.url}/table/{chefs}/results/")
    for name, position in zip(names, ["23", "17", "23"], strict=True):
        page.get_by_label(f"{name}'s final position").fill(position)
    page.get_by_role("button", name="Record the results").click()
    expect(page.locator(".tbl-ranking")).to_contain_text("position 23")

    # Crazy Kitchen: the six rounds, each labelled with the team that cooks.
    page.goto(f"{live_server.url}/table/{kitchen}/")
    page.get_by_role("link", name="Enter the results").click()
    expect(page.get_by_text("Fries, the smaller team, gets 15 points")).to_be_visible()
    for number, score in enumerate([10, 12, 8, 9, 7, 10], start=1):
        team = "Pizza" if number % 2 else "Fries"
        page.get_by_label(f"Round {number} ({team} cooks)").fill(str(score))
    look(page, shots, "crazy kitchen results form")
    page.get_by_role("button", name="Record the results").click()
    expect(page.locator(".tbl-ranking li").first).to_contain_text("Fries")
    expect(page.get_by_role("region", name="Upgrades")).to_be_visible()
    look(page, shots, "crazy kitchen table entered")

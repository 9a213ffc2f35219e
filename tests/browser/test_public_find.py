"""A player finds their table from the tournament's page, on a phone (390 px) and a laptop
(1280 px): "Find your table" by part of their name (without its accent), their page with the
table they sit at now first, and from their game's page back up its breadcrumb to the round."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api")

from django.contrib.auth.models import User  # noqa: E402
from playwright.sync_api import Page, ViewportSize, expect  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from tests.browser.helpers import look  # noqa: E402
from tests.browser.recorders import Shots  # noqa: E402
from tests.browser.test_small_widths import PASSWORD, USERNAME, club_night  # noqa: E402

pytestmark = pytest.mark.slow

SIZES: list[ViewportSize] = [{"width": 390, "height": 844}, {"width": 1280, "height": 800}]


def test_a_player_finds_their_table_and_follows_its_game(
    live_server: LiveServer,
    transactional_db: None,
    django_user_model: type[User],
    page: Page,
    shots: Shots,
) -> None:
    olga = django_user_model.objects.create_user(USERNAME, password=PASSWORD)
    tid, playing, _ = club_night(olga)
    seated = list(playing.players)
    chloe = "Chloé Dubois-Lefèvre"
    for size in SIZES:
        page.set_viewport_size(size)
        page.goto(f"{live_server.url}/t/{tid}/")
        page.get_by_label("Find your table").fill("chloe dubois")
        page.get_by_role("button", name="Find").click()
        expect(page.get_by_role("heading", level=1)).to_have_text(chloe)
        now = page.locator("section.now-card")
        expect(now).to_contain_text("Your table now: round 2, table")
        look(page, shots, f"player page at {size['width']} px")
        # Follow a seated player's game, then go back up to its round through the breadcrumb.
        page.goto(f"{live_server.url}/t/{tid}/")
        page.get_by_label("Find your table").fill(seated[0].lower())
        page.get_by_role("button", name="Find").click()
        page.locator("section.now-card").get_by_role("link", name="Follow the game").click()
        trail = page.get_by_role("navigation", name="Breadcrumb")
        expect(trail).to_contain_text("Round 2")
        look(page, shots, f"game page at {size['width']} px")
        trail.get_by_role("link", name="Round 2").click()
        expect(page).to_have_url(f"{live_server.url}/t/{tid}/round/2/")

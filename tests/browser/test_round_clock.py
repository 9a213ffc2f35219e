"""The round clock and the big screen in a real browser (Debian's Chromium, as test_flow.py).

The organizer, on a laptop (1280 px), starts round 1's clock from the desk (a mistake first:
the error beside its field); a player's phone (390 px), whose own clock is ten minutes fast,
shows the time left counted from the server's time, and a changed clock within a minute; the
big screen (laptop, then phone width) shows the tables, then the standings, with the clock.
No page scrolls sideways (helpers.look)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest

pytest.importorskip("playwright.sync_api")

from django.contrib.auth.models import User  # noqa: E402
from django.utils import timezone  # noqa: E402
from playwright.sync_api import Browser, Page, ViewportSize, expect  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from tests.browser.helpers import look  # noqa: E402
from tests.browser.recorders import Console, Shots  # noqa: E402
from tournaments import services as t  # noqa: E402

pytestmark = pytest.mark.django_db(transaction=True)

USERNAME, PASSWORD = "olga", "Trick-n-Chef 2026!"
NAMES = [f"Player {n:02d}" for n in range(1, 9)]
TIMEOUT_MS = 10_000
LAPTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}


def left(minutes: int) -> re.Pattern[str]:
    """The countdown showing ``minutes`` (or a minute less) and some seconds left."""
    return re.compile(rf"^({minutes}|{minutes - 1}):\d\d left$")


def test_the_organizer_starts_the_clock_and_every_screen_counts_down(
    live_server: LiveServer,
    transactional_db: None,
    django_user_model: type[User],
    browser: Browser,
    page: Page,
    console: Console,
    shots: Shots,
) -> None:
    olga = django_user_model.objects.create_user(USERNAME, password=PASSWORD)
    tid = t.tournament_create(
        user=olga, name="Clock Night", date="2026-12-04", rounds=3, seed=5
    ).tournament_id
    t.tournament_register(tournament_id=tid, user=olga, names=NAMES, checked_in=True)
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)

    # The organizer's laptop.
    page.set_viewport_size(LAPTOP)
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{live_server.url}/desk/{tid}/")
    page.get_by_label("Username").fill(USERNAME)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    panel = page.locator("#round-panel")
    expect(panel.get_by_role("heading", name="Round clock")).to_be_visible()
    expect(panel).to_contain_text("No clock yet")
    with console.refusal(page, 422):
        panel.get_by_role("button", name="Start the clock").click()
    minutes = panel.get_by_label("Or lasts (minutes)")
    ends_at = panel.get_by_label("Ends at")
    expect(ends_at).to_have_attribute("aria-invalid", "true")
    expect(panel.locator(".field.invalid")).to_contain_text(
        "Give the time the round ends, such as 20:30, or how many minutes it lasts."
    )
    minutes.fill("30")
    panel.get_by_role("button", name="Start the clock").click()
    expect(panel).to_contain_text("every page shows the clock")
    timer = panel.get_by_role("timer")
    expect(timer.locator(".clock-left")).to_have_text(left(30))
    first = timer.locator(".clock-left").inner_text()
    expect(timer.locator(".clock-left")).not_to_have_text(first)  # it counts down
    look(page, shots, "desk-clock-laptop")

    # A player's phone whose own clock is ten minutes fast: the countdown follows the server.
    phone = browser.new_context(viewport=PHONE)
    player = phone.new_page()
    player.set_default_timeout(TIMEOUT_MS)
    player.on("pageerror", lambda error: console.page_errors.append(str(error)))
    player.clock.install(time=timezone.now() + timedelta(minutes=10))
    player.clock.resume()
    player.goto(f"{live_server.url}/t/{tid}/round/1/")
    clock = player.get_by_role("timer")
    expect(clock).to_contain_text("Round 1 ends at")
    expect(clock.locator(".clock-left")).to_have_text(left(30))
    look(player, shots, "round-clock-phone")
    # The organizer gives the round ten more minutes: the phone shows it at its next question.
    ends = t.tournament_get(tournament_id=tid, user=olga).summary["rounds"][0]["ends_at"]
    t.tournament_set_clock(
        tournament_id=tid,
        round=1,
        ends_at=datetime.fromisoformat(ends) + timedelta(minutes=10),
        user=olga,
    )
    player.clock.fast_forward("01:01")
    expect(clock.locator(".clock-left")).to_have_text(left(39))

    # The big screen: the tables first, then the standings, with the clock.
    player.goto(f"{live_server.url}/t/{tid}/screen/")
    expect(player.get_by_role("heading", name="Clock Night", level=1)).to_be_visible()
    expect(player.get_by_role("timer").locator(".clock-left")).to_have_text(left(39))
    tables = player.locator("#screen-pairings")
    standings = player.locator("#screen-standings")
    expect(tables).to_be_visible()
    expect(standings).to_be_hidden()
    look(player, shots, "screen-tables-phone")
    player.clock.fast_forward("00:21")
    expect(standings).to_be_visible()
    expect(tables).to_be_hidden()
    player.set_viewport_size(LAPTOP)
    look(player, shots, "screen-standings-laptop")
    player.clock.fast_forward("00:21")
    expect(tables).to_be_visible()
    look(player, shots, "screen-tables-laptop")
    phone.close()

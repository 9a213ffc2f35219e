"""The desk's round panel in a real browser (Debian's Chromium, as test_flow.py), at a phone's
width (390 px) and a laptop's (1280 px): round 2's proposal with each player's rank and points
and its figures in words; a swap, after which "Why these tables" no longer claims the lowest
cost; Publish, which asks first; the published tables' statuses with the deal and trick in play;
Confirm all finished tables. Every view is looked at (screenshot, accessibility checks, nothing
wider than the screen)."""

from __future__ import annotations

import re
import uuid

import pytest

pytest.importorskip("playwright.sync_api")

from django.contrib.auth.models import User  # noqa: E402
from playwright.sync_api import Page, ViewportSize, expect  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from engine.tricknchef.events import to_json  # noqa: E402
from engine.tricknchef.simulate import simulate  # noqa: E402
from games import services as games  # noqa: E402
from games.models import GameProjection  # noqa: E402
from tests.browser.helpers import look  # noqa: E402
from tests.browser.recorders import Console, Shots  # noqa: E402
from tournaments import services as t  # noqa: E402

USERNAME, PASSWORD = "olga", "Trick-n-Chef 2026!"
NAMES = [f"Player {n:02d}" for n in range(1, 13)]
TIMEOUT_MS = 10_000
PHONE: ViewportSize = {"width": 390, "height": 844}
LAPTOP: ViewportSize = {"width": 1280, "height": 800}


def enter_results(tid: uuid.UUID, user: User, round: int, table: int) -> None:
    """A table's results only, distinct totals (no shared places)."""
    entry = t.tournament_get(tournament_id=tid, user=user).summary["rounds"][round - 1]
    seats = entry["tables"][table - 1]["seats"]
    game = GameProjection.objects.get(stream_id=entry["tables"][table - 1]["game"])
    games.game_enter_results(
        game_id=game.stream_id,
        expected_version=game.version,
        scores={s["name"]: [n + 1, n, 2] for n, s in enumerate(seats)},
        user=user,
    )


def start_playing(tid: uuid.UUID, user: User, round: int, table: int, events: int) -> None:
    """A table's game under way: its first ``events`` record events after game_started."""
    entry = t.tournament_get(tournament_id=tid, user=user).summary["rounds"][round - 1]
    game = GameProjection.objects.get(stream_id=entry["tables"][table - 1]["game"])
    record = simulate(3, 4, names=tuple(game.players), first_player=game.players[0])
    games.game_append(
        game_id=game.stream_id,
        expected_version=game.version,
        events=[to_json(e) for e in record[1 : 1 + events]],
        user=user,
    )


def test_the_round_panel_from_proposal_to_confirmed_tables_on_a_phone_and_a_laptop(
    live_server: LiveServer,
    transactional_db: None,
    django_user_model: type[User],
    page: Page,
    console: Console,
    shots: Shots,
) -> None:
    page.set_default_timeout(TIMEOUT_MS)
    olga = django_user_model.objects.create_user(USERNAME, password=PASSWORD)
    tid = t.tournament_create(
        user=olga, name="Club night", date="2026-12-01", rounds=3, seed=5
    ).tournament_id
    t.tournament_register(tournament_id=tid, user=olga, names=NAMES, checked_in=True)
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    for number in (1, 2, 3):
        enter_results(tid, olga, 1, number)
    t.tournament_confirm_finished(tournament_id=tid, round=1, user=olga)
    t.tournament_close_round(tournament_id=tid, round=1, user=olga)
    t.tournament_pair(tournament_id=tid, user=olga)

    # On a phone: round 2's proposal, each player with their rank and points.
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/desk/{tid}/")
    page.get_by_label("Username").fill(USERNAME)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    panel = page.locator("#round-panel")
    proposed = panel.get_by_role("list", name="Proposed tables")
    expect(proposed.locator(".standing")).to_have_count(12)
    expect(proposed.locator(".standing").first).to_have_text(
        re.compile(r"^rank \d+( \(shared\))?, [\d.]+ points?$")
    )
    expect(panel.locator(".quality")).not_to_contain_text("Cost")
    look(page, shots, "phone-proposal")

    # On a laptop: swap two players by two taps; the notes no longer claim the lowest cost.
    page.set_viewport_size(LAPTOP)
    first = proposed.locator("#table-1 .seat-name").first
    other = proposed.locator("#table-2 .seat-name").first
    a, b = first.inner_text().split(":")[0].strip(), other.inner_text().split(":")[0].strip()
    first.click()
    expect(panel.locator(".pick-banner")).to_contain_text(f"{a} is selected")
    panel.get_by_role("button", name=re.compile(rf"^{b} ?: swap with {a}$")).click()
    expect(panel).to_contain_text(f"{a} and {b} swapped places.")
    notes = panel.locator("details.notes")
    expect(notes).to_contain_text("Changed by hand")
    expect(notes).not_to_contain_text("This is the lowest possible cost")
    look(page, shots, "laptop-after-swap")

    # Publish asks first: the disclosure says it cannot be undone; the round stays proposed
    # until "Yes, publish round 2".
    panel.get_by_text("Publish round 2", exact=True).click()
    expect(panel.get_by_text("It cannot be undone")).to_be_visible()
    look(page, shots, "laptop-publish-asks")
    panel.get_by_role("button", name="Yes, publish round 2").click()
    expect(panel).to_contain_text("Round 2 is published: 3 tables are open")
    expect(panel).to_contain_text("0 of 3 tables confirmed. Not started: 1, 2, 3.")

    # Table 1 under way, tables 2 and 3 finished: the panel says so; one tap confirms both.
    start_playing(tid, olga, 2, 1, events=12)
    enter_results(tid, olga, 2, 2)
    enter_results(tid, olga, 2, 3)
    page.reload()
    panel = page.locator("#round-panel")
    expect(panel).to_contain_text(
        "0 of 3 tables confirmed. In progress: 1. Finished, to confirm: 2, 3."
    )
    expect(panel.locator("#table-1 .table-status")).to_have_text("In progress")
    expect(panel.locator("#table-1 .table-progress")).to_have_text(
        re.compile(r"^Deal 1, trick \d+$")
    )
    look(page, shots, "laptop-published")
    panel.get_by_role("button", name="Confirm all finished tables").click()
    expect(panel).to_contain_text("Tables 2 and 3 are confirmed.")
    expect(panel).to_contain_text("2 of 3 tables confirmed. In progress: 1.")
    expect(panel.locator("#table-2 .table-status")).to_have_text("Confirmed")

    # The same panel on a phone.
    page.set_viewport_size(PHONE)
    look(page, shots, "phone-published")

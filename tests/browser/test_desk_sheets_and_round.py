"""The organizer's desk in a real browser (issue 23, items 7, 11 and 13).

- Printed score sheets: a round of 3 tables prints on 3 A4 pages (Chromium's own PDF, as a club
  prints it), one table a page, the "Checked by" line on the same page as the table's first
  row, for every game's sheet, in English, Russian and Japanese.
- During a round at 1280x900 the first table is above the fold; "Stop the clock" is a button
  like the others; Close and Finish ask first in the page: the box takes the focus, Escape
  cancels, Yes acts. The published round (with its box) at 320 and 390 px: nothing wider than
  the screen, no word broken across lines.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from django.contrib.auth.models import User  # noqa: E402
from playwright.sync_api import Page, ViewportSize, expect  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from games import services as games  # noqa: E402
from games.models import GameProjection  # noqa: E402
from tests.browser.helpers import broken_words, look  # noqa: E402
from tests.browser.recorders import Console, Shots  # noqa: E402
from tournaments import services as t  # noqa: E402

pytestmark = pytest.mark.slow

USERNAME, PASSWORD = "olga", "Trick-n-Chef 2026!"
TIMEOUT_MS = 10_000
LAPTOP: ViewportSize = {"width": 1280, "height": 900}
A4_CONTENT_PX = (297 - 2 * 12) / 25.4 * 96
"""The A4 page's height inside print.css's @page margins (12 mm top and bottom), in CSS px."""
A4_WIDE: ViewportSize = {"width": round((210 - 2 * 12) / 25.4 * 96), "height": 1000}
"""A viewport as wide as the A4 page inside its margins."""

GAMES: list[tuple[str, int, bool]] = [
    # (game, table size, teams): 3 full tables each
    ("trick-n-chef", 4, False),
    ("food-truck", 5, False),
    ("chefs", 6, False),
    ("crazy-kitchen", 2, True),
]

SHEET_HEIGHTS = """() => Array.from(document.querySelectorAll("section.sheet")).map((s) => {
  const first = s.querySelector("tbody tr").getBoundingClientRect().top;
  const last = s.querySelector(".signatures p:last-child").getBoundingClientRect().bottom;
  return {height: s.getBoundingClientRect().height, span: last - first};
})"""


def log_in(page: Page, url: str) -> None:
    page.goto(url)
    page.get_by_label("Username").fill(USERNAME)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def three_tables(olga: User, game: str, size: int, teams: bool) -> uuid.UUID:
    """A published round 1 of three full tables of the game (seat links: the organizer's
    sheets carry each seat's code, the tallest sheets)."""
    tid = t.tournament_create(
        user=olga,
        name="Club night at the Golden Spoon",
        date="2026-12-01",
        rounds=3,
        seed=3,
        game_type=game,
        table_size=size if game != "crazy-kitchen" else None,
    ).tournament_id
    count = 3 * size
    if teams:
        names = [f"Team {n}" for n in range(1, count + 1)]
        members = [[f"Cook {n}a", f"Cook {n}b"] for n in range(1, count + 1)]
        t.tournament_register(
            tournament_id=tid, user=olga, names=names, members=members, checked_in=True
        )
    else:
        names = [f"Player with a long name {n:02d}" for n in range(1, count + 1)]
        t.tournament_register(tournament_id=tid, user=olga, names=names, checked_in=True)
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    assert len(t.tournament_get(tournament_id=tid, user=olga).summary["rounds"][0]["tables"]) == 3
    return tid


def pdf_pages(pdf: bytes) -> int:
    """The pages of a PDF as Chromium writes it: one ``/Type /Page`` object each (not
    ``/Type /Pages``, the tree)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


def test_every_games_score_sheets_print_one_table_per_a4_page_in_every_language(
    live_server: LiveServer,
    transactional_db: None,
    django_user_model: type[User],
    page: Page,
    console: Console,
    shots: Shots,
) -> None:
    page.set_default_timeout(TIMEOUT_MS)
    olga = django_user_model.objects.create_user(USERNAME, password=PASSWORD)
    rounds = {game: three_tables(olga, game, size, teams) for game, size, teams in GAMES}
    log_in(page, f"{live_server.url}/desk/")
    for language in ("en", "ru", "ja"):
        page.context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        for game, tid in rounds.items():
            page.emulate_media(media="null")  # page.pdf() prints with the print styles
            page.set_viewport_size(LAPTOP)
            page.goto(f"{live_server.url}/desk/{tid}/round/1/sheets/print/")
            assert page.locator("html").get_attribute("lang") == language
            expect(page.locator("section.sheet")).to_have_count(3)
            pages = pdf_pages(page.pdf(format="A4"))
            assert pages == 3, f"{game} in {language}: 3 tables print on {pages} A4 pages"
            page.emulate_media(media="print")
            page.set_viewport_size(A4_WIDE)  # laid out as on the paper
            for number, sheet in enumerate(page.evaluate(SHEET_HEIGHTS), start=1):
                assert sheet["height"] <= A4_CONTENT_PX, (
                    f"{game} in {language}: table {number}'s sheet is {sheet['height']:.0f} px "
                    f"high; an A4 page holds {A4_CONTENT_PX:.0f}"
                )
        if language == "ja":
            shots.take(page, f"sheets-print-{language}")
    page.emulate_media(media="null")


def enter_results(tid: uuid.UUID, user: User, table: int) -> None:
    entry = t.tournament_get(tournament_id=tid, user=user).summary["rounds"][0]
    seats = entry["tables"][table - 1]["seats"]
    game = GameProjection.objects.get(stream_id=entry["tables"][table - 1]["game"])
    games.game_enter_results(
        game_id=game.stream_id,
        expected_version=game.version,
        scores={s["name"]: [n + 1, n, 2] for n, s in enumerate(seats)},
        user=user,
    )


def test_during_a_round_the_tables_come_first_and_close_and_finish_ask_in_the_page(
    live_server: LiveServer,
    transactional_db: None,
    django_user_model: type[User],
    page: Page,
    console: Console,
    shots: Shots,
) -> None:
    page.set_default_timeout(TIMEOUT_MS)
    olga = django_user_model.objects.create_user(USERNAME, password=PASSWORD)
    tid = three_tables(olga, "trick-n-chef", 4, False)
    t.tournament_set_clock(tournament_id=tid, round=1, minutes=40, user=olga)
    enter_results(tid, olga, 1)
    page.set_viewport_size(LAPTOP)
    log_in(page, f"{live_server.url}/desk/{tid}/")
    panel = page.locator("#round-panel")

    # The first table's card starts above the fold; the clock is one line under the heading.
    first = panel.locator("#table-1")
    box: Any = first.bounding_box()
    assert box is not None and box["y"] < LAPTOP["height"] - 100, box
    clock = panel.locator(".clock-line .round-clock")
    expect(clock).to_be_visible()
    clock_box: Any = clock.bounding_box()
    assert clock_box["y"] < box["y"]
    stop = panel.get_by_role("button", name="Stop the clock")
    change = panel.get_by_role("button", name="Change the clock")
    assert stop.get_attribute("class") == change.get_attribute("class")  # a button like it
    assert stop.evaluate("b => getComputedStyle(b).borderStyle") != "none"
    look(page, shots, "laptop-round-tables-first")

    # Narrow phones: the published round, nothing sideways, no broken word.
    for width in (320, 390):
        page.set_viewport_size({"width": width, "height": 800})
        look(page, shots, f"phone-{width}-published")
        assert broken_words(page) == [], width

    # Stop the clock asks in the page; Escape cancels, the clock runs on.
    page.set_viewport_size(LAPTOP)
    stop.click()
    asked = page.locator("#confirm-box")
    expect(asked).to_be_focused()
    expect(asked).to_contain_text("Stop round 1's clock?")
    page.keyboard.press("Escape")
    expect(asked).to_have_count(0)
    expect(panel.locator(".clock-line .round-clock")).to_be_visible()

    # Close asks first; at 390 px its box fits too. Yes closes the round.
    for number in (2, 3):
        enter_results(tid, olga, number)
    t.tournament_confirm_finished(tournament_id=tid, round=1, user=olga)
    page.reload()
    panel.get_by_role("button", name="Close round 1", exact=True).click()
    expect(asked).to_be_focused()
    expect(asked).to_contain_text("Its results become final")
    page.set_viewport_size({"width": 390, "height": 800})
    look(page, shots, "phone-390-close-asks")
    assert broken_words(page) == []
    page.set_viewport_size(LAPTOP)
    asked.get_by_role("button", name="Yes, close round 1").click()
    expect(panel).to_contain_text("Round 1 is closed: every table's result counts.")
    assert t.tournament_get(tournament_id=tid, user=olga).summary["rounds"][0]["status"] == (
        "closed"
    )

    # Finish early asks first, saying how many rounds are played; Cancel changes nothing.
    panel.get_by_role("button", name="Finish early (no more rounds)").click()
    expect(asked).to_be_focused()
    expect(asked).to_contain_text("1 of its 3 rounds is played.")
    asked.get_by_role("link", name="Cancel").click()
    expect(asked).to_have_count(0)
    assert t.tournament_get(tournament_id=tid, user=olga).summary["status"] != "finished"
    panel.get_by_role("button", name="Finish early (no more rounds)").click()
    asked.get_by_role("button", name="Yes, finish the tournament").click()
    expect(panel).to_contain_text("The tournament is finished.")

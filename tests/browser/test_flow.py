"""A club evening in a real browser: Debian's Chromium (headless, a phone-sized viewport) driven
by Playwright against Django's live server, as a new organizer and scorekeeper would use it.

Olga logs in, creates a tournament on the organizer desk, pastes eight names, pairs round 1 and
publishes it. Table 1 is entered play by play on the scorekeeper's page, every tap of a simulated
game (the deal card by card, the Chef picks, each card with its coins, each Chef taken), with a
card against the rules refused on the spot and a wrong card undone; table 2 enters its results
from a paper sheet. Back on the desk she confirms both tables and closes the round; the public
standings must rank the players as the two games say; round 2 is then paired.

Every page visited is screenshotted (test-output/screenshots/test_a_club_evening/) and passes
the accessibility checker (tests/web/a11y.py); controls are found by their accessible names.
Any console error fails the test (tests/browser/conftest.py), but the one refusal announced.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from datetime import date
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("playwright.sync_api")

from django.contrib.auth.models import User  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from engine.tricknchef.events import CardPlayed, GameStarted  # noqa: E402
from engine.tricknchef.simulate import simulate  # noqa: E402
from games.models import GameProjection  # noqa: E402
from tests.browser.helpers import (  # noqa: E402
    TablePage,
    a_wrong_card,
    first_revoke,
    look,
    places,
    replayed,
    scaled_points,
    shown,
    starting,
)
from tournaments import services as t  # noqa: E402

if TYPE_CHECKING:
    from tests.browser.recorders import Console, Shots

pytestmark = pytest.mark.django_db(transaction=True)

USERNAME, PASSWORD = "olga", "Trick-n-Chef 2026!"
TOURNAMENT = "Friday Cup"
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]
SEED = 11
"""simulate(11, 4, ...) is a game with coins, a chance to revoke, and other legal cards to tap
by mistake (the test says so if a change to the engine makes it otherwise)."""
PAPER_SHEET = ([10, 12, 8], [9, 9, 9], [15, 3, 12], [7, 11, 10])
"""Table 2's round scores, by seat: seats 1 and 3 both total 30 (seat 3 scored more in round 3,
so it places first), then 28 and 27."""
TIMEOUT_MS = 10_000


def seating(tid: uuid.UUID, organizer: User, round: int) -> list[tuple[uuid.UUID, list[str]]]:
    """Each table's game and its players in seat order, as the tournament recorded them."""
    summary = t.tournament_get(tournament_id=tid, user=organizer).summary
    return [
        (uuid.UUID(table["game"]), [s["name"] for s in table["seats"]])
        for table in summary["rounds"][round - 1]["tables"]
    ]


def game_version(game_id: uuid.UUID) -> int:
    return GameProjection.objects.get(stream_id=game_id).version


def standings_rows(page: Page, caption: str) -> list[dict[str, str]]:
    """The public standings table (found by its accessible name) as a list of rows, each a
    mapping from column title to the cell's text."""
    table = page.get_by_role("table", name=caption)
    expect(table).to_be_visible()
    titles = [" ".join(h.split()) for h in table.locator("thead th").all_inner_texts()]
    rows = []
    for row in table.locator("tbody tr").all():
        cells = [" ".join(c.split()) for c in row.locator("th, td").all_inner_texts()]
        # the name alone (on a phone the row's deciding values follow it, under the name)
        cells[1] = " ".join(row.locator("th a").inner_text().split())
        rows.append(dict(zip(titles, cells, strict=True)))
    return rows


def test_a_club_evening(
    live_server: LiveServer,
    transactional_db: None,
    django_user_model: type[User],
    page: Page,
    console: Console,
    shots: Shots,
) -> None:
    page.set_default_timeout(TIMEOUT_MS)
    olga = django_user_model.objects.create_user(USERNAME, password=PASSWORD)

    # 1. The site, then the login page: typed, submitted, back where she came from.
    page.goto(live_server.url + "/")
    look(page, shots, "home")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Log in").click()
    expect(page.get_by_role("heading", name="Log in", level=1)).to_be_visible()
    page.get_by_label("Username").fill(USERNAME)
    page.get_by_label("Password").fill(PASSWORD)
    look(page, shots, "login")
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(live_server.url + "/")
    expect(page.get_by_role("button", name=f"Log out ({USERNAME})")).to_be_visible()

    # 2. The desk's "New tournament" form: 3 rounds, confirmed by an organizer, paired by hand.
    page.get_by_role("link", name="Organizer desk").click()
    expect(page.get_by_role("heading", name="New tournament")).to_be_visible()
    form = page.locator("form.new-tournament")
    form.get_by_label("Name", exact=True).fill(TOURNAMENT)
    form.get_by_label("Date", exact=True).fill(date(2026, 12, 4).isoformat())
    form.get_by_label("Swiss rounds").fill("3")
    form.get_by_text("How rounds run").click()  # the details, closed at first
    pairing = form.get_by_role("group", name="Pairing of the next round")
    pairing.get_by_role("radio", name=starting("By hand")).check()
    confirming = form.get_by_role("group", name="Who confirms a table's result")
    confirming.get_by_role("radio", name=starting("An organizer")).check()
    look(page, shots, "desk-new-tournament")
    form.get_by_role("button", name="Create the tournament").click()
    expect(page.get_by_role("heading", name=TOURNAMENT, level=1)).to_be_visible()
    expect(page.get_by_text(f"{TOURNAMENT} is created. Register the players next.")).to_be_visible()
    found = re.search(r"/desk/([0-9a-f-]{36})/", page.url)
    assert found is not None, page.url
    tid = uuid.UUID(found.group(1))
    settings = t.tournament_get(tournament_id=tid, user=olga).summary["settings"]
    assert (settings["rounds"], settings["confirmation"], settings["pairing"]) == (
        3,
        "organizer",
        "manual",
    )
    look(page, shots, "desk-created")

    # 3. Eight names pasted, everyone checked in at once.
    players = page.locator("#players-panel")
    players.get_by_label("Names, one per line").fill("\n".join(NAMES))
    players.get_by_label("Everyone on the list is here: check them all in").check()
    players.get_by_role("button", name="Register these players").click()
    expect(players.get_by_role("status").first).to_have_text(
        "Registered 8 players: Ana, Ben, Cleo, Dev, Eli, Fay and 2 more."
    )
    expect(page.locator("#player-counts")).to_contain_text("8 registered · 8 checked in")
    for name in NAMES:
        # "Here", then a visually hidden ": Ana" (Chromium names it "Here : Ana").
        here = players.get_by_role("button", name=re.compile(rf"^Here ?: {name}$"))
        expect(here).to_have_attribute("aria-pressed", "true")
    look(page, shots, "desk-registered")

    # 4. Pair round 1, look at the proposal, publish it.
    round_panel = page.locator("#round-panel")
    round_panel.get_by_role("button", name="Pair round 1").click()
    expect(round_panel).to_contain_text("Proposed random pairing: 2 tables.")
    proposed = round_panel.get_by_role("list", name="Proposed tables")
    expect(proposed.get_by_role("heading", name="Table 1")).to_be_visible()
    expect(proposed.get_by_role("heading", name="Table 2")).to_be_visible()
    look(page, shots, "desk-proposal")
    round_panel.get_by_text("Publish round 1", exact=True).click()  # it asks first
    round_panel.get_by_role("button", name="Yes, publish round 1").click()
    expect(round_panel).to_contain_text("Round 1 is published: 2 tables are open")
    look(page, shots, "desk-published")
    (game_1, seats_1), (game_2, seats_2) = seating(tid, olga, 1)

    # 5. Table 1, play by play.
    round_panel.get_by_role("link", name="Scorekeeper page of table 1").click()
    expect(page.get_by_role("heading", name=f"Table {', '.join(seats_1)}")).to_be_visible()
    events = simulate(SEED, 4, names=tuple(seats_1), first_player=seats_1[0])
    assert isinstance(events[0], GameStarted)
    assert sum(1 for e in events if isinstance(e, CardPlayed) and e.coins) > 5, "coins, please"
    revoke = first_revoke(events)
    wrong_at, wrong_card = a_wrong_card(events, after=revoke.index + 4)
    table = TablePage(page, replayed(events[:1]))
    started = game_version(game_1)  # game_started, and the game published with its round
    table.shows_turn()
    seen: set[str] = set()
    for index, event in enumerate(events[1:], start=1):
        phase = table.state.phase.value
        if phase not in seen:  # each kind of tap's page once: screenshot and checker
            seen.add(phase)
            look(page, shots, f"table-{phase.replace('_', '-')}")
        if index == revoke.index:
            before = game_version(game_1)
            table.refused(revoke, console)
            assert game_version(game_1) == before, "a refused card changed the game"
            look(page, shots, "table-refused")
        if index == wrong_at:
            table.wrong_card_undone(table.state.expected or "", wrong_card)
            look(page, shots, "table-undone")
        first_coins = isinstance(event, CardPlayed) and bool(event.coins) and "coins" not in seen
        if first_coins:  # the stepper set, the card about to be tapped
            seen.add("coins")
        table.enter(
            event, before_tap=partial(look, page, shots, "table-coins") if first_coins else None
        )
    final = replayed(events)
    placed_1 = places(final.totals, final.round_scores[-1])
    assert_ranking(page, placed_1)
    look(page, shots, "table-1-final")
    # Recorded: every tap, the wrong card and its retraction too (the revoke is not).
    assert game_version(game_1) == started + len(events[1:]) + 2

    # 6. Table 2, results only, from its paper sheet.
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Organizer desk").click()
    page.get_by_role("link", name=TOURNAMENT).click()
    round_panel = page.locator("#round-panel")
    expect(round_panel.locator("#table-1 .table-status")).to_have_text("Finished: to confirm")
    round_panel.get_by_role("link", name="Scorekeeper page of table 2").click()
    expect(page.get_by_role("heading", name=f"Table {', '.join(seats_2)}")).to_be_visible()
    assert page.url == f"{live_server.url}/table/{game_2}/"
    page.get_by_role("link", name="Enter the results").click()
    expect(page.get_by_role("heading", name=starting("Enter the results"))).to_be_visible()
    for player, scores in zip(seats_2, PAPER_SHEET, strict=True):
        for number, score in enumerate(scores, start=1):
            page.get_by_label(f"{player}, deal {number}", exact=True).fill(str(score))
    look(page, shots, "table-2-results-form")
    page.get_by_role("button", name="Record the results").click()
    totals_2 = {p: sum(s) for p, s in zip(seats_2, PAPER_SHEET, strict=True)}
    last_2 = {p: s[-1] for p, s in zip(seats_2, PAPER_SHEET, strict=True)}
    placed_2 = places(totals_2, last_2)
    assert_ranking(page, placed_2)
    look(page, shots, "table-2-final")

    # 7. The desk: both tables finished, to confirm; confirm them, close round 1.
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Organizer desk").click()
    page.get_by_role("link", name=TOURNAMENT).click()
    round_panel = page.locator("#round-panel")
    for number in (1, 2):
        card = round_panel.locator(f"#table-{number}")
        expect(card.get_by_role("heading", name=starting(f"Table {number}"))).to_contain_text(
            "Finished: to confirm"
        )
    look(page, shots, "desk-to-confirm")
    for number in (1, 2):
        round_panel.get_by_role("button", name=f"Confirm table {number}").click()
        expect(round_panel.locator(f"#table-{number} .table-status")).to_have_text("Confirmed")
    expect(round_panel).to_contain_text("Every table is confirmed.")
    round_panel.get_by_role("button", name="Close round 1", exact=True).click()
    round_panel.get_by_role("button", name="Yes, close round 1").click()  # it asks first
    expect(round_panel).to_contain_text("Round 1 is closed: every table's result counts.")
    look(page, shots, "desk-closed")

    # 8. The public standings, as anyone sees them.
    page.get_by_role("navigation", name="Sections of this page").get_by_role(
        "link", name="Public page"
    ).click()
    page.get_by_role("navigation", name=f"{TOURNAMENT}: pages").get_by_role(
        "link", name="Standings"
    ).click()
    expect(page.get_by_role("heading", name="Standings", level=1)).to_be_visible()
    rows = standings_rows(page, "Standings after 2 confirmed table results")
    look(page, shots, "public-standings")
    expected = expected_standings(
        [(placed_1, final.totals), (placed_2, totals_2)],
    )
    assert_standings(rows, expected)

    # 9. Round 2, paired from the desk.
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Organizer desk").click()
    page.get_by_role("link", name=TOURNAMENT).click()
    round_panel = page.locator("#round-panel")
    round_panel.get_by_role("button", name="Pair round 2").click()
    expect(round_panel.get_by_role("heading", name=starting("Round 2"))).to_be_visible()
    expect(round_panel).to_contain_text(re.compile(r"Proposed \w+ pairing: 2 tables\."))
    expect(round_panel.get_by_role("list", name="Proposed tables")).to_be_visible()
    expect(round_panel.get_by_text("Publish round 2", exact=True)).to_be_visible()
    look(page, shots, "desk-round-2-proposal")


def assert_ranking(page: Page, placed: Mapping[str, int]) -> None:
    """The table page's final ranking gives each player the place expected."""
    expect(page.get_by_role("heading", name="Final ranking")).to_be_visible()
    ranking = page.locator("ol.tbl-ranking > li")
    expect(ranking).to_have_count(len(placed))
    shown_places = {
        entry.locator("strong").inner_text(): int(entry.locator(".tbl-rank").inner_text())
        for entry in ranking.all()
    }
    assert shown_places == placed


def expected_standings(
    tables: list[tuple[Mapping[str, int], Mapping[str, int]]],
) -> dict[str, tuple[Fraction, int]]:
    """(tournament points, victory points) of each player, from each table's places and game
    totals."""
    result: dict[str, tuple[Fraction, int]] = {}
    for placed, totals in tables:
        for player, points in scaled_points(placed).items():
            result[player] = (points, totals[player])
    return result


def assert_standings(
    rows: list[dict[str, Any]], expected: Mapping[str, tuple[Fraction, int]]
) -> None:
    """Each player's points and victory points as expected, the rows sorted by points, then
    victory points (the first tie-break), both descending."""
    names = [row["Player"] for row in rows]
    assert sorted(names) == sorted(expected), names
    for row in rows:
        points, victory = expected[row["Player"]]
        assert row["Points"] == shown(points), (row, points)
        assert row["Victory points"] == str(victory), (row, victory)
    keys = [(expected[n][0], expected[n][1]) for n in names]
    assert keys == sorted(keys, reverse=True), f"not sorted by points, then victory points: {rows}"

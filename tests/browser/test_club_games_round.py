"""One tournament round of each of the club's other games in a real browser (Debian's Chromium):
Food Truck, Chefs and Crazy Kitchen (teams), as an organizer and her scorekeepers run it.

Olga creates the tournament on the desk, choosing the game and its table size; registers the
players (for Crazy Kitchen: each team and its players); pairs round 1 and publishes it. Each
table's results are entered on its scorekeeper page, in the game's own form (the numbers a paper
sheet gives). Back on the desk she confirms the tables and closes the round, and the public
standings must rank the entrants as the game's placement rule says, computed here by hand from
what was entered (docs/standings.md, "Other games").

Every page visited passes the accessibility checker and is screenshotted
(test-output/screenshots/); controls are found by their accessible names. Kept short: it runs
in CI on 2 cores.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from django.contrib.auth.models import User  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from tests.browser.helpers import (  # noqa: E402
    WIDER_THAN_THE_SCREEN,
    broken_words,
    look,
    starting,
)
from tests.browser.recorders import Shots  # noqa: E402
from tournaments import services as t  # noqa: E402

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

USERNAME, PASSWORD = "olga", "Trick-n-Chef 2026!"
TIMEOUT_MS = 10_000
PLAYERS = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay")
TEAMS = {"Pizza": ("Ana", "Ben", "Cleo"), "Fries": ("Dev", "Eli"), "Sushi": ("Fay", "Gus"),
         "Tacos": ("Hal", "Ivo")}  # fmt: skip
KITCHEN_SCORES = (10, 12, 8, 9, 7, 10)
"""Each Crazy Kitchen table's six round scores: the team in seat 1 cooks rounds 1, 3 and 5 (25),
the other rounds 2, 4 and 6 (31); the smaller of two teams of an odd total adds 15."""


@dataclass(frozen=True)
class Game:
    key: str
    label: str
    table_size: int
    enter: Callable[[Page, list[str]], dict[str, Fraction]]
    """Fill the table page's results form for these seats; the placement (or match) points
    each entrant earns by the game's rule."""


def enter_food_truck(page: Page, seats: list[str]) -> dict[str, Fraction]:
    # Seat 1 wins (3 victory points), seat 2 has 1, seat 3 none: places 1, 2, 3.
    for name, points in zip(seats, ("3", "1", "0"), strict=True):
        page.get_by_label(f"{name}'s victory points").fill(points)
    page.get_by_role("radio", name=seats[0]).check()
    return dict(zip(seats, map(Fraction, (6, 3, 0)), strict=True))  # "scaled" at 3: 6, 3, 0


def enter_chefs(page: Page, seats: list[str]) -> dict[str, Fraction]:
    # Seats 1 and 3 both reach 23 (they share first place: 6 + 3 split), seat 2 stops at 17.
    for name, position in zip(seats, ("23", "17", "23"), strict=True):
        page.get_by_label(f"{name}'s final position").fill(position)
    return {seats[0]: Fraction(9, 2), seats[1]: Fraction(0), seats[2]: Fraction(9, 2)}


def enter_crazy_kitchen(page: Page, seats: list[str]) -> dict[str, Fraction]:
    first, second = seats
    for number, score in enumerate(KITCHEN_SCORES, start=1):
        team = first if number % 2 else second
        page.get_by_label(f"Round {number} ({team} cooks)").fill(str(score))
    totals = {first: sum(KITCHEN_SCORES[0::2]), second: sum(KITCHEN_SCORES[1::2])}
    sizes = {team: len(TEAMS[team]) for team in seats}
    if sizes[first] != sizes[second]:
        totals[min(seats, key=sizes.__getitem__)] += 15
    winner = max(seats, key=totals.__getitem__)
    return {team: Fraction(2 if team == winner else 0) for team in seats}  # win 2, loss 0


GAMES = [
    Game("food-truck", "Food Truck", 3, enter_food_truck),
    Game("chefs", "Chefs", 3, enter_chefs),
    Game("crazy-kitchen", "Crazy Kitchen", 2, enter_crazy_kitchen),
]


def summary_tables(tid: uuid.UUID, organizer: User) -> list[dict[str, Any]]:
    """Round 1's tables as the tournament recorded them."""
    summary = t.tournament_get(tournament_id=tid, user=organizer).summary
    tables: list[dict[str, Any]] = summary["rounds"][0]["tables"]
    return tables


def seating(tid: uuid.UUID, organizer: User) -> list[list[str]]:
    """Round 1's tables, each its entrants in seat order."""
    return [[s["name"] for s in table["seats"]] for table in summary_tables(tid, organizer)]


def standings_points(page: Page) -> dict[str, str]:
    """Each entrant's points as the public standings table shows them (the column after the
    entrant's name)."""
    table = page.get_by_role("table").first
    expect(table).to_be_visible()
    shown: dict[str, str] = {}
    for row in table.locator("tbody tr").all():
        name = row.locator("th").first.inner_text().split("\n")[0].strip()
        shown[name] = row.locator("th ~ td").first.inner_text().strip()
    return shown


def figure(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else f"{float(value):.1f}"


@pytest.mark.parametrize("game", GAMES, ids=[g.key for g in GAMES])
def test_one_round_of_the_game_from_the_desk_to_the_public_standings(
    game: Game,
    live_server: LiveServer,
    transactional_db: None,
    django_user_model: type[User],
    page: Page,
    shots: Shots,
) -> None:
    page.set_default_timeout(TIMEOUT_MS)
    olga = django_user_model.objects.create_user(USERNAME, password=PASSWORD)
    name = f"{game.label} night"

    page.goto(f"{live_server.url}/desk/")
    page.get_by_label("Username").fill(USERNAME)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    # 1. The new tournament: the game and its table size.
    form = page.locator("form", has=page.get_by_role("button", name="Create the tournament"))
    form.get_by_label("Name", exact=True).fill(name)
    form.get_by_label("Date", exact=True).fill("2026-12-04")
    form.get_by_label("Swiss rounds").fill("3")
    form.get_by_label("Game", exact=True).select_option(game.key)
    if game.key != "crazy-kitchen":  # two teams a table: nothing to choose
        form.get_by_label("Players a table (optional)").fill(str(game.table_size))
    look(page, shots, f"{game.key} new tournament")
    form.get_by_role("button", name="Create the tournament").click()
    expect(page.get_by_role("heading", name=name, level=1)).to_be_visible()
    tid = uuid.UUID(page.url.split("/")[4])

    # 2. The entrants: players, or teams with their players.
    if game.key == "crazy-kitchen":
        for team, members in TEAMS.items():
            page.get_by_label("Team name").fill(team)
            page.get_by_label(starting("Its players")).fill("\n".join(members))
            page.get_by_role("button", name="Add team").click()
            added = list(TEAMS).index(team) + 1
            expect(page.locator("#player-counts")).to_contain_text(f"{added} registered")
    else:
        page.get_by_label("Names, one per line").fill("\n".join(PLAYERS))
        page.get_by_label("Everyone on the list is here: check them all in").check()
        page.get_by_role("button", name="Register these players").click()
        expect(page.locator("#player-counts")).to_contain_text("6 registered")
    look(page, shots, f"{game.key} entrants")

    # 3. Round 1 paired and published.
    panel = page.locator("#round-panel")
    panel.get_by_role("button", name="Pair round 1").click()
    expect(panel.get_by_role("list", name="Proposed tables")).to_be_visible()
    look(page, shots, f"{game.key} proposal")
    panel.get_by_text("Publish round 1", exact=True).click()
    panel.get_by_role("button", name="Yes, publish round 1").click()
    expect(panel).to_contain_text("Round 1 is published: 2 tables are open")
    tables = seating(tid, olga)
    assert [len(seats) for seats in tables] == [game.table_size] * 2

    # 4. Each table's results on its scorekeeper page, in the game's own form.
    expected: dict[str, Fraction] = {}
    for number, seats in enumerate(tables, start=1):
        page.locator("#round-panel").get_by_role(
            "link", name=f"Scorekeeper page of table {number}"
        ).click()
        page.get_by_role("link", name="Enter the results").click()
        expected |= game.enter(page, seats)
        look(page, shots, f"{game.key} table {number} results")
        page.get_by_role("button", name="Record the results").click()
        expect(page.get_by_role("heading", name="Final ranking")).to_be_visible()
        if game.key == "crazy-kitchen":  # the catch-up after rounds 2 and 4, shown
            expect(page.get_by_role("region", name="Upgrades")).to_be_visible()
        page.goto(f"{live_server.url}/desk/{tid}/")

    # 5. Confirmed and closed on the desk.
    panel = page.locator("#round-panel")
    panel.get_by_role("button", name="Confirm all finished tables").click()
    expect(panel).to_contain_text("Every table is confirmed.")
    panel.get_by_role("button", name="Close round 1", exact=True).click()
    panel.get_by_role("button", name="Yes, close round 1").click()  # it asks first
    expect(panel).to_contain_text("Round 1 is closed: every table's result counts.")

    # 6. The public standings rank the entrants as the game's rule says.
    page.get_by_role("navigation", name="Sections of this page").get_by_role(
        "link", name="Public page"
    ).click()
    page.get_by_role("navigation", name=f"{name}: pages").get_by_role(
        "link", name="Standings"
    ).click()
    expect(page.get_by_role("heading", name="Standings", level=1)).to_be_visible()
    look(page, shots, f"{game.key} standings")
    shown = standings_points(page)
    assert shown == {entrant: figure(points) for entrant, points in expected.items()}
    order = list(shown)  # the rows, top down: by points first (ties by the game's tie-breaks)
    assert [expected[e] for e in order] == sorted(expected.values(), reverse=True)

    # 7. At 320 and 390 px, in English, Russian and Japanese, none of the game's pages scrolls
    # sideways or breaks a word over two lines (issue 23).
    games = [table["game"] for table in summary_tables(tid, olga)]
    urls = (
        f"/t/{tid}/",
        f"/t/{tid}/standings/",
        f"/t/{tid}/round/1/",
        f"/t/{tid}/screen/",
        f"/desk/{tid}/",
        f"/desk/{tid}/history/",
        f"/desk/{tid}/round/1/sheets/print/",
        f"/desk/{tid}/round/1/pairings/print/",
        *(f"/table/{g}/" for g in games),
        *(f"/table/{g}/results/" for g in games[:1]),
        *(f"/g/{g}/" for g in games[:1]),
    )
    faults: list[str] = []
    # The narrowest phone in each language, and Japanese (whose headers broke) at 390 px too;
    # test_small_widths covers both widths in every language for Trick-n-Chef.
    for language, width, height in (("en", 320, 640), ("ru", 320, 640), ("ja", 320, 640),
                                    ("ja", 390, 844)):  # fmt: skip
        page.context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        page.set_viewport_size({"width": width, "height": height})
        for url in urls:
            response = page.goto(live_server.url + url)
            assert response is not None and response.ok, url
            where = f"{language} {width} px {url}"
            faults += [f"{where}: {w}" for w in page.evaluate(WIDER_THAN_THE_SCREEN)]
            faults += [f"{where}: {w}" for w in broken_words(page)]
    assert not faults, "\n".join(faults)

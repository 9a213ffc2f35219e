"""Who the standings rank, and how they show their figures (issue 23, items 10 and 17).

A player registered but never checked in, who has played no game, is not "last on 0 points":
the standings (API, CSV, desk, public page, big screen) list them apart unless the organizer
ranks them (the ``rank_not_checked_in`` setting); the others are ranked again among
themselves. Before round 1 is out the public page lists the entrants, not a ranking. Chefs at
tables of 5 and 6 earn shares like 3.75: the pages show one decimal (3.8), the API and the CSV
the exact value (docs/standings.md).
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.tournaments.helpers import new_tournament, play_round
from tests.web.desk import HTMX, desk, logged_in
from tests.web.desk import html as html_of
from tests.web.public import page, rows_of, text
from tournaments import services as t
from tournaments.api import exports
from tournaments.public.presenters import figure

pytestmark = pytest.mark.django_db

NO_SHOW = "Renée Côté"


def competition_ranking(ranks: list[int]) -> bool:
    """1, 2, 2, 4: each rank is the previous one (shared) or one more than the rows above."""
    return all(
        r == (ranks[i - 1] if i and r == ranks[i - 1] else i + 1) for i, r in enumerate(ranks)
    )


def with_a_no_show(organizer: User, capture: Any, **settings: Any) -> uuid.UUID:
    tid = new_tournament(organizer, ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"], **settings)
    teams = settings.get("game_type") == "crazy-kitchen"
    members = [[f"{NO_SHOW} 1", f"{NO_SHOW} 2"]] if teams else None
    t.tournament_register(tournament_id=tid, user=organizer, names=[NO_SHOW], members=members)
    return tid


def test_before_round_1_the_public_page_lists_the_entrants_not_a_ranking(
    client: Client, organizer: User, django_capture_on_commit_callbacks: Any
) -> None:
    tid = with_a_no_show(organizer, django_capture_on_commit_callbacks)
    html = page(client, f"/t/{tid}/standings/")
    assert '<table class="standings"' not in html and "(shared)" not in html
    assert "7 players registered" in text(html)
    for name in ("Ana", "Fay", NO_SHOW):
        assert f"<li>{name}</li>" in html.replace("&#x27;", "'")
    # the big screen shows no ranking either
    assert 'class="screen-standings' not in page(client, f"/t/{tid}/screen/")


def test_a_no_show_is_listed_apart_everywhere_unless_the_organizer_ranks_them(
    client: Client, organizer: User, django_capture_on_commit_callbacks: Any
) -> None:
    tid = with_a_no_show(organizer, django_capture_on_commit_callbacks, game_type="crazy-kitchen")
    # Crazy Kitchen: the losing teams (0 match points, a negative point difference) ranked
    # below the no-show (0 and 0) before: now they rank just after the winners
    play_round(
        tid,
        organizer,
        django_capture_on_commit_callbacks,
        lambda s: {"scores": [10, 12, 8, 9, 7, 10]},
    )
    data = t.tournament_standings(tournament_id=tid, user=None)
    names = [r["name"] for r in data["rows"]]
    assert NO_SHOW not in names and len(names) == 6
    assert [e["name"] for e in data["not_checked_in"]] == [NO_SHOW]
    ranks = [r["rank"] for r in data["rows"]]
    assert competition_ranking(ranks) and max(ranks) <= 6, ranks
    assert NO_SHOW not in exports.standings_csv(data)

    html = page(client, f"/t/{tid}/standings/")
    assert NO_SHOW not in [row[1] for row in rows_of(html, "standings")]
    assert f"Not checked in (not ranked): {NO_SHOW}" in text(html)
    screen = page(client, f"/t/{tid}/screen/")
    assert f"Not checked in (not ranked): {NO_SHOW}" in text(screen)
    assert NO_SHOW not in text(screen.split("screen-standings", 1)[1].split("</table>")[0])

    # The organizer ranks them after all: back in the rows, last, nobody listed apart
    t.tournament_change_settings(
        tournament_id=tid, changes={"rank_not_checked_in": True}, user=organizer
    )
    data = t.tournament_standings(tournament_id=tid, user=None)
    assert NO_SHOW in [r["name"] for r in data["rows"]] and data["not_checked_in"] == []
    assert "Not checked in" not in text(page(client, f"/t/{tid}/standings/"))


def test_checking_in_late_puts_the_player_in_the_standings_at_once(
    organizer: User, django_capture_on_commit_callbacks: Any
) -> None:
    tid = with_a_no_show(organizer, django_capture_on_commit_callbacks)
    play_round(
        tid,
        organizer,
        django_capture_on_commit_callbacks,
        lambda s: {"scores": {n: [i + 3, i, 2] for i, n in enumerate(s)}},
    )
    summary = t.tournament_get(tournament_id=tid, user=organizer).summary
    late = next(p["id"] for p in summary["players"] if p["name"] == NO_SHOW)
    assert [r["name"] for r in t.tournament_standings(tournament_id=tid, user=None)["rows"]].count(
        NO_SHOW
    ) == 0
    t.tournament_check_in(tournament_id=tid, user=organizer, player=late)
    rows = t.tournament_standings(tournament_id=tid, user=None)["rows"]
    assert rows[-1]["name"] == NO_SHOW and rows[-1]["points"] == 0


def test_without_check_in_everyone_registered_is_ranked(
    organizer: User, django_capture_on_commit_callbacks: Any
) -> None:
    tid = with_a_no_show(organizer, django_capture_on_commit_callbacks, check_in=False)
    data = t.tournament_standings(tournament_id=tid, user=None)
    assert NO_SHOW in [r["name"] for r in data["rows"]] and data["not_checked_in"] == []


@pytest.mark.parametrize(
    ("value", "decimal", "shown"),
    [(3.75, ".", "3.8"), (9.3, ".", "9.3"), (1.95, ".", "2"), (0.25, ",", "0,3"), (4.0, ".", "4"),
     (-1.25, ".", "-1.3"), (0.04, ".", "0")],
)  # fmt: skip
def test_the_pages_round_standings_figures_to_one_decimal_halves_up(
    value: float, decimal: str, shown: str
) -> None:
    assert figure(value, decimal, 1) == shown


def test_chefs_shares_show_one_decimal_on_the_pages_and_exact_in_the_api(
    client: Client, organizer: User, django_capture_on_commit_callbacks: Any
) -> None:
    names = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal", "Ivo", "Jo", "Kim"]
    tid = new_tournament(
        organizer, names, game_type="chefs", table_size=6, confirmation="auto", rounds=2
    )
    positions = [23, 19, 19, 14, 9, 5]  # 2nd and 3rd shared: 4.2 at a table of 6, 3.75 at 5
    play_round(
        tid,
        organizer,
        django_capture_on_commit_callbacks,
        lambda s: {"positions": dict(zip(s, positions[: len(s)], strict=True))},
    )
    data = t.tournament_standings(tournament_id=tid, user=None)
    exact = {r["name"]: r["points"] for r in data["rows"]}
    assert 3.75 in exact.values() and 4.2 in exact.values()
    assert "3.75" in exports.standings_csv(data)  # the CSV keeps the exact value
    rows = {r[1]: r for r in rows_of(page(client, f"/t/{tid}/standings/"), "standings")}
    for name, points in exact.items():
        assert rows[name][2] == figure(points, ".", 1)
        assert all(re.fullmatch(r"-?\d+(\.\d)?", cell) for cell in rows[name][2:]), rows[name]
    assert "3.8" in [r[2] for r in rows.values()]


def test_the_overview_shows_no_leaders_before_round_1(client: Client, organizer: User) -> None:
    tid = new_tournament(organizer, ["Ana", "Ben", "Cleo", "Dev"])
    assert '<ol class="leaders">' not in page(client, f"/t/{tid}/")
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    assert '<ol class="leaders">' in page(client, f"/t/{tid}/")


def test_the_organizer_ranks_the_no_shows_from_the_desk(organizer: User) -> None:
    tid = with_a_no_show(organizer, None)
    client = logged_in(organizer)
    dashboard = html_of(client.get(desk(tid)))
    assert 'name="public-rank_not_checked_in"' in dashboard  # on "What the public sees"
    saved = client.post(desk(tid, "settings/"), {"public-rank_not_checked_in": "on"}, headers=HTMX)
    assert saved.status_code == 200
    assert t.tournament_get(tournament_id=tid, user=organizer).summary["settings"][
        "rank_not_checked_in"
    ]
    data = t.tournament_standings(tournament_id=tid, user=None)
    assert NO_SHOW in [r["name"] for r in data["rows"]] and data["not_checked_in"] == []


def test_a_tournament_created_ranking_its_no_shows(organizer: User) -> None:
    tid = t.tournament_create(
        user=organizer, name="Open", date="2026-12-01", rounds=2, rank_not_checked_in=True
    ).tournament_id
    t.tournament_register(tournament_id=tid, user=organizer, names=["Ana", NO_SHOW])
    data = t.tournament_standings(tournament_id=tid, user=None)
    assert [r["name"] for r in data["rows"]] == ["Ana", NO_SHOW] and data["not_checked_in"] == []

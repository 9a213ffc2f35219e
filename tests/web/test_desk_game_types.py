"""The desk and the public pages for tournaments of other games: the game and its table size on
the new tournament's form (a size the game does not allow refused in words), teams registered
with their players, the teams' players shown in the players lists and the pairings, and seat 1
named for what it is in each game."""

from __future__ import annotations

from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.gametypes import GAME_TYPES
from tests.web.desk import desk, html, logged_in, summary, text
from tournaments import services as t

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Truck night",
    "date": "2026-12-04",
    "rounds": "3",
    "scoring": "scaled",
    "tiebreak_1": "victory_points",
    "pairing": "manual",
    "publish": "manual",
    "round1": "order",
    "confirmation": "organizer",
    "check_in": "",
}


def test_the_new_tournament_form_offers_the_games_and_a_table_size(olga: User) -> None:
    client = logged_in(olga)
    home = html(client.get("/desk/"))
    assert '<option value="food-truck">Food Truck (2 to 5 players a table)</option>' in home
    assert 'name="table_size"' in home
    created = client.post("/desk/new/", {**FORM, "game_type": "food-truck", "table_size": "3"})
    assert created.status_code == 302
    tid = created["Location"].split("/")[2]
    state = summary(tid, olga)
    assert (state["game_type"], state["settings"]["table_size"]) == ("food-truck", 3)
    page = text(client.get(desk(tid)))
    assert "Game Food Truck" in page and "Full table 3 players" in page


def test_the_tie_breaks_note_names_every_game_and_how_it_ranks(olga: User) -> None:
    """Built from the registry: the tie-breaks offered are those of the games the Swiss
    standings rank; every other game says its own order."""
    page = unescape(text(logged_in(olga).get("/desk/")))
    swiss = ", ".join(k.name for k in GAME_TYPES.values() if k.standings_rule is None)
    assert f"These tie-breaks are {swiss}'s. The other games keep their own order:" in page
    for kind in GAME_TYPES.values():
        if kind.standings_rule is not None:
            assert kind.standings_rule.order % {"game": kind.name} in page
    assert (
        "Crazy Kitchen ranks teams by match points (2 for a win, 1 for a draw), then point "
        "difference, then points scored." in page
    )


def test_a_table_size_the_game_does_not_allow_comes_back_in_words(olga: User) -> None:
    client = logged_in(olga)
    refused = client.post("/desk/new/", {**FORM, "game_type": "chefs", "table_size": "7"})
    assert refused.status_code == 422
    assert "a Chefs table seats 2 to 6 players, not 7" in html(refused)
    assert 'value="Truck night"' in html(refused)  # the form keeps what was typed


def test_teams_are_registered_at_the_desk_and_shown_with_their_players(olga: User) -> None:
    client = logged_in(olga)
    created = client.post("/desk/new/", {**FORM, "game_type": "crazy-kitchen"})
    tid = created["Location"].split("/")[2]
    page = html(client.get(desk(tid)))
    assert "Add a team" in page and "Paste a list or upload a CSV" not in page
    teams = {
        "Pizza": "Ana\nBen",
        "Fries": "Cleo, Dev, Eli",
        "Sushi": "Fay\nGus",
        "Tacos": "Hal\nIvo",
    }
    for name, members in teams.items():
        added = client.post(
            desk(tid, "players/team/"), {"team-name": name, "team-members": members}
        )
        assert added.status_code == 302
    assert [p["members"] for p in summary(tid, olga)["players"]][1] == ["Cleo", "Dev", "Eli"]
    page = text(client.get(desk(tid)))
    assert "Fries Cleo, Dev, Eli" in page

    solo = client.post(desk(tid, "players/team/"), {"team-name": "Solo", "team-members": "Jo"})
    assert solo.status_code == 422
    assert "Team Solo has 1 player; a team needs at least 2." in html(solo)

    t.tournament_pair(tournament_id=summary(tid, olga)["id"], user=olga)
    proposal = html(client.get(desk(tid)))
    assert "cooks first" in proposal and "first player" not in proposal
    assert (
        "No match repeats an earlier one, no side rule is broken, and the score difference is"
        in proposal
    )
    assert "Cleo, Dev, Eli" in proposal


def test_the_public_pages_show_the_teams_players_and_who_cooks_first(olga: User) -> None:
    tid = t.tournament_create(
        user=olga, name="Cup", date="2026-12-01", rounds=2, game_type="crazy-kitchen"
    ).tournament_id
    t.tournament_register(
        tournament_id=tid,
        user=olga,
        names=["Pizza", "Fries"],
        members=[["Ana", "Ben"], ["Cleo", "Dev", "Eli"]],
        checked_in=True,
    )
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    public = Client()
    overview = text(public.get(f"/t/{tid}/"))
    assert "Pizza Ana, Ben" in overview and "Fries Cleo, Dev, Eli" in overview
    pairings = text(public.get(f"/t/{tid}/round/1/"))
    assert "cooks first" in pairings and "first player" not in pairings
    assert "Cleo, Dev, Eli" in pairings
    screen = text(public.get(f"/t/{tid}/screen/"))
    assert "plays first" not in screen and "(Ana, Ben)" in screen


def test_other_games_public_pairings_name_no_first_player(olga: User) -> None:
    tid = t.tournament_create(
        user=olga, name="Race", date="2026-12-01", rounds=2, game_type="chefs"
    ).tournament_id
    names = ["Ana", "Ben", "Cleo", "Dev"]
    t.tournament_register(tournament_id=tid, user=olga, names=names, checked_in=True)
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    pairings = text(Client().get(f"/t/{tid}/round/1/"))
    assert "Ana" in pairings and "first player" not in pairings

"""Every page and file that shows standings, for a game other than Trick-n-Chef: a Crazy
Kitchen tournament (teams, match points) after round 1, in English and in French."""

from __future__ import annotations

import csv
import io
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from tests.tournaments.helpers import new_tournament, play_round
from tests.web.desk import desk, logged_in, text
from tests.web.public import rows_of

pytestmark = pytest.mark.django_db
TEAMS = ["Pizza", "Fries", "Tacos", "Sushi", "Curry"]


@pytest.fixture
def organizer(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="x")


@pytest.fixture
def kitchen(
    organizer: User, django_capture_on_commit_callbacks: Any
) -> tuple[uuid.UUID, dict[str, Any]]:
    """Round 1 played: on each table seat 2 wins 31 to 25; one team has the bye."""
    tid = new_tournament(
        organizer,
        names=TEAMS,
        game_type="crazy-kitchen",
        confirmation="auto",
        downloads_released=True,
    )
    rnd = play_round(
        tid,
        organizer,
        django_capture_on_commit_callbacks,
        lambda seated: {"scores": [10, 12, 8, 9, 7, 10]},
    )
    return tid, rnd


def test_the_public_standings_say_team_and_match_points_and_explain_the_criteria(
    client: Client, kitchen: tuple[uuid.UUID, dict[str, Any]]
) -> None:
    tid, rnd = kitchen
    response = client.get(f"/t/{tid}/standings/")
    html, page = response.content.decode(), text(response)
    assert "Rank Team Match points Point difference Points scored Wins Draws Losses" in page
    winner = rnd["tables"][0]["seats"][1]["name"]
    assert [winner, "2", "6", "31", "1", "0", "0", "1", "0"] in [
        r[1:] for r in rows_of(html, "standings")
    ]
    # on a phone, the row says what decided its place under the name, labelled
    assert f'{winner}</a><span class="row-figures"' in html
    assert "Diff.</span>&nbsp;6</span> <span" in html and "Scored</span>&nbsp;31</span>" in html
    assert "1. Point difference Points scored minus points conceded" in page
    assert "Victory points" not in page and "Opponents' average" not in page


def test_the_player_page_shows_a_rounds_match_points_and_the_bye(
    client: Client, kitchen: tuple[uuid.UUID, dict[str, Any]]
) -> None:
    tid, rnd = kitchen
    table = rnd["tables"][0]
    loser, winner = table["seats"][0]["player"], table["seats"][1]["player"]
    page = text(client.get(f"/t/{tid}/player/{winner}/"))
    assert "Points scored 31 Match points 2" in page
    assert "Points scored 25 Match points 0" in text(client.get(f"/t/{tid}/player/{loser}/"))
    bye = rnd["byes"][0]["player"]
    assert "worth 2 tournament points" in text(client.get(f"/t/{tid}/player/{bye}/"))


def test_the_big_screen_and_the_overview(
    client: Client, kitchen: tuple[uuid.UUID, dict[str, Any]]
) -> None:
    tid, _ = kitchen
    assert "Rank Team Match points" in text(client.get(f"/t/{tid}/screen/"))
    overview = text(client.get(f"/t/{tid}/"))
    assert "Match points scoring. A win is worth 2 match points, a draw 1 and a loss 0." in overview
    assert "A bye counts as a win" in overview and "Point difference" in overview


def test_the_api_csv_and_desk_standings(
    client: Client, organizer: User, kitchen: tuple[uuid.UUID, dict[str, Any]]
) -> None:
    tid, _ = kitchen
    data = client.get(f"/api/tournaments/{tid}/standings/").json()
    assert data["rule"]["kind"] == "match" and data["rule"]["bye"] == "win"
    assert {"wins", "draws", "losses"} <= set(data["rows"][0])

    table = client.get(f"/api/tournaments/{tid}/standings.csv").content.decode("utf-8-sig")
    header = next(csv.reader(io.StringIO(table)))
    assert header == [
        "Rank", "Team", "Match points", "Point difference", "Points scored",
        "Wins", "Draws", "Losses", "Games", "Byes", "Dropped",
    ]  # fmt: skip
    results = client.get(f"/api/tournaments/{tid}/results.csv").content.decode("utf-8-sig")
    assert next(csv.reader(io.StringIO(results)))[3:6] == ["Team", "Place", "Points scored"]

    page = text(logged_in(organizer).get(desk(tid)))
    assert "Rank Team Match points Point difference Points scored Wins" in page


def test_in_french(client: Client, kitchen: tuple[uuid.UUID, dict[str, Any]]) -> None:
    tid, _ = kitchen
    with translation.override("fr"):
        page = text(client.get(f"/t/{tid}/standings/", HTTP_ACCEPT_LANGUAGE="fr"))
        api = client.get(f"/api/tournaments/{tid}/standings/", HTTP_ACCEPT_LANGUAGE="fr").json()
        team, points, difference = (
            translation.gettext("Team"),
            translation.gettext("Match points"),
            translation.gettext("Point difference"),
        )
    assert team != "Team" and points != "Match points"
    assert f"{team} {points} {difference}" in page
    assert [c["title"] for c in api["columns"]][1:3] == [team, points]
    assert api["rule"]["tiebreaks"][0]["title"] == difference

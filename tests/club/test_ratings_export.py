"""Issue 26's key test: the club's ratings can be computed again, by anyone, from the results
export alone. Two tournaments (a no-show in one; in the other a correction: a table's results
retracted and entered again in another order, so the tournament's result is withdrawn and
recorded again), then the export is rated with openskill directly, at its defaults, in the
export's order: every member's mu, sigma, ordinal and games are the league's ratings."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from openskill.models import PlackettLuce
from rest_framework.test import APIClient

from club import domain
from games import services as games
from games.models import GameProjection
from tests.club.api.conftest import club_caught_up, forget_the_clubs_kept_reads
from tests.club.helpers import by_seat, season_tournament
from tests.tournaments.helpers import new_tournament, play_round, stream_types, summary
from tests.web.api import token_client
from tournaments import services as t

pytestmark = pytest.mark.django_db
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]
GAME = "trick-n-chef"


@pytest.fixture(autouse=True)
def _kept_reads_forgotten() -> None:
    forget_the_clubs_kept_reads()


@pytest.fixture
def olga(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="x", is_staff=True)


def reversed_seats(names: list[str]) -> dict[str, Any]:
    """The last seat first: another order than :func:`by_seat`'s."""
    return by_seat(list(reversed(names)))


def corrected_tournament(user: User, on_commit: Any) -> tuple[uuid.UUID, str]:
    """A finished tournament of two rounds whose round 1, table 1 was entered, retracted and
    entered again in another order; returns it and that table's game."""
    tid = new_tournament(
        user, names=NAMES, name="Winter night", date="2026-12-08", rounds=2, confirmation="auto"
    )
    play_round(tid, user, on_commit, by_seat)
    table = summary(tid)["rounds"][0]["tables"][0]
    game_id = uuid.UUID(table["game"])
    names = [s["name"] for s in table["seats"]]
    game = GameProjection.objects.get(stream_id=game_id)
    with on_commit(execute=True):
        games.game_correct(
            game_id=game_id,
            expected_version=game.version,
            retract=1,
            user=user,
            reason="the scores were read off the wrong sheet",
        )
    game = GameProjection.objects.get(stream_id=game_id)
    with on_commit(execute=True):
        games.game_enter_results(
            game_id=game_id, expected_version=game.version, entry=reversed_seats(names), user=user
        )
    for number in (1, 2):
        played = summary(tid)["rounds"][number - 1]
        for tb in played["tables"]:
            if not tb["confirmed"]:
                t.tournament_confirm(tournament_id=tid, round=number, table=tb["table"], user=user)
        if summary(tid)["rounds"][number - 1]["status"] != "closed":
            t.tournament_close_round(tournament_id=tid, round=number, user=user)
        if number == 1:
            play_round(tid, user, on_commit, by_seat)
    t.tournament_finish(tournament_id=tid, user=user)
    return tid, str(game_id)


def test_the_ratings_are_the_export_rated_again_with_openskill(
    committed_db: None, olga: User, django_capture_on_commit_callbacks: Any
) -> None:
    first = season_tournament(
        olga, NAMES, on_commit=django_capture_on_commit_callbacks, no_shows=("Zed",)
    )
    second, corrected = corrected_tournament(olga, django_capture_on_commit_callbacks)
    types = stream_types(second)
    assert "result_withdrawn" in types  # the correction withdrew the table's result ...
    assert types.count("result_recorded") == 5  # ... and recorded it again (4 tables + 1)
    club_caught_up()

    official = token_client(olga)
    league = official.post("/api/leagues/", {"name": "Season 2026"}).json()["id"]
    for tid in (first, second):
        linked = official.post(f"/api/leagues/{league}/tournaments/", {"tournament": str(tid)})
        assert linked.status_code == 201, linked.content

    anon = APIClient()
    export = anon.get(f"/api/club/results/?game={GAME}")
    assert export.status_code == 200, export.content
    games_ = export.json()
    assert len(games_) == 8  # each game once: the withdrawn result is not rated
    [again] = [g for g in games_ if g["game"] == corrected]
    by_place = sorted(again["teams"], key=lambda team: team["place"])
    seats = [s["name"] for s in summary(second)["rounds"][0]["tables"][0]["seats"]]
    assert [team["members"] for team in by_place] == [
        [domain.default_member(n)] for n in reversed(seats)
    ]  # as entered again, not as first entered
    zed = domain.default_member("Zed")
    assert zed not in {m for g in games_ for team in g["teams"] for m in team["members"]}

    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    played: dict[str, int] = {}
    for game in games_:  # the export's order is the ratings' order
        if not game["rated"]:
            continue
        teams = [[m for m in team["members"]] for team in game["teams"]]
        rated = model.rate(
            [[ratings.get(m) or model.rating() for m in team] for team in teams],
            ranks=[team["place"] for team in game["teams"]],
        )
        for team, new in zip(teams, rated, strict=True):
            for member, rating in zip(team, new, strict=True):
                ratings[member] = rating
                played[member] = played.get(member, 0) + 1

    response = anon.get(f"/api/leagues/{league}/ratings/?game={GAME}")
    assert response.status_code == 200, response.content
    served = {row["member"]: row for row in response.json()}
    assert set(served) == set(ratings) == {domain.default_member(n) for n in NAMES}
    for member, rating in ratings.items():
        row = served[member]
        assert row["mu"] == pytest.approx(rating.mu, abs=1e-9), member
        assert row["sigma"] == pytest.approx(rating.sigma, abs=1e-9), member
        assert row["ordinal"] == pytest.approx(rating.mu - 3 * rating.sigma, abs=1e-9), member
        assert row["games"] == played[member] == 4, member

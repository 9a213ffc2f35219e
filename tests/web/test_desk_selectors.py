"""The desk's selectors (tournaments.desk.selectors): the queries it makes beside the services,
and the check-in that goes to the service without reading the tournament first."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth.models import User

from tests.web.desk import HTMX, desk, html, logged_in, new_tournament, summary
from tournaments import services as t
from tournaments.desk import selectors
from tournaments.desk.views import players as player_views

pytestmark = pytest.mark.django_db

TWELVE = [f"Player {n:02d}" for n in range(1, 13)]


def test_roles_are_per_user_and_per_tournament(olga: User, sam: User) -> None:
    club = new_tournament(olga, names=[])
    other = new_tournament(olga, names=[], name="Other night")
    t.tournament_set_role(
        tournament_id=club, username="sam", role="scorekeeper", grant=True, user=olga
    )
    assert selectors.roles_in(tournament_id=club, user_id=olga.pk) == {"organizer"}
    assert selectors.roles_in(tournament_id=club, user_id=sam.pk) == {"scorekeeper"}
    assert selectors.roles_in(tournament_id=other, user_id=sam.pk) == set()
    assert selectors.roles_by_tournament(user_id=olga.pk) == {
        club: {"organizer"},
        other: {"organizer"},
    }
    assert selectors.roles_by_tournament(user_id=sam.pk) == {club: {"scorekeeper"}}


def test_a_game_is_a_table_of_its_own_tournament_only(olga: User) -> None:
    club = new_tournament(olga, names=TWELVE)
    other = new_tournament(olga, names=TWELVE, name="Other night")
    t.tournament_pair(tournament_id=club, user=olga)
    game = uuid.UUID(
        t.tournament_publish(tournament_id=club, round=1, user=olga).state["rounds"][0]["tables"][
            0
        ]["game"]
    )
    assert selectors.has_table(tournament_id=club, game_id=game)
    assert not selectors.has_table(tournament_id=other, game_id=game)
    assert not selectors.has_table(tournament_id=club, game_id=uuid.uuid4())


def test_a_check_in_goes_to_the_service_without_reading_the_tournament_first(
    olga: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    tid = new_tournament(olga, names=TWELVE)
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_register(tournament_id=tid, user=olga, names=["Late"], checked_in=False)

    def no_read(*args: object, **kwargs: object) -> None:
        raise AssertionError("the check-in read the whole tournament")

    monkeypatch.setattr(player_views, "tournament_seen", no_read)
    client = logged_in(olga)
    row = client.post(desk(tid, "players/P13/check-in/"), {"checked_in": "1"}, headers=HTMX)
    assert row.status_code == 200 and 'aria-pressed="true"' in html(row)
    # A stale double tap changes nothing and says so.
    again = client.post(desk(tid, "players/P13/check-in/"), {"checked_in": "1"})
    assert again.status_code == 302
    assert summary(tid, olga)["players"][12]["checked_in"]
    # Taking it back finds the name in the history.
    off = client.post(desk(tid, "players/P13/check-in/"), {"checked_in": "0"}, headers=HTMX)
    assert off.status_code == 200 and 'aria-pressed="false"' in html(off)
    assert not summary(tid, olga)["players"][12]["checked_in"]
    # Taking back a check-in that is not there: nothing to change.
    before = summary(tid, olga)["version"]
    assert client.post(desk(tid, "players/P13/check-in/"), {"checked_in": "0"}).status_code == 302
    assert summary(tid, olga)["version"] == before


def test_checking_in_someone_who_is_not_registered_is_a_404(olga: User) -> None:
    tid = new_tournament(olga, names=TWELVE, checked_in=False)
    client = logged_in(olga)
    for wanted in ("1", "0"):
        response = client.post(desk(tid, "players/P99/check-in/"), {"checked_in": wanted})
        assert response.status_code == 404, wanted
    assert client.post(desk(tid, "players/P99/check-in/"), {}).status_code == 404

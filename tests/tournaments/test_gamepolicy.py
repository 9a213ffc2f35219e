"""The tournaments app's answers to the games app (tournaments/gamepolicy.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import GameProjection
from tests.tournaments.helpers import new_tournament
from tournaments import services as t
from tournaments.gamepolicy import tournament_seating
from tournaments.models import TournamentTable

pytestmark = pytest.mark.django_db


def test_a_tables_seating_reads_neither_the_tournaments_state_nor_its_standings(
    django_user_model: type[User],
) -> None:
    """The table page asks at every tap: a 1,000-player tournament's row is ~600 KB."""
    olga = django_user_model.objects.create_user("olga", password="x")
    tid = new_tournament(olga)
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    table = TournamentTable.objects.get(tournament_id=tid, round=1, number=1)
    game = GameProjection.objects.get(stream_id=table.game_id)
    with CaptureQueriesContext(connection) as queries:
        seating = tournament_seating(game)
    assert seating is not None
    assert seating.where == "Club night · round 1 · table 1"
    assert seating.first_player == table.seats[0]
    [query] = queries.captured_queries
    assert 'tournamentprojection"."state"' not in query["sql"]
    assert 'tournamentprojection"."standings"' not in query["sql"]

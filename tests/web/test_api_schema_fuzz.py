"""The API's schema tells the truth: schemathesis generates requests from ``/api/schema/``
(valid ones, and ones the schema forbids) and checks every answer against it.

Run in process against the Django WSGI application (no network), authenticated with the token of
a user who may write. Checked for every operation: no 5xx; documented status codes, content
types, headers and bodies; requests the schema forbids refused with a 4xx. Schemathesis's
coverage phase (each parameter's and field's boundaries, empty and missing values) and a few
derandomized fuzzing examples per operation keep it to about a minute on two cores; run more
with ``TNC_SCHEMA_EXAMPLES=200``, or only the fuzzing with ``TNC_SCHEMA_COVERAGE=0``.

Game and tournament ids are generated, so most writes meet a 404: the run checks the API's
shape, not its rules (tests/web/test_api.py and test_tournament_api.py play real games). The
games' own endpoints are run once more against a real game of each club game (issue 15).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token

from engine.games import RULES
from games import services
from tests.games.records import start_args

MAX_EXAMPLES = int(os.environ.get("TNC_SCHEMA_EXAMPLES", "5"))
TOKEN = "5c4ema7e5715" + "0" * 28
"""The writer's API token (40 characters, as DRF's are)."""

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


@pytest.fixture(autouse=True)
def _connection_kept_between_requests() -> Iterator[None]:
    """A WSGI handler closes the database connection after each request; the test's
    transaction must outlive them (Django's test client disconnects the same receiver)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture(autouse=True)
def writer(django_user_model: type[User]) -> User:
    """A user who may write, with the token the requests send."""
    cache.clear()  # the token endpoint's throttle counts
    user = django_user_model.objects.create_user("ana", password="s3cret-pass")
    Token.objects.create(user=user, key=TOKEN)
    return user


@schemathesis.serializer("application/jsonl")
def _record_file(context: schemathesis.SerializationContext, value: Any) -> bytes | None:
    """A record file to import: the schema says binary; schemathesis generates bytes or text."""
    if value is None:
        return None
    return value if isinstance(value, bytes) else str(value).encode("utf-8", "surrogatepass")


# Read at collection: the schema view needs no database.
schema = schemathesis.openapi.from_wsgi(
    "/api/schema/", WSGIHandler(), headers={"Accept": "application/vnd.oai.openapi+json"}
)
schema.config.generation.update(
    modes=[schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE],
    max_examples=MAX_EXAMPLES,
    deterministic=True,
    database="none",
)
schema.config.phases.coverage.enabled = os.environ.get("TNC_SCHEMA_COVERAGE", "1") == "1"
# A request the schema allows may still be refused by the rules (422, a documented answer: a
# game of 0 players, a round that is not the next one, a record file that is not a record).
schema.config.checks.positive_data_acceptance.expected_statuses = [
    "2xx",
    "3xx",
    "401",
    "403",
    "404",
    "409",
    "422",
    "429",
]


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_answers_as_its_schema_says(case: Any) -> None:
    excluded = []
    if case.path == "/api/auth/token/":
        # Generated credentials are wrong: 400, as DRF answers, though the body is well formed.
        excluded.append(schemathesis.checks.positive_data_acceptance)
    case.call_and_validate(headers={"Authorization": f"Token {TOKEN}"}, excluded_checks=excluded)


CLUB_GAMES = ("food-truck", "chefs", "crazy-kitchen")
_turn = itertools.count()


@pytest.fixture
def club_games(writer: User) -> list[str]:
    """A game of each club game, a few events in (issue 15): the generated requests meet real
    games of every type, not only 404s."""
    ids = []
    for key in CLUB_GAMES:
        record = RULES[key].simulate(1, 4)
        players, options = start_args(record[0])
        game = services.game_create(players=players, game_type=key, options=options, user=writer)
        services.game_append(
            game_id=game.game_id, expected_version=game.version, events=record[1:3], user=writer
        )
        ids.append(str(game.game_id))
    return ids


# SQLite pass only: the database's own hazards (a NUL byte, an integer past its column) are
# probed on both backends by the test above; this one is about each game's request shapes.
@pytest.mark.one_backend
@schema.include(path_regex=r"^/api/games/\{game_id\}/").parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_club_games_answer_as_the_schema_says(case: Any, club_games: list[str]) -> None:
    """The same checks on the games' own endpoints, each request to a real Food Truck, Chefs or
    Crazy Kitchen game in turn: their events, results entries and records of every shape."""
    case.path_parameters = {
        **(case.path_parameters or {}),
        "game_id": club_games[next(_turn) % len(club_games)],
    }
    case.call_and_validate(headers={"Authorization": f"Token {TOKEN}"})

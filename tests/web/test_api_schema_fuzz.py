"""The API's schema tells the truth: schemathesis generates requests from ``/api/schema/``
(valid ones, and ones the schema forbids) and checks every answer against it.

Run in process against the Django WSGI application (no network), authenticated with the token of
a user who may write. Checked for every operation (:data:`CHECKS`): no 5xx; documented status
codes, content types, headers and bodies; requests the schema forbids refused with a 4xx; and
requests it allows not refused for their shape (400, or a 422 the schema could have said: issue
22's ``players: []``, ``rounds: 0``, ``events: []``, an empty settings change, ``ends_at`` with
``minutes``). What a schema cannot say, the state or a rule across values, is
:func:`the_rules_may_refuse`'s (schemathesis.toml says the same to a run against a server,
where the ids are real). Schemathesis's coverage phase (each parameter's and field's
boundaries, empty and missing values) and a few derandomized fuzzing examples per operation
keep it to a minute or two on two cores; run more with ``TNC_SCHEMA_EXAMPLES=200``, or only the
fuzzing with ``TNC_SCHEMA_COVERAGE=0``.

Game and tournament ids are generated, so most writes meet a 404: the run checks the API's
shape, not its rules (tests/web/test_api.py and test_tournament_api.py play real games). The
games' own endpoints are run once more against a real game of each club game (issue 15), and a
tournament's reads against a real tournament of someone else's (issue 22: its downloads' 403).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import schemathesis
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token

from engine.registry import RULES
from games import services
from games.gametypes import GAME_TYPES
from games.names import normalize_name
from tests.games.records import start_args
from tournaments import services as tournaments
from tournaments.api.serializers import TIME_ZONE_FORMAT
from tournaments.domain import time_zone_names

MAX_EXAMPLES = int(os.environ.get("TNC_SCHEMA_EXAMPLES", "5"))


def _regex_strategies_made_once() -> None:
    """Hypothesis builds a fresh strategy for every regex pattern it is given, walking each
    range of a character class code point by code point. A player's name has a class of every
    visible character (games.api.schema.player_name: 150,000 code points), and schemathesis's
    coverage phase asks for it about a hundred times at collection: 70 s of CPU in every pytest
    worker that collects this module. A strategy is an immutable value, so one per pattern (and
    alphabet) serves every case; the cases drawn stay the same."""
    from hypothesis.strategies._internal import regex as hypothesis_regex

    make = getattr(hypothesis_regex, "regex_strategy", None)
    if make is None or getattr(make, "made_once", False):  # another Hypothesis: leave it be
        return
    made: dict[tuple[Any, ...], Any] = {}

    def regex_strategy(regex: Any, fullmatch: bool, *, alphabet: Any, **options: Any) -> Any:
        pattern = getattr(regex, "pattern", regex)
        key = (pattern, getattr(regex, "flags", 0), fullmatch, id(alphabet), *options.items())
        if key not in made:
            made[key] = (make(regex, fullmatch, alphabet=alphabet, **options), alphabet)
        return made[key][0]  # the alphabet is kept alive with it, so its id stays its own

    regex_strategy.made_once = True  # type: ignore[attr-defined]
    hypothesis_regex.regex_strategy = regex_strategy


_regex_strategies_made_once()

# A time zone (the schema's format for it): one of the names the server knows.
schemathesis.openapi.format(TIME_ZONE_FORMAT, st.sampled_from(sorted(time_zone_names())))
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


# Read at collection: the schema view needs no database. Not schemathesis.toml's configuration:
# this run is stricter (its ids are made up, so only the body decides; the_rules_may_refuse).
schema = schemathesis.openapi.from_wsgi(
    "/api/schema/",
    WSGIHandler(),
    headers={"Accept": "application/vnd.oai.openapi+json"},
    config=schemathesis.Config(),
)
schema.config.generation.update(
    modes=[schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE],
    max_examples=MAX_EXAMPLES,
    deterministic=True,
    database="none",
)
schema.config.phases.coverage.enabled = os.environ.get("TNC_SCHEMA_COVERAGE", "1") == "1"


def the_rules_may_refuse(case: Any, response: Any) -> bool:
    """Whether a schema-valid request's refusal is one no schema can say: what the server's
    state, or a rule across values, decides. Anything else is the schema's to say."""
    label = f"{case.method.upper()} {case.path}"
    if label == "POST /api/auth/token/":
        return bool(response.status_code == 400)  # made-up credentials (DRF's 400)
    if response.status_code != 422:
        return False
    code = str(response.json()["error"]["code"])
    if label == "POST /api/games/import/" or code == "idempotency_key_reused":
        return True  # a record's contents are the engine's; the examples share a database
    if label == "POST /api/games/" and isinstance(case.body, dict):
        names = [n for n in case.body.get("players") or () if isinstance(n, str)]
        spelt = {normalize_name(n).casefold() for n in names}
        # Crazy Kitchen's members by team name, a compensation and the number of players;
        # two names that are one once spelt the one way.
        return code in ("bad_teams", "bad_compensation") or (
            code == "bad_players" and len(spelt) < len(names)
        )
    return False


def valid_requests_are_taken(*, rules: bool = False) -> Callable[..., bool | None]:
    """Schemathesis's positive_data_acceptance (ST202: a request the schema allows is not
    refused), but for the refusals no schema can say; ``rules``: any 422 too (real games,
    whose rules decide by their state)."""

    def check(ctx: Any, response: Any, case: Any) -> bool | None:
        try:
            verdict: bool | None = schemathesis.checks.positive_data_acceptance(ctx, response, case)
        except AssertionError:  # schemathesis's Failure (ST202)
            if the_rules_may_refuse(case, response) or (rules and response.status_code == 422):
                return None
            raise
        return verdict

    check.__name__ = "positive_data_acceptance"
    return check


CHECKS = [
    schemathesis.checks.not_a_server_error,
    schemathesis.checks.status_code_conformance,  # ST103: a status the schema does not list
    schemathesis.checks.content_type_conformance,
    schemathesis.checks.response_headers_conformance,
    schemathesis.checks.response_schema_conformance,
    schemathesis.checks.negative_data_rejection,  # a request the schema forbids is refused
    valid_requests_are_taken(),  # ST202: the schema accepts only what the server takes
]
REAL_IDS_CHECKS = [c for c in CHECKS[:-1] if c is not schemathesis.checks.negative_data_rejection]
"""For a case sent to a real game or tournament: its id replaces the generated one, so a case
made invalid by its id is not invalid any more (the made-up ids' run checks invalid data)."""


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_answers_as_its_schema_says(case: Any) -> None:
    case.call_and_validate(headers={"Authorization": f"Token {TOKEN}"}, checks=CHECKS)


_turn = itertools.count()


@pytest.fixture
def real_games(writer: User) -> list[str]:
    """A game of each registered game, a few events in (issue 15): the generated requests meet
    real games of every type, not only 404s."""
    ids = []
    for key in GAME_TYPES:
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
def test_every_games_games_answer_as_the_schema_says(case: Any, real_games: list[str]) -> None:
    """The same checks on the games' own endpoints, each request to a real game of each
    registered game in turn: their events, results entries and records of every shape."""
    case.path_parameters = {
        **(case.path_parameters or {}),
        "game_id": real_games[next(_turn) % len(real_games)],
    }
    checks = [*REAL_IDS_CHECKS, valid_requests_are_taken(rules=True)]
    case.call_and_validate(headers={"Authorization": f"Token {TOKEN}"}, checks=checks)


@pytest.fixture
def someone_elses_tournament(django_user_model: type[User]) -> str:
    """A tournament of another organizer, its downloads not released: to the writer (a user
    with no role in it) the downloads are 403 (issue 22: undocumented until then)."""
    olga = django_user_model.objects.create_user("olga", password="s3cret-pass")
    change = tournaments.tournament_create(
        user=olga, name="Spring Open", date="2026-03-14", rounds=3, seed=7
    )
    tournaments.tournament_register(
        tournament_id=change.tournament_id, user=olga, names=["a", "b", "c", "d"], checked_in=True
    )
    return str(change.tournament_id)


@pytest.mark.one_backend
@schema.include(path_regex=r"^/api/tournaments/\{tournament_id\}/", method="GET").parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_a_tournament_answers_a_stranger_as_the_schema_says(
    case: Any, someone_elses_tournament: str
) -> None:
    """The same checks on a real tournament's reads, by a user with no role in it: its
    summary, standings and history (403), its downloads not released yet (403, documented)."""
    case.path_parameters = {
        **(case.path_parameters or {}),
        "tournament_id": someone_elses_tournament,
    }
    checks = [*REAL_IDS_CHECKS, valid_requests_are_taken()]
    case.call_and_validate(headers={"Authorization": f"Token {TOKEN}"}, checks=checks)

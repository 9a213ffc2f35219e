"""A finished table's result reaches its tournament exactly once, whatever fails between the
game's commit and the tournament (issue 10, item 1): the broker is down when the tables finish,
or the worker is killed with SIGKILL in the middle of recording a result.

The games' outbox (games/outbox.py) holds each status change from the game's own commit on; the
nudge a commit sends may be lost, and beat's sweep (``tournaments.sync_pending``, every second
here) hands what is pending to a worker. Everything runs as deployed: the web requests go
through the API in the test process (its Celery app pointed at a dead broker, or the real one),
and a worker and beat run as production does (tests/deploy/stack.py) on PostgreSQL and Redis.
Nothing asserts on time; the waits have deadlines so that a lost result fails the test.

PostgreSQL and Redis only (skipped without them, failed under ``TNC_REQUIRE_SERVICES=1``).
"""

from __future__ import annotations

import signal
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings
from psycopg import sql
from rest_framework.test import APIClient

from config import celery_app
from games import outbox, store
from games.models import GameProjection
from tests.tournaments.worker_helpers import (
    broker_url_for,
    database_url_for,
    sending_to,
    unique_queue,
)
from tournaments import domain
from tournaments import services as tournaments
from tournaments.domain import TournamentState
from tournaments.models import TournamentProjection

from .stack import Stack, running_stack, wait_for

BROKER_DB = 12
"""This test's Redis database (the other deploy tests use 10 and 11, tests/tournaments 9)."""
DEAD_BROKER = "redis://127.0.0.1:1/0"
"""Nothing listens on port 1: every send is refused at once, as with Redis stopped."""
RESULTS_TIMEOUT = 60.0
"""Seconds the worker and beat get to bring every pending result into the tournament."""
TASK_TIMEOUT = 30.0
SWEEP = {"TNC_SYNC_SWEEP_SECONDS": "1"}

PLAYERS = [f"Player {n:02d}" for n in range(1, 13)]  # three tables of four


def state_of(tournament_id: uuid.UUID) -> TournamentState:
    return tournaments.tournament_state(tournament_id)


def round_1_published(organizer: Any) -> tuple[uuid.UUID, list[uuid.UUID]]:
    """Twelve players at three tables; results count without a confirmation."""
    tournament_id = tournaments.tournament_create(
        user=organizer,
        name="Outbox Cup",
        date="2026-12-05",
        rounds=3,
        confirmation="auto",
        seed=12,
    ).tournament_id
    tournaments.tournament_register(
        tournament_id=tournament_id, user=organizer, names=PLAYERS, checked_in=True
    )
    tournaments.tournament_pair(tournament_id=tournament_id, round=1, user=organizer)
    tournaments.tournament_publish(tournament_id=tournament_id, round=1, user=organizer)
    tables = state_of(tournament_id).round(1).tables
    assert len(tables) == 3
    return tournament_id, [uuid.UUID(str(t.game)) for t in tables]


def results_of(game_id: uuid.UUID) -> dict[str, Any]:
    """A results-only entry for the table as it stands."""
    game = GameProjection.objects.get(stream_id=game_id)
    scores = {name: [seat + 3, seat, 2] for seat, name in enumerate(game.players)}
    return {"expected_version": game.version, "scores": scores}


Round1 = tuple[uuid.UUID, list[uuid.UUID], APIClient]


@pytest.fixture
def round_1(committed_db: None, django_user_model: Any) -> Round1:
    """Round 1 published (its tournament and games), and the organizer's API client."""
    organizer = django_user_model.objects.create_user(username="organizer", password="x")
    tournament_id, games = round_1_published(organizer)
    client = APIClient()
    client.force_authenticate(organizer)
    return tournament_id, games, client


def enter_results(
    client: APIClient, game_id: uuid.UUID, key: str, body: dict[str, Any] | None = None
) -> Any:
    """A scorekeeper's results-only entry through the API, with an Idempotency-Key."""
    return client.post(
        f"/api/games/{game_id}/results/",
        body or results_of(game_id),
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )


def recorded_once(tournament_id: uuid.UUID, games: list[uuid.UUID]) -> bool | None:
    """True once every game's result is in the tournament; fails if one is there twice."""
    events = store.read_stream(tournament_id)
    counts = Counter(e.data["game"] for e in events if e.type == domain.RESULT_RECORDED)
    assert all(n <= 1 for n in counts.values()), f"a result recorded twice: {counts}"
    return True if all(counts[str(g)] == 1 for g in games) else None


def standings_count_all(client: APIClient, tournament_id: uuid.UUID, tables: int) -> None:
    """The public standings show every player with one game played."""
    standings = client.get(f"/api/tournaments/{tournament_id}/standings/").json()
    rows = standings["rows"]
    assert len(rows) == len(PLAYERS)
    assert all(row["games"] == 1 for row in rows), rows
    assert sum(row["games"] for row in rows) == 4 * tables


@contextmanager
def stack_for(tmp_path: Path, redis_url: str) -> Iterator[Stack]:
    with running_stack(
        directory=tmp_path,
        cwd=Path(settings.BASE_DIR),
        database_url=database_url_for(settings.DATABASES["default"]),
        broker_url=broker_url_for(redis_url, db=BROKER_DB),
        queue=unique_queue(),
    ) as stack:
        yield stack


@pytest.mark.postgres
def test_results_entered_while_the_broker_is_down_arrive_once_it_is_back(
    committed_db: None, redis_url: str, round_1: Round1, tmp_path: Path
) -> None:
    tournament_id, games, client = round_1

    # 1. The broker is down: every table's results are accepted (201, not 500), and a retry
    # with the same key gets the same answer and writes nothing more.
    with stack_for(tmp_path, redis_url) as stack:
        bodies = [results_of(g) for g in games]
        with sending_to(celery_app, DEAD_BROKER, stack.queue):
            answers = [
                enter_results(client, g, f"results-{g}", b)
                for g, b in zip(games, bodies, strict=True)
            ]
            again = enter_results(client, games[0], f"results-{games[0]}", bodies[0])
        assert [a.status_code for a in answers] == [201, 201, 201], [a.json() for a in answers]
        assert again.status_code == 201 and again.json() == answers[0].json()
        assert outbox.pending() == 3
        assert not recorded_once(tournament_id, games[:1])

        # 2. The broker is back, with a worker and beat: beat's sweep finds the three changes.
        with sending_to(celery_app, stack.broker_url, stack.queue):
            worker = stack.start_worker("worker", env=SWEEP)
            worker.wait_ready()
            beat = stack.start_beat(schedule=tmp_path / "beat-schedule", env=SWEEP)
            beat.wait_ready()
            worker.wait_until(
                lambda: recorded_once(tournament_id, games), "three results", RESULTS_TIMEOUT
            )
            assert beat.sent("tournament-sync-sweep", "tournaments.sync_pending") >= 1
    assert outbox.pending() == 0
    standings_count_all(client, tournament_id, tables=3)


@contextmanager
def holding_row(database_url: str, tournament_id: uuid.UUID) -> Iterator[int]:
    """Lock the tournament's projection row in a transaction left open (as a slow writer
    would); yield the backend pid of its connection; roll back on the way out."""
    hold = psycopg.connect(database_url)
    try:
        hold.execute(
            sql.SQL("SELECT 1 FROM {} WHERE stream_id = %s FOR UPDATE").format(
                sql.Identifier(TournamentProjection._meta.db_table)
            ),
            (tournament_id,),
        )
        yield hold.info.backend_pid
    finally:
        hold.rollback()
        hold.close()


def waiting_for(pid: int) -> int | None:
    """A server process whose statement waits for ``pid``'s transaction."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))", [pid]
        )
        row = cursor.fetchone()
    return int(row[0]) if row else None


@pytest.mark.postgres
def test_a_worker_killed_while_recording_a_result_leaves_it_to_the_next(
    committed_db: None, redis_url: str, round_1: Round1, tmp_path: Path
) -> None:
    tournament_id, games, client = round_1
    database_url = database_url_for(settings.DATABASES["default"])

    with stack_for(tmp_path, redis_url) as stack:
        first = stack.start_worker("worker-1")
        first.wait_ready()
        # 1. The three tables finish; the first sync the worker takes waits for the row the
        # test holds, with the status change taken (locked) and nothing written.
        with holding_row(database_url, tournament_id) as hold:
            with sending_to(celery_app, stack.broker_url, stack.queue):
                answers = [enter_results(client, g, f"results-{g}") for g in games]
            assert [a.status_code for a in answers] == [201, 201, 201]
            first.wait_until(lambda: waiting_for(hold), "a sync waiting to write", TASK_TIMEOUT)
            # 2. kill -9 in the middle of recording the result.
            assert first.kill() == -signal.SIGKILL
        assert not first.outcomes("tournaments.sync_game"), "the killed worker finished nothing"
        assert outbox.pending() == 3 and not recorded_once(tournament_id, games[:1])

        # 3. Another worker and beat: every result arrives, once.
        with sending_to(celery_app, stack.broker_url, stack.queue):
            second = stack.start_worker("worker-2", env=SWEEP)
            second.wait_ready()
            stack.start_beat(schedule=tmp_path / "beat-schedule", env=SWEEP).wait_ready()
            second.wait_until(
                lambda: recorded_once(tournament_id, games), "three results", RESULTS_TIMEOUT
            )
        wait_for(
            lambda: True if outbox.pending() == 0 else None, "the outbox emptied", TASK_TIMEOUT
        )
    standings_count_all(client, tournament_id, tables=3)
    events = store.read_stream(tournament_id)
    assert [e.version for e in events] == list(range(1, len(events) + 1)), "no gaps"

"""kill -9 of the Celery worker in the middle of pairing: after a restart the round is paired
exactly once (tasks acknowledged late, and ``tournaments.advance`` idempotent).

The tournament pairs and publishes automatically and the organizer confirms results. Round 1
is played in the test process (results only, through games.services.game_enter_results, the
syncs run inline) and all but the last table confirmed. Then a worker (solo pool: one process,
so SIGKILL leaves nothing running) starts on a private queue, and the organizer's last
confirmation enqueues ``tournaments.advance`` to it: close round 1, pair round 2, publish it,
three steps each in a transaction of its own.

Pairing eight players takes milliseconds, far too short to be caught by a signal; the test
makes the pairing step wait instead, without touching the application. Before the last
confirmation it writes, in a transaction it keeps open on a connection of its own, the event
the pairing step will write (version ``v + 3`` of the tournament's stream: the confirmation
is ``v + 1``, the close ``v + 2``). The pairing step's append of that (stream, version) then
waits for the test's transaction on the unique constraint, inside the step's transaction,
with round 2 computed but not written. PostgreSQL shows the wait (``pg_blocking_pids``), the
stream shows round 1 closed and round 2 not paired: the kill lands there. The test's
transaction is then rolled back: nothing of it is ever seen.

The killed worker never acknowledged the task, so Redis keeps it (the ``unacked`` hash) until
a worker restores it to the queue, once it is older than the visibility timeout. A new worker
with ``CELERY_VISIBILITY_TIMEOUT=5`` restores it when it starts, takes it, finds round 1
closed already, and pairs and publishes round 2: one ``round_paired``, at the very version the
killed worker could not write.

Kombu's Redis transport sweeps for such messages when a worker starts and then only every
``unacked_restore_interval`` x ``unacked_restore_throttle`` seconds (10 x 10 by default), so
the new worker starts once the message is older than its visibility timeout (a few seconds of
waiting; nothing asserts on time).

PostgreSQL and Redis only (skipped without them, failed under ``TNC_REQUIRE_SERVICES=1``).
"""

from __future__ import annotations

import signal
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.db import connection
from psycopg import sql

from config import celery_app
from games import services as games
from games import store
from games.models import Event, GameProjection
from tests.tournaments.worker_helpers import (
    broker_url_for,
    database_url_for,
    sending_to,
    unique_queue,
)
from tournaments import domain
from tournaments import services as tournaments
from tournaments.domain import TournamentState

from .stack import running_stack, unacked, wait_for

BROKER_DB = 11
"""This test's Redis database: its short visibility timeout must not restore another test's
tasks in flight (tests/deploy/test_native_stack.py uses 10, tests/tournaments 9)."""
VISIBILITY_TIMEOUT = 5
TASK_TIMEOUT = 30.0
"""Seconds a worker gets to take a task and reach a given point of it (or finish it)."""
HOLD_TYPE = "deploy_test_hold"

PLAYERS = ("Ada", "Bram", "Chloé", "Dev", "Emeka", "Fleur", "Gus", "Hana")


# ----------------------------------------------------------------------------- tournament


def state_of(tournament_id: uuid.UUID) -> TournamentState:
    return tournaments.tournament_state(tournament_id)


def of_round(events: Sequence[Event], kind: str, number: int) -> list[Event]:
    return [e for e in events if e.type == kind and e.data.get("round") == number]


def round_1_entered(organizer: Any) -> uuid.UUID:
    """Round 1 published, both tables' results recorded, table 1's confirmed (not table 2's)."""
    tournament_id = tournaments.tournament_create(
        user=organizer,
        name="Kill Cup",
        date="2026-06-14",
        rounds=3,
        pairing="auto",
        publish="auto",
        confirmation="organizer",
        seed=2026,
    ).tournament_id
    tournaments.tournament_register(
        tournament_id=tournament_id, user=organizer, names=PLAYERS, checked_in=True
    )
    tournaments.tournament_pair(tournament_id=tournament_id, round=1, user=organizer)
    tournaments.tournament_publish(tournament_id=tournament_id, round=1, user=organizer)
    state = state_of(tournament_id)
    for table in state.round(1).tables:
        game = GameProjection.objects.get(stream_id=uuid.UUID(str(table.game)))
        names = [state.players[p].name for p in table.seats]
        games.game_enter_results(
            game_id=game.stream_id,
            expected_version=game.version,
            scores={name: [place + 1, place, 2] for place, name in enumerate(names)},
            user=organizer,
        )
    tournaments.tournament_confirm(tournament_id=tournament_id, round=1, table=1, user=organizer)
    rnd = state_of(tournament_id).round(1)
    assert rnd.status == "published" and rnd.missing == [2]
    return tournament_id


# ----------------------------------------------------------------------------- the hold


@contextmanager
def holding(database_url: str, stream_id: uuid.UUID, version: int) -> Iterator[int]:
    """Write version ``version`` of the stream in a transaction left open; yield the backend
    pid of its connection; roll it back on the way out (it is never committed)."""
    hold = psycopg.connect(database_url)  # not autocommit: the INSERT opens the transaction
    try:
        hold.execute(
            sql.SQL(
                "INSERT INTO {} (stream_id, version, type, data, metadata, recorded_at) "
                "VALUES (%s, %s, %s, '{{}}', '{{}}', now())"
            ).format(sql.Identifier(Event._meta.db_table)),
            (stream_id, version, HOLD_TYPE),
        )
        yield hold.info.backend_pid
    finally:
        hold.rollback()
        hold.close()


def waiting_for(pid: int) -> tuple[int, str] | None:
    """A server process whose statement waits for ``pid``'s transaction: (its pid, its query)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, query FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))", [pid]
        )
        row = cursor.fetchone()
    return (int(row[0]), str(row[1])) if row else None


def backend_alive(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid])
        return cursor.fetchone() is not None


# ----------------------------------------------------------------------------- the test


@pytest.mark.postgres
def test_a_worker_killed_while_pairing_leaves_the_round_to_the_next_worker(
    committed_db: None, redis_url: str, django_user_model: Any, tmp_path: Path
) -> None:
    # committed_db before redis_url: see tests/tournaments/test_celery_worker.py.
    organizer = django_user_model.objects.create_user(username="organizer", password="x")
    tournament_id = round_1_entered(organizer)
    broker_url = broker_url_for(redis_url, db=BROKER_DB)
    database_url = database_url_for(settings.DATABASES["default"])
    queue = unique_queue()

    with running_stack(
        directory=tmp_path,
        cwd=Path(settings.BASE_DIR),
        database_url=database_url,
        broker_url=broker_url,
        queue=queue,
    ) as stack:
        first = stack.start_worker("worker-1")  # the settings' visibility timeout (300 s)
        first.wait_ready()
        before = state_of(tournament_id).version
        paired_at = before + 3  # confirmed (+1), closed (+2), paired (+3)

        # 1. The last confirmation enqueues tournaments.advance; the worker takes it and gets as
        # far as writing round 2's pairing, which waits for the test's transaction.
        with holding(database_url, tournament_id, paired_at) as hold:
            with sending_to(celery_app, broker_url, queue):
                tournaments.tournament_confirm(
                    tournament_id=tournament_id, round=1, table=2, user=organizer
                )
            [task_id] = first.wait_until(
                lambda: first.received("tournaments.advance") or None,
                "tournaments.advance received by the first worker",
                TASK_TIMEOUT,
            )
            blocked, query = first.wait_until(
                lambda: waiting_for(hold),
                "the first worker's pairing waiting to be written",
                TASK_TIMEOUT,
            )
            assert query.startswith(f'INSERT INTO "{Event._meta.db_table}"'), query
            events = store.read_stream(tournament_id)
            assert len(of_round(events, domain.ROUND_CLOSED, 1)) == 1, "round 1 closed"
            assert not of_round(events, domain.PAIRED, 2), "round 2 not paired yet"

            # 2. kill -9, in the middle of the pairing step.
            assert first.kill() == -signal.SIGKILL

        assert not first.outcomes("tournaments.advance"), "the killed worker finished nothing"
        assert [r.status for r in state_of(tournament_id).rounds] == ["closed"]
        [left] = unacked(broker_url, queue)
        assert (left.task, left.task_id) == ("tournaments.advance", task_id), left
        # Its transaction ends when PostgreSQL notices the client is gone (rolled back).
        wait_for(
            lambda: True if not backend_alive(blocked) else None,
            "the killed worker's database session ended",
            TASK_TIMEOUT,
        )

        # 3. A new worker with a short visibility timeout, started once the task is older than
        # that: its first sweep puts the task back on the queue, and it runs it.
        wait_for(
            lambda: True if time.time() > left.delivered_at + VISIBILITY_TIMEOUT else None,
            "the visibility timeout of the task left behind",
            VISIBILITY_TIMEOUT + 1,
        )
        second = stack.start_worker(
            "worker-2", env={"CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT)}
        )
        second.wait_ready()
        outcome = second.outcome_of("tournaments.advance", task_id, TASK_TIMEOUT)
        assert outcome.status == "succeeded", outcome
        assert outcome.detail == "'paired, published'", "round 1 was closed before the kill"
        assert second.received("tournaments.advance") == [task_id]
        second.wait_until(
            lambda: True if not unacked(broker_url, queue) else None,
            "the redelivered task acknowledged",
            TASK_TIMEOUT,
        )

        # 4. Round 2 paired once, where the killed worker left it, and published.
        state = state_of(tournament_id)
        assert [r.status for r in state.rounds] == ["closed", "published"]
        assert [len(t.seats) for t in state.round(2).tables] == [4, 4]
        events = store.read_stream(tournament_id)
        closed = of_round(events, domain.ROUND_CLOSED, 1)
        paired = of_round(events, domain.PAIRED, 2)
        published = of_round(events, domain.PUBLISHED, 2)
        assert len(paired) == 1, f"round 2 paired {len(paired)} times"
        assert [e.version for e in [*closed, *paired]] == [before + 2, paired_at]
        assert len(published) == 1 and len(published[0].data["games"]) == 2
        assert {e.metadata["by"] for e in [*closed, *paired, *published]} == {"system"}
        assert not [e for e in events if e.type == HOLD_TYPE]
        assert [e.version for e in events] == list(range(1, len(events) + 1)), "no gaps"

"""A tournament round carried through a real Celery worker: results recorded, the next round
paired and published, once, and nothing more when the tasks run again.

Everything else in the suite runs Celery tasks inline (no broker configured). Here a
``celery worker`` subprocess (tests/tournaments/worker_helpers.py) takes the tasks from Redis on
a private queue and works on the test database, so the test uses ``committed_db``: what it
writes is committed and visible to the worker, and what the worker writes is read back from
the database. Finishing a game commits, and the games app's after-commit signal enqueues
``tournaments.sync_game``; the worker records the result in the tournament's stream and, after
the last table of the round, enqueues ``tournaments.advance`` itself, which closes the round,
pairs the next one and publishes it (the tournament pairs and publishes automatically).

PostgreSQL only (the worker is another process, with its own connection), and Redis: without
either the test skips with the reason, or fails under ``TNC_REQUIRE_SERVICES=1``. Nothing
asserts on time; the waits have deadlines so that a lost task fails instead of hanging.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from config import celery_app
from engine.tricknchef.events import to_json
from engine.tricknchef.simulate import simulate
from games import services as games
from games import store
from games.models import Event, GameProjection
from tournaments import domain, tasks
from tournaments import services as tournaments
from tournaments.domain import Round, TournamentState
from tournaments.models import TournamentTable

from .worker_helpers import (
    broker_url_for,
    database_url_for,
    running_worker,
    sending_to,
    unique_queue,
)

ROUND_TIMEOUT = 60.0
"""Seconds the worker gets to record round 1 and pair and publish round 2."""
TASK_TIMEOUT = 30.0
"""Seconds the worker gets to run one task sent again."""
BATCH = 45
"""Events per game_append (a scorekeeper's tablet sends a few at a time)."""

PLAYERS = ("Ada", "Bram", "Chloe", "Dev", "Emeka", "Fleur", "Gus", "Hana")


# ----------------------------------------------------------------------------- tournament


def tournament_with_round_1(organizer: Any) -> uuid.UUID:
    """Eight checked-in players; round 1 paired and published by the organizer; later rounds
    paired and published by the system as soon as a round is complete."""
    created = tournaments.tournament_create(
        user=organizer,
        name="Worker Cup",
        date="2025-06-14",
        rounds=3,
        pairing="auto",
        publish="auto",
        confirmation="auto",
        seed=2025,
    )
    tournament_id = created.tournament_id
    tournaments.tournament_register(
        tournament_id=tournament_id, user=organizer, names=PLAYERS, checked_in=True
    )
    tournaments.tournament_pair(tournament_id=tournament_id, round=1, user=organizer)
    tournaments.tournament_publish(tournament_id=tournament_id, round=1, user=organizer)
    return tournament_id


def state_of(tournament_id: uuid.UUID) -> TournamentState:
    """The tournament as the database has it now (the worker writes it)."""
    return tournaments.tournament_state(tournament_id)


def stream_of(tournament_id: uuid.UUID) -> list[Event]:
    return store.read_stream(tournament_id)


def of_round(events: Sequence[Event], kind: str, number: int) -> list[Event]:
    return [e for e in events if e.type == kind and e.data["round"] == number]


def play_table(state: TournamentState, rnd: Round, table: int, seed: int, user: Any) -> None:
    """Record a table's whole game, a few events per request, as its scorekeeper would. The
    game's first event (game_started) is already there: publishing the round created it."""
    seats = rnd.table(table).seats
    game_id = uuid.UUID(str(rnd.table(table).game))
    names = tuple(state.players[p].name for p in seats)
    record = [to_json(e) for e in simulate(seed, len(names), names=names, first_player=names[0])]
    version = GameProjection.objects.get(stream_id=game_id).version
    for start in range(1, len(record), BATCH):
        version = games.game_append(
            game_id=game_id,
            expected_version=version,
            events=record[start : start + BATCH],
            user=user,
        ).version
    assert GameProjection.objects.get(stream_id=game_id).status == "finished"


# ----------------------------------------------------------------------------- pairing


def met_before(rounds: Sequence[Round]) -> set[frozenset[str]]:
    return {
        frozenset(pair) for rnd in rounds for t in rnd.tables for pair in combinations(t.seats, 2)
    }


def repeats(tables: Sequence[Sequence[str]], met: set[frozenset[str]]) -> int:
    """Pairs seated together who met before."""
    return sum(frozenset(pair) in met for seats in tables for pair in combinations(seats, 2))


def groupings(players: tuple[str, ...], sizes: tuple[int, ...]) -> Iterator[list[tuple[str, ...]]]:
    """Every way to seat ``players`` at tables of ``sizes`` (one table per entry)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in set(sizes):
        left_sizes = list(sizes)
        left_sizes.remove(size)
        for others in combinations(rest, size - 1):
            left = tuple(p for p in rest if p not in others)
            for tail in groupings(left, tuple(left_sizes)):
                yield [(first, *others), *tail]


def fewest_repeats(rnd: Round, met: set[frozenset[str]]) -> int:
    players = tuple(p for t in rnd.tables for p in t.seats)
    sizes = tuple(len(t.seats) for t in rnd.tables)
    return min(repeats(tables, met) for tables in groupings(players, sizes))


# ----------------------------------------------------------------------------- the test


@pytest.mark.postgres
def test_a_real_worker_records_round_1_and_pairs_round_2_once(
    committed_db: None, redis_url: str, django_user_model: Any, tmp_path: Path
) -> None:
    # committed_db before redis_url: pytest-django's flush after this test is set up first
    # (by the django_db marker), and only committed_db's teardown lets that flush empty the
    # event log; a skip in redis_url before committed_db ran would end in a teardown error.
    organizer = django_user_model.objects.create_user(username="organizer", password="x")
    tournament_id = tournament_with_round_1(organizer)
    broker_url = broker_url_for(redis_url)
    queue = unique_queue()

    with (
        running_worker(
            broker_url=broker_url,
            database_url=database_url_for(settings.DATABASES["default"]),
            queue=queue,
            log_path=tmp_path / "worker.log",
            cwd=Path(settings.BASE_DIR),
        ) as worker,
        sending_to(celery_app, broker_url, queue),
    ):
        # 1. Both tables play to the end; each finished game commits and enqueues sync_game.
        state = state_of(tournament_id)
        round_1 = state.round(1)
        assert [len(t.seats) for t in round_1.tables] == [4, 4]
        for seed, table in zip((101, 102), round_1.tables, strict=True):
            play_table(state, round_1, table.number, seed, organizer)

        # 2. The worker records both results, then advances: round 2 paired and published.
        def round_2_published() -> TournamentState | None:
            now = state_of(tournament_id)
            ready = len(now.rounds) >= 2 and now.rounds[1].status == "published"
            return now if ready else None

        state = worker.wait_until(round_2_published, "round 2 published", ROUND_TIMEOUT)
        events = stream_of(tournament_id)

        round_1, round_2 = state.round(1), state.round(2)
        assert round_1.status == "closed"
        assert len(of_round(events, domain.ROUND_CLOSED, 1)) == 1
        recorded = [e for e in events if e.type == domain.RESULT_RECORDED]
        assert Counter((e.data["round"], e.data["table"]) for e in recorded) == {
            (1, 1): 1,
            (1, 2): 1,
        }, "each table's result is recorded exactly once"
        assert not [e for e in events if e.type == domain.RESULT_WITHDRAWN]
        for table in round_1.tables:
            game = GameProjection.objects.get(stream_id=uuid.UUID(str(table.game)))
            assert table.result is not None and table.confirmed
            assert table.result_version == game.version
            assert {p.player for p in table.result} == set(table.seats)

        paired = of_round(events, domain.PAIRED, 2)
        published = of_round(events, domain.PUBLISHED, 2)
        assert len(paired) == 1, f"round 2 paired {len(paired)} times"
        assert len(published) == 1 and len(published[0].data["games"]) == 2
        assert round_2.byes == () and [len(t.seats) for t in round_2.tables] == [4, 4]
        round_2_games = {uuid.UUID(str(t.game)) for t in round_2.tables}
        assert GameProjection.objects.filter(stream_id__in=round_2_games).count() == 2
        assert TournamentTable.objects.filter(tournament_id=tournament_id, round=2).count() == 2

        system_written = [*recorded, *of_round(events, domain.ROUND_CLOSED, 1), *paired, *published]
        assert {(e.metadata["by"], e.metadata["by_id"]) for e in system_written} == {
            ("system", None)
        }, "the worker's events are written by the system"

        met = met_before([round_1])
        seated = [t.seats for t in round_2.tables]
        assert round_2.cost["repeats"] == repeats(seated, met)
        assert round_2.cost["repeats"] == fewest_repeats(round_2, met), (
            "round 2 repeats no more round-1 meetings than it must"
        )

        # 3. The same tasks again, through the worker: nothing changes.
        before = [(e.version, e.type) for e in events]
        games_before = GameProjection.objects.count()
        sync_again = tasks.sync_game.delay(str(round_1.tables[0].game))
        advance_again = tasks.advance.delay(str(tournament_id), 2)
        sync_outcome = worker.outcome_of("tournaments.sync_game", sync_again.id, TASK_TIMEOUT)
        advance_outcome = worker.outcome_of("tournaments.advance", advance_again.id, TASK_TIMEOUT)

        assert sync_outcome.status == "succeeded" and sync_outcome.detail == "'unchanged'"
        assert advance_outcome.status == "succeeded"
        assert [(e.version, e.type) for e in stream_of(tournament_id)] == before
        assert GameProjection.objects.count() == games_before

        # The worker's whole account (the queue is FIFO and drained up to the last two): the
        # two results recorded (each by its game's task, or the second by the first task's sweep
        # of the outbox when that game finished while the first ran: its own task then finds it
        # recorded), the other syncs (games starting, the one sent again) changed nothing, one
        # advance that closed, paired and published, and the one sent again, which found
        # nothing to do.
        sync_done = Counter(o.detail for o in worker.outcomes("tournaments.sync_game"))
        assert sync_done["'recorded'"] in (1, 2), sync_done
        assert set(sync_done) == {"'recorded'", "'unchanged'"}
        advances = [o.detail for o in worker.outcomes("tournaments.advance")]
        assert advances == ["'closed, paired, published'", "'nothing to do'"]
        assert all(o.status == "succeeded" for o in worker.outcomes()), worker.outcomes()

"""The event store and the game services under concurrent writers and readers, and under a
tournament-sized load.

Threads each get their own database connection, so every threaded test uses ``committed_db``
(transactions really commit and other connections see them) and each thread closes its
connection when it ends. Threads start together on a :class:`threading.Barrier`; nothing here
asserts on time: where a thread sleeps, it is only to let the others run.

Tests marked ``postgres`` run in bin/test's PostgreSQL pass; the others run on both backends
(the SQLite-only ones skip on PostgreSQL with the reason).
"""

from __future__ import annotations

import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import pytest
from django.db import connection, transaction

from engine import tricknchef
from engine.tricknchef.events import from_json
from games import services, store
from games.gametypes import DEFAULT_GAME_TYPE, GAME_TYPES
from games.models import Event, GameProjection, GameResult, Stream
from games.projection import fold_game
from games.services import common
from games.store import NewEvent
from tests.games.concurrency import (
    JOIN_TIMEOUT,
    create_game,
    finish,
    records,
    run_together,
    start_together,
)

KIND = GAME_TYPES[DEFAULT_GAME_TYPE]
BATCH = 45
"""Events per game_append when a test records a game in a few requests."""


def append_in_batches(game_id: uuid.UUID, version: int, events: Sequence[dict[str, Any]]) -> int:
    for start in range(0, len(events), BATCH):
        chunk = list(events[start : start + BATCH])
        version = services.game_append(
            game_id=game_id, expected_version=version, events=chunk
        ).version
    return version


def log_of(game_id: uuid.UUID) -> list[Event]:
    return store.read_stream(game_id)


def as_record(events: Sequence[Event]) -> list[dict[str, Any]]:
    return [{"type": e.type, **e.data} for e in events]


def assert_log_is_whole_and_replays_to_projection(
    game_id: uuid.UUID, expected_record: Sequence[dict[str, Any]]
) -> None:
    """Versions 1..N, no gap, no duplicate; the log holds the expected record from version 2
    on; folding the log gives the stored projection; the game is finished with its results."""
    events = log_of(game_id)
    versions = [e.version for e in events]
    assert versions == list(range(1, len(expected_record) + 1))
    assert Event.objects.filter(stream_id=game_id).count() == len(expected_record)
    assert as_record(events)[1:] == list(expected_record[1:])
    view = fold_game(((e.type, e.data) for e in events), KIND)
    game = GameProjection.objects.get(stream_id=game_id)
    assert (view.summary, view.version, view.status) == (game.summary, game.version, game.status)
    assert game.snapshot == services.as_stored(KIND.snapshot(view.state))
    assert game.status == "finished"
    assert game.summary == tricknchef.summarize(
        tricknchef.replay(from_json(r) for r in expected_record)
    )
    players = len(expected_record[0]["players"])
    assert GameResult.objects.filter(game=game).count() == players


@dataclass(frozen=True)
class Attempt:
    expected: int
    won: bool
    now: int
    """The version after the append (won) or the Conflict's ``current_version`` (lost)."""


def play_competing(game_id: uuid.UUID, record: Sequence[dict[str, Any]]) -> list[Attempt]:
    """Append the game's next event at the version we believe current, until the record is all
    in. On a conflict, reload the projection (as a client would) and go on from there: the
    event we wanted is in the log already if the version moved past it."""
    attempts: list[Attempt] = []
    version = 1
    while version < len(record):
        if len(attempts) > 10 * len(record):
            raise AssertionError(f"no progress: {attempts[-5:]}")
        try:
            change = services.game_append(
                game_id=game_id, expected_version=version, events=[record[version]]
            )
        except services.Conflict as conflict:
            attempts.append(Attempt(version, won=False, now=conflict.current_version))
            version = GameProjection.objects.get(stream_id=game_id).version
        else:
            attempts.append(Attempt(version, won=True, now=change.version))
            version = change.version
    return attempts


def assert_each_version_won_once(
    attempts: Sequence[Attempt], record: Sequence[dict[str, Any]]
) -> None:
    won = sorted(a.expected + 1 for a in attempts if a.won)
    assert won == list(range(2, len(record) + 1)), "each version is appended exactly once"
    for attempt in attempts:
        if attempt.won:
            assert attempt.now == attempt.expected + 1
        else:
            assert attempt.now > attempt.expected, f"a conflict reports a newer version: {attempt}"


# -------------------------------------------------------------------- 1, 2: one game, many writers


@pytest.mark.postgres
def test_sixteen_writers_race_for_each_version_of_one_game(committed_db: None) -> None:
    record = records(seed=7)
    game_id = services.game_create(players=["p1", "p2", "p3", "p4"]).game_id

    per_thread = run_together([partial(play_competing, game_id, record)] * 16)

    first_tries = [attempts[0] for attempts in per_thread]
    assert all(a.expected == 1 for a in first_tries)
    assert sum(a.won for a in first_tries) == 1, "exactly one of the 16 first appends wins"
    assert_each_version_won_once([a for attempts in per_thread for a in attempts], record)
    assert len(record) - 1 == 165
    assert_log_is_whole_and_replays_to_projection(game_id, record)


@pytest.mark.postgres
def test_eight_games_each_raced_by_two_writers(committed_db: None) -> None:
    games = {}
    for seed in range(100, 108):
        record = records(seed, players=4 if seed % 2 else 3)
        games[create_game(record)] = record

    works = [
        partial(play_competing, game_id, record)
        for game_id, record in games.items()
        for _ in range(2)
    ]
    per_thread = run_together(works)

    for index, (game_id, record) in enumerate(games.items()):
        attempts = per_thread[2 * index] + per_thread[2 * index + 1]
        assert_each_version_won_once(attempts, record)
        assert_log_is_whole_and_replays_to_projection(game_id, record)
    assert GameProjection.objects.filter(status="finished").count() == len(games)


# ----------------------------------------------------------------------- 3: readers follow writers


WRITERS = 8
EVENTS_PER_WRITER = 500
EVENTS_PER_TRANSACTION = 5
DRAIN_PATIENCE = 20.0
"""Seconds a reader goes on polling for missing events once the writers are done."""


@dataclass
class Seen:
    """What one reader received: from the whole log and from the one stream it watches."""

    log: list[tuple[int, uuid.UUID, int]]  # (id, stream, version) in the order received
    cursors: list[store.Cursor]
    stream: list[int]  # versions of the watched stream, in the order received


def write_ticks(stream_id: uuid.UUID, overlap: threading.Barrier | None) -> int:
    """Append ticks 1..500 to our own stream, several appends per transaction, so that on
    PostgreSQL the writers' transactions overlap and commit in another order than their ids.

    ``overlap`` (PostgreSQL only: SQLite writers exclude each other) holds every writer's first
    transaction open after its first event until all have written one: their id ranges then
    interleave for sure, so some lower id commits after a higher one."""
    version = 0
    while version < EVENTS_PER_WRITER:
        with transaction.atomic():
            for _ in range(EVENTS_PER_TRANSACTION):
                store.append(
                    stream_id,
                    version,
                    [NewEvent("tick", {"n": version + 1})],
                    metadata={"writer": str(stream_id)},
                )
                version += 1
                if version == 1 and overlap is not None:
                    overlap.wait(timeout=JOIN_TIMEOUT)
                time.sleep(0)  # let the other writers in while this transaction is open
    return version


def interleaved_transactions() -> int:
    """How many pairs of transactions wrote interleaved id ranges (so one of each pair
    committed a lower id after the other had committed a higher one)."""
    ids: dict[int, list[int]] = defaultdict(list)
    for tx_id, event_id in Event.objects.values_list("tx_id", "id"):
        ids[tx_id].append(event_id)
    spans = sorted((min(tx_ids), max(tx_ids)) for tx_ids in ids.values())
    return sum(1 for i, (_, high) in enumerate(spans) for low, _ in spans[i + 1 :] if low < high)


def follow(
    watched: uuid.UUID, writers_done: threading.Event, writers_failed: threading.Event, total: int
) -> Seen:
    """Poll the whole log from the last cursor and one stream from the last version, until the
    writers are done, everything expected has arrived and one more poll brings nothing."""
    seen = Seen(log=[], cursors=[], stream=[])
    cursor, last_version = store.START, 0
    give_up = time.monotonic() + JOIN_TIMEOUT
    while not writers_failed.is_set() and time.monotonic() < give_up:
        done = writers_done.is_set()  # before polling: a poll after it sees every commit
        if done:  # what is still missing then only waits for transactions outside this test
            give_up = min(give_up, time.monotonic() + DRAIN_PATIENCE)
        batch = store.read_all(after=cursor)
        for event in batch:
            seen.log.append((event.id, event.stream_id, event.version))
            seen.cursors.append(store.cursor_of(event))
        if batch:
            cursor = store.cursor_of(batch[-1])
        from_stream = store.read_stream(watched, since=last_version)
        seen.stream.extend(e.version for e in from_stream)
        if from_stream:
            last_version = from_stream[-1].version
        caught_up = len(seen.log) >= total and len(seen.stream) >= EVENTS_PER_WRITER
        if done and caught_up and not batch and not from_stream:
            break
        time.sleep(0.001)  # not a timing assertion: only to let the writers run
    return seen


def test_readers_following_the_log_see_every_event_once_in_order(committed_db: None) -> None:
    streams = [store.create_stream(Stream.Kind.GAME).id for _ in range(WRITERS)]
    before = Event.objects.count()
    total = before + WRITERS * EVENTS_PER_WRITER
    writers_done, writers_failed = threading.Event(), threading.Event()
    watched = [streams[0], streams[-1]]
    overlap = threading.Barrier(WRITERS) if connection.vendor == "postgresql" else None

    works: list[Callable[[], Any]] = [partial(write_ticks, s, overlap) for s in streams]
    works += [partial(follow, w, writers_done, writers_failed, total) for w in watched]
    workers = start_together(works, name="log")
    try:
        written = finish(workers[:WRITERS])
    except BaseException:
        writers_failed.set()  # the readers stop too
        raise
    finally:
        writers_done.set()
    seen: list[Seen] = finish(workers[WRITERS:])

    assert written == [EVENTS_PER_WRITER] * WRITERS
    in_table = set(Event.objects.values_list("id", "stream_id", "version"))
    assert len(in_table) == total
    if connection.vendor == "postgresql":
        assert interleaved_transactions() > 0, "the writers' transactions must overlap"
    for reader, watched_stream in zip(seen, watched, strict=True):
        ids = [event_id for event_id, _, _ in reader.log]
        assert len(ids) == len(set(ids)), "no event is received twice"
        assert set(reader.log) == in_table, "the reader got every event in the table, no other"
        assert reader.cursors == sorted(reader.cursors, key=lambda c: (c.tx, c.id))
        assert len(set(reader.cursors)) == len(reader.cursors)
        by_stream: dict[uuid.UUID, list[int]] = defaultdict(list)
        for _, stream_id, version in reader.log:
            by_stream[stream_id].append(version)
        for stream_id in streams:
            assert by_stream[stream_id] == list(range(1, EVENTS_PER_WRITER + 1)), (
                "each stream's events arrive in version order, none skipped"
            )
        assert reader.stream == list(range(1, EVENTS_PER_WRITER + 1))
        ticks = [e.data["n"] for e in store.read_stream(watched_stream)]
        assert ticks == list(range(1, EVENTS_PER_WRITER + 1))


# -------------------------------------------------------------------------- 4: SQLite writers wait


def require_sqlite() -> None:
    if connection.vendor != "sqlite":
        pytest.skip(
            "SQLite-only: checks that IMMEDIATE transactions and the busy timeout make SQLite "
            "writers wait for each other instead of failing with 'database is locked'"
        )


def play_alone(game_id: uuid.UUID, record: Sequence[dict[str, Any]]) -> services.GameChange:
    change = None
    for version in range(1, len(record)):
        change = services.game_append(
            game_id=game_id, expected_version=version, events=[record[version]]
        )
    assert change is not None
    return change


def test_sqlite_writers_to_their_own_games_wait_instead_of_failing(committed_db: None) -> None:
    require_sqlite()
    games = {}
    for seed in range(200, 208):
        record = records(seed, players=3 if seed % 3 == 0 else 4)
        games[create_game(record)] = record

    changes = run_together(
        [partial(play_alone, game_id, record) for game_id, record in games.items()]
    )

    for change, (game_id, record) in zip(changes, games.items(), strict=True):
        assert (change.game_id, change.version, change.status) == (
            game_id,
            len(record),
            "finished",
        )
        assert_log_is_whole_and_replays_to_projection(game_id, record)


def test_sqlite_writers_racing_for_one_game_get_conflicts_not_lock_errors(
    committed_db: None,
) -> None:
    require_sqlite()
    record = records(seed=11)
    game_id = create_game(record)

    # Any exception other than services.Conflict (an OperationalError "database is locked")
    # escapes play_competing and fails the test in finish().
    per_thread = run_together([partial(play_competing, game_id, record)] * 4)

    first_tries = [attempts[0] for attempts in per_thread]
    assert sum(a.won for a in first_tries) == 1
    assert sum(not a.won for attempts in per_thread for a in attempts) >= 3
    assert_each_version_won_once([a for attempts in per_thread for a in attempts], record)
    assert_log_is_whole_and_replays_to_projection(game_id, record)


# ---------------------------------------------------------------------- 5: idempotent retries race


IDEMPOTENT_ROUNDS = 12
SAME_REQUEST_THREADS = 8


Request = Callable[[uuid.UUID, Sequence[dict[str, Any]], int, str], services.GameChange]


def append_next(
    game_id: uuid.UUID, record: Sequence[dict[str, Any]], version: int, key: str
) -> services.GameChange:
    return services.game_append(
        game_id=game_id, expected_version=version, events=[record[version]], idempotency_key=key
    )


def retract_last(
    game_id: uuid.UUID, record: Sequence[dict[str, Any]], version: int, key: str
) -> services.GameChange:
    return services.game_correct(
        game_id=game_id, expected_version=version, retract=1, reason="slip", idempotency_key=key
    )


def outcome(request: Callable[[], services.GameChange]) -> object:
    """The change, or the refusal (so a test can show what each thread got)."""
    try:
        return request()
    except services.GameError as error:
        return error


def test_the_same_request_sent_eight_times_at_once_is_appended_once(committed_db: None) -> None:
    record = records(seed=23)
    game_id = create_game(record)

    for version in range(1, IDEMPOTENT_ROUNDS + 1):
        key = f"{game_id}-{version}"
        got = run_together(
            [partial(outcome, partial(append_next, game_id, record, version, key))]
            * SAME_REQUEST_THREADS
        )

        kinds = Counter(type(result).__name__ for result in got)
        assert kinds == {"GameChange": SAME_REQUEST_THREADS}, (
            f"at version {version} every sender gets the change, got {dict(kinds)}: "
            + "; ".join(str(r) for r in got if not isinstance(r, services.GameChange))
        )
        assert all(result == got[0] for result in got), "all senders get identical results"
        change = got[0]
        assert isinstance(change, services.GameChange)
        assert change.version == version + 1
        assert change.appended == ((version + 1, record[version]["type"]),)
        assert Event.objects.filter(idempotency_key=key).count() == 1
        assert [e.version for e in log_of(game_id)] == list(range(1, version + 2))
    game = GameProjection.objects.get(stream_id=game_id)
    assert game.version == IDEMPOTENT_ROUNDS + 1
    assert as_record(log_of(game_id)) == record[: IDEMPOTENT_ROUNDS + 1]


@pytest.mark.postgres
@pytest.mark.parametrize("request_", [append_next, retract_last], ids=["append", "correct"])
@pytest.mark.parametrize("pause", ["before", "after"])
def test_a_retry_racing_its_original_still_gets_its_result(
    committed_db: None, monkeypatch: pytest.MonkeyPatch, request_: Request, pause: str
) -> None:
    """The race above, step by step: the retry is held just before it reads the game, while
    the original request commits; or just after it has read (and locked) the game's row, while
    the original waits for that lock. Either way both get the same result (services docstring:
    "an idempotency key seen before returns the first result"), not a Conflict: before, the
    retry finds the version moved on and looks its key up; after, the retry appends and the
    original finds the version moved on and looks its key up. PostgreSQL only: on SQLite the
    retry's IMMEDIATE transaction would keep the original out until it ends."""
    record = records(seed=29)
    game_id = create_game(record)
    version = append_in_batches(game_id, 1, record[1:3])
    key = f"{game_id}-retry-{pause}"
    real_projection = common._projection  # what game_append (games.services.writes) calls
    paused, original_committed = threading.Event(), threading.Event()

    def projection_with_a_pause(game: uuid.UUID, *, lock: bool = False) -> GameProjection:
        retrying = threading.current_thread().name.startswith("retry")
        if retrying and pause == "before":
            paused.set()
            assert original_committed.wait(JOIN_TIMEOUT)
        found = real_projection(game, lock=lock)
        if retrying and pause == "after":
            # The retry holds the game's row now: the original waits for it, so the retry is
            # the one that appends and the original must get the retry's result.
            paused.set()
            wait_until_blocking_another(JOIN_TIMEOUT)
        return found

    monkeypatch.setattr(services.writes, "_projection", projection_with_a_pause)
    retry = start_together(
        [partial(outcome, partial(request_, game_id, record, version, key))], name="retry"
    )
    assert paused.wait(JOIN_TIMEOUT)
    original = request_(game_id, record, version, key)
    original_committed.set()
    [retried] = finish(retry)

    assert Event.objects.filter(stream_id=game_id).count() == version + 1
    assert retried == original


def wait_until_blocking_another(timeout: float) -> None:
    """Return once another database session waits for a lock this session holds."""
    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while True:
            cursor.execute(
                "SELECT 1 FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))"
            )
            if cursor.fetchone() is not None:
                return
            assert time.monotonic() < deadline, "nobody waited for this session's lock"
            time.sleep(0.01)  # only to let the other session run; nothing asserts on time


# ------------------------------------------------------------------- 6: rebuild after a tournament


TOURNAMENT_GAMES = {"sqlite": 200, "postgresql": 80}
"""Games of the rebuild test per backend. The shapes of the games (corrections, voids, results
only) are the services' and the engine's, the same on both backends: SQLite plays all 200.
What PostgreSQL adds (JSON stored as jsonb and exported back, the rebuild's queries) shows in
any game: it plays the first 80, which hold every shape (2 results-only, 2 voided, 9 corrected)."""


def wrong_card(record: Sequence[dict[str, Any]], position: int) -> dict[str, Any] | None:
    """A legal card other than the one played at ``position`` (a scorekeeper's slip)."""
    right = record[position]
    if right["type"] != "card_played":
        return None
    state = tricknchef.replay(from_json(r) for r in record[:position])
    others = sorted(c for c in tricknchef.legal_cards(state) if c != right["card"])
    if not others:
        return None
    return {"type": "card_played", "player": right["player"], "card": others[0]}


def round_scores(record: Sequence[dict[str, Any]]) -> dict[str, list[int]]:
    summary = tricknchef.summarize(tricknchef.replay(from_json(r) for r in record))
    return {p: [r["scores"][p] for r in summary["rounds"]] for p in summary["players"]}


def play_with_a_correction(game_id: uuid.UUID, record: Sequence[dict[str, Any]], seed: int) -> int:
    """Record the game, but enter a wrong card after 0-2 right events; retract those 1-3 events
    and enter the right ones again."""
    retract = 1 + seed % 3
    position = len(record) // 3 + seed % 40
    while (slip := wrong_card(record, position)) is None:
        position += 1
    resume = position - (retract - 1)
    version = append_in_batches(game_id, 1, record[1:resume])
    version = append_in_batches(game_id, version, [*record[resume:position], slip])
    version = services.game_correct(
        game_id=game_id, expected_version=version, retract=retract, reason="wrong card"
    ).version
    return append_in_batches(game_id, version, record[resume:])


def test_a_tournament_of_200_games_rebuilds_to_the_same_projections(
    db: None, django_user_model: Any
) -> None:
    organizer = django_user_model.objects.create_user(
        username="organizer", password="x", is_staff=True
    )
    expected_status: dict[uuid.UUID, str] = {}
    corrected: dict[uuid.UUID, list[dict[str, Any]]] = {}
    results_only = set()
    games = TOURNAMENT_GAMES[connection.vendor]
    for seed in range(games):
        record = records(seed, players=3 if seed % 3 == 0 else 4)
        game_id = create_game(record, user=organizer)
        if seed % 40 == 5:  # results only; every other one first entered wrong, then corrected
            scores = round_scores(record)
            version = 1
            if seed % 80 == 5:
                first, second = list(scores)[:2]
                wrong = {**scores, first: scores[second], second: scores[first]}
                version = services.game_enter_results(
                    game_id=game_id, expected_version=version, scores=wrong
                ).version
                version = services.game_correct(
                    game_id=game_id, expected_version=version, retract=1, reason="swapped"
                ).version
            services.game_enter_results(game_id=game_id, expected_version=version, scores=scores)
            results_only.add(game_id)
            expected_status[game_id] = "finished"
        elif seed % 40 == 17:  # voided: half-way through, or once finished
            played = len(record) // 2 if seed % 80 == 17 else len(record)
            version = append_in_batches(game_id, 1, record[1:played])
            services.game_void(
                game_id=game_id, expected_version=version, reason="misdeal", user=organizer
            )
            expected_status[game_id] = "void"
        elif seed % 7 == 3:
            play_with_a_correction(game_id, record, seed)
            corrected[game_id] = record
            expected_status[game_id] = "finished"
        else:
            append_in_batches(game_id, 1, record[1:])
            expected_status[game_id] = "finished"

    stored = dict(GameProjection.objects.values_list("stream_id", "status"))
    assert stored == expected_status
    flagged = GameProjection.objects.filter(results_only=True).values_list("stream_id", flat=True)
    shapes = {"results only": results_only, "corrected": set(corrected)}
    assert set(flagged) == results_only
    voided = sum(status == "void" for status in expected_status.values())
    assert len(results_only) >= 2 and voided >= 2 and len(corrected) >= games // 10, shapes
    assert sorted(Counter(expected_status.values()).items()) == [
        ("finished", games - voided),
        ("void", voided),
    ]
    for game_id, record in corrected.items():
        exported = services.game_export_record(game_id=game_id, user=organizer)
        assert exported == KIND.write_record(record)

    checked, differences = services.projections_rebuild(fix=False)

    assert checked == games
    assert differences == []

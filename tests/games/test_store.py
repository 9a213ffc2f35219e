"""The event store's contract, run on SQLite and on PostgreSQL (bin/test runs both).

Like the eventsourcing library's persistence tests: the same assertions for every backend.
"""

from __future__ import annotations

import time
import uuid

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction
from django.test import Client
from django.utils import timezone

from games import store
from games.db import rewrite_allowed, set_rewrite_allowed
from games.models import Event, Stream
from games.store import AlreadyAppended, Cursor, NewEvent, VersionConflict

pytestmark = pytest.mark.django_db


def new_stream() -> uuid.UUID:
    return store.create_stream(Stream.Kind.GAME).id


def append(stream: uuid.UUID, expected: int, *types: str, key: str | None = None) -> list[Event]:
    with transaction.atomic():
        return store.append(
            stream,
            expected,
            [NewEvent(t, {"n": i}) for i, t in enumerate(types)],
            metadata={"by": "tester"},
            idempotency_key=key,
        )


def log_snapshot() -> list[tuple[object, ...]]:
    return list(
        Event.objects.order_by("id").values_list(
            "id", "stream_id", "version", "type", "data", "metadata", "idempotency_key"
        )
    )


def test_appends_get_consecutive_versions_and_read_back_in_order() -> None:
    stream = new_stream()
    append(stream, 0, "a", "b")
    append(stream, 2, "c")
    assert [(e.version, e.type) for e in store.read_stream(stream)] == [
        (1, "a"),
        (2, "b"),
        (3, "c"),
    ]
    assert [e.type for e in store.read_stream(stream, since=1)] == ["b", "c"]
    assert [e.type for e in store.read_stream(stream, since=1, until=2)] == ["b"]
    assert store.current_version(stream) == 3


def test_a_stale_expected_version_is_a_conflict_and_writes_nothing() -> None:
    stream = new_stream()
    append(stream, 0, "a", "b")
    before = log_snapshot()
    for stale in (0, 1):
        with pytest.raises(VersionConflict) as conflict:
            append(stream, stale, "x")
        assert (conflict.value.expected, conflict.value.current) == (stale, 2)
    assert log_snapshot() == before


def test_a_version_gap_is_refused_by_the_store_too() -> None:
    stream = new_stream()
    append(stream, 0, "a")
    # expected 5 would write version 6: not a conflict the constraint sees, so callers must
    # compare versions first; the services do (tests/games/test_services.py).
    assert store.current_version(stream) == 1


def test_the_same_idempotency_key_finds_the_first_append_and_writes_nothing() -> None:
    stream = new_stream()
    first = append(stream, 0, "a", "b", key="key-1")
    before = log_snapshot()
    with pytest.raises(AlreadyAppended) as again:
        append(stream, 2, "a", "b", key="key-1")
    prior = again.value.prior
    assert (prior.stream_id, prior.first_version, prior.last_version) == (stream, 1, 2)
    assert first[0].metadata["batch"] == 2
    assert log_snapshot() == before


def test_append_must_run_inside_a_transaction(committed_db: None) -> None:
    with pytest.raises(RuntimeError):
        store.append(new_stream(), 0, [NewEvent("a", {})], metadata={})


def read_all_of(streams: tuple[uuid.UUID, ...], expect: int) -> list[Event]:
    """The whole log's events of these streams, once all ``expect`` are visible: on PostgreSQL
    a transaction still open anywhere on the server (another test worker's) holds the log's
    horizon back until it ends."""
    deadline = time.monotonic() + 30
    while True:
        events = [e for e in store.read_all() if e.stream_id in streams]
        if len(events) >= expect or time.monotonic() > deadline:
            return events
        time.sleep(0.01)


def test_the_whole_log_reads_in_commit_order_from_a_cursor(committed_db: None) -> None:
    one, two = new_stream(), new_stream()
    append(one, 0, "a")
    append(two, 0, "b")
    append(one, 1, "c")
    events = read_all_of((one, two), expect=3)
    assert [e.type for e in events] == ["a", "b", "c"]
    after_first = store.cursor_of(events[0])
    assert [e.type for e in store.read_all(after_first) if e.stream_id in (one, two)] == ["b", "c"]
    assert Cursor.parse(str(after_first)) == after_first
    with pytest.raises(ValueError):
        Cursor.parse("yesterday")


def test_events_record_their_transaction_on_postgresql() -> None:
    stream = new_stream()
    rows = append(stream, 0, "a", "b")
    stored = Event.objects.filter(stream_id=stream).values_list("tx_id", flat=True)
    if connection.vendor == "postgresql":
        assert len(set(stored)) == 1 and next(iter(stored)) > 0
    else:
        assert set(stored) == {0}
    assert rows[0].id < rows[1].id


# ----------------------------------------------------------------------------- append-only


STATEMENTS = {
    "UPDATE": "UPDATE games_event SET type = 'edited'",
    "DELETE one": "DELETE FROM games_event WHERE version = 1",
    "DELETE all": "DELETE FROM games_event",
}


@pytest.mark.parametrize("name", sorted(STATEMENTS))
def test_the_database_refuses_to_update_or_delete_events(name: str) -> None:
    set_rewrite_allowed(False)
    append(new_stream(), 0, "a", "b")
    before = log_snapshot()
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(STATEMENTS[name])
    assert log_snapshot() == before


def test_the_orm_cannot_update_or_delete_events_either() -> None:
    set_rewrite_allowed(False)
    append(new_stream(), 0, "a")
    event = Event.objects.first()
    assert event is not None
    event.type = "edited"
    with pytest.raises(DatabaseError), transaction.atomic():
        event.save()
    with pytest.raises(DatabaseError), transaction.atomic():
        Event.objects.all().delete()
    with pytest.raises(DatabaseError), transaction.atomic():
        Event.objects.update(type="edited")
    assert Event.objects.filter(type="edited").count() == 0


@pytest.mark.postgres
def test_postgresql_refuses_to_truncate_the_log(committed_db: None) -> None:
    set_rewrite_allowed(False)
    append(new_stream(), 0, "a")
    before = log_snapshot()
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("TRUNCATE games_event CASCADE")
    assert log_snapshot() == before


def test_a_maintenance_connection_may_rewrite_when_it_asks_to() -> None:
    append(new_stream(), 0, "a")
    with rewrite_allowed(), transaction.atomic():
        Event.objects.update(metadata={"scrubbed": True})
    assert all(m == {"scrubbed": True} for m in Event.objects.values_list("metadata", flat=True))
    with pytest.raises(DatabaseError), transaction.atomic():
        Event.objects.update(type="x")  # the guard is back


def test_committed_db_tests_can_still_be_flushed(committed_db: None) -> None:
    append(new_stream(), 0, "a")  # committed for real; the fixture's flush must get through
    assert Event.objects.count() >= 1


# ------------------------------------------------------------- the stream registry, written once


STREAM_STATEMENTS = {
    "UPDATE kind": "UPDATE games_stream SET kind = 'tournament'",
    "UPDATE created_at": "UPDATE games_stream SET created_at = created_at - interval '1 day'",
    "DELETE one": "DELETE FROM games_stream WHERE kind = 'game'",
    "DELETE all": "DELETE FROM games_stream",
}


def stream_snapshot() -> list[tuple[object, ...]]:
    return list(Stream.objects.order_by("id").values_list("id", "kind", "created_at"))


@pytest.mark.parametrize("name", sorted(STREAM_STATEMENTS))
def test_the_database_refuses_to_update_or_delete_streams(name: str) -> None:
    """A game stream re-kinded as a tournament would make rebuild_projections fold a game's
    events as a tournament's; the registry is as append-only as the log."""
    set_rewrite_allowed(False)
    append(new_stream(), 0, "a")
    new_stream()  # one without events: nothing else would stop deleting it
    before = stream_snapshot()
    statement = STREAM_STATEMENTS[name]
    if connection.vendor == "sqlite":
        statement = statement.replace("created_at - interval '1 day'", "'2000-01-01 00:00:00'")
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(statement)
    assert stream_snapshot() == before


def test_the_orm_cannot_update_or_delete_streams_either() -> None:
    set_rewrite_allowed(False)
    stream = new_stream()
    with pytest.raises(DatabaseError), transaction.atomic():
        Stream.objects.filter(id=stream).update(kind=Stream.Kind.TOURNAMENT)
    with pytest.raises(DatabaseError), transaction.atomic():
        Stream.objects.filter(id=stream).delete()
    assert Stream.objects.get(id=stream).kind == Stream.Kind.GAME


@pytest.mark.postgres
def test_postgresql_refuses_to_truncate_the_stream_registry(committed_db: None) -> None:
    set_rewrite_allowed(False)
    new_stream()
    before = stream_snapshot()
    with (
        # CASCADE would reach the events' own guard; the registry's must refuse first.
        pytest.raises(DatabaseError, match="append-only: TRUNCATE on games_stream"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("TRUNCATE games_stream CASCADE")
    assert stream_snapshot() == before


def test_a_maintenance_connection_may_rewrite_streams_when_it_asks_to() -> None:
    stream = new_stream()
    with rewrite_allowed(), transaction.atomic():
        Stream.objects.filter(id=stream).update(kind=Stream.Kind.TOURNAMENT)
    assert Stream.objects.get(id=stream).kind == Stream.Kind.TOURNAMENT
    with pytest.raises(DatabaseError), transaction.atomic():
        Stream.objects.filter(id=stream).update(kind=Stream.Kind.GAME)  # the guard is back


# ----------------------------------------------------------- the feed after a pg_dump restore


def beyond_this_clusters_ids() -> int:
    """A transaction id above this server's next one (on the log's clock, if it has one)."""
    clock = "0"
    if "games_logclock" in connection.introspection.table_names():
        clock = "(SELECT tx_offset FROM games_logclock)"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint + {clock}")
        row = cursor.fetchone()
    assert row is not None
    return int(row[0])


def restore_from_another_cluster(stream: uuid.UUID, count: int) -> None:
    """What ``pg_restore`` of a dump taken on another server leaves: events whose transaction
    ids are that server's, far above this one's counter."""
    elsewhere = beyond_this_clusters_ids() + 1_000_000_000
    now = timezone.now()
    Event.objects.bulk_create(
        Event(
            stream_id=stream,
            version=version,
            type=f"restored {version}",
            data={},
            metadata={},
            recorded_at=now,
            tx_id=elsewhere + version,
        )
        for version in range(1, count + 1)
    )


@pytest.mark.postgres
def test_a_reader_of_the_feed_misses_nothing_across_a_restore(committed_db: None) -> None:
    """Restored from another cluster, the log's transaction ids would be above every new one:
    the restored events hidden behind the horizon, and a reader whose cursor is at the last of
    them (it followed the old server) never seeing a new event. migrate (which the web
    container runs on start, docs/operations.md) moves the log's clock past them."""
    old, restored = new_stream(), new_stream()
    append(old, 0, "before")
    restore_from_another_cluster(restored, 2)
    call_command("migrate", verbosity=0)

    feed = read_all_of((old, restored), expect=3)
    assert [e.type for e in feed] == ["before", "restored 1", "restored 2"]
    follower = store.cursor_of(feed[-1])  # also where a reader of the old server stopped

    append(old, 1, "after")
    append(restored, 2, "after restore")
    deadline = time.monotonic() + 30
    while True:
        new = [e.type for e in store.read_all(follower) if e.stream_id in (old, restored)]
        if len(new) >= 2 or time.monotonic() > deadline:
            break
        time.sleep(0.01)
    assert new == ["after", "after restore"]
    assert [e.type for e in read_all_of((old, restored), expect=5)] == [
        "before",
        "restored 1",
        "restored 2",
        "after",
        "after restore",
    ]


@pytest.mark.postgres
def test_health_names_a_log_ahead_of_the_server_until_migrate(
    committed_db: None, client: Client
) -> None:
    restore_from_another_cluster(new_stream(), 1)
    answer = client.get("/health/")
    assert answer.status_code == 503
    assert "ahead of this database server" in answer.json()["database"]
    call_command("migrate", verbosity=0)
    assert client.get("/health/").json()["database"] == "ok"

"""games.store.append(locked=True): a caller that holds the stream's lock appends without a
savepoint (two round trips fewer per tap); the log's constraints then abort its transaction,
and after the rollback AppendRefused.outcome() says what the savepoint's handler would have
said. And a committed append extends this process's stream memos (no read back)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import connection, transaction

from engine.registry import RULES
from games import services, store
from games.models import Event, Stream
from games.store import AlreadyAppended, AppendRefused, NewEvent, VersionConflict
from tests.games.records import start_args

pytestmark = pytest.mark.django_db


def new_stream() -> uuid.UUID:
    return store.create_stream(Stream.Kind.GAME).id


def append(
    stream: uuid.UUID, expected: int, *types: str, key: str | None = None, locked: bool = False
) -> list[Event]:
    with transaction.atomic():
        return store.append(
            stream,
            expected,
            [NewEvent(t, {"n": i}) for i, t in enumerate(types)],
            metadata={"by": "tester"},
            idempotency_key=key,
            locked=locked,
        )


def refused(stream: uuid.UUID, expected: int, key: str | None = None) -> AppendRefused:
    with pytest.raises(AppendRefused) as caught:
        append(stream, expected, "x", key=key, locked=True)
    assert not connection.needs_rollback  # the atomic block rolled back: the connection works
    return caught.value


def test_a_locked_append_writes_as_the_other_does() -> None:
    stream = new_stream()
    append(stream, 0, "a", "b", locked=True)
    append(stream, 2, "c", locked=True)
    read = store.read_stream(stream)
    assert [(e.version, e.type) for e in read] == [(1, "a"), (2, "b"), (3, "c")]


def test_a_refused_locked_append_rolls_back_its_whole_transaction() -> None:
    stream = new_stream()
    append(stream, 0, "a")
    other = new_stream()
    with pytest.raises(AppendRefused), transaction.atomic():
        store.append(other, 0, [NewEvent("mine", {})], metadata={}, locked=True)
        store.append(stream, 0, [NewEvent("x", {})], metadata={}, locked=True)
    assert store.read_stream(other) == []  # the first append went with it


def test_after_the_rollback_a_stale_version_is_a_conflict() -> None:
    stream = new_stream()
    append(stream, 0, "a", "b")
    outcome = refused(stream, 1).outcome()
    assert isinstance(outcome, VersionConflict)
    assert (outcome.expected, outcome.current) == (1, 2)


def test_after_the_rollback_a_used_key_is_its_first_append() -> None:
    stream = new_stream()
    append(stream, 0, "a", "b", key="key-1")
    outcome = refused(new_stream(), 0, key="key-1").outcome()
    assert isinstance(outcome, AlreadyAppended)
    assert (outcome.prior.stream_id, outcome.prior.first_version) == (stream, 1)
    assert outcome.prior.last_version == 2


def test_the_outcome_is_only_read_after_the_rollback() -> None:
    stream = new_stream()
    append(stream, 0, "a")
    with transaction.atomic():
        try:
            store.append(stream, 0, [NewEvent("x", {})], metadata={}, locked=True)
        except AppendRefused as error:
            with pytest.raises(RuntimeError):
                error.outcome()


def test_a_key_used_in_another_game_is_refused_as_reused_by_the_services() -> None:
    record = RULES["chefs"].simulate(3, 3)
    players, options = start_args(record[0])
    one = services.game_create(players=players, game_type="chefs", options=options)
    two = services.game_create(players=players, game_type="chefs", options=options)
    services.game_append(
        game_id=one.game_id, expected_version=one.version, events=record[1:2], idempotency_key="k"
    )
    with pytest.raises(services.KeyReused):
        services.game_append(
            game_id=two.game_id, expected_version=two.version, events=record[1:2],
            idempotency_key="k",
        )  # fmt: skip
    assert store.current_version(two.game_id) == two.version
    again = services.game_append(  # the same request again: its first answer
        game_id=one.game_id, expected_version=one.version, events=record[1:2], idempotency_key="k"
    )
    assert again.version == one.version + 1


def test_a_committed_append_extends_the_memos_without_a_read(
    django_assert_num_queries: Any, django_capture_on_commit_callbacks: Any
) -> None:
    record = RULES["chefs"].simulate(3, 3)
    players, options = start_args(record[0])
    game = services.game_create(players=players, game_type="chefs", options=options)
    memo, other = store.StreamMemo(), store.StreamMemo()
    memo.read(game.game_id, until=game.version)
    with django_capture_on_commit_callbacks(execute=True):
        later = services.game_append(
            game_id=game.game_id, expected_version=game.version, events=record[1:4]
        )
    with django_assert_num_queries(0):
        kept = memo.read(game.game_id, until=later.version)
    read = store.read_stream(game.game_id)
    fields = ("id", "version", "type", "data", "metadata", "idempotency_key", "recorded_at")
    assert [[getattr(e, f) for f in fields] for e in kept] == [
        [getattr(e, f) for f in fields] for e in read
    ]
    # the same order of keys as the database gives them back (jsonb's, on PostgreSQL)
    assert [list(e.data) for e in kept] == [list(e.data) for e in read]
    assert [list(e.metadata) for e in kept] == [list(e.metadata) for e in read]
    assert other._kept.keys() == []  # a memo that did not keep the stream does not start to


def test_a_rolled_back_append_extends_no_memo(django_capture_on_commit_callbacks: Any) -> None:
    stream = new_stream()
    append(stream, 0, "a")
    memo = store.StreamMemo()
    memo.read(stream, until=1)
    capture = django_capture_on_commit_callbacks(execute=True)
    with capture, pytest.raises(AppendRefused), transaction.atomic():
        store.append(stream, 1, [NewEvent("b", {})], metadata={}, locked=True)
        store.append(stream, 1, [NewEvent("c", {})], metadata={}, locked=True)
    assert [e.type for e in memo.read(stream, until=1)] == ["a"]
    assert store.current_version(stream) == 1

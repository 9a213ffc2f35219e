"""games.store.StreamMemo: a stream's events up to a version, kept per process and extended with
what was appended since (the seat phones' undo offers read their table's log at every redraw)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.registry import RULES
from games import services, store
from tests.games.records import start_args

pytestmark = pytest.mark.django_db


def new_game(events: int) -> tuple[Any, list[dict[str, Any]]]:
    record = RULES["chefs"].simulate(3, 3)
    players, options = start_args(record[0])
    game = services.game_create(players=players, game_type="chefs", options=options)
    change = services.game_append(
        game_id=game.game_id, expected_version=game.version, events=record[1 : 1 + events]
    )
    return change, record[1 + events :]


def ids(events: list[Any]) -> list[int]:
    return [e.id for e in events]


def test_it_reads_what_the_store_reads_and_then_only_what_was_appended(
    django_assert_num_queries: Any,
) -> None:
    change, rest = new_game(4)
    memo = store.StreamMemo()
    first = memo.read(change.game_id, until=change.version)
    assert ids(first) == ids(store.read_stream(change.game_id))
    with django_assert_num_queries(0):  # the same version again: nothing is read
        assert memo.read(change.game_id, until=change.version) is first
    later = services.game_append(
        game_id=change.game_id, expected_version=change.version, events=rest[:3]
    )
    with django_assert_num_queries(1):  # the new events, with the last one kept
        extended = memo.read(change.game_id, until=later.version)
    assert ids(extended) == ids(store.read_stream(change.game_id))
    assert [e.version for e in extended] == list(range(1, later.version + 1))


def test_an_older_version_is_read_as_asked_and_does_not_replace_the_newer(
    django_assert_num_queries: Any,
) -> None:
    change, _ = new_game(6)
    memo = store.StreamMemo()
    memo.read(change.game_id, until=change.version)
    older = memo.read(change.game_id, until=3)
    assert [e.version for e in older] == [1, 2, 3]
    with django_assert_num_queries(0):
        assert len(memo.read(change.game_id, until=change.version)) == change.version


def test_a_last_event_that_is_another_row_now_makes_it_read_the_stream_whole() -> None:
    change, rest = new_game(4)
    memo = store.StreamMemo()
    kept = memo.read(change.game_id, until=change.version)
    stale = copy.copy(kept[-1])
    stale.id = -1  # the row kept is not the one the database holds (a restored backup)
    stale.data = {"type": "not what the log holds"}
    memo._kept.put(change.game_id, [*kept[:-1], stale])
    later = services.game_append(
        game_id=change.game_id, expected_version=change.version, events=rest[:1]
    )
    read = memo.read(change.game_id, until=later.version)
    assert ids(read) == ids(store.read_stream(change.game_id))
    assert all(e.id != -1 for e in read)


def test_it_keeps_only_so_many_streams() -> None:
    memo = store.StreamMemo(streams=2)
    games = [new_game(1)[0] for _ in range(3)]
    for change in games:
        memo.read(change.game_id, until=change.version)
    assert memo._kept.keys() == [games[1].game_id, games[2].game_id]

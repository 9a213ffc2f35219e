"""The tournament write path (tournaments.services.writes, .snapshots, .reads): the snapshot
written every few events and the tail folded on a read, the per-thread cache of the state, the
standings left stale by a write and ranked by the next read, the summary built when read."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction

from games import services as games
from games import store
from tournaments import domain
from tournaments import services as t
from tournaments.models import TournamentProjection
from tournaments.services import snapshots

pytestmark = pytest.mark.django_db

NAMES = [f"Player {n}" for n in range(1, 9)]


@pytest.fixture
def organizer(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="pw")


@pytest.fixture
def every_three(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 3)


def new_tournament(user: User) -> uuid.UUID:
    tid = t.tournament_create(
        user=user, name="Club night", date="2026-12-24", rounds=3
    ).tournament_id
    t.tournament_register(tournament_id=tid, user=user, names=NAMES, checked_in=True)
    return tid


def player_ids(tid: uuid.UUID) -> list[str]:
    return list(t.tournament_state(tid).players)


def row(tid: uuid.UUID) -> TournamentProjection:
    return TournamentProjection.objects.get(stream_id=tid)


def folded(tid: uuid.UUID) -> dict[str, Any]:
    events = store.read_stream(tid)
    return domain.to_json(domain.fold((e.version, e.type, e.data) for e in events))


def test_the_snapshot_is_written_every_few_events_and_the_tail_folded_on_a_read(
    organizer: User, every_three: None
) -> None:
    tid = new_tournament(organizer)  # created, then 8 registered in one action: version 9
    assert (row(tid).version, row(tid).snapshot_version) == (9, 9)
    for player in player_ids(tid)[:2]:
        t.tournament_drop(tournament_id=tid, player=player, user=organizer)
    assert (row(tid).version, row(tid).snapshot_version) == (11, 9)
    assert domain.from_json(row(tid).state).version == 9  # the row's state lags...
    snapshots.forget()
    assert domain.to_json(t.tournament_state(tid)) == folded(tid)  # ...a read folds the tail
    assert games.rebuild_all(fix=False)["tournaments"] == (1, [])
    t.tournament_drop(tournament_id=tid, player=player_ids(tid)[2], user=organizer)
    assert (row(tid).version, row(tid).snapshot_version) == (12, 12)
    assert domain.from_json(row(tid).state) == t.tournament_state(tid)


def test_a_wrong_snapshot_is_found_and_fixed_by_a_rebuild(organizer: User) -> None:
    tid = new_tournament(organizer)
    first = player_ids(tid)[0]
    t.tournament_drop(tournament_id=tid, player=first, user=organizer)
    state = row(tid).state
    state["settings"]["name"] = "Another night"  # the snapshot (before the drop) is wrong
    TournamentProjection.objects.filter(stream_id=tid).update(state=state)
    checked, found = t.tournaments_rebuild(fix=True)
    assert checked == 1 and [d.field for d in found] == ["state"]
    assert t.tournaments_rebuild(fix=False) == (1, [])
    assert t.tournament_state(tid).players[first].dropped
    assert t.tournament_state(tid).config.name == "Club night"


def test_a_rolled_back_action_leaves_no_state_behind(organizer: User) -> None:
    tid = new_tournament(organizer)
    player = player_ids(tid)[0]
    assert not t.tournament_state(tid).players[player].dropped  # cached now

    class Undone(Exception):
        pass

    with pytest.raises(Undone), transaction.atomic():
        t.tournament_drop(tournament_id=tid, player=player, user=organizer)
        assert t.tournament_state(tid).players[player].dropped
        raise Undone
    assert not t.tournament_state(tid).players[player].dropped
    change = t.tournament_drop(tournament_id=tid, player=player, user=organizer)
    assert change.version == row(tid).version == 10
    assert t.tournament_state(tid).players[player].dropped


def test_a_changes_summary_is_the_tournament_at_its_version(organizer: User) -> None:
    tid = new_tournament(organizer)
    first, second = player_ids(tid)[:2]
    earlier = t.tournament_drop(tournament_id=tid, player=first, user=organizer)
    later = t.tournament_drop(tournament_id=tid, player=second, user=organizer)
    # The first change's state was folded on by the second before anyone read its summary.
    checked = {p["id"]: p["dropped"] for p in earlier.state["players"]}
    assert earlier.state["version"] == earlier.version == later.version - 1
    assert checked[first] and not checked[second]
    assert {p["id"]: p["dropped"] for p in later.state["players"]}[second]


def test_a_result_leaves_the_standings_stale_and_the_next_read_ranks_them(
    organizer: User,
) -> None:
    tid = new_tournament(organizer)
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    before = t.tournament_standings(tournament_id=tid, user=None)
    assert row(tid).standings_version == row(tid).version
    table = t.tournament_state(tid).round(1).tables[0]
    assert table.game is not None
    game = games.game_get(game_id=uuid.UUID(table.game), user=organizer)
    names = [t.tournament_state(tid).players[p].name for p in table.seats]
    games.game_enter_results(
        game_id=game.stream_id,
        expected_version=game.version,
        scores={name: [3 - i, 2, 1] for i, name in enumerate(names)},
        user=organizer,
    )
    assert t.tournament_sync_pending(game_id=game.stream_id) == ["recorded"]
    assert row(tid).standings_version < row(tid).version  # the write did not rank
    t.tournament_confirm(tournament_id=tid, round=1, table=table.number, user=organizer)
    assert row(tid).standings_version < row(tid).version  # (the result counts once confirmed)
    after = t.tournament_standings(tournament_id=tid, user=None)
    assert after != before and sum(r["games"] for r in after["rows"]) == len(names)
    assert row(tid).standings_version == row(tid).version  # stored for the next reads
    # Stored as ranked; who never checked in is worked out at each read (not_checked_in).
    assert row(tid).standings == {k: v for k, v in after.items() if k != "not_checked_in"}
    assert games.rebuild_all(fix=False)["tournaments"] == (1, [])


def test_a_state_another_process_moved_on_is_caught_up_from_the_events_after_it(
    organizer: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    tid = new_tournament(organizer)
    players = player_ids(tid)
    t.tournament_drop(tournament_id=tid, player=players[0], user=organizer)
    seen = dict(snapshots._cache())  # what this process saw at version 10
    t.tournament_drop(tournament_id=tid, player=players[1], user=organizer)
    t.tournament_drop(tournament_id=tid, player=players[2], user=organizer)
    loads: list[int] = []
    real_load = snapshots._load

    def counted_load(projection: TournamentProjection) -> Any:
        loads.append(1)
        return real_load(projection)

    monkeypatch.setattr(snapshots, "_load", counted_load)

    def another_process_wrote_since(entry: Any) -> None:
        (version, updated), last, _ = entry
        old = domain.fold((e.version, e.type, e.data) for e in store.read_stream(tid, until=10))
        snapshots._cache()[tid] = ((version, updated), last, old)

    another_process_wrote_since(seen[tid])
    assert domain.to_json(t.tournament_state(tid)) == folded(tid) and loads == []
    # An event at version 10 that is not the one the cache folded (it rolled back): loaded.
    (version, updated), last, state = seen[tid]
    assert last is not None
    another_process_wrote_since(((version, updated), (last[0] + 1000, last[1]), state))
    assert domain.to_json(t.tournament_state(tid)) == folded(tid) and loads == [1]
    # A snapshot written since (every few events, or a rebuild's fix): loaded.
    events = store.read_stream(tid, until=11)
    at_11 = domain.to_json(domain.fold((e.version, e.type, e.data) for e in events))
    TournamentProjection.objects.filter(stream_id=tid).update(state=at_11, snapshot_version=11)
    another_process_wrote_since(seen[tid])
    assert domain.to_json(t.tournament_state(tid)) == folded(tid) and loads == [1, 1]
    # An undo among the events after it: loaded (an undo changes the past).
    t.tournament_undo(tournament_id=tid, version=12, user=organizer)
    another_process_wrote_since(seen[tid])
    assert domain.to_json(t.tournament_state(tid)) == folded(tid) and loads == [1, 1, 1]
    assert not t.tournament_state(tid).players[players[2]].dropped


def test_a_thread_keeps_the_states_of_the_tournaments_it_used_last(
    organizer: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(snapshots, "CACHED_TOURNAMENTS", 2)
    snapshots.forget()
    first, second, third = (new_tournament(organizer) for _ in range(3))
    t.tournament_state(first)
    t.tournament_state(second)
    t.tournament_state(first)  # used again: the second is now the least recently used
    t.tournament_state(third)
    assert set(snapshots._cache()) == {first, third}
    assert t.tournament_state(second) == domain.fold(
        (e.version, e.type, e.data) for e in store.read_stream(second)
    )

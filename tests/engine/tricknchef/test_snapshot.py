"""A state survives a trip through its JSON snapshot at every point of a game."""

from __future__ import annotations

import json

import pytest

from engine.errors import InvariantError
from engine.tricknchef.replay import replay, step
from engine.tricknchef.simulate import simulate
from engine.tricknchef.snapshot import from_snapshot, to_snapshot
from engine.tricknchef.state import GameState
from engine.tricknchef.summary import summarize


def same_state(a: GameState, b: GameState) -> None:
    for attribute in GameState.__slots__:
        assert getattr(a, attribute) == getattr(b, attribute), attribute


@pytest.mark.parametrize("players", [3, 4])
def test_every_prefix_round_trips_and_play_continues_identically(players: int) -> None:
    events = simulate(seed=17, players=players)
    state = GameState()
    for index, event in enumerate(events):
        data = json.loads(json.dumps(to_snapshot(state)))  # through real JSON text
        restored = from_snapshot(data)
        same_state(restored, state)
        step(restored, event)
        step(state, event)
        same_state(restored, state)
        if index % 40 == 0:
            assert summarize(restored) == summarize(replay(events[: index + 1]))


def test_an_unknown_snapshot_format_is_a_bug_not_a_user_error() -> None:
    data = to_snapshot(replay(simulate(seed=1, players=4)[:10]))
    data["format"] = 99
    with pytest.raises(InvariantError):
        from_snapshot(data)

"""A Food Truck state survives a trip through its JSON snapshot at every point of a game, and
play continues from the restored state exactly as from the original."""

from __future__ import annotations

import json

import pytest

from engine.errors import InvariantError
from engine.foodtruck.replay import step
from engine.foodtruck.simulate import simulate
from engine.foodtruck.snapshot import from_snapshot, to_snapshot
from engine.foodtruck.state import GameState
from engine.foodtruck.summary import summarize


@pytest.mark.parametrize("players", [2, 5])
def test_every_prefix_round_trips(players: int) -> None:
    state = GameState()
    for event in simulate(seed=21, players=players, company_rate=0.9):
        restored = from_snapshot(json.loads(json.dumps(to_snapshot(state))))
        assert to_snapshot(restored) == to_snapshot(state)
        step(restored, event)
        step(state, event)
        assert summarize(restored) == summarize(state)
        assert to_snapshot(restored) == to_snapshot(state)


def test_a_foreign_snapshot_is_a_bug_not_a_record_error() -> None:
    with pytest.raises(InvariantError):
        from_snapshot({"format": 1})

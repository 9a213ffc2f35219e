"""engine.tricknchef.simulate.play_on: a game left part way finished with random legal events."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tricknchef.events import GameStarted, RoundStarted
from engine.tricknchef.replay import replay
from engine.tricknchef.simulate import play_on, simulate
from engine.tricknchef.state import Phase


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.sampled_from([3, 4]),
    cut=st.floats(0, 1),
    other_seed=st.integers(0, 10_000),
)
def test_play_on_finishes_any_prefix_legally_and_the_same_for_the_same_seed(
    seed: int, players: int, cut: float, other_seed: int
) -> None:
    game = simulate(seed, players)
    prefix = game[: max(1, int(len(game) * cut))]
    rest = play_on(prefix, other_seed)
    state = replay([*prefix, *rest])  # replay checks every event with the referee
    assert state.phase is Phase.OVER
    assert not any(isinstance(e, GameStarted) for e in rest)
    assert play_on(prefix, other_seed) == rest


def test_play_on_from_the_start_with_simulates_seed_is_the_rest_of_that_game() -> None:
    # From just after game_started, play_on draws as simulate does once the game has started,
    # provided the simulation drew nothing before it (four players: every suit, no sample).
    game = simulate(7, 4)
    assert play_on(game[:1], 7) == game[1:]


def test_play_on_starts_round_1_with_the_first_player_asked_for() -> None:
    game = simulate(5, 4, names=("Ana", "Bo", "Cy", "Di"))
    for first in ("Ana", "Di"):
        started = play_on(game[:1], 11, first_player=first)[0]
        assert isinstance(started, RoundStarted) and started.first_player == first


def test_play_on_a_finished_game_adds_nothing() -> None:
    game = simulate(3, 3)
    assert play_on(game, 99) == []


def test_play_on_needs_a_started_game() -> None:
    with pytest.raises(ValueError, match="starts with game_started"):
        play_on([], 1)

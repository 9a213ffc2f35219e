"""One result shape for every game (tournaments.results.Placement): what result_recorded keeps,
and Trick-n-Chef's results recorded before issue 24 (deal 3 in ``last_round``) read the same."""

from __future__ import annotations

import pytest

from tournaments.results import Placement

pytestmark = pytest.mark.one_backend


def test_a_placement_keeps_every_games_tiebreaks_in_one_shape() -> None:
    placement = Placement("p1", 1, 31, (12,))
    assert placement.to_json() == {
        "player": "p1",
        "place": 1,
        "victory_points": 31,
        "tiebreaks": [12],
    }
    assert Placement.from_json(placement.to_json()) == placement
    assert Placement.from_json({"player": "p2", "place": 2, "victory_points": 5}).tiebreaks == ()


def test_trick_n_chefs_last_round_is_upcast_to_its_one_tiebreak() -> None:
    old = {"player": "p1", "place": 2, "victory_points": 30, "last_round": 8}
    assert Placement.from_json(old) == Placement("p1", 2, 30, (8,))
    # the other games kept theirs in tiebreaks beside a null last_round
    other = {"player": "t1", "place": 1, "victory_points": 9, "last_round": None, "tiebreaks": [3]}
    assert Placement.from_json(other) == Placement("t1", 1, 9, (3,))
    # a zero is a value, not a missing one
    assert Placement.from_json({**old, "last_round": 0}).tiebreaks == (0,)

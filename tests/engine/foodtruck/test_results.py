"""Results-only Food Truck games (FT7.3): victory points and the winner, checked."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import RuleViolation
from engine.foodtruck import results

PLAYERS = ["ana", "ben", "cleo"]


def test_a_valid_entry_gives_the_replay_summary_shape() -> None:
    summary = results(PLAYERS, {"victory_points": {"ana": 2, "ben": 3, "cleo": 2}, "winner": "ben"})
    assert set(summary) == {"status", "players", "victory_points", "rounds", "ranking", "state"}
    assert summary["ranking"] == [
        {"player": "ben", "rank": 1, "points": 3, "tiebreaks": []},
        {"player": "ana", "rank": 2, "points": 2, "tiebreaks": []},
        {"player": "cleo", "rank": 2, "points": 2, "tiebreaks": []},
    ]


def test_five_players_win_at_two() -> None:
    five = ["a", "b", "c", "d", "e"]
    vp = {"a": 2, "b": 1, "c": 1, "d": 0, "e": 1}
    assert results(five, {"victory_points": vp, "winner": "a"})["status"] == "finished"
    with pytest.raises(RuleViolation):
        results(five, {"victory_points": {**vp, "a": 3}, "winner": "a"})


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ({"victory_points": {"ana": 3, "ben": 1}, "winner": "ana"}, "no victory points for cleo"),
        (
            {"victory_points": {"ana": 3, "ben": 1, "cleo": 0, "zoe": 1}, "winner": "ana"},
            "zoe did not play",
        ),
        ({"victory_points": {"ana": 2, "ben": 1, "cleo": 0}, "winner": "ana"}, "ana won, so"),
        ({"victory_points": {"ana": 3, "ben": 3, "cleo": 0}, "winner": "ana"}, "ben also has"),
        ({"victory_points": {"ana": 4, "ben": 1, "cleo": 0}, "winner": "ana"}, "cannot have 4"),
        ({"victory_points": {"ana": 3, "ben": -1, "cleo": 0}, "winner": "ana"}, "0 or more"),
        ({"victory_points": {"ana": 3, "ben": 1.0, "cleo": 0}, "winner": "ana"}, "whole number"),
        ({"victory_points": {"ana": 3, "ben": 1, "cleo": 0}}, "the winner"),
        ({"victory_points": {"ana": 3, "ben": 1, "cleo": 0}, "winner": "zoe"}, "the winner"),
        ({"victory_points": {"ana": 3, "ben": 1, "cleo": 0}, "winner": "ana", "x": 1}, "only"),
        ({"winner": "ana"}, "victory points"),
    ],
)
def test_impossible_entries_are_refused_in_words(entry: dict[str, Any], words: str) -> None:
    with pytest.raises(RuleViolation) as refused:
        results(PLAYERS, entry)
    assert refused.value.code == "bad_results"
    assert words in refused.value.message


def test_a_table_of_one_or_six_is_refused() -> None:
    with pytest.raises(RuleViolation):
        results(["a"], {"victory_points": {"a": 3}, "winner": "a"})

"""Results-only entry: three round scores per player, checked and ranked (R10)."""

from __future__ import annotations

import pytest

from engine.errors import RuleViolation
from engine.tricknchef.results import MAX_ROUND_SCORE, check_results, results_summary

PLAYERS = ("ana", "ben", "cleo", "dev")
SCORES = {"ana": [9, 7, 8], "ben": [10, 8, 6], "cleo": [3, 4, 5], "dev": [12, 2, 10]}


def test_results_are_ranked_by_total_then_round_three() -> None:
    ranks = check_results(PLAYERS, SCORES)
    assert [(r.player, r.rank, r.total, r.last_round) for r in ranks] == [
        ("dev", 1, 24, 10),
        ("ana", 2, 24, 8),
        ("ben", 3, 24, 6),
        ("cleo", 4, 12, 5),
    ]


def test_matching_totals_are_accepted() -> None:
    totals = {p: sum(s) for p, s in SCORES.items()}
    assert check_results(PLAYERS, SCORES, totals)[0].player == "dev"


@pytest.mark.parametrize(
    ("scores", "totals", "words"),
    [
        ({**SCORES, "ana": [9, 7]}, None, "ana needs one score for each of the 3 rounds"),
        ({**SCORES, "ana": [9, 7, "8"]}, None, "ana's round 3 score must be a whole number"),
        ({**SCORES, "ana": [9, 7, True]}, None, "whole number"),
        ({**SCORES, "ana": [9, -1, 8]}, None, "round 2 score of -1 is impossible"),
        ({**SCORES, "ana": [9, 7, MAX_ROUND_SCORE + 1]}, None, "is impossible"),
        ({k: v for k, v in SCORES.items() if k != "dev"}, None, "no scores for dev"),
        ({**SCORES, "zed": [1, 1, 1]}, None, "zed did not play at this table"),
        (
            SCORES,
            {"ana": 25, "ben": 24, "cleo": 12, "dev": 24},
            "ana's total is 25, but the rounds add up to 9 + 7 + 8 = 24",
        ),
        (SCORES, {"ana": 24, "ben": 24, "cleo": 12}, "no total for dev"),
        (SCORES, {"ana": "24", "ben": 24, "cleo": 12, "dev": 24}, "ana's total must be a whole"),
    ],
)
def test_bad_results_are_refused_in_the_scorekeepers_words(
    scores: dict[str, object], totals: dict[str, int] | None, words: str
) -> None:
    with pytest.raises(RuleViolation) as refused:
        check_results(PLAYERS, scores, totals)
    assert refused.value.code == "bad_results"
    assert words in refused.value.message


def test_the_summary_has_the_replay_shape_without_a_state() -> None:
    out = results_summary(PLAYERS, SCORES)
    assert out["status"] == "finished"
    assert out["rounds"][2] == {"round": 3, "scores": {"ana": 8, "ben": 6, "cleo": 5, "dev": 10}}
    assert out["totals"]["dev"] == 24
    assert out["ranking"][0] == {"player": "dev", "rank": 1, "total": 24, "last_round": 10}
    assert out["state"] is None

"""Results-only games: a table that did not record play by play enters each player's score for
each of the three rounds; the engine checks them and ranks the players (R10)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import RuleViolation
from engine.tricknchef.cards import ROUNDS_PER_GAME, TOTAL_COINS, TRICKS_PER_ROUND
from engine.tricknchef.rules import Rank, ranking

MAX_ROUND_SCORE = 4 * (1 + TRICKS_PER_ROUND) + TOTAL_COINS
"""No round can score more: a player holds at most 11 Chefs (one pick and one per trick), each on
a card of at most 4 stars, plus at most all 20 coins."""


def check_results(
    players: Sequence[str],
    scores: Mapping[str, Any],
    totals: Mapping[str, Any] | None = None,
) -> list[Rank]:
    """Check a results-only entry and return the ranking (R10.2).

    ``scores`` maps each player to their three round scores; ``totals``, if the score sheet has
    them, must be the sums. Raises :class:`RuleViolation` (code ``bad_results``) in the
    scorekeeper's words.
    """
    names = set(players)
    unknown = [p for p in scores if p not in names]
    if unknown:
        raise RuleViolation(
            "bad_results",
            f"{', '.join(unknown)} did not play at this table",
            {"rule": "not_at_table", "players": unknown},
        )
    missing = [p for p in players if p not in scores]
    if missing:
        raise RuleViolation(
            "bad_results",
            f"no scores for {', '.join(missing)}",
            {"rule": "no_scores", "players": missing},
        )
    for player in players:
        rounds = scores[player]
        if not isinstance(rounds, list | tuple) or len(rounds) != ROUNDS_PER_GAME:
            raise RuleViolation(
                "bad_results",
                f"{player} needs one score for each of the {ROUNDS_PER_GAME} rounds",
                {"rule": "three_scores", "player": player, "rounds": ROUNDS_PER_GAME},
            )
        for number, points in enumerate(rounds, start=1):
            problem = score_problem(player, number, points)
            if problem is not None:
                raise RuleViolation(
                    "bad_results",
                    problem,
                    {"rule": "score", "player": player, "round": number, "points": points},
                )
    sums = {p: sum(scores[p]) for p in players}
    if totals is not None:
        for player in players:
            if player not in totals:
                raise RuleViolation(
                    "bad_results",
                    f"no total for {player}",
                    {"rule": "no_total", "player": player},
                )
            problem = total_problem(player, totals[player], scores[player])
            if problem is not None:
                raise RuleViolation(
                    "bad_results",
                    problem,
                    {
                        "rule": "total",
                        "player": player,
                        "total": totals[player],
                        "rounds": list(scores[player]),
                    },
                )
        extra = [p for p in totals if p not in names]
        if extra:
            raise RuleViolation(
                "bad_results",
                f"{', '.join(extra)} did not play at this table",
                {"rule": "not_at_table", "players": extra},
            )
    return ranking(players, sums, {p: scores[p][-1] for p in players})


def score_problem(player: str, number: int, points: object) -> str | None:
    """What is wrong with one round's score, in the scorekeeper's words (None: nothing). One
    field of a score sheet at a time, so that a form can say every mistake at once, beside its
    field (games/forms_table.py); :func:`check_results` raises the first."""
    if type(points) is not int:
        return f"{player}'s round {number} score must be a whole number"
    if not 0 <= points <= MAX_ROUND_SCORE:
        return (
            f"{player}'s round {number} score of {points} is impossible "
            f"(a round scores 0 to {MAX_ROUND_SCORE})"
        )
    return None


def total_problem(player: str, total: object, rounds: Sequence[int]) -> str | None:
    """What is wrong with a total copied from the score sheet, given the player's round scores
    (each already accepted by :func:`score_problem`); None: it is their sum."""
    if total == sum(rounds) and type(total) is int:
        return None
    if type(total) is not int:
        return f"{player}'s total must be a whole number"
    added = " + ".join(str(s) for s in rounds)
    return f"{player}'s total is {total}, but the rounds add up to {added} = {sum(rounds)}"


def results_summary(players: Sequence[str], scores: Mapping[str, Sequence[int]]) -> dict[str, Any]:
    """The ``replay`` summary shape for a results-only game (no play-by-play state)."""
    sums = {p: sum(scores[p]) for p in players}
    ranks = ranking(players, sums, {p: scores[p][-1] for p in players})
    return {
        "status": "finished",
        "players": list(players),
        "rounds": [
            {"round": n, "scores": {p: scores[p][n - 1] for p in players}}
            for n in range(1, ROUNDS_PER_GAME + 1)
        ],
        "totals": sums,
        "ranking": [r._asdict() for r in ranks],
        "state": None,
    }

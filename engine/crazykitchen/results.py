"""Results-only Crazy Kitchen games: the six round scores from the scoreboard (CK6)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.crazykitchen.events import GAME, GameStarted, RoundScored, Team
from engine.crazykitchen.referee import expected_cooks
from engine.crazykitchen.replay import step
from engine.crazykitchen.rules import ROUNDS
from engine.crazykitchen.state import KitchenState
from engine.crazykitchen.summary import summarize
from engine.errors import RuleViolation


def _bad(code: str, message: str, rule: str, **params: object) -> RuleViolation:
    return RuleViolation(code, message, {"game": GAME, "rule": rule, **params})


def results(teams: Sequence[Mapping[str, Any]], entry: Mapping[str, Any]) -> dict[str, Any]:
    """Check a results-only entry and return the ``replay`` summary shape.

    ``teams`` are the two ``{"name", "players"}`` objects of the record's ``game_started``;
    ``entry`` is ``{"cooks_first": team, "scores": [six round scores], "compensation": n}``
    (``compensation`` optional, as in the record). Raises RuleViolation (``bad_results``, or the
    record's own codes for the teams and the compensation).
    """
    allowed = {"cooks_first", "scores", "compensation"}
    if not isinstance(entry, Mapping) or not {"cooks_first", "scores"} <= set(entry) <= allowed:
        raise _bad(
            "bad_results",
            'a results entry is {"cooks_first": team, "scores": [six round scores]} '
            'with an optional "compensation"',
            "shape",
        )
    parsed = tuple(_team(t) for t in teams)
    compensation = entry.get("compensation")
    if compensation is not None and type(compensation) is not int:
        raise _bad("bad_compensation", "compensation is a whole number of points", "number")
    if type(entry["cooks_first"]) is not str:
        raise _bad(
            "bad_results", "cooks_first names the team that cooked in round 1", "cooks_first"
        )
    state = KitchenState()
    step(state, GameStarted(parsed, entry["cooks_first"], compensation))
    scores = entry["scores"]
    if not isinstance(scores, list | tuple) or len(scores) != ROUNDS:
        raise _bad(
            "bad_results",
            f"the game has {ROUNDS} rounds: one score for each",
            "rounds",
            rounds=ROUNDS,
        )
    for number, score in enumerate(scores, start=1):
        if type(score) is not int or score < 0:
            raise _bad(
                "bad_results",
                f"round {number}'s score must be a whole number of victory points, 0 or more "
                "(0 is written when the penalties are more)",
                "score",
                round=number,
            )
        state.rounds.append(RoundScored(number, expected_cooks(state), (), (), score))
        state.points[state.rounds[-1].cooks] += score
    return summarize(state, known_orders=False)


def _team(team: Any) -> Team:
    if (
        not isinstance(team, Mapping)
        or set(team) != {"name", "players"}
        or type(team["name"]) is not str
        or not isinstance(team["players"], list | tuple)
        or not all(type(p) is str for p in team["players"])
    ):
        raise _bad("bad_teams", 'a team is {"name": ..., "players": [names]}', "team_shape")
    return Team(team["name"], tuple(team["players"]))

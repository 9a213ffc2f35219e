"""Results-only Chefs games: a table that did not record play by play enters each chef's final
position; the engine checks it and ranks the chefs (CH10)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.chefs.events import GAME
from engine.chefs.rules import GOAL, PLAYER_COUNTS, passed_goal, ranking
from engine.errors import RuleViolation


def _bad(code: str, message: str, rule: str, **params: object) -> RuleViolation:
    return RuleViolation(code, message, {"game": GAME, "rule": rule, **params})


def results(players: Sequence[str], entry: Mapping[str, Any]) -> dict[str, Any]:
    """Check a results-only entry ``{"positions": {chef: position}}`` and return the ``replay``
    summary shape (``rounds`` empty, ``state`` null). Raises RuleViolation (``bad_results``)."""
    if len(players) not in PLAYER_COUNTS or len(set(players)) != len(players):
        raise _bad("bad_players", "Chefs is played by 2 to 6 chefs, each named once", "table")
    if not isinstance(entry, Mapping) or set(entry) != {"positions"}:
        raise _bad("bad_results", 'a results entry is {"positions": {chef: position}}', "shape")
    positions = entry["positions"]
    if not isinstance(positions, Mapping):
        raise _bad("bad_results", "positions must map each chef to a position", "positions_map")
    names = set(players)
    unknown = [str(p) for p in positions if p not in names]
    if unknown:
        raise _bad(
            "bad_results",
            f"{', '.join(unknown)} did not play at this table",
            "not_at_table",
            players=unknown,
        )
    missing = [p for p in players if p not in positions]
    if missing:
        raise _bad(
            "bad_results",
            f"no final position for {', '.join(missing)}",
            "missing",
            players=missing,
        )
    for player in players:
        value = positions[player]
        if type(value) is not int or value < 0:
            raise _bad(
                "bad_results",
                f"{player}'s final position must be a whole number of steps from the door "
                "(0 or more; 21 is field 1 of the second lap)",
                "position_number",
                player=player,
            )
    if not any(passed_goal(positions[p]) for p in players):
        raise _bad(
            "bad_results",
            f"the game ends in the round when a chef passes field {GOAL}: at least one chef "
            f"must stand at {GOAL + 1} or farther",
            "nobody_finished",
            goal=GOAL,
        )
    final = {p: positions[p] for p in players}
    return {
        "game": GAME,
        "status": "finished",
        "players": list(players),
        "rounds": [],
        "positions": final,
        "ranking": [r.as_dict() for r in ranking(players, final)],
        "state": None,
    }

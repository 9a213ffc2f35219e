"""The JSON summary of a Chefs game that ``python -m engine replay`` prints
(docs/chefs-record-format.md, "Checking a record")."""

from __future__ import annotations

from typing import Any

from engine.chefs.events import COOKERS, GAME, LOCATIONS
from engine.chefs.referee import expected_next, laying_cooker
from engine.chefs.rules import field, ranking
from engine.chefs.state import ChefsState, Phase


def summarize(state: ChefsState) -> dict[str, Any]:
    players = list(state.players)
    finished = state.phase is Phase.OVER
    next_event: dict[str, Any] | None = None
    if not finished:
        next_event = {"types": expected_next(state), "player": state.expected}
        if state.phase is Phase.ACTING:
            next_event["location"] = LOCATIONS[state.location]
            next_event["circle"] = state.circle + 1
        if state.phase is Phase.LAYING:
            next_event["cooker"] = laying_cooker(state)
    summary: dict[str, Any] = {
        "game": GAME,
        "status": "finished" if finished else "in_progress",
        "players": players,
        "rounds": [
            {"round": number, "positions": positions}
            for number, positions in enumerate(state.rounds, start=1)
        ],
        "positions": dict(state.positions),
        "ranking": [r.as_dict() for r in ranking(players, state.positions)] if finished else [],
        "state": {
            "round": state.round_no,
            "starting_player": state.starting,
            "next": next_event,
            "fields": {p: field(n) for p, n in state.positions.items()},
            "markers": {name: list(state.markers[i]) for i, name in enumerate(LOCATIONS)},
            "chests_taken": list(state.chests_taken),
            "counter": state.counter,
            "cookers": {"window": state.cookers[0], "wall": state.cookers[1]},
            "hands": dict(state.hands),
            "meals": {p: list(m) for p, m in state.meals.items()},
        },
    }
    if state.version >= 2:  # v1's summary stays as it was (docs/chefs-record-format.md)
        summary["version"] = state.version
        summary["called"] = state.called
        summary["state"]["laid"] = {
            name: [{"steps": s, "ingredients": n} for s, n in state.laid[i]]
            for i, name in enumerate(COOKERS)
        }
    return summary

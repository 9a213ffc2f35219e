"""The JSON summary of a game state that ``python -m engine replay`` prints
(docs/record-format.md, "Checking a record")."""

from __future__ import annotations

from typing import Any

from engine.tricknchef.rules import ranking
from engine.tricknchef.state import GameState, Phase


def summarize(state: GameState) -> dict[str, Any]:
    players = list(state.players)
    finished = state.phase is Phase.OVER
    ranks: list[dict[str, Any]] = []
    if finished:
        last = state.round_scores[-1]
        ranks = [r._asdict() for r in ranking(players, state.totals, last)]
    return {
        "status": "finished" if finished else "in_progress",
        "players": players,
        "rounds": [
            {"round": number, "scores": dict(scores)}
            for number, scores in enumerate(state.round_scores, start=1)
        ],
        "totals": dict(state.totals),
        "ranking": ranks,
        "state": {
            "round": state.round_no,
            "trick": state.trick_no,
            "next": None if finished else {"type": state.phase.value, "player": state.expected},
            "trump": list(state.trump),
            "centre_chefs": dict(state.centre),
            "coins": dict(state.coins),
            "chefs": {p: dict(state.chefs[p]) for p in players},
            "tricks_won": dict(state.tricks_won),
        },
    }

"""The JSON summary of a Food Truck game that ``python -m engine replay`` prints
(docs/foodtruck-record-format.md, "Checking a record")."""

from __future__ import annotations

from typing import Any

from engine.foodtruck.referee import expected_next
from engine.foodtruck.rules import rank_dict, ranking
from engine.foodtruck.state import GameState, Phase


def summarize(state: GameState) -> dict[str, Any]:
    players = list(state.players)
    finished = state.phase is Phase.OVER
    nxt = expected_next(state)
    return {
        "status": "finished" if finished else "in_progress",
        "players": players,
        "victory_points": dict(state.points),
        "rounds": [
            {
                "round": r.round,
                "first_player": r.first_player,
                "eliminated": list(r.eliminated),
                "winner": r.winner,
            }
            for r in state.rounds
        ],
        "ranking": [rank_dict(r) for r in ranking(players, state.points)] if finished else [],
        "state": {
            "round": state.round_no,
            "next": None if nxt is None else {"type": nxt[0], "player": nxt[1]},
            "first_player_marker": state.marker,
            "market": sorted(state.market),
            "market_pile": state.market_pile,
            "in_round": list(state.in_round) if state.current is not None else [],
            "companies": {p: s.company for p, s in state.seats.items()},
            "served": {p: dict(sorted(s.served.items())) for p, s in state.seats.items()},
            "pile_sizes": {p: s.pile_size() for p, s in state.seats.items()},
            "dish_cards": {p: state.dish_cards(p) for p in players},
        },
    }

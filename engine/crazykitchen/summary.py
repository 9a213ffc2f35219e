"""The JSON summary of a Crazy Kitchen game (docs/crazykitchen-record-format.md)."""

from __future__ import annotations

from typing import Any

from engine.crazykitchen.events import GAME
from engine.crazykitchen.referee import expected_cooks
from engine.crazykitchen.rules import UPGRADE_AFTER, ranking, upgrade
from engine.crazykitchen.state import KitchenState


def summarize(state: KitchenState, known_orders: bool = True) -> dict[str, Any]:
    """The summary; ``known_orders`` False for a results-only game (round scores only)."""
    finished = state.over
    rounds = [
        {
            "round": r.round,
            "cooks": r.cooks,
            "fulfilled": list(r.fulfilled) if known_orders else None,
            "penalties": list(r.penalties) if known_orders else None,
            "score": r.score,
        }
        for r in state.rounds
    ]
    upgrades = []
    for after in UPGRADE_AFTER:
        if len(state.rounds) >= after:
            points = {name: 0 for name in state.names}
            for r in state.rounds[after - 2 : after]:
                points[r.cooks] += r.score
            upgrades.append(upgrade(after, points, state.cooks_first).as_dict())
    totals = state.totals()
    ranks = [r.as_dict() for r in ranking(state.teams, totals)] if finished else []
    next_event: dict[str, Any] | None = None
    if not state.started:
        next_event = {"type": "game_started"}
    elif not finished:
        next_event = {
            "type": "round_scored",
            "round": len(state.rounds) + 1,
            "cooks": expected_cooks(state),
        }
    return {
        "game": GAME,
        "status": "finished" if finished else "in_progress",
        "teams": [{"name": name, "players": list(players)} for name, players in state.teams],
        "cooks_first": state.cooks_first or None,
        "compensation": {"team": state.compensated, "points": state.compensation},
        "rounds": rounds,
        "points": dict(state.points),
        "totals": totals,
        "upgrades": upgrades,
        "result": (
            None if not finished else "draw" if len({r["rank"] for r in ranks}) == 1 else "win"
        ),
        "ranking": ranks,
        "state": {"round": len(state.rounds), "next": next_event},
    }

"""The JSON summary of a Crazy Kitchen game (docs/crazykitchen-record-format.md)."""

from __future__ import annotations

from typing import Any

from engine.crazykitchen.events import GAME
from engine.crazykitchen.referee import (
    expected_cooks,
    expected_customers,
    upgrade_at,
    upgrading,
)
from engine.crazykitchen.rules import UPGRADE_AFTER, ranking
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
            entry = upgrade_at(state, after).as_dict()
            if state.version == 2:
                entry["bought"] = [
                    {"team": b.team, "kind": b.kind, "tool": b.tool, "cost": b.cost}
                    for b in state.bought
                    if b.after_round == after
                ]
                entry["spent"] = {name: state.spent(after, name) for name in state.names}
                entry["done"] = list(state.done.get(after, []))
            upgrades.append(entry)
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
    summary: dict[str, Any] = {
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
    if state.version == 2:
        _v2(state, summary)
    return summary


def _v2(state: KitchenState, summary: dict[str, Any]) -> None:
    """A v2 record's summary: v1's keys, the head chefs, the round being entered and the
    break (docs/crazykitchen-record-format.md, "Format v2")."""
    summary["version"] = 2
    for team in summary["teams"]:
        team["head_chef"] = state.head_chefs.get(team["name"])
    summary["current"] = None
    if state.over:
        return
    after, team = state.at_break, upgrading(state)
    if after is not None and team is not None:
        summary["state"]["next"] = {"type": "upgrades", "after_round": after, "team": team}
        return
    number = len(state.rounds) + 1
    current = {
        "round": number,
        "cooks": expected_cooks(state),
        "customers": expected_customers(state),
        "orders": [{"kind": kind, "value": value} for kind, value in state.orders],
        "returned": state.returned,
    }
    summary["current"] = current
    summary["state"]["next"] = {
        "type": "orders",
        "round": number,
        "cooks": current["cooks"],
        "customers": current["customers"],
    }

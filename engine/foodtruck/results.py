"""Results-only Food Truck games: a table that did not record play by play enters each player's
victory points and the winner; the engine checks them (FT7.3) and gives the replay summary's
shape."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import RuleViolation
from engine.foodtruck.events import GAME_KEY
from engine.foodtruck.rules import PLAYER_COUNTS, rank_dict, ranking, victory_threshold

ENTRY_KEYS = ("victory_points", "winner")


def _bad(message: str, rule: str, **params: object) -> RuleViolation:
    return RuleViolation("bad_results", message, {"game": GAME_KEY, "rule": rule, **params})


def check_results(players: Sequence[str], entry: Mapping[str, Any]) -> dict[str, int]:
    """Check ``{"victory_points": {player: n}, "winner": name}``; return the points."""
    if not isinstance(entry, Mapping):
        raise _bad('the results are {"victory_points": {...}, "winner": name}', "shape")
    if len(players) not in PLAYER_COUNTS or len(set(players)) != len(players):
        raise _bad("Food Truck is played by 2 to 5 players, each seated once", "players")
    extra = [k for k in entry if k not in ENTRY_KEYS]
    if extra:
        raise _bad(
            f"the results have no {', '.join(map(repr, extra))}: only victory_points and winner",
            "extra_keys",
            keys=[repr(k) for k in extra],
        )
    points = entry.get("victory_points")
    winner = entry.get("winner")
    if not isinstance(points, Mapping):
        raise _bad("the results need each player's victory points", "no_points")
    names = set(players)
    unknown = [str(p) for p in points if p not in names]
    if unknown:
        raise _bad(
            f"{', '.join(unknown)} did not play at this table", "not_at_table", players=unknown
        )
    missing = [p for p in players if p not in points]
    if missing:
        raise _bad(f"no victory points for {', '.join(missing)}", "missing", players=missing)
    goal = victory_threshold(len(players))
    for player in players:
        vp = points[player]
        if type(vp) is not int or vp < 0:
            raise _bad(
                f"{player}'s victory points must be a whole number, 0 or more",
                "points_number",
                player=player,
            )
        if vp > goal:
            raise _bad(
                f"{player} cannot have {vp} victory points: the game ends as soon as a player "
                f"has {goal}",
                "points_over",
                player=player,
                points=vp,
                goal=goal,
            )
    if not isinstance(winner, str) or winner not in names:
        raise _bad("the results need the winner, one of the players", "winner")
    if points[winner] != goal:
        raise _bad(
            f"{winner} won, so {winner} has {goal} victory points "
            f"({'2 at 5 players' if goal == 2 else '3, or 2 at 5 players'}), not {points[winner]}",
            "winner_points",
            player=winner,
            goal=goal,
            points=points[winner],
        )
    others = [p for p in players if p != winner and points[p] >= goal]
    if others:
        raise _bad(
            f"{', '.join(others)} also has {goal} victory points: the game ends as soon as one "
            "player has them, so only the winner can",
            "others_at_goal",
            players=others,
            goal=goal,
        )
    return {p: points[p] for p in players}


def results(players: Sequence[str], entry: Mapping[str, Any]) -> dict[str, Any]:
    """The ``replay`` summary shape for a results-only game (no play-by-play state); raises
    :class:`RuleViolation` (code ``bad_results``)."""
    points = check_results(players, entry)
    return {
        "status": "finished",
        "players": list(players),
        "victory_points": points,
        "rounds": [],
        "ranking": [rank_dict(r) for r in ranking(players, points)],
        "state": None,
    }

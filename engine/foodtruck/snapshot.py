"""A Food Truck game state as JSON-ready data, and back (for stores that keep the latest state of
a table and apply the next event to it without replaying the game).

``from_snapshot(to_snapshot(state))`` is a state equal to ``state`` in every field.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.errors import InvariantError
from engine.foodtruck.events import GAME_KEY
from engine.foodtruck.state import GameState, Phase, PlayerState, RoundResult

SNAPSHOT_FORMAT = 1


def _seat(seat: PlayerState) -> dict[str, Any]:
    return {
        "hand": dict(sorted(seat.hand.items())),
        "hidden": dict(sorted(seat.hidden.items())),
        "tail": list(seat.tail),
        "served": dict(sorted(seat.served.items())),
        "aside": list(seat.aside),
        "taken": list(seat.taken),
        "company": seat.company,
        "company_pile": sorted(seat.company_pile),
    }


def to_snapshot(state: GameState) -> dict[str, Any]:
    return {
        "game": GAME_KEY,
        "format": SNAPSHOT_FORMAT,
        "players": list(state.players),
        "phase": state.phase.value,
        "round": state.round_no,
        "rounds": [[*r[:3], list(r.eliminated), r.last_market_card] for r in state.rounds],
        "points": dict(state.points),
        "marker": state.marker,
        "market": list(state.market),
        "market_pile": state.market_pile,
        "cards_dealt": state.cards_dealt,
        "seats": {p: _seat(s) for p, s in state.seats.items()},
        "in_round": list(state.in_round),
        "eliminated": list(state.eliminated),
        "round_first": state.round_first,
        "current": state.current,
        "must_play": state.must_play,
        "copy_active": state.copy_active,
        "version": state.version,
        "turn": state.turn_no,
    }


def from_snapshot(data: dict[str, Any]) -> GameState:
    if data.get("game") != GAME_KEY or data.get("format") != SNAPSHOT_FORMAT:
        raise InvariantError(
            f"not a Food Truck snapshot of format {SNAPSHOT_FORMAT}: "
            f"{data.get('game')!r} {data.get('format')!r}"
        )
    state = GameState()
    state.players = tuple(data["players"])
    state.phase = Phase(data["phase"])
    state.round_no = data["round"]
    state.rounds = [RoundResult(n, f, w, tuple(e), last) for n, f, w, e, last in data["rounds"]]
    state.points = dict(data["points"])
    state.marker = data["marker"]
    state.market = list(data["market"])
    state.market_pile = data["market_pile"]
    state.cards_dealt = data["cards_dealt"]
    for player, raw in data["seats"].items():
        seat = PlayerState()
        seat.hand = Counter(raw["hand"])
        seat.hidden = Counter(raw["hidden"])
        seat.tail = list(raw["tail"])
        seat.served = Counter(raw["served"])
        seat.aside = list(raw["aside"])
        seat.taken = list(raw["taken"])
        seat.company = raw["company"]
        seat.company_pile = set(raw["company_pile"])
        state.seats[player] = seat
    state.in_round = list(data["in_round"])
    state.eliminated = list(data["eliminated"])
    state.round_first = data["round_first"]
    state.current = data["current"]
    state.must_play = data["must_play"]
    state.copy_active = data["copy_active"]
    state.version = data.get("version", 1)  # a snapshot taken before v2 is of a v1 record
    state.turn_no = data.get("turn", 0)  # (before issue 25: only a queued tap's slot needs it)
    return state

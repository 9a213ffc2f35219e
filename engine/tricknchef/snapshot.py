"""A game state as JSON-ready data (dicts, lists, tuples), and back (for projections that
apply events incrementally).

``from_snapshot(to_snapshot(state))`` is a state equal to ``state`` in every field, so a store can
keep the latest state of a table in a database row and apply the next event to it without
replaying the game. The snapshot carries its own format number: a later engine that changes the
shape adds a new number and keeps reading the old one (or the store rebuilds from the log).
"""

from __future__ import annotations

from typing import Any

from engine.errors import InvariantError
from engine.tricknchef.cards import CARD_SUIT
from engine.tricknchef.rules import Play
from engine.tricknchef.state import CompletedTrick, GameState, Phase

SNAPSHOT_FORMAT = 1


def _play(data: list[Any]) -> Play:
    player, card, coins, value = data
    return Play(player, card, coins, value)


def to_snapshot(state: GameState) -> dict[str, Any]:
    return {
        "format": SNAPSHOT_FORMAT,
        "players": list(state.players),
        "suits": list(state.suits),
        "phase": state.phase.value,
        "expected": state.expected,
        "round": state.round_no,
        "trick": state.trick_no,
        "round_scores": [dict(s) for s in state.round_scores],
        "totals": dict(state.totals),
        "first_player": state.first_player,
        "hands": {p: sorted(h) for p, h in state.hands.items()},
        "centre": dict(state.centre),
        "chefs": {p: dict(c) for p, c in state.chefs.items()},
        "picked": sorted(state.picked),
        "coins": dict(state.coins),
        "won": {p: list(w) for p, w in state.won.items()},
        "tricks_won": dict(state.tricks_won),
        "leader": state.leader,
        "trump": list(state.trump),
        # Play and CompletedTrick are tuples: JSON writes them as arrays as they are.
        "current_trick": list(state.trick),
        "led_suit": state.led_suit,
        "winner": state.winner,
        "chef_taker": state.chef_taker,
        "tricks": list(state.tricks),
    }


def from_snapshot(data: dict[str, Any]) -> GameState:
    if data.get("format") != SNAPSHOT_FORMAT:
        raise InvariantError(f"unknown snapshot format {data.get('format')!r}")
    state = GameState()
    players = tuple(data["players"])
    state.players = players
    state.suits = tuple(data["suits"])
    state.seat = {p: i for i, p in enumerate(players)}
    state.next_seat = {p: players[(i + 1) % len(players)] for i, p in enumerate(players)}
    state.phase = Phase(data["phase"])
    state.expected = data["expected"]
    state.round_no = data["round"]
    state.trick_no = data["trick"]
    state.round_scores = [dict(s) for s in data["round_scores"]]
    state.totals = dict(data["totals"])
    state.first_player = data["first_player"]
    state.hands = {p: set(h) for p, h in data["hands"].items()}
    state.suit_counts = {
        p: {s: sum(CARD_SUIT[c] == s for c in hand) for s in state.suits}
        for p, hand in state.hands.items()
    }
    state.centre = dict(data["centre"])
    state.chefs = {p: dict(c) for p, c in data["chefs"].items()}
    state.picked = set(data["picked"])
    state.coins = dict(data["coins"])
    state.won = {p: list(w) for p, w in data["won"].items()}
    state.tricks_won = dict(data["tricks_won"])
    state.leader = data["leader"]
    state.trump = tuple(data["trump"])
    state.trick = [_play(p) for p in data["current_trick"]]
    state.led_suit = data["led_suit"]
    state.winner = data["winner"]
    state.chef_taker = data["chef_taker"]
    state.tricks = [
        CompletedTrick(r, n, tuple(trump), tuple(_play(p) for p in plays), w, t, s, tuple(paid))
        for r, n, trump, plays, w, t, s, paid in data["tricks"]
    ]
    return state

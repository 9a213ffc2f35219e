"""High Card's rules: events, referee, fold, summary and a random game, on the engine's kernel
(engine.errors, engine.fields, engine.fold, engine.jsonline) like any ``engine/<game>/``.

HC1. Two players with different, non-empty names (``game_started``).
HC2. Seat 1 plays first, then seat 2 (``card_played``: ``not_your_turn``).
HC3. A card is a whole number from 1 to 10 (``bad_card``).
HC4. Once both have played the game is over (``game_over``): the higher card wins; equal cards
     draw (both first). A player's points are their card.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeAlias

from engine import fold
from engine.errors import RuleViolation
from engine.fields import Fields
from engine.jsonline import decode_object

GAME_KEY: Final = "high-card"
VERSION: Final = "High Card v1"
CARDS: Final = range(1, 11)


@dataclass(frozen=True, slots=True)
class GameStarted:
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CardPlayed:
    player: str
    card: int


Event: TypeAlias = GameStarted | CardPlayed
EVENT_TYPES: Final = ("game_started", "card_played")


@dataclass
class State:
    players: tuple[str, ...] = ()
    cards: dict[str, int] = field(default_factory=dict)

    @property
    def over(self) -> bool:
        return bool(self.players) and len(self.cards) == len(self.players)

    @property
    def to_play(self) -> str | None:
        if not self.players or self.over:
            return None
        return self.players[len(self.cards)]


def to_json(event: Event) -> dict[str, Any]:
    if isinstance(event, GameStarted):
        return {"type": "game_started", "game": GAME_KEY, "players": list(event.players)}
    return {"type": "card_played", "player": event.player, "card": event.card}


def from_json(obj: Mapping[str, Any]) -> Event:
    kind = obj.get("type")
    if kind == "game_started":
        fields = Fields(kind, obj, VERSION, GAME_KEY)
        if fields.get("game") != GAME_KEY:
            raise fields.wrong("game", json.dumps(GAME_KEY))
        players = fields.strings("players")
        fields.done()
        return GameStarted(players)
    if kind == "card_played":
        fields = Fields(kind, obj, VERSION, GAME_KEY)
        event = CardPlayed(fields.string("player"), fields.integer("card"))
        fields.done()
        return event
    raise Fields("event", obj, VERSION, GAME_KEY).bad(
        "bad_event", f"unknown event type {json.dumps(kind)}", rule="unknown_type"
    )


def loads(line: str) -> Event:
    return from_json(decode_object(line))


def dumps(event: Event) -> str:
    return json.dumps(to_json(event), separators=(",", ":"), ensure_ascii=False)


def _refuse(code: str, message: str, **params: object) -> RuleViolation:
    return RuleViolation(code, message, {"game": GAME_KEY, **params})


def check(state: State, event: Event) -> None:
    if isinstance(event, GameStarted):
        if state.players:
            raise _refuse("already_started", "the game has started already")
        names = event.players
        if len(names) != 2 or len(set(names)) != 2 or not all(n.strip() for n in names):
            raise _refuse("bad_players", "High Card needs two players with different names")
        return
    if not state.players:
        raise _refuse("not_started", "the game has not started")
    if state.over:
        raise _refuse("game_over", "both cards are played: the game is over")
    if event.player != state.to_play:
        raise _refuse(
            "not_your_turn",
            f"it is {state.to_play}'s turn, not {event.player}'s",
            player=event.player,
            expected=state.to_play,
        )
    if event.card not in CARDS:
        raise _refuse("bad_card", f"a card is 1 to 10, not {event.card}", card=event.card)


def apply(state: State, event: Event) -> State:
    if isinstance(event, GameStarted):
        state.players = event.players
    else:
        state.cards[event.player] = event.card
    return state


def step(state: State, event: Event) -> State:
    return fold.step(state, event, check, apply)


def replay_lines(lines: Sequence[str]) -> State:
    return fold.replay_lines(lines, State(), loads, check, apply)


def ranking(cards: Mapping[str, int], players: Sequence[str]) -> list[dict[str, Any]]:
    best = max(cards.values())
    return [
        {"player": p, "rank": 1 if cards[p] == best else 2, "points": cards[p], "tiebreaks": []}
        for p in sorted(players, key=lambda p: (-cards[p], players.index(p)))
    ]


def summarize(state: State) -> dict[str, Any]:
    summary: dict[str, Any] = {
        "game": GAME_KEY,
        "players": list(state.players),
        "cards": {p: state.cards.get(p) for p in state.players},
        "status": "finished" if state.over else "in_progress",
    }
    if state.over:
        summary["ranking"] = ranking(state.cards, state.players)
    return summary


def results(players: Sequence[str], entry: Mapping[str, Any]) -> dict[str, Any]:
    """A results-only entry: ``{"cards": {player: card}}``, checked as the plays would be."""
    cards = entry.get("cards")
    if not isinstance(cards, Mapping) or sorted(cards) != sorted(players):
        raise _refuse("bad_results", "give each player's card", rule="cards")
    state = State(tuple(players))
    for player in players:
        card = cards[player]
        if type(card) is not int:
            raise _refuse("bad_results", "a card is a whole number", rule="whole")
        step(state, CardPlayed(player, card))
    return summarize(state)


def simulate(seed: int, players: int = 2) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    names = ("Ann", "Bob")
    return [to_json(GameStarted(names))] + [
        to_json(CardPlayed(name, rng.choice(CARDS))) for name in names
    ]


class HighCardRules:
    """High Card for the engine's registry (engine.registry.RULES)."""

    key: str = GAME_KEY
    name: str = "High Card"
    players: tuple[int, ...] = (2,)

    def replay(self, lines: Sequence[str]) -> dict[str, Any]:
        return summarize(replay_lines(lines))

    def simulate(self, seed: int, players: int) -> list[dict[str, Any]]:
        return simulate(seed, players)


RULES = HighCardRules()

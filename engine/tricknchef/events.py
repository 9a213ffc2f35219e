"""The events of a game record, version 1 (docs/record-format.md).

Events are frozen dataclasses named in the past tense. They map to and from their JSON form
through one explicit registry of type names (:data:`EVENT_TYPES`), never through class paths, so
stored records do not depend on where the code lives.

Parsing here checks the *form* of an event (fields, types, card codes, suit names) and raises
:class:`~engine.errors.BadEvent`; whether the event is *allowed now* is the referee's business
(:mod:`engine.tricknchef.referee`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from engine.errors import BadEvent
from engine.jsonline import decode_object
from engine.tricknchef.cards import CARD_SUIT, SUITS, Card, Suit


@dataclass(frozen=True, slots=True)
class GameStarted:
    players: tuple[str, ...]
    """Names in clockwise seat order."""
    suits: tuple[Suit, ...] | None = None
    """Suits in play as recorded; ``None`` when the record omits them (4 players: all suits)."""


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int
    first_player: str
    hands: tuple[tuple[str, tuple[Card, ...]], ...]
    """``(player, cards)`` pairs, in the order the record gives them."""

    def hand(self, player: str) -> tuple[Card, ...]:
        for name, cards in self.hands:
            if name == player:
                return cards
        raise KeyError(player)


@dataclass(frozen=True, slots=True)
class ChefChosen:
    """A round-start Chef pick (R3.3)."""

    player: str
    suit: Suit


@dataclass(frozen=True, slots=True)
class CardPlayed:
    player: str
    card: Card
    coins: int = 0
    """Signed count of coins placed on the card: +k is k coins +2 side up, -k is k coins -2."""


@dataclass(frozen=True, slots=True)
class ChefTaken:
    """The Chef taken by the lowest card's player after a trick (R7)."""

    player: str
    suit: Suit


Event: TypeAlias = GameStarted | RoundStarted | ChefChosen | CardPlayed | ChefTaken

EVENT_TYPES: Final[dict[str, type[Event]]] = {
    "game_started": GameStarted,
    "round_started": RoundStarted,
    "chef_chosen": ChefChosen,
    "card_played": CardPlayed,
    "chef_taken": ChefTaken,
}
TYPE_NAMES: Final[dict[type[Event], str]] = {cls: name for name, cls in EVENT_TYPES.items()}


def type_name(event: Event) -> str:
    return TYPE_NAMES[type(event)]


# ---------------------------------------------------------------------------------------------
# To JSON


def to_json(event: Event) -> dict[str, Any]:
    """The event's v1 JSON object (``coins`` omitted when 0, as the format allows)."""
    if isinstance(event, GameStarted):
        obj: dict[str, Any] = {"type": "game_started", "players": list(event.players)}
        if event.suits is not None:
            obj["suits"] = list(event.suits)
        return obj
    if isinstance(event, RoundStarted):
        return {
            "type": "round_started",
            "round": event.round,
            "first_player": event.first_player,
            "hands": {player: list(cards) for player, cards in event.hands},
        }
    if isinstance(event, CardPlayed):
        obj = {"type": "card_played", "player": event.player, "card": event.card}
        if event.coins:
            obj["coins"] = event.coins
        return obj
    return {"type": type_name(event), "player": event.player, "suit": event.suit}


def dumps(event: Event) -> str:
    """One line of a record (without the line end)."""
    return json.dumps(to_json(event), separators=(",", ":"), ensure_ascii=False)


# ---------------------------------------------------------------------------------------------
# From JSON


_SUIT_SET: Final = frozenset(SUITS)


def loads(line: str) -> Event:
    """Parse one record line into an event, or raise :class:`BadEvent`."""
    return from_json(decode_object(line))


def from_json(obj: Mapping[str, Any]) -> Event:
    """Build an event from its decoded JSON object, checking its form strictly."""
    kind = obj.get("type")
    # Fast paths for the events that make up most of a record; anything unusual falls through
    # to the field-by-field parse below, which also words the error.
    if kind == "card_played":
        player, card, coins = obj.get("player"), obj.get("card"), obj.get("coins", 0)
        if (
            type(player) is str
            and type(card) is str
            and card in CARD_SUIT
            and type(coins) is int
            and len(obj) == (4 if "coins" in obj else 3)
        ):
            return CardPlayed(player, card, coins)
    elif kind == "chef_taken" or kind == "chef_chosen":
        player, suit = obj.get("player"), obj.get("suit")
        if type(player) is str and type(suit) is str and suit in _SUIT_SET and len(obj) == 3:
            return ChefTaken(player, suit) if kind == "chef_taken" else ChefChosen(player, suit)
    if kind is None:
        raise BadEvent("bad_event", 'the event has no "type"', {"rule": "no_type"})
    parse = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parse is None:
        known = ", ".join(EVENT_TYPES)
        raise BadEvent(
            "bad_event",
            f"unknown event type {json.dumps(kind)} (known: {known})",
            {"rule": "unknown_type", "got": json.dumps(kind), "known": list(EVENT_TYPES)},
        )
    return parse(_Fields(kind, obj))


class _Fields:
    """Typed access to an event's JSON fields that refuses anything the format does not define."""

    __slots__ = ("kind", "obj", "used")

    def __init__(self, kind: str, obj: Mapping[str, Any]) -> None:
        self.kind = kind
        self.obj = obj
        self.used = {"type"}

    def _get(self, key: str, required: bool) -> Any:
        self.used.add(key)
        if key not in self.obj:
            if required:
                raise BadEvent(
                    "bad_event",
                    f'{self.kind} needs a "{key}" field',
                    {"rule": "missing_field", "type": self.kind, "field": key},
                )
            return None
        return self.obj[key]

    def _wrong(self, key: str, expected: str) -> BadEvent:
        got = json.dumps(self.obj[key])
        return BadEvent(
            "bad_event",
            f'"{key}" must be {expected}, not {got}',
            {"rule": "wrong_type", "field": key, "expected": expected, "got": got},
        )

    def string(self, key: str) -> str:
        value = self._get(key, True)
        if not isinstance(value, str):
            raise self._wrong(key, "a string")
        return value

    def integer(self, key: str, required: bool = True) -> int | None:
        value = self._get(key, required)
        if value is None and not required and key not in self.obj:
            return None
        if type(value) is not int:  # bool is an int in Python but not in the format
            raise self._wrong(key, "a whole number")
        return value

    def suit(self, key: str) -> Suit:
        return _suit(self.string(key))

    def card(self, key: str) -> Card:
        return _card(self.string(key))

    def raw(self, key: str, required: bool) -> Any:
        return self._get(key, required)

    def done(self) -> None:
        extra = [key for key in self.obj if key not in self.used]
        if extra:
            names = ", ".join(f'"{key}"' for key in extra)
            raise BadEvent(
                "bad_event",
                f"{self.kind} has no field {names} in record format v1",
                {"rule": "extra_field", "type": self.kind, "fields": extra},
            )


def _suit(value: str) -> Suit:
    if value not in SUITS:
        raise BadEvent(
            "bad_suit",
            f'"{value}" is not a suit (suits: {", ".join(SUITS)})',
            {"got": value, "suits": list(SUITS)},
        )
    return value


def _card(value: object) -> Card:
    if not isinstance(value, str):
        raise BadEvent(
            "bad_card",
            f'a card is written as a code like "G3", not {json.dumps(value)}',
            {"rule": "not_a_string", "got": json.dumps(value)},
        )
    if value not in CARD_SUIT:
        raise BadEvent(
            "bad_card",
            f'"{value}" is not a card: a card is G, R, Y or B followed by 1 to 10, '
            'e.g. "G3", "R10"',
            {"rule": "unknown_card", "got": value},
        )
    return value


def _parse_game_started(f: _Fields) -> GameStarted:
    players = f.raw("players", True)
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise BadEvent("bad_event", '"players" must be a list of names', {"rule": "players_list"})
    raw_suits = f.raw("suits", False)
    suits: tuple[Suit, ...] | None = None
    if "suits" in f.obj:
        if not isinstance(raw_suits, list) or not all(isinstance(s, str) for s in raw_suits):
            raise BadEvent(
                "bad_event", '"suits" must be a list of suit names', {"rule": "suits_list"}
            )
        suits = tuple(_suit(s) for s in raw_suits)
    f.done()
    return GameStarted(players=tuple(players), suits=suits)


def _parse_round_started(f: _Fields) -> RoundStarted:
    number = f.integer("round")
    assert number is not None
    first = f.string("first_player")
    raw_hands = f.raw("hands", True)
    if not isinstance(raw_hands, dict):
        raise BadEvent(
            "bad_event",
            '"hands" must map each player to a list of cards',
            {"rule": "hands_map"},
        )
    hands = []
    for player, cards in raw_hands.items():
        if not isinstance(cards, list):
            raise BadEvent(
                "bad_event",
                f'the hand of "{player}" must be a list of cards',
                {"rule": "hand_list", "player": player},
            )
        if not all(type(c) is str and c in CARD_SUIT for c in cards):
            for card in cards:
                _card(card)  # raises, naming the first bad card
        hands.append((player, tuple(cards)))
    f.done()
    return RoundStarted(round=number, first_player=first, hands=tuple(hands))


def _parse_chef_chosen(f: _Fields) -> ChefChosen:
    event = ChefChosen(player=f.string("player"), suit=f.suit("suit"))
    f.done()
    return event


def _parse_card_played(f: _Fields) -> CardPlayed:
    player = f.string("player")
    card = f.card("card")
    coins = f.integer("coins", required=False)
    f.done()
    return CardPlayed(player=player, card=card, coins=coins or 0)


def _parse_chef_taken(f: _Fields) -> ChefTaken:
    event = ChefTaken(player=f.string("player"), suit=f.suit("suit"))
    f.done()
    return event


_PARSERS: Final[dict[str, Callable[[_Fields], Event]]] = {
    "game_started": _parse_game_started,
    "round_started": _parse_round_started,
    "chef_chosen": _parse_chef_chosen,
    "card_played": _parse_card_played,
    "chef_taken": _parse_chef_taken,
}

"""The events of a Chefs record, versions 1 and 2 (docs/chefs-record-format.md).

Version 2 says so on its first line (``game_started`` with ``"version": 2``) and adds
``meal_laid`` (the meal cards put out face up at the cookers) and ``game_called`` (the organizer
ends a game called for time); a v1 record has no ``"version"`` and reads as it always did.

Frozen dataclasses named in the past tense, mapped to and from JSON through one explicit registry
of type names (:data:`EVENT_TYPES`). Parsing checks an event's *form* only and raises
:class:`~engine.errors.BadEvent`; whether it is allowed now is :mod:`engine.chefs.referee`'s
business.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from engine.errors import BadEvent
from engine.fields import Fields
from engine.jsonline import decode_object

GAME: Final = "chefs"
VERSION: Final = "Chefs record format v1"
VERSION_2: Final = "Chefs record format v2"
VERSIONS: Final[tuple[int, ...]] = (1, 2)
"""The record versions this engine reads; a v1 record's first line has no ``"version"``."""
LATEST: Final = 2
"""The version new tables start (games.chefs.gametype)."""
COOKERS: Final[tuple[str, ...]] = ("window", "wall")
"""The two cookers, in the order they are filled up (CH8.1)."""

LOCATIONS: Final[tuple[str, ...]] = ("counter", "window", "door", "wall", "service")
"""The five locations in the order they act (CH4.1): counter of ingredients, cooker at the
window, door, cooker at the wall, service counter."""

CHESTS: Final[tuple[str, ...]] = ("1:1", "1:2", "2:2", "2:3", "3:4")
"""The door's five chests: cards given : cards drawn (CH6.1)."""


@dataclass(frozen=True, slots=True)
class GameStarted:
    players: tuple[str, ...]
    """Names in clockwise seat order."""
    version: int = 1
    """The record's version (1: no ``"version"`` on the line)."""


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int
    starting_player: str


@dataclass(frozen=True, slots=True)
class MarkerPlaced:
    player: str
    location: str
    circle: int


@dataclass(frozen=True, slots=True)
class IngredientsTaken:
    player: str
    count: int


@dataclass(frozen=True, slots=True)
class MealCooked:
    player: str
    steps: int
    """The number printed on the meal card."""
    ingredients: int
    """Ingredient cards put on the discard pile for it."""
    chef_card: bool
    """Whether the chef card stood in for one ingredient."""


@dataclass(frozen=True, slots=True)
class CardsExchanged:
    player: str
    chest: str


@dataclass(frozen=True, slots=True)
class MealServed:
    player: str
    steps: int
    position: int
    """The chef's distance from the door after the steps (21 is field 1 of the second lap)."""


@dataclass(frozen=True, slots=True)
class ActionPassed:
    player: str


@dataclass(frozen=True, slots=True)
class MealLaid:
    """v2: a meal card put out face up at a cooker when the table is filled (CH2.4, CH8.3)."""

    cooker: str
    steps: int
    """The number printed on the card."""
    ingredients: int
    """How many ingredients the meal needs (the chef card may stand in for one)."""


@dataclass(frozen=True, slots=True)
class GameCalled:
    """v2: the organizer ended the game called for time, the positions as they stand (CH9.3)."""


Action: TypeAlias = IngredientsTaken | MealCooked | CardsExchanged | MealServed | ActionPassed
Event: TypeAlias = GameStarted | RoundStarted | MarkerPlaced | Action | MealLaid | GameCalled

EVENT_TYPES: Final[dict[str, type[Event]]] = {
    "game_started": GameStarted,
    "round_started": RoundStarted,
    "marker_placed": MarkerPlaced,
    "ingredients_taken": IngredientsTaken,
    "meal_cooked": MealCooked,
    "cards_exchanged": CardsExchanged,
    "meal_served": MealServed,
    "action_passed": ActionPassed,
    "meal_laid": MealLaid,
    "game_called": GameCalled,
}
V2_ONLY: Final[frozenset[type[Event]]] = frozenset({MealLaid, GameCalled})
"""The events a v1 record cannot hold."""
TYPE_NAMES: Final[dict[type[Event], str]] = {cls: name for name, cls in EVENT_TYPES.items()}


def type_name(event: Event | type[Event]) -> str:
    return TYPE_NAMES[event if isinstance(event, type) else type(event)]


def to_json(event: Event) -> dict[str, Any]:
    obj: dict[str, Any] = {"type": type_name(event)}
    if isinstance(event, GameStarted):
        obj["game"] = GAME
        if event.version != 1:
            obj["version"] = event.version
        obj["players"] = list(event.players)
        return obj
    for name in event.__dataclass_fields__:
        obj[name] = getattr(event, name)
    return obj


def dumps(event: Event) -> str:
    return json.dumps(to_json(event), separators=(",", ":"), ensure_ascii=False)


def loads(line: str) -> Event:
    """Parse one record line, or raise BadEvent."""
    return from_json(decode_object(line))


def from_json(obj: Mapping[str, Any]) -> Event:
    kind = obj.get("type")
    if kind is None:
        raise _bad("bad_event", 'the event has no "type"', rule="no_type")
    parse = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parse is None:
        known = ", ".join(EVENT_TYPES)
        raise _bad(
            "bad_event",
            f"unknown event type {json.dumps(kind)} (known: {known})",
            rule="unknown_type",
            got=json.dumps(kind),
            known=list(EVENT_TYPES),
        )
    v2 = kind in ("meal_laid", "game_called") or "version" in obj
    fields = Fields(kind, obj, VERSION_2 if v2 else VERSION, GAME)
    event = parse(fields)
    fields.done()
    return event


def _bad(code: str, message: str, **params: object) -> BadEvent:
    return BadEvent(code, message, {"game": GAME, **params})


def _game_started(f: Fields) -> GameStarted:
    game = f.string("game")
    if game != GAME:
        raise _bad(
            "bad_event",
            f'a Chefs record has "game": "{GAME}", not {json.dumps(game)}',
            rule="game",
            got=json.dumps(game),
        )
    version = 1
    if f.has("version"):
        version = f.integer("version")
        if version not in VERSIONS or version == 1:
            raise _bad(
                "bad_event",
                f'this engine reads Chefs record versions 1 (no "version") and 2, not {version}',
                rule="version",
                got=json.dumps(version),
            )
    return GameStarted(players=f.strings("players"), version=version)


def _round_started(f: Fields) -> RoundStarted:
    return RoundStarted(round=f.integer("round"), starting_player=f.string("starting_player"))


def _marker_placed(f: Fields) -> MarkerPlaced:
    player = f.string("player")
    location = f.string("location")
    if location not in LOCATIONS:
        raise _bad(
            "bad_location",
            f'"{location}" is not a location (locations: {", ".join(LOCATIONS)})',
            got=location,
            locations=list(LOCATIONS),
        )
    return MarkerPlaced(player=player, location=location, circle=f.integer("circle"))


def _ingredients_taken(f: Fields) -> IngredientsTaken:
    return IngredientsTaken(player=f.string("player"), count=f.integer("count"))


def _meal_cooked(f: Fields) -> MealCooked:
    return MealCooked(
        player=f.string("player"),
        steps=f.integer("steps"),
        ingredients=f.integer("ingredients"),
        chef_card=f.boolean("chef_card"),
    )


def _cards_exchanged(f: Fields) -> CardsExchanged:
    player = f.string("player")
    chest = f.string("chest")
    if chest not in CHESTS:
        raise _bad(
            "bad_chest",
            f'"{chest}" is not a chest at the door (chests: {", ".join(CHESTS)})',
            got=chest,
            chests=list(CHESTS),
        )
    return CardsExchanged(player=player, chest=chest)


def _meal_served(f: Fields) -> MealServed:
    return MealServed(
        player=f.string("player"), steps=f.integer("steps"), position=f.integer("position")
    )


def _action_passed(f: Fields) -> ActionPassed:
    return ActionPassed(player=f.string("player"))


def _meal_laid(f: Fields) -> MealLaid:
    cooker = f.string("cooker")
    if cooker not in COOKERS:
        raise _bad(
            "bad_location",
            f'"{cooker}" is not a cooker (cookers: {", ".join(COOKERS)})',
            got=cooker,
            locations=list(COOKERS),
        )
    return MealLaid(cooker=cooker, steps=f.integer("steps"), ingredients=f.integer("ingredients"))


def _game_called(f: Fields) -> GameCalled:
    return GameCalled()


_PARSERS: Final[dict[str, Callable[[Fields], Event]]] = {
    "game_started": _game_started,
    "round_started": _round_started,
    "marker_placed": _marker_placed,
    "ingredients_taken": _ingredients_taken,
    "meal_cooked": _meal_cooked,
    "cards_exchanged": _cards_exchanged,
    "meal_served": _meal_served,
    "action_passed": _action_passed,
    "meal_laid": _meal_laid,
    "game_called": _game_called,
}

"""The events of a Food Truck record, versions 1 and 2 (docs/foodtruck-record-format.md).

Frozen dataclasses named in the past tense, mapped to and from JSON through one explicit
registry of type names (:data:`EVENT_TYPES`). Parsing checks the *form* of an event (fields,
types, dish and effect names) and raises :class:`~engine.errors.BadEvent`; whether the event is
allowed now is the referee's business (:mod:`engine.foodtruck.referee`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from engine.errors import BadEvent
from engine.foodtruck.rules import DISH_PATTERN, EFFECTS, is_dish_name
from engine.jsonline import decode_object

GAME_KEY: Final = "food-truck"
RECORD_VERSIONS: Final = (1, 2)
"""The record format's versions: v1 (no ``version`` field on ``game_started``) and v2."""
CURRENT_VERSION: Final = 2
"""The version new tables start (``"version": 2`` on their ``game_started``)."""
_is_dish: Final = DISH_PATTERN.fullmatch


@dataclass(frozen=True, slots=True)
class GameStarted:
    players: tuple[str, ...]
    """Names in clockwise seat order."""
    version: int = 1
    """The record format's version (v1: the line has no ``version`` field)."""


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int
    first_player: str
    market: tuple[str, ...]
    """The dishes laid out face up in the market, in the order the record gives them."""
    companies: tuple[tuple[str, str], ...]
    """``(player, effect)``: the Company card each player turned over, in the record's order."""


@dataclass(frozen=True, slots=True)
class CompanyPlayed:
    """A Company card played (FT6). ``target``/``dish``/``market`` as the effect needs them:
    remove: target and dish (and, from v2 on, ``chosen_by``: who chose the dish, FT6.2);
    swap: dish (from the pile) and market (taken); under: dish."""

    player: str
    effect: str
    target: str | None = None
    dish: str | None = None
    market: str | None = None
    chosen_by: str | None = None


@dataclass(frozen=True, slots=True)
class DishRevealed:
    player: str
    dish: str


@dataclass(frozen=True, slots=True)
class MarketTaken:
    player: str
    dish: str


Event: TypeAlias = GameStarted | RoundStarted | CompanyPlayed | DishRevealed | MarketTaken

EVENT_TYPES: Final[dict[str, type[Event]]] = {
    "game_started": GameStarted,
    "round_started": RoundStarted,
    "company_played": CompanyPlayed,
    "dish_revealed": DishRevealed,
    "market_taken": MarketTaken,
}
TYPE_NAMES: Final[dict[type[Event], str]] = {cls: name for name, cls in EVENT_TYPES.items()}

EFFECT_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "rearrange": (),
    "remove": ("target", "dish"),
    "swap": ("dish", "market"),
    "under": ("dish",),
    "copy": (),
}
"""The fields each Company effect carries besides ``player`` and ``effect``."""


def type_name(event: Event) -> str:
    return TYPE_NAMES[type(event)]


# ---------------------------------------------------------------------------------------------
# To JSON


def to_json(event: Event) -> dict[str, Any]:
    if isinstance(event, GameStarted):
        if event.version == 1:
            return {"type": "game_started", "game": GAME_KEY, "players": list(event.players)}
        return {
            "type": "game_started",
            "game": GAME_KEY,
            "version": event.version,
            "players": list(event.players),
        }
    if isinstance(event, RoundStarted):
        return {
            "type": "round_started",
            "round": event.round,
            "first_player": event.first_player,
            "market": list(event.market),
            "companies": dict(event.companies),
        }
    if isinstance(event, CompanyPlayed):
        obj: dict[str, Any] = {
            "type": "company_played",
            "player": event.player,
            "effect": event.effect,
        }
        for key in EFFECT_FIELDS.get(event.effect, ()):
            obj[key] = getattr(event, key)
        if event.chosen_by is not None:
            obj["chosen_by"] = event.chosen_by
        return obj
    return {"type": type_name(event), "player": event.player, "dish": event.dish}


def dumps(event: Event) -> str:
    """One line of a record (without the line end)."""
    return json.dumps(to_json(event), separators=(",", ":"), ensure_ascii=False)


# ---------------------------------------------------------------------------------------------
# From JSON


def loads(line: str) -> Event:
    """Parse one record line into an event, or raise :class:`BadEvent`."""
    return from_json(decode_object(line))


def from_json(obj: Mapping[str, Any]) -> Event:
    """Build an event from its decoded JSON object, checking its form strictly."""
    kind = obj.get("type")
    # Fast path for the lines that make up most of a record; anything unusual falls through to
    # the field-by-field parse below, which also words the error.
    if (kind == "dish_revealed" or kind == "market_taken") and len(obj) == 3:
        player, dish = obj.get("player"), obj.get("dish")
        if type(player) is str and type(dish) is str and _is_dish(dish):
            return (
                DishRevealed(player, dish) if kind == "dish_revealed" else MarketTaken(player, dish)
            )
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
    return parse(_Fields(kind, obj))


def _bad(code: str, message: str, **params: object) -> BadEvent:
    """A line the record format refuses, with the values its sentence is made of."""
    return BadEvent(code, message, {"game": GAME_KEY, **params})


class _Fields:
    """Typed access to an event's fields that refuses anything the format does not define."""

    __slots__ = ("kind", "obj", "used")

    def __init__(self, kind: str, obj: Mapping[str, Any]) -> None:
        self.kind = kind
        self.obj = obj
        self.used = {"type"}

    def raw(self, key: str) -> Any:
        self.used.add(key)
        if key not in self.obj:
            raise _bad(
                "bad_event",
                f'{self.kind} needs a "{key}" field',
                rule="missing_field",
                type=self.kind,
                field=key,
            )
        return self.obj[key]

    def string(self, key: str) -> str:
        value = self.raw(key)
        if not isinstance(value, str):
            raise _bad(
                "bad_event",
                f'"{key}" must be a string, not {json.dumps(value)}',
                rule="wrong_type",
                field=key,
                expected="a string",
                got=json.dumps(value),
            )
        return value

    def integer(self, key: str) -> int:
        value = self.raw(key)
        if type(value) is not int:  # bool is an int in Python but not in the format
            raise _bad(
                "bad_event",
                f'"{key}" must be a whole number, not {json.dumps(value)}',
                rule="wrong_type",
                field=key,
                expected="a whole number",
                got=json.dumps(value),
            )
        return value

    def dish(self, key: str) -> str:
        return _dish(self.raw(key))

    def done(self) -> None:
        extra = [key for key in self.obj if key not in self.used]
        if extra:
            names = ", ".join(f'"{key}"' for key in extra)
            raise _bad(
                "bad_event",
                f"{self.kind} has no field {names} in the Food Truck record format",
                rule="extra_field",
                type=self.kind,
                fields=extra,
            )


def _dish(value: object) -> str:
    if not isinstance(value, str) or not is_dish_name(value):
        raise _bad(
            "bad_dish",
            f"{json.dumps(value)} is not a dish: a dish is written in lower case letters, "
            'digits and dashes, starting with a letter, e.g. "burger", "hotdog", "dessert"',
            got=json.dumps(value),
        )
    return value


def _parse_game_started(f: _Fields) -> GameStarted:
    if f.raw("game") != GAME_KEY:
        raise _bad("bad_event", f'"game" must be "{GAME_KEY}" in a Food Truck record', rule="game")
    version = 1
    if "version" in f.obj:  # v2 on: v1 has no such field
        version = f.integer("version")
        if version not in RECORD_VERSIONS[1:]:
            raise _bad(
                "bad_event",
                f'"version" must be 2 (a version 1 record has no "version" field), not {version}',
                rule="version",
                got=version,
            )
    players = f.raw("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise _bad("bad_event", '"players" must be a list of names', rule="players_list")
    f.done()
    return GameStarted(players=tuple(players), version=version)


def _parse_round_started(f: _Fields) -> RoundStarted:
    number = f.integer("round")
    first = f.string("first_player")
    raw_market = f.raw("market")
    if not isinstance(raw_market, list):
        raise _bad("bad_event", '"market" must be a list of dishes', rule="market_list")
    market = tuple(_dish(d) for d in raw_market)
    raw_companies = f.raw("companies")
    if not isinstance(raw_companies, dict):
        raise _bad(
            "bad_event",
            '"companies" must map each player to a Company effect',
            rule="companies_map",
        )
    companies = tuple((player, _effect(effect)) for player, effect in raw_companies.items())
    f.done()
    return RoundStarted(round=number, first_player=first, market=market, companies=companies)


def _effect(value: object) -> str:
    if not isinstance(value, str) or value not in EFFECTS:
        raise _bad(
            "bad_effect",
            f"{json.dumps(value)} is not a Company effect (effects: {', '.join(EFFECTS)})",
            got=json.dumps(value),
            effects=list(EFFECTS),
        )
    return value


def _parse_company_played(f: _Fields) -> CompanyPlayed:
    player = f.string("player")
    effect = _effect(f.raw("effect"))
    needs = EFFECT_FIELDS[effect]
    target = f.string("target") if "target" in needs else None
    dish = f.dish("dish") if "dish" in needs else None
    market = f.dish("market") if "market" in needs else None
    # v2: who chose the dish (whether the record's version has it is the referee's check, as
    # the line alone does not say its version).
    chosen_by = f.string("chosen_by") if effect == "remove" and "chosen_by" in f.obj else None
    f.done()
    return CompanyPlayed(player, effect, target, dish, market, chosen_by)


def _parse_dish_revealed(f: _Fields) -> DishRevealed:
    event = DishRevealed(player=f.string("player"), dish=f.dish("dish"))
    f.done()
    return event


def _parse_market_taken(f: _Fields) -> MarketTaken:
    event = MarketTaken(player=f.string("player"), dish=f.dish("dish"))
    f.done()
    return event


_PARSERS: Final[dict[str, Callable[[_Fields], Event]]] = {
    "game_started": _parse_game_started,
    "round_started": _parse_round_started,
    "company_played": _parse_company_played,
    "dish_revealed": _parse_dish_revealed,
    "market_taken": _parse_market_taken,
}

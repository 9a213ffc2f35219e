"""The events of a Crazy Kitchen record, versions 1 and 2 (docs/crazykitchen-record-format.md).

Version 1 records each round's result (``round_scored``); version 2 (``"version": 2`` on the
first line) records the round's orders as the phones enter them and the upgrades bought after
rounds 2 and 4, each event naming its ``team``.

Frozen dataclasses in the past tense, one explicit registry of type names, strict parsing that
checks an event's form (:class:`~engine.errors.BadEvent`); the referee decides the rest.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from engine.errors import BadEvent
from engine.fields import Fields
from engine.jsonline import decode_object

GAME: Final = "crazy-kitchen"
VERSION: Final = "Crazy Kitchen record format v1"
VERSION_2: Final = "Crazy Kitchen record format v2"
VERSIONS: Final[tuple[int, ...]] = (1, 2)
"""The record versions this engine reads (v1 has no ``version`` key)."""


@dataclass(frozen=True, slots=True)
class Team:
    name: str
    players: tuple[str, ...]
    head_chef: str | None = None
    """v2: the player whose phone enters for the team (CK1.5); None in a v1 record."""


@dataclass(frozen=True, slots=True)
class GameStarted:
    teams: tuple[Team, ...]
    cooks_first: str
    compensation: int | None = None
    """Points for the smaller team; ``None`` when the record leaves the default (CK1.4)."""
    version: int = 1
    """The record's version (1: no ``version`` key on the line)."""


@dataclass(frozen=True, slots=True)
class RoundScored:
    round: int
    cooks: str
    fulfilled: tuple[int, ...]
    """The victory points of the orders fulfilled (prepared side up by the scoreboard)."""
    penalties: tuple[int, ...]
    """The penalty points of the orders not fulfilled (wrong or unfinished), as positive
    numbers: an order card's -2 is written 2."""
    score: int
    """The round's score as written on the scoreboard."""


@dataclass(frozen=True, slots=True)
class OrderFulfilled:
    """v2: the customers checked an order and found it right (CK3.4): the cooks enter it."""

    team: str
    points: int


@dataclass(frozen=True, slots=True)
class OrderFailed:
    """v2: an order prepared wrongly or left unfinished (CK3.4): the cooks enter its penalty."""

    team: str
    penalty: int


@dataclass(frozen=True, slots=True)
class OrderStruck:
    """v2: the cooks strike an order they entered by mistake (CK3.5), ``order`` its number
    among the round's orders as they stand (1 for the first)."""

    team: str
    order: int


@dataclass(frozen=True, slots=True)
class RoundReturned:
    """v2: the customers do not agree with the orders entered and return the round (CK3.6)."""

    team: str


@dataclass(frozen=True, slots=True)
class RoundConfirmed:
    """v2: the customers confirm the round's orders: the round is scored (CK3.6)."""

    team: str


@dataclass(frozen=True, slots=True)
class ToolSpedUp:
    """v2: at an upgrade break a team crosses out a tool's lowest number (CK4.4)."""

    team: str
    tool: str
    cost: int


@dataclass(frozen=True, slots=True)
class CardTaken:
    """v2: at an upgrade break a team takes a one-time improvement card (CK4.4)."""

    team: str
    cost: int


@dataclass(frozen=True, slots=True)
class UpgradesDone:
    """v2: the team has bought all it upgrades at this break (CK4.6)."""

    team: str


TeamEvent: TypeAlias = (
    OrderFulfilled
    | OrderFailed
    | OrderStruck
    | RoundReturned
    | RoundConfirmed
    | ToolSpedUp
    | CardTaken
    | UpgradesDone
)
"""The v2 events after the start: each names its team."""
Event: TypeAlias = GameStarted | RoundScored | TeamEvent

EVENT_TYPES: Final[dict[str, type[Event]]] = {
    "game_started": GameStarted,
    "round_scored": RoundScored,
    "order_fulfilled": OrderFulfilled,
    "order_failed": OrderFailed,
    "order_struck": OrderStruck,
    "round_returned": RoundReturned,
    "round_confirmed": RoundConfirmed,
    "tool_sped_up": ToolSpedUp,
    "card_taken": CardTaken,
    "upgrades_done": UpgradesDone,
}
V2_TYPES: Final = frozenset(EVENT_TYPES) - {"game_started", "round_scored"}
"""The event types only a v2 record has."""
TYPE_NAMES: Final[dict[type[Event], str]] = {cls: name for name, cls in EVENT_TYPES.items()}


def type_name(event: Event) -> str:
    return TYPE_NAMES[type(event)]


def to_json(event: Event) -> dict[str, Any]:
    if isinstance(event, GameStarted):
        obj: dict[str, Any] = {"type": "game_started", "game": GAME}
        if event.version != 1:
            obj["version"] = event.version
        obj["teams"] = [_team_json(t) for t in event.teams]
        obj["cooks_first"] = event.cooks_first
        if event.compensation is not None:
            obj["compensation"] = event.compensation
        return obj
    if not isinstance(event, RoundScored):
        return {"type": type_name(event), **{k: getattr(event, k) for k in event.__slots__}}
    return {
        "type": "round_scored",
        "round": event.round,
        "cooks": event.cooks,
        "fulfilled": list(event.fulfilled),
        "penalties": list(event.penalties),
        "score": event.score,
    }


def _team_json(team: Team) -> dict[str, Any]:
    obj: dict[str, Any] = {"name": team.name, "players": list(team.players)}
    if team.head_chef is not None:
        obj["head_chef"] = team.head_chef
    return obj


def dumps(event: Event) -> str:
    return json.dumps(to_json(event), separators=(",", ":"), ensure_ascii=False)


def loads(line: str) -> Event:
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
    fields = Fields(kind, obj, VERSION_2 if kind in V2_TYPES else VERSION, GAME)
    event = parse(fields)
    fields.done()
    return event


def _bad(code: str, message: str, **params: object) -> BadEvent:
    return BadEvent(code, message, {"game": GAME, **params})


def _team(value: Any, version: int) -> Team:
    if type(value) is not dict:
        raise _bad("bad_event", 'a team is {"name": ..., "players": [...]}', rule="team_object")
    fields = Fields("a team", value, VERSION_2 if version == 2 else VERSION, GAME)
    fields.used.discard("type")
    name, players = fields.string("name"), fields.strings("players")
    head_chef = fields.string("head_chef") if version == 2 else None
    fields.done()
    return Team(name=name, players=players, head_chef=head_chef)


def _game_started(f: Fields) -> GameStarted:
    game = f.string("game")
    if game != GAME:
        raise _bad(
            "bad_event",
            f'a Crazy Kitchen record has "game": "{GAME}", not {json.dumps(game)}',
            rule="game",
            got=json.dumps(game),
        )
    version = 1
    if f.has("version"):
        version = f.integer("version")
        if version != 2:  # a v1 record has no "version" key
            raise _bad(
                "wrong_version",
                f"this site reads Crazy Kitchen records v1 (no version) and v2, not {version}",
                rule="unknown",
                got=version,
            )
        f.version = VERSION_2
    teams = f.get("teams")
    if type(teams) is not list:
        raise f.wrong("teams", "a list of two teams")
    parsed = tuple(_team(t, version) for t in teams)
    cooks_first = f.string("cooks_first")
    compensation = f.integer("compensation") if f.has("compensation") else None
    return GameStarted(
        teams=parsed, cooks_first=cooks_first, compensation=compensation, version=version
    )


def _round_scored(f: Fields) -> RoundScored:
    return RoundScored(
        round=f.integer("round"),
        cooks=f.string("cooks"),
        fulfilled=f.integers("fulfilled"),
        penalties=f.integers("penalties"),
        score=f.integer("score"),
    )


_PARSERS: Final[dict[str, Callable[[Fields], Event]]] = {
    "game_started": _game_started,
    "round_scored": _round_scored,
    "order_fulfilled": lambda f: OrderFulfilled(f.string("team"), f.integer("points")),
    "order_failed": lambda f: OrderFailed(f.string("team"), f.integer("penalty")),
    "order_struck": lambda f: OrderStruck(f.string("team"), f.integer("order")),
    "round_returned": lambda f: RoundReturned(f.string("team")),
    "round_confirmed": lambda f: RoundConfirmed(f.string("team")),
    "tool_sped_up": lambda f: ToolSpedUp(f.string("team"), f.string("tool"), f.integer("cost")),
    "card_taken": lambda f: CardTaken(f.string("team"), f.integer("cost")),
    "upgrades_done": lambda f: UpgradesDone(f.string("team")),
}

"""The events of a Crazy Kitchen record, version 1 (docs/crazykitchen-record-format.md).

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


@dataclass(frozen=True, slots=True)
class Team:
    name: str
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameStarted:
    teams: tuple[Team, ...]
    cooks_first: str
    compensation: int | None = None
    """Points for the smaller team; ``None`` when the record leaves the default (CK1.4)."""


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


Event: TypeAlias = GameStarted | RoundScored

EVENT_TYPES: Final[dict[str, type[Event]]] = {
    "game_started": GameStarted,
    "round_scored": RoundScored,
}
TYPE_NAMES: Final[dict[type[Event], str]] = {cls: name for name, cls in EVENT_TYPES.items()}


def type_name(event: Event) -> str:
    return TYPE_NAMES[type(event)]


def to_json(event: Event) -> dict[str, Any]:
    if isinstance(event, GameStarted):
        obj: dict[str, Any] = {
            "type": "game_started",
            "game": GAME,
            "teams": [{"name": t.name, "players": list(t.players)} for t in event.teams],
            "cooks_first": event.cooks_first,
        }
        if event.compensation is not None:
            obj["compensation"] = event.compensation
        return obj
    return {
        "type": "round_scored",
        "round": event.round,
        "cooks": event.cooks,
        "fulfilled": list(event.fulfilled),
        "penalties": list(event.penalties),
        "score": event.score,
    }


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
    fields = Fields(kind, obj, VERSION, GAME)
    event = parse(fields)
    fields.done()
    return event


def _bad(code: str, message: str, **params: object) -> BadEvent:
    return BadEvent(code, message, {"game": GAME, **params})


def _team(value: Any) -> Team:
    if type(value) is not dict:
        raise _bad("bad_event", 'a team is {"name": ..., "players": [...]}', rule="team_object")
    fields = Fields("a team", value, VERSION, GAME)
    fields.used.discard("type")
    team = Team(name=fields.string("name"), players=fields.strings("players"))
    fields.done()
    return team


def _game_started(f: Fields) -> GameStarted:
    game = f.string("game")
    if game != GAME:
        raise _bad(
            "bad_event",
            f'a Crazy Kitchen record has "game": "{GAME}", not {json.dumps(game)}',
            rule="game",
            got=json.dumps(game),
        )
    teams = f.get("teams")
    if type(teams) is not list:
        raise f.wrong("teams", "a list of two teams")
    parsed = tuple(_team(t) for t in teams)
    cooks_first = f.string("cooks_first")
    compensation = f.integer("compensation") if f.has("compensation") else None
    return GameStarted(teams=parsed, cooks_first=cooks_first, compensation=compensation)


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
}

"""The events of a tournament's stream: typed, frozen, past tense, with schema versions (pure).

Each event type has a name in :data:`EVENT_TYPES` (the stored ``type``; never a class path) and
a schema version in :data:`SCHEMA`. The version is stored in the event's data as ``"schema"``
when it is above 1; data without it is version 1, which is every event written before versions
existed (docs/tournament-events.md). :func:`parse` builds an event from its stored type and
data, upcasting older versions step by step; :func:`to_data` writes the current version.

Parsing checks the form an event needs to be folded (its fields), never whether it was allowed:
the decisions in :mod:`tournaments.domain` did that before it was appended.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeAlias

from tournaments import notes

SCHEMA_KEY: Final = "schema"


class EventSchemaError(ValueError):
    """Stored event data this code cannot read (an invariant error: a bug or newer data)."""


Json: TypeAlias = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class TournamentCreated:
    settings: Json
    organizer: Json
    """``{"id": user id, "username": ...}``: the first organizer."""


@dataclass(frozen=True, slots=True)
class SettingsChanged:
    changes: Json


@dataclass(frozen=True, slots=True)
class PlayerRegistered:
    player: str
    name: str
    rating: int | None = None
    late: bool = False
    checked_in: bool = False
    members: tuple[str, ...] = ()
    """A team's players, when the entrant is a team (a team game such as Crazy Kitchen).
    Optional and added without a new version: data without it is an entrant of no members,
    and :func:`to_data` leaves it out when empty, so a player's event is stored as before."""


@dataclass(frozen=True, slots=True)
class PlayerCheckedIn:
    player: str


@dataclass(frozen=True, slots=True)
class PlayerCheckedOut:
    """A checked-in player is not here after all: not seated at the next pairing (unlike a
    drop, nothing is marked in the standings)."""

    player: str


@dataclass(frozen=True, slots=True)
class PlayerDropped:
    player: str


@dataclass(frozen=True, slots=True)
class PlayerReinstated:
    player: str


@dataclass(frozen=True, slots=True)
class RoleGranted:
    user_id: int
    username: str
    role: str


@dataclass(frozen=True, slots=True)
class RoleRevoked:
    user_id: int
    username: str
    role: str


@dataclass(frozen=True, slots=True)
class RoundPaired:
    """Version 2: ``notes`` are codes (:mod:`tournaments.notes`); version 1 held sentences."""

    round: int
    method: str
    seed: int
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]
    cost: Json = field(default_factory=dict)
    lower_bound: float = 0.0
    notes: tuple[Json, ...] = ()
    details: tuple[Json, ...] = ()


@dataclass(frozen=True, slots=True)
class PairingChanged:
    round: int
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]
    change: Json = field(default_factory=dict)
    """``{"swap": [a, b]}``: two players swapped by hand."""
    cost: Json | None = None
    """``None``: the round's cost stays as it was."""
    details: tuple[Json, ...] = ()


@dataclass(frozen=True, slots=True)
class RoundPublished:
    round: int
    games: tuple[Json, ...]
    """``{"table": number, "game": game id}`` per table."""


@dataclass(frozen=True, slots=True)
class PairingScheduled:
    round: int
    at: str


@dataclass(frozen=True, slots=True)
class RoundClockSet:
    """The round's clock: when its play ends (``None``: the clock is stopped). ``minutes``: the
    duration the organizer gave, when they gave one rather than an end time."""

    round: int
    ends_at: str | None
    minutes: int | None = None


@dataclass(frozen=True, slots=True)
class RoundDelaySet:
    """How long spectators wait to see the round's tables (the relay's delay, docs/relay.md):
    ``seconds`` from 0 to 3600, or ``None``: the tournament's own (``Settings.relay_delay``)."""

    round: int
    seconds: int | None


@dataclass(frozen=True, slots=True)
class ResultRecorded:
    round: int
    table: int
    game: str
    game_version: int
    placements: tuple[Json, ...]
    entered_by: tuple[int, ...] = ()
    actor_id: int | None = None
    """Who caused it: the user of the game's event that finished the game (its ``by_id``)."""
    actor: str = ""
    """That user's username ("" when unknown, or when a seat's phone sent the event)."""
    actor_seat: int | None = None
    """The seat whose phone sent that event (its ``by_seat``), if a phone did."""


@dataclass(frozen=True, slots=True)
class ResultWithdrawn:
    round: int
    table: int
    game: str
    cause: str = ""
    """The game's event that withdrew it, by its type: ``events_retracted`` (a correction) or
    ``game_voided`` ("" in events written before it was recorded: unknown)."""
    actor_id: int | None = None
    actor: str = ""
    actor_seat: int | None = None
    reason: str = ""
    """The reason the official typed with the correction or the void, as typed (data)."""


@dataclass(frozen=True, slots=True)
class ResultConfirmed:
    round: int
    table: int
    game_version: int
    by: int | None = None


@dataclass(frozen=True, slots=True)
class RoundClosed:
    round: int


@dataclass(frozen=True, slots=True)
class TournamentFinished:
    pass


@dataclass(frozen=True, slots=True)
class ActionUndone:
    version: int
    reason: str = ""


TournamentEvent: TypeAlias = (
    TournamentCreated
    | SettingsChanged
    | PlayerRegistered
    | PlayerCheckedIn
    | PlayerCheckedOut
    | PlayerDropped
    | PlayerReinstated
    | RoleGranted
    | RoleRevoked
    | RoundPaired
    | PairingChanged
    | RoundPublished
    | PairingScheduled
    | RoundClockSet
    | RoundDelaySet
    | ResultRecorded
    | ResultWithdrawn
    | ResultConfirmed
    | RoundClosed
    | TournamentFinished
    | ActionUndone
)

EVENT_TYPES: Final[dict[str, type[TournamentEvent]]] = {
    "tournament_created": TournamentCreated,
    "settings_changed": SettingsChanged,
    "player_registered": PlayerRegistered,
    "player_checked_in": PlayerCheckedIn,
    "player_checked_out": PlayerCheckedOut,
    "player_dropped": PlayerDropped,
    "player_reinstated": PlayerReinstated,
    "role_granted": RoleGranted,
    "role_revoked": RoleRevoked,
    "round_paired": RoundPaired,
    "pairing_changed": PairingChanged,
    "round_published": RoundPublished,
    "pairing_scheduled": PairingScheduled,
    "round_clock_set": RoundClockSet,
    "round_delay_set": RoundDelaySet,
    "result_recorded": ResultRecorded,
    "result_withdrawn": ResultWithdrawn,
    "result_confirmed": ResultConfirmed,
    "round_closed": RoundClosed,
    "tournament_finished": TournamentFinished,
    "action_undone": ActionUndone,
}
TYPE_NAMES: Final[dict[type[TournamentEvent], str]] = {c: n for n, c in EVENT_TYPES.items()}

SCHEMA: Final[dict[str, int]] = {name: 1 for name in EVENT_TYPES} | {"round_paired": 2}
"""The current schema version of each event type (what :func:`to_data` writes)."""

Labels = Callable[[], Mapping[str, str]]
"""How version-1 prose named players (name or id) -> player id, at that point of the stream."""

# (type, version) -> the data at version + 1. An upcaster never loses information it can keep.
Upcaster = Callable[[dict[str, Any], Labels], dict[str, Any]]


def _round_paired_1(data: dict[str, Any], labels: Labels) -> dict[str, Any]:
    return {**data, "notes": [dict(n) for n in notes.upcast_all(data.get("notes", ()), labels())]}


UPCASTERS: Final[dict[tuple[str, int], Upcaster]] = {("round_paired", 1): _round_paired_1}


def _no_labels() -> Mapping[str, str]:
    return {}


def type_name(event: TournamentEvent) -> str:
    return TYPE_NAMES[type(event)]


def schema_of(kind: str, data: Json) -> int:
    version = data.get(SCHEMA_KEY, 1)
    if type(version) is not int or version < 1:
        raise EventSchemaError(f"{kind}: schema version {version!r} is not a version")
    return version


def upcast(kind: str, data: Json, labels: Labels = _no_labels) -> dict[str, Any]:
    """The event's data at the current version of its type (without the version key)."""
    if kind not in SCHEMA:
        raise EventSchemaError(f"unknown tournament event type {kind!r}")
    version = schema_of(kind, data)
    current = SCHEMA[kind]
    if version > current:
        raise EventSchemaError(
            f"{kind} is at schema version {version}, newer than this code reads ({current}): "
            "deploy the newer code"
        )
    if version == current and SCHEMA_KEY not in data:
        return dict(data)
    out = {k: v for k, v in data.items() if k != SCHEMA_KEY}
    while version < current:
        out = UPCASTERS[(kind, version)](out, labels)
        version += 1
    return out


_FIELDS: Final[dict[type[TournamentEvent], frozenset[str]]] = {
    cls: frozenset(f.name for f in dataclasses.fields(cls)) for cls in EVENT_TYPES.values()
}


def _tuples(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_tuples(v) for v in value)
    return value


_NESTED: Final = frozenset({"tables"})
"""Fields that are sequences of sequences (the rest are sequences of JSON objects or flat)."""


def parse(kind: str, data: Json, labels: Labels = _no_labels) -> TournamentEvent:
    """The typed event of stored ``(type, data)``, upcast to the current version."""
    current = upcast(kind, data, labels)
    cls = EVENT_TYPES[kind]
    unknown = current.keys() - _FIELDS[cls]
    if unknown:
        raise EventSchemaError(f"{kind} has unknown fields: {', '.join(sorted(unknown))}")
    values: dict[str, Any] = {}
    for name, value in current.items():
        if name in _NESTED:
            values[name] = _tuples(value)
        elif isinstance(value, list):
            values[name] = tuple(value)
        else:
            values[name] = value
    try:
        return cls(**values)
    except TypeError as error:
        raise EventSchemaError(f"{kind}: {error}") from None


def _json(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _json(v) for k, v in value.items()}
    return value


_ACTOR: Final = frozenset({"actor_id", "actor", "actor_seat"})
_LEFT_OUT_WHEN_EMPTY: Final[dict[str, frozenset[str]]] = {
    "player_registered": frozenset({"members"}),
    "result_recorded": _ACTOR,
    "result_withdrawn": _ACTOR | {"cause", "reason"},
}
"""Optional fields added to a type at its version (no new version): not written when empty,
so that data without them is stored exactly as before they existed."""


def to_data(event: TournamentEvent) -> dict[str, Any]:
    """The event's stored data at its type's current version (the version key from 2 on)."""
    kind = type_name(event)
    optional = _LEFT_OUT_WHEN_EMPTY.get(kind, frozenset())
    data = {
        f.name: _json(getattr(event, f.name))
        for f in dataclasses.fields(event)
        if not (f.name in optional and not getattr(event, f.name))
    }
    if SCHEMA[kind] > 1:
        data[SCHEMA_KEY] = SCHEMA[kind]
    return data

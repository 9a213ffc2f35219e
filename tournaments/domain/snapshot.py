"""The state as JSON for the projection's snapshot, with its schema version, and back (older
versions upcast)."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any, Final

from tournaments import notes
from tournaments.domain.state import Player, Round, Settings, Table, TournamentState
from tournaments.results import Placement


def to_json(state: TournamentState) -> dict[str, Any]:
    """The state as JSON data, for the projection row. Written out field by field rather than
    with dataclasses.asdict, which deep-copies every value: a thousand players' state is saved
    on every result, and this is ten times faster (tests check both give the same JSON)."""
    return {
        "schema": SNAPSHOT_SCHEMA,
        "version": state.version,
        "settings": None if state.settings is None else _settings_json(state.settings),
        "status": state.status,
        "players": [_player_json(p) for p in state.players.values()],
        "roles": [[uid, sorted(roles)] for uid, roles in sorted(state.roles.items())],
        "usernames": [[uid, name] for uid, name in sorted(state.usernames.items())],
        "rounds": [_round_json(r) for r in state.rounds],
        "undone": sorted(state.undone),
        "scheduled": [[r, at] for r, at in sorted(state.scheduled.items())],
    }


def _settings_json(settings: Settings) -> dict[str, Any]:
    data = dict(vars(settings))
    data["tiebreaks"] = list(settings.tiebreaks)
    return data


def _player_json(p: Player) -> dict[str, Any]:
    return dict(vars(p))


def _round_json(r: Round) -> dict[str, Any]:
    return {
        "number": r.number,
        "status": r.status,
        "tables": [
            {
                "number": t.number,
                "seats": list(t.seats),
                "game": t.game,
                "result": None if t.result is None else [p.to_json() for p in t.result],
                "result_version": t.result_version,
                "entered_by": list(t.entered_by),
                "confirmed_by": t.confirmed_by,
                "confirmed": t.confirmed,
            }
            for t in r.tables
        ],
        "byes": list(r.byes),
        "method": r.method,
        "seed": r.seed,
        "cost": copy.deepcopy(r.cost),
        "lower_bound": r.lower_bound,
        "notes": copy.deepcopy(list(r.notes)),
        "scheduled_at": r.scheduled_at,
        "ends_at": r.ends_at,
        "details": copy.deepcopy(r.details),
        "delay": r.delay,
    }


SNAPSHOT_SCHEMA: Final = 3
"""The version of :func:`to_json`'s format. 1 (no ``"schema"`` key): notes were sentences. 2: a
result's placements kept Trick-n-Chef's tie-break in ``last_round`` (read as ``tiebreaks``:
tournaments.results.Placement.from_json)."""


class SnapshotVersionError(ValueError):
    """A stored snapshot this code cannot read: rebuild the projections from the events."""


def from_json(data: Mapping[str, Any]) -> TournamentState:
    """The state of a stored snapshot, upcast from an older version; a newer or unknown one
    is refused with :class:`SnapshotVersionError` (rebuild the projections from the log)."""
    schema = data.get("schema", 1)
    if schema not in (1, 2, SNAPSHOT_SCHEMA):
        raise SnapshotVersionError(
            f"the tournament snapshot is at schema version {schema!r}; this code reads "
            f"versions 1 to {SNAPSHOT_SCHEMA}. Rebuild the projections from the event log "
            "(manage.py rebuild_projections)"
        )
    try:
        if schema == 1:
            return _from_json(data, _notes_v1)
        return _from_json(data, lambda raw, players: tuple(dict(n) for n in raw))
    except (TypeError, KeyError) as error:
        raise SnapshotVersionError(
            f"the tournament snapshot (schema version {schema}) does not fit this code "
            f"({type(error).__name__}: {error}). Rebuild the projections from the event log "
            "(manage.py rebuild_projections)"
        ) from None


def _notes_v1(raw: Sequence[Any], players: Sequence[Mapping[str, Any]]) -> tuple[Any, ...]:
    labels = {p["name"]: p["id"] for p in players}
    labels.update({p["id"]: p["id"] for p in players})
    return notes.upcast_all(raw, labels)


def _from_json(data: Mapping[str, Any], read_notes: Any) -> TournamentState:
    settings = data["settings"]
    if settings is not None:
        settings = Settings(**{**settings, "tiebreaks": tuple(settings["tiebreaks"])})
    rounds = []
    for r in data["rounds"]:
        tables = [
            Table(
                number=t["number"],
                seats=tuple(t["seats"]),
                game=t["game"],
                result=None
                if t["result"] is None
                else tuple(Placement.from_json(p) for p in t["result"]),
                result_version=t["result_version"],
                entered_by=tuple(t["entered_by"]),
                confirmed_by=t["confirmed_by"],
                confirmed=t["confirmed"],
            )
            for t in r["tables"]
        ]
        rounds.append(
            Round(
                number=r["number"],
                status=r["status"],
                tables=tables,
                byes=tuple(r["byes"]),
                method=r["method"],
                seed=r["seed"],
                cost=dict(r["cost"]),
                lower_bound=r["lower_bound"],
                notes=read_notes(r["notes"], data["players"]),
                scheduled_at=r.get("scheduled_at"),
                ends_at=r.get("ends_at"),
                details=list(r.get("details", [])),
                delay=r.get("delay"),
            )
        )
    return TournamentState(
        version=data["version"],
        settings=settings,
        status=data["status"],
        players={p["id"]: Player(**p) for p in data["players"]},
        roles={uid: set(roles) for uid, roles in data["roles"]},
        usernames={uid: name for uid, name in data["usernames"]},
        rounds=rounds,
        undone=set(data["undone"]),
        scheduled={r: at for r, at in data["scheduled"]},
    )

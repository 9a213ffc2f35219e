"""The history page's read model: every action of a tournament in the organizer's words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone

from tournaments import domain
from tournaments.desk.presenters import ROLE_NAMES
from tournaments.desk.words import sentence

ACTIONS = {
    domain.CREATED: "Tournament created",
    domain.SETTINGS_CHANGED: "Settings changed",
    domain.REGISTERED: "Player registered",
    domain.CHECKED_IN: "Checked in",
    domain.CHECKED_OUT: "Checked out",
    domain.DROPPED: "Dropped",
    domain.REINSTATED: "Reinstated",
    domain.ROLE_GRANTED: "Role given",
    domain.ROLE_REVOKED: "Role taken back",
    domain.PAIRED: "Round paired",
    domain.PAIRING_CHANGED: "Players swapped",
    domain.PUBLISHED: "Round published",
    domain.SCHEDULED: "Pairing scheduled",
    domain.CLOCK_SET: "Round clock",
    domain.RESULT_RECORDED: "Result recorded",
    domain.RESULT_WITHDRAWN: "Result withdrawn",
    domain.RESULT_CONFIRMED: "Result confirmed",
    domain.ROUND_CLOSED: "Round closed",
    domain.FINISHED: "Tournament finished",
    domain.UNDONE: "Undone",
}


@dataclass(frozen=True, slots=True)
class HistoryRow:
    version: int
    action: str
    what: str
    by: str
    at: datetime
    undone_by: int | None
    undoable: bool
    cannot_undo: str = ""
    """Why it cannot be undone now, as a sentence ("" if it can be, or is undone already)."""
    error: str = ""


def describe(kind: str, data: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One event in the organizer's words."""

    def name(pid: str) -> str:
        return names.get(pid, pid)

    if kind == domain.CREATED:
        s = data["settings"]
        return f"{s['name']}, {s['date']}, {s['rounds']} rounds, by {data['organizer']['username']}"
    if kind == domain.SETTINGS_CHANGED:
        return ", ".join(
            f"{key.replace('_', ' ')}: {value}" for key, value in data["changes"].items()
        )
    if kind == domain.REGISTERED:
        late = " (late entry)" if data.get("late") else ""
        rating = f", rating {data['rating']}" if data.get("rating") is not None else ""
        return f"{data['name']}{rating}{late}"
    if kind in (domain.CHECKED_IN, domain.CHECKED_OUT, domain.DROPPED, domain.REINSTATED):
        return name(data["player"])
    if kind in (domain.ROLE_GRANTED, domain.ROLE_REVOKED):
        return f"{data['username']}: {ROLE_NAMES.get(data['role'], data['role']).lower()}"
    if kind == domain.PAIRED:
        tables = " · ".join(
            f"{n}: {', '.join(name(p) for p in seats)}"
            for n, seats in enumerate(data["tables"], start=1)
        )
        return f"Round {data['round']} ({data['method']}) — {tables}"
    if kind == domain.PAIRING_CHANGED:
        a, b = data.get("change", {}).get("swap", ["?", "?"])
        return f"Round {data['round']}: {name(a)} and {name(b)}"
    if kind == domain.PUBLISHED:
        return f"Round {data['round']}: {len(data['games'])} tables"
    if kind == domain.SCHEDULED:
        at = timezone.localtime(datetime.fromisoformat(data["at"]))
        return f"Round {data['round']} at {at:%H:%M}, {at:%d %B %Y}"
    if kind == domain.CLOCK_SET:
        return clock_text(data)
    if kind == domain.RESULT_RECORDED:
        placed = sorted(data["placements"], key=lambda p: p["place"])
        result = ", ".join(f"{p['place']}. {name(p['player'])}" for p in placed)
        return f"Round {data['round']}, table {data['table']}: {result}"
    if kind in (domain.RESULT_WITHDRAWN, domain.RESULT_CONFIRMED):
        return f"Round {data['round']}, table {data['table']}"
    if kind == domain.ROUND_CLOSED:
        return f"Round {data['round']}"
    if kind == domain.UNDONE:
        reason = f": {data['reason']}" if data.get("reason") else ""
        return f"Action #{data['version']}{reason}"
    return ""


def clock_text(data: Mapping[str, Any]) -> str:
    """A round_clock_set event in words."""
    if data["ends_at"] is None:
        return f"Round {data['round']}: clock stopped"
    at = timezone.localtime(datetime.fromisoformat(data["ends_at"]))
    if data.get("minutes"):
        return f"Round {data['round']} ends at {at:%H:%M} ({data['minutes']} minutes)"
    return f"Round {data['round']} ends at {at:%H:%M}"


def history_rows(
    history: Sequence[Mapping[str, Any]],
    players: Sequence[Mapping[str, Any]],
    errors: Mapping[int, str] | None = None,
) -> list[HistoryRow]:
    """The services' history (tournament_history), newest first; ``errors`` by version. Undo is
    offered only where the services would accept it; elsewhere the row says why not."""
    names = {p["id"]: p["name"] for p in players}
    return [
        HistoryRow(
            version=e["version"],
            action=ACTIONS.get(e["type"], e["type"].replace("_", " ")),
            what=describe(e["type"], e["data"], names),
            by=e["by"] or "—",
            at=datetime.fromisoformat(e["at"]),
            undone_by=e["undone_by"],
            undoable=e["undone_by"] is None and not e["cannot_undo"],
            cannot_undo=(
                sentence(e["cannot_undo"]) if e["cannot_undo"] and not e["undone_by"] else ""
            ),
            error=(errors or {}).get(e["version"], ""),
        )
        for e in reversed(history)
    ]

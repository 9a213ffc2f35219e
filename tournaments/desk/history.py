"""The history page's read model: every action of a tournament in the organizer's words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from games.projection import VOIDED
from tournaments import domain
from tournaments.desk.presenters.common import PAIRING_METHODS, ROLE_NAMES, delay_words
from tournaments.desk.words import sentence

ACTIONS: dict[str, str | Promise] = {
    domain.CREATED: pgettext_lazy("history action", "Tournament created"),
    domain.SETTINGS_CHANGED: pgettext_lazy("history action", "Settings changed"),
    domain.REGISTERED: pgettext_lazy("history action", "Player registered"),
    domain.CHECKED_IN: pgettext_lazy("history action", "Checked in"),
    domain.CHECKED_OUT: pgettext_lazy("history action", "Checked out"),
    domain.DROPPED: pgettext_lazy("history action", "Dropped"),
    domain.REINSTATED: pgettext_lazy("history action", "Reinstated"),
    domain.ROLE_GRANTED: pgettext_lazy("history action", "Role given"),
    domain.ROLE_REVOKED: pgettext_lazy("history action", "Role taken back"),
    domain.PAIRED: pgettext_lazy("history action", "Round paired"),
    domain.PAIRING_CHANGED: pgettext_lazy("history action", "Players swapped"),
    domain.PUBLISHED: pgettext_lazy("history action", "Round published"),
    domain.SCHEDULED: pgettext_lazy("history action", "Pairing scheduled"),
    domain.CLOCK_SET: pgettext_lazy("history action", "Round clock"),
    domain.DELAY_SET: pgettext_lazy("history action", "Spectators' delay"),
    domain.RESULT_RECORDED: pgettext_lazy("history action", "Result recorded"),
    domain.RESULT_WITHDRAWN: pgettext_lazy("history action", "Result withdrawn"),
    domain.RESULT_CONFIRMED: pgettext_lazy("history action", "Result confirmed"),
    domain.ROUND_CLOSED: pgettext_lazy("history action", "Round closed"),
    domain.FINISHED: pgettext_lazy("history action", "Tournament finished"),
    domain.UNDONE: pgettext_lazy("history action", "Undone"),
}

SETTING_NAMES = {
    "name": pgettext_lazy("setting", "name"),
    "date": pgettext_lazy("setting", "date"),
    "rounds": pgettext_lazy("setting", "rounds"),
    "scoring": pgettext_lazy("setting", "scoring"),
    "tiebreaks": pgettext_lazy("setting", "tiebreaks"),
    "pairing": pgettext_lazy("setting", "pairing"),
    "publish": pgettext_lazy("setting", "publish"),
    "round1": pgettext_lazy("setting", "round1"),
    "confirmation": pgettext_lazy("setting", "confirmation"),
    "check_in": pgettext_lazy("setting", "check in"),
    "bye_points": pgettext_lazy("setting", "bye points"),
    "standings_hidden_from": pgettext_lazy("setting", "standings hidden from"),
    "standings_revealed": pgettext_lazy("setting", "standings revealed"),
    "downloads_released": pgettext_lazy("setting", "downloads released"),
    "time_zone": pgettext_lazy("setting", "time zone"),
    "rank_not_checked_in": pgettext_lazy("setting", "rank players not checked in"),
    "relay_delay": pgettext_lazy("setting", "spectators' delay"),
}
"""A changed setting's name in the history (its key with spaces, in English)."""


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
    said: str = ""
    """The action as a sentence naming who did it and why, when the event says so ("Result
    withdrawn by olga: Sato's deal 3 was 11, not 17"); "" shows ``action`` alone."""


def _author(by: str | None) -> str:
    """Who made a change: a username, or the site itself (stored as the code ``system``)."""
    if by == "system":
        return pgettext("the author of a change the site made by itself", "system")
    return by or "—"


RESULT_EVENTS = frozenset({domain.RESULT_RECORDED, domain.RESULT_WITHDRAWN})
"""Events the site writes itself (the result sync) on behalf of whoever acted in the game."""


def _actor(data: Mapping[str, Any]) -> str:
    """Who acted in the game for a result event: a username, a seat's phone, or "" (unknown:
    an event written before the actor was recorded)."""
    if data.get("actor"):
        return str(data["actor"])
    if data.get("actor_seat"):
        return pgettext("who entered a play", "seat %(seat)s's phone") % {
            "seat": data["actor_seat"]
        }
    return ""


def _said(kind: str, data: Mapping[str, Any]) -> str:
    """A result event as a sentence with who did it and the reason they typed, as typed."""
    actor, reason = _actor(data), str(data.get("reason") or "")
    if kind == domain.RESULT_RECORDED:
        return _("Result recorded by %(user)s") % {"user": actor} if actor else ""
    if data.get("cause") == VOIDED:
        if not actor:
            return _("Game voided: %(reason)s") % {"reason": reason} if reason else ""
        if reason:
            return _("Game voided by %(user)s: %(reason)s") % {"user": actor, "reason": reason}
        return _("Game voided by %(user)s") % {"user": actor}
    if not actor:
        return _("Result withdrawn: %(reason)s") % {"reason": reason} if reason else ""
    if reason:
        return _("Result withdrawn by %(user)s: %(reason)s") % {"user": actor, "reason": reason}
    return _("Result withdrawn by %(user)s") % {"user": actor}


def _who(kind: str, data: Mapping[str, Any], by: str | None) -> str:
    """The "who" of a row: for a result, whoever acted in the game (the site wrote the event
    for them); an older result event that did not record it reads "unknown", not "system"."""
    if kind in RESULT_EVENTS and by == "system":
        return _actor(data) or pgettext("the author of a change, not recorded", "unknown")
    return _author(by)


def _setting_value(value: Any, key: str = "") -> str:
    if key == "relay_delay" and type(value) is int:  # seconds
        return delay_words(value)
    if value is True:
        return pgettext("a setting's value", "True")
    if value is False:
        return pgettext("a setting's value", "False")
    if value is None:
        return pgettext("a setting's value", "none")
    return str(value)


UNDO_REASONS = {
    "pairing discarded at the desk": gettext_lazy("pairing discarded at the desk"),
    "swap undone at the desk": gettext_lazy("swap undone at the desk"),
}
"""The reasons the desk stores with an undo (tournaments.desk.views.round), in the reader's
language; any other reason is shown as it was typed."""


def describe(kind: str, data: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One event in the organizer's words (the reader's language; names, as stored)."""

    def name(pid: str) -> str:
        return names.get(pid, pid)

    if kind == domain.CREATED:
        s = data["settings"]
        return ngettext(
            "%(name)s, %(date)s, %(rounds)d round, by %(username)s",
            "%(name)s, %(date)s, %(rounds)d rounds, by %(username)s",
            s["rounds"],
        ) % {
            "name": s["name"],
            "date": s["date"],
            "rounds": s["rounds"],
            "username": data["organizer"]["username"],
        }
    if kind == domain.SETTINGS_CHANGED:
        return ", ".join(
            _("%(setting)s: %(value)s")
            % {
                "setting": SETTING_NAMES.get(key, key.replace("_", " ")),
                "value": _setting_value(value, key),
            }
            for key, value in data["changes"].items()
        )
    if kind == domain.REGISTERED:
        rated = data.get("rating") is not None
        if data.get("late"):
            text = (
                _("%(name)s, rating %(rating)s (late entry)")
                if rated
                else _("%(name)s (late entry)")
            )
        else:
            text = _("%(name)s, rating %(rating)s") if rated else "%(name)s"
        return text % {"name": data["name"], "rating": data.get("rating")}
    if kind in (domain.CHECKED_IN, domain.CHECKED_OUT, domain.DROPPED, domain.REINSTATED):
        return name(data["player"])
    if kind in (domain.ROLE_GRANTED, domain.ROLE_REVOKED):
        role = str(ROLE_NAMES.get(data["role"], data["role"])).lower()
        return _("%(username)s: %(role)s") % {"username": data["username"], "role": role}
    if kind == domain.PAIRED:
        tables = " · ".join(
            f"{n}: {', '.join(name(p) for p in seats)}"
            for n, seats in enumerate(data["tables"], start=1)
        )
        return _("Round %(round)s (%(method)s) — %(tables)s") % {
            "round": data["round"],
            "method": str(PAIRING_METHODS.get(data["method"], data["method"])),
            "tables": tables,
        }
    if kind == domain.PAIRING_CHANGED:
        a, b = data.get("change", {}).get("swap", ["?", "?"])
        return _("Round %(round)s: %(a)s and %(b)s") % {
            "round": data["round"],
            "a": name(a),
            "b": name(b),
        }
    if kind == domain.PUBLISHED:
        count = len(data["games"])
        return ngettext(
            "Round %(round)s: %(count)d table", "Round %(round)s: %(count)d tables", count
        ) % {"round": data["round"], "count": count}
    if kind == domain.SCHEDULED:
        at = timezone.localtime(datetime.fromisoformat(data["at"]))
        return _("Round %(round)s at %(time)s, %(date)s") % {
            "round": data["round"],
            "time": date_format(at, "H:i"),
            "date": date_format(at, _("d E Y")),
        }
    if kind == domain.CLOCK_SET:
        return clock_text(data)
    if kind == domain.DELAY_SET:
        return delay_text(data)
    if kind == domain.RESULT_RECORDED:
        placed = sorted(data["placements"], key=lambda p: p["place"])
        result = ", ".join(f"{p['place']}. {name(p['player'])}" for p in placed)
        return _("Round %(round)s, table %(table)s: %(result)s") % {
            "round": data["round"],
            "table": data["table"],
            "result": result,
        }
    if kind in (domain.RESULT_WITHDRAWN, domain.RESULT_CONFIRMED):
        return _("Round %(round)s, table %(table)s") % {
            "round": data["round"],
            "table": data["table"],
        }
    if kind == domain.ROUND_CLOSED:
        return _("Round %(round)s") % {"round": data["round"]}
    if kind == domain.UNDONE:
        reason = data.get("reason")
        if not reason:
            return _("Action #%(version)s") % {"version": data["version"]}
        return _("Action #%(version)s: %(reason)s") % {
            "version": data["version"],
            "reason": str(UNDO_REASONS.get(reason, reason)),
        }
    return ""


def clock_text(data: Mapping[str, Any]) -> str:
    """A round_clock_set event in words."""
    if data["ends_at"] is None:
        return _("Round %(round)s: clock stopped") % {"round": data["round"]}
    at = timezone.localtime(datetime.fromisoformat(data["ends_at"]))
    if data.get("minutes"):
        return ngettext(
            "Round %(round)s ends at %(time)s (%(minutes)d minute)",
            "Round %(round)s ends at %(time)s (%(minutes)d minutes)",
            data["minutes"],
        ) % {"round": data["round"], "time": date_format(at, "H:i"), "minutes": data["minutes"]}
    return _("Round %(round)s ends at %(time)s") % {
        "round": data["round"],
        "time": date_format(at, "H:i"),
    }


def delay_text(data: Mapping[str, Any]) -> str:
    """A round_delay_set event in words."""
    seconds = data["seconds"]
    if seconds is None:
        return _("Round %(round)s: spectators' delay back to the tournament's") % {
            "round": data["round"]
        }
    if seconds % 60 == 0:
        return ngettext(
            "Round %(round)s: spectators' delay set to %(minutes)d minute",
            "Round %(round)s: spectators' delay set to %(minutes)d minutes",
            seconds // 60,
        ) % {"round": data["round"], "minutes": seconds // 60}
    return ngettext(
        "Round %(round)s: spectators' delay set to %(seconds)d second",
        "Round %(round)s: spectators' delay set to %(seconds)d seconds",
        seconds,
    ) % {"round": data["round"], "seconds": seconds}


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
            action=str(ACTIONS.get(e["type"], e["type"].replace("_", " "))),
            what=describe(e["type"], e["data"], names),
            by=_who(e["type"], e["data"], e["by"]),
            at=datetime.fromisoformat(e["at"]),
            undone_by=e["undone_by"],
            undoable=e["undone_by"] is None and not e["cannot_undo"],
            cannot_undo=(
                sentence(e["cannot_undo"]) if e["cannot_undo"] and not e["undone_by"] else ""
            ),
            error=(errors or {}).get(e["version"], ""),
            said=_said(e["type"], e["data"]) if e["type"] in RESULT_EVENTS else "",
        )
        for e in reversed(history)
    ]

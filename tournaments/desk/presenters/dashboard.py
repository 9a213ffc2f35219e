"""The dashboard's panels: the tournament's heading and status line, the players' rows and counts,
the standings, the site's links and address notice."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from tournaments.desk.presenters.common import standing_figure


@dataclass(frozen=True, slots=True)
class Heading:
    """What every desk page says about the tournament: name, date, status, its settings."""

    id: str
    name: str
    date: str
    status: str
    version: int
    game_type: str
    settings: Mapping[str, Any]
    rounds: int
    """How many rounds this user sees (paired, published or closed)."""
    standings_visible: bool


def heading(summary: Mapping[str, Any]) -> Heading:
    return Heading(
        id=summary["id"],
        name=summary["name"],
        date=summary["date"],
        status=summary["status"],
        version=summary["version"],
        game_type=summary["game_type"],
        settings=summary["settings"],
        rounds=len(summary["rounds"]),
        standings_visible=summary["standings_visible"],
    )


def status_line(summary: Mapping[str, Any]) -> str:
    """The tournament's stage in a few words ("Round 2 of 5 · in play")."""
    planned = summary["settings"]["rounds"]
    rounds = summary["rounds"]
    if summary["status"] == "finished":
        return pgettext("tournament status", "Finished")
    if not rounds:
        return ngettext(
            "Registration · %(planned)d round planned",
            "Registration · %(planned)d rounds planned",
            planned,
        ) % {"planned": planned}
    last = rounds[-1]
    state = {
        "proposed": pgettext("round status", "proposed"),
        "published": pgettext("round status", "in play"),
        "closed": pgettext("round status", "closed"),
    }[last["status"]]
    return _("Round %(round)s of %(planned)s · %(state)s") % {
        "round": last["round"],
        "planned": planned,
        "state": state,
    }


def stage(summary: Mapping[str, Any]) -> str:
    """unpaired, proposed, published, closed or finished: what the round panel offers."""
    if summary["status"] == "finished":
        return "finished"
    rounds = summary["rounds"]
    return rounds[-1]["status"] if rounds else "unpaired"


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """One row of the players panel."""

    id: str
    number: int
    name: str
    rating: int | None
    late: bool
    checked_in: bool
    dropped: bool
    ready: bool
    """Seated at the next pairing: not dropped, and checked in if the tournament checks in."""
    seated: tuple[str, str]
    """Where they sit in the current round: (table or "bye", "seat n"), or ("", "")."""
    members: tuple[str, ...] = ()
    """A team's players (a team game's entrant is a team)."""
    error: str = ""
    confirm_drop: bool = False
    """The drop was refused until confirmed (their table is still being played): ``error`` says
    so, and the row's button confirms it."""


@dataclass(frozen=True, slots=True)
class Counts:
    registered: int
    checked_in: int
    dropped: int
    late: int
    ready: int


def _seating(current: Mapping[str, Any] | None) -> dict[str, tuple[str, str]]:
    where: dict[str, tuple[str, str]] = {}
    if current is not None:
        for table in current["tables"]:
            for seat, entry in enumerate(table["seats"], start=1):
                where[entry["player"]] = (str(table["table"]), _("seat %(seat)s") % {"seat": seat})
        for entry in current["byes"]:
            where[entry["player"]] = (pgettext("where a player sits", "bye"), "")
    return where


def player_rows(
    players: Sequence[Mapping[str, Any]],
    current: Mapping[str, Any] | None,
    *,
    check_in: bool,
    errors: Mapping[str, str] | None = None,
    only: str | None = None,
) -> list[PlayerRow]:
    """The players in registration order, numbered from 1, with where they sit in the current
    round; ``errors`` by ``player-<id>`` (``drop-<id>``: a drop to confirm). ``only``: that
    player's row alone (an htmx answer)."""
    where = _seating(current)
    errors = errors or {}
    return [
        PlayerRow(
            id=p["id"],
            number=n,
            name=p["name"],
            rating=p.get("rating"),
            late=p["late"],
            checked_in=p["checked_in"],
            dropped=p["dropped"],
            ready=not p["dropped"] and (p["checked_in"] or not check_in),
            seated=where.get(p["id"], ("", "")),
            members=tuple(p.get("members", ())),
            error=errors.get(f"player-{p['id']}", "") or errors.get(f"drop-{p['id']}", ""),
            confirm_drop=f"drop-{p['id']}" in errors,
        )
        for n, p in enumerate(players, start=1)
        if only is None or p["id"] == only
    ]


def counts(players: Iterable[Mapping[str, Any]], *, check_in: bool) -> Counts:
    """The players panel's counts (from the summary's players: no row is built for them)."""
    registered = checked = dropped = late = ready = 0
    for p in players:
        registered += 1
        checked += bool(p["checked_in"] and not p["dropped"])
        dropped += bool(p["dropped"])
        late += bool(p["late"])
        ready += bool(not p["dropped"] and (p["checked_in"] or not check_in))
    return Counts(registered, checked, dropped, late, ready)


@dataclass(frozen=True, slots=True)
class Links:
    """How a table's links are made: the site, and the URL patterns around a game's id (reversed
    once for 250 tables) and around a seat link's token."""

    site: str
    table: tuple[str, str]
    qr: tuple[str, str]
    seat: tuple[str, str] = ("/seat/", "/")

    def seat_url(self, token: str) -> str:
        """A seat's link for its phone, absolute ("" for a revoked link: it has no token)."""
        return f"{self.site}{self.seat[0]}{token}{self.seat[1]}" if token else ""

    def table_link(self, game: str | None) -> str:
        return f"{self.table[0]}{game}{self.table[1]}" if game else ""

    def qr_src(self, game: str | None) -> str:
        return f"{self.qr[0]}{game}{self.qr[1]}" if game else ""


def address_notice(configured: str, used: str) -> str:
    """What the desk says about the address in the QR codes and printed links: nothing when
    PUBLIC_URL sets it; else which address they carry, and whether phones can reach it."""
    if configured:
        return ""
    host = urlsplit(used).hostname or ""
    if host == "localhost" or host == "::1" or host.startswith("127."):
        return _(
            "The QR codes and printed links say %(address)s, the address this browser used: "
            "players' phones cannot reach it. Set PUBLIC_URL to the address they reach this "
            "server at (such as %(example)s) and start the site again."
        ) % {"address": used, "example": "http://192.168.1.20:8000"}
    return _(
        "The QR codes and printed links say %(address)s, the address this browser used. If "
        "players' phones reach the site at another address, set PUBLIC_URL to it and start "
        "the site again."
    ) % {"address": used}


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: Any
    player: str
    name: str
    dropped: bool
    cells: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class StandingsView:
    columns: tuple[Mapping[str, Any], ...]
    rows: tuple[StandingRow, ...]
    rows_html: SafeString | str = ""
    not_checked_in: tuple[str, ...] = ()
    """Names of the players listed apart (never checked in, no game: not ranked)."""


def standings_view(data: Mapping[str, Any]) -> StandingsView:
    """The stored standings (columns and rows) as the desk's table shows them."""
    columns = tuple(c for c in data.get("columns", []) if c["key"] != "rank")
    rows = tuple(
        StandingRow(
            rank=row["rank"],
            player=row["player"],
            name=row["name"],
            dropped=row["dropped"],
            cells=tuple(
                standing_figure(
                    row["tiebreaks"][c["key"]]
                    if c["key"] in row["tiebreaks"]
                    else row.get(c["key"], "")
                )
                for c in columns
            ),
        )
        for row in data.get("rows", [])
    )
    apart = tuple(e["name"] for e in data.get("not_checked_in", ()))
    return StandingsView(columns, rows, not_checked_in=apart)

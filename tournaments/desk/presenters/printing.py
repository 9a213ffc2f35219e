"""The printed pages: score sheets of a round and their QR codes' labels."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import gettext as _

from tournaments.desk.presenters.dashboard import Heading, heading
from tournaments.desk.presenters.round import RoundView, SeatView


def seat_qr_label(seat: SeatView) -> str:
    return _("QR code of %(name)s's own link (seat %(seat)s)") % {
        "name": seat.name,
        "seat": seat.seat,
    }


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    name: str
    table: int
    seat: int


@dataclass(frozen=True, slots=True)
class Printable:
    """A round's printouts: the pairings (by table and by name) and the score sheets."""

    t: Heading
    rnd: RoundView
    seated: tuple[SeatedPlayer, ...]
    seat_columns: range


def printable(rnd: RoundView, summary: Mapping[str, Any]) -> Printable:
    """A round padded for print: every table's row as wide as the widest, and everyone seated
    in alphabetical order."""
    widest = max((table.size for table in rnd.tables), default=0)
    padded = replace(
        rnd, tables=tuple(replace(table, pad=range(widest - table.size)) for table in rnd.tables)
    )
    seated = sorted(
        (SeatedPlayer(s.name, table.number, s.seat) for table in rnd.tables for s in table.seats),
        key=lambda s: s.name.casefold(),
    )
    return Printable(
        t=heading(summary),
        rnd=padded,
        seated=tuple(seated),
        seat_columns=range(1, widest + 1),
    )

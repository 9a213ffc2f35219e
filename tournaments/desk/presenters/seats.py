"""The seat links' panel: each seat's link, its state, and a table's counts."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.desk.presenters.dashboard import Links


class SeatLinkLike(Protocol):
    """A seat's link as the games' services give it (games.services.SeatLinkView)."""

    @property
    def seat(self) -> int: ...
    @property
    def player(self) -> str: ...
    @property
    def token(self) -> str: ...
    @property
    def shared(self) -> bool: ...
    @property
    def revoked(self) -> bool: ...
    @property
    def opened(self) -> bool: ...


SEAT_STATES = {
    "revoked": gettext_lazy("Revoked: no phone can use it"),
    "joined": gettext_lazy("Phone joined"),
    "waiting": gettext_lazy("Not opened yet"),
}


@dataclass(frozen=True, slots=True)
class SeatLinkRow:
    """One seat's link on the desk's seat links pages (organizers only)."""

    table: int
    seat: int
    name: str
    url: str
    """The link (absolute), or "" once revoked."""
    state: str
    """revoked, joined (a phone opened it) or waiting."""
    state_label: str
    shared: bool
    """The table's other phones may enter for this seat."""
    qr: SafeString | str = ""
    error: str = ""

    @property
    def qr_label(self) -> str:
        return _("QR code of %(name)s's seat link (table %(table)s, seat %(seat)s)") % {
            "name": self.name,
            "table": self.table,
            "seat": self.seat,
        }


def seat_link_rows(
    table: int,
    links: Iterable[SeatLinkLike],
    site: Links,
    *,
    errors: Mapping[int, str] | None = None,
) -> tuple[SeatLinkRow, ...]:
    """A table's seat links, by seat, with their state in words; ``errors`` by seat."""
    errors = errors or {}
    rows = []
    for link in links:
        state = "revoked" if link.revoked else "joined" if link.opened else "waiting"
        rows.append(
            SeatLinkRow(
                table=table,
                seat=link.seat,
                name=link.player,
                url=site.seat_url(link.token),
                state=state,
                state_label=str(SEAT_STATES[state]),
                shared=link.shared,
                error=errors.get(link.seat, ""),
            )
        )
    return tuple(rows)


@dataclass(frozen=True, slots=True)
class SeatCounts:
    """A table's seat links in numbers (the round's overview)."""

    table: int
    seats: tuple[SeatLinkRow, ...]
    joined: int
    revoked: int
    shared: int


def seat_counts(table: int, rows: Sequence[SeatLinkRow]) -> SeatCounts:
    return SeatCounts(
        table=table,
        seats=tuple(rows),
        joined=sum(r.state == "joined" for r in rows),
        revoked=sum(r.state == "revoked" for r in rows),
        shared=sum(r.shared for r in rows),
    )

"""The QR codes of a round's printable score sheets: each table's scorekeeper link and, on the
organizers' sheets of a published round, each seat's own link; and their drawing ahead of the
first print.

A 250-table round's sheets carry 1,250 codes, and drawing them is nearly all of a first print's
time (2 ms a code on an idle core: 2.5 s; benchmarks/desk.py, benchmarks/desk_qr.py). So once a
round is published (its seat links issued), the task queue draws them all
(:func:`draw_published`, the task ``tournaments.draw_sheet_codes``) into the shared cache, where
the first print finds them (desk.qr: one round trip for all). A drawing's key is a hash of the
link it encodes (never the token), so a reissued seat link is a new key: its code is drawn
again at the next print, and the old drawing is never shown.

Where no worker runs (``bin/run``: tasks inline, each process's own memory) nothing is drawn
ahead: inline, the drawing would only move from the print to the publish, and land in one
process's memory while the print may be answered by another. Nor without the PUBLIC_URL setting:
the codes then carry the address the organizer's browser used, which a task does not know.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from django.conf import settings

from games import services as games
from games.services import SeatLinkView
from tournaments import services as t
from tournaments.desk import qr as desk_qr
from tournaments.desk.http import site_links
from tournaments.desk.presenters.dashboard import Links
from tournaments.desk.presenters.printing import seat_qr_label
from tournaments.desk.presenters.round import RoundView, round_view


def with_seat_links(
    view: RoundView, found: Mapping[int, Iterable[SeatLinkView]], site: Links
) -> RoundView:
    """Each seat's own link beside its row (``found``: the round's links by table number)."""
    url = {
        (number, link.seat): site.seat_url(link.token)
        for number, table_links in found.items()
        for link in table_links
    }
    return replace(
        view,
        tables=tuple(
            replace(
                table,
                seats=tuple(
                    replace(seat, link=url.get((table.number, seat.seat), ""))
                    for seat in table.seats
                ),
            )
            for table in view.tables
        ),
    )


def code_links(view: RoundView) -> list[str]:
    """What the sheets' codes encode: the tables' links, then the seats' (where there are)."""
    return [table.url for table in view.tables if table.url] + [
        seat.link for table in view.tables for seat in table.seats if seat.link
    ]


def drawn(view: RoundView) -> RoundView:
    """Every code of the sheets drawn inline, with one cache round trip for them all."""
    drawings = desk_qr.svgs(code_links(view))
    return replace(
        view,
        tables=tuple(
            replace(
                table,
                qr=desk_qr.inline(drawings[table.url], table.qr_label) if table.url else "",
                seats=tuple(
                    replace(seat, qr=desk_qr.inline(drawings[seat.link], seat_qr_label(seat)))
                    if seat.link
                    else seat
                    for seat in table.seats
                ),
            )
            for table in view.tables
        ),
    )


def published_codes(summary: Mapping[str, Any], site: Links) -> list[str]:
    """The links of the organizers' sheets of the tournament's last round, if it is published
    (as the print makes them: the same links, so the same cache keys). Seat links are read,
    never issued here (a round published before seat links gets them at its first print)."""
    rounds = summary["rounds"]
    if not rounds or rounds[-1]["status"] != "published":
        return []
    found = rounds[-1]
    view = round_view(summary, found, site)
    by_game = games.seat_links_of([uuid.UUID(table["game"]) for table in found["tables"]])
    by_table = {
        table["table"]: by_game.get(uuid.UUID(table["game"]), []) for table in found["tables"]
    }
    return code_links(with_seat_links(view, by_table, site))


def draw_published(tournament_id: uuid.UUID) -> int:
    """Draw the codes of the tournament's published round into the cache, ahead of its first
    print (the task queue's work after a publish); how many links it has (0 without the
    PUBLIC_URL setting: the address the codes carry is then the desk's request's)."""
    site: str = getattr(settings, "PUBLIC_URL", "")
    if not site:
        return 0
    summary = t.tournament_get(tournament_id=tournament_id).summary
    urls = published_codes(summary, site_links(site, tournament_id))
    desk_qr.svgs(urls)
    return len(urls)

"""A round's printouts (pairings, score sheets with each table's QR code and, for organizers,
each seat's) and a table's QR code as an image. A seat's code is never an image at a URL: it is
a credential (docs/tournaments.md, "Seat links")."""

from __future__ import annotations

import uuid
from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.pages import pages_for
from tournaments import services as t
from tournaments.desk import qr as desk_qr
from tournaments.desk import selectors, sheets
from tournaments.desk.http import (
    DeskRequest,
    desk_view,
    links,
    require_desk_role,
    site_address,
    table_link,
    tournament_address,
    tournament_seen,
)
from tournaments.desk.presenters.dashboard import Links
from tournaments.desk.presenters.printing import printable
from tournaments.desk.presenters.round import RoundView, round_view

QR_CACHE_SECONDS = 7 * 24 * 3600
"""How long a browser keeps a table's QR code without asking again (a drawing never changes:
a new link or a new way of drawing is a new ETag)."""


def _with_seat_links(
    request: DeskRequest, tournament_id: uuid.UUID, view: RoundView, site: Links
) -> RoundView:
    """Each seat's own link beside its row (the organizers' sheets of a published round)."""
    found = t.tournament_seat_links(
        tournament_id=tournament_id, round=view.number, user=request.user
    )
    return sheets.with_seat_links(view, found, site)


def _printable(
    request: DeskRequest, tournament_id: uuid.UUID, round: int, *, with_qr: bool
) -> dict[str, Any]:
    seen = tournament_seen(request, tournament_id)
    summary = seen.summary
    found = next((r for r in summary["rounds"] if r["round"] == round), None)
    if found is None:
        raise Http404(_("Round %(round)s is not paired yet.") % {"round": round})
    site = links(request, tournament_id)
    view = round_view(summary, found, site)
    if with_qr:
        if seen.organizer and view.status != "proposed":  # seat links: organizers only
            view = _with_seat_links(request, tournament_id, view, site)
        view = sheets.drawn(view)  # drawn ahead once published, where a worker runs
    page = printable(view, summary)
    pages = pages_for(summary["game_type"])  # the game's own score sheet (games.pages)
    return {
        "t": page.t,
        "tid": tournament_id,
        "rnd": page.rnd,
        "seated": page.seated,
        "seat_columns": page.seat_columns,
        "sheets": [
            (table, pages.sheet([seat.name for seat in table.seats])) for table in page.rnd.tables
        ],
        "seat_codes": any(seat.qr for table in page.rnd.tables for seat in table.seats),
        "public_url": tournament_address(request, tournament_id),
    }


@desk_view
@require_GET
def print_pairings(request: DeskRequest, tournament_id: uuid.UUID, round: int) -> HttpResponse:
    context = _printable(request, tournament_id, round, with_qr=False)
    context["public_qr"] = desk_qr.inline(
        desk_qr.svg(context["public_url"]), _("QR code of the tournament's public page")
    )
    return render(request, "desk/print_pairings.html", context)


@desk_view
@never_cache  # an organizer's sheets carry the seats' links: no cache keeps a copy
@require_GET
def print_sheets(request: DeskRequest, tournament_id: uuid.UUID, round: int) -> HttpResponse:
    context = _printable(request, tournament_id, round, with_qr=True)
    return render(request, "desk/print_sheets.html", context)


@desk_view
@require_GET
def qr(request: DeskRequest, tournament_id: uuid.UUID, game: uuid.UUID) -> HttpResponse:
    """A table's QR code as an SVG image, for the desk (the tournament's organizers and
    scorekeepers, and staff). Two small queries, not the tournament's whole state: a page of
    250 tables asks for 250 of these; once per browser, then from its cache (or a 304)."""
    require_desk_role(request, tournament_id)
    if not selectors.has_table(tournament_id=tournament_id, game_id=game):
        raise Http404(_("There is no such table."))
    url = site_address(request) + table_link(str(game))
    tag = desk_qr.etag(url)
    response = get_conditional_response(request, etag=tag) or HttpResponse(
        desk_qr.svg(url), content_type="image/svg+xml"
    )
    response["ETag"] = tag
    response["Content-Security-Policy"] = "default-src 'none'"  # a picture, nothing to run
    patch_cache_control(response, private=True, max_age=QR_CACHE_SECONDS, immutable=True)
    return response

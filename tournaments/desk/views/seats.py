"""Seat links at the desk (docs/tournaments.md, "Seat links"): the round's overview, one table's
links with their QR codes, reissue, revoke, share, and a printable page of fresh links.

Organizers only (and staff): the services refuse anyone else (a 403 page); a link is a
credential, so its code is drawn inline in these pages and never served at a URL of its own.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from games.gametypes import GAME_TYPES
from games.services import Refused, SeatLinkView, has_phones
from tournaments import services as t
from tournaments.desk import qr as desk_qr
from tournaments.desk.http import REFUSED, DeskRequest, desk_view, links, sentence, to_int
from tournaments.desk.presenters.dashboard import heading
from tournaments.desk.presenters.seats import SeatLinkRow, seat_counts, seat_link_rows

TEMPLATE = "desk/seat_links.html"


def _summary(request: DeskRequest, tournament_id: uuid.UUID, round: int) -> dict[str, Any]:
    summary = t.tournament_get(tournament_id=tournament_id, user=request.user).summary
    if not any(r["round"] == round and r["status"] != "proposed" for r in summary["rounds"]):
        raise Http404(_("Round %(round)s is not published.") % {"round": round})
    return summary


def _on_paper(summary: dict[str, Any]) -> str:
    """The game's name when its seats have no phone links (a game without phones: its table's
    scorekeeper enters it), else ""."""
    key = summary["game_type"]
    return "" if has_phones(key) else GAME_TYPES[key].name


def _rows(
    request: DeskRequest,
    tournament_id: uuid.UUID,
    table: int,
    found: list[SeatLinkView],
    *,
    errors: dict[int, str] | None = None,
    seat: int | None = None,
) -> tuple[SeatLinkRow, ...]:
    """A table's seat rows (``seat``: that one only), their codes drawn inline."""
    rows = seat_link_rows(table, found, links(request, tournament_id), errors=errors)
    if seat is not None:
        rows = tuple(row for row in rows if row.seat == seat)
    drawings = desk_qr.svgs(row.url for row in rows if row.url)
    return tuple(
        replace(row, qr=desk_qr.inline(drawings[row.url], row.qr_label)) if row.url else row
        for row in rows
    )


def _table_links(
    request: DeskRequest, tournament_id: uuid.UUID, round: int, table: int
) -> list[SeatLinkView]:
    found = t.tournament_seat_links(
        tournament_id=tournament_id, round=round, user=request.user, tables=[table]
    )
    if table not in found:
        raise Http404(
            _("Round %(round)s has no table %(table)s.") % {"round": round, "table": table}
        )
    return found[table]


@desk_view
@never_cache  # links are credentials: no cache keeps a copy
@require_GET
def round_seats(request: DeskRequest, tournament_id: uuid.UUID, round: int) -> HttpResponse:
    """Every table's seat links in a line: which phones joined, which links are revoked or
    shared; each table's own page does the rest. No link nor code here."""
    found = t.tournament_seat_links(tournament_id=tournament_id, round=round, user=request.user)
    summary = _summary(request, tournament_id, round)
    site = links(request, tournament_id)
    tables = [
        seat_counts(number, seat_link_rows(number, table_links, site))
        for number, table_links in found.items()
    ]
    context = {
        "t": heading(summary),
        "tid": tournament_id,
        "round": round,
        "tables": tables,
        "joined": sum(table.joined for table in tables),
        "paper": _on_paper(summary),
        "seats": sum(len(table.seats) for table in tables),
    }
    return render(request, "desk/seat_links_round.html", context)


def _table_context(
    request: DeskRequest,
    tournament_id: uuid.UUID,
    round: int,
    table: int,
    *,
    errors: dict[int, str] | None = None,
) -> dict[str, Any]:
    found = _table_links(request, tournament_id, round, table)
    summary = _summary(request, tournament_id, round)
    return {
        "t": heading(summary),
        "tid": tournament_id,
        "round": round,
        "table": table,
        "rows": _rows(request, tournament_id, table, found, errors=errors),
        "paper": _on_paper(summary),
    }


@desk_view
@never_cache  # links are credentials: no cache keeps a copy
@require_GET
def table_seats(
    request: DeskRequest, tournament_id: uuid.UUID, round: int, table: int
) -> HttpResponse:
    """One table's seat links: state, code, link, and the actions."""
    return render(request, TEMPLATE, _table_context(request, tournament_id, round, table))


def _done(action: str, link: SeatLinkView) -> str:
    said = {
        "reissue": _(
            "%(name)s (seat %(seat)s) has a new link: the old one no longer works. Print it for "
            "%(name)s."
        ),
        "revoke": _(
            "%(name)s (seat %(seat)s)'s link is revoked: no phone can use it. Reissue it to give "
            "%(name)s a new one."
        ),
        "share": _("The table's phones may now enter for %(name)s (seat %(seat)s)."),
        "unshare": _("Only %(name)s's own phone enters for seat %(seat)s now."),
    }[action]
    return said % {"name": link.player, "seat": link.seat}


@desk_view
@never_cache
@require_POST
def seat_action(
    request: DeskRequest, tournament_id: uuid.UUID, round: int, table: int, seat: int, action: str
) -> HttpResponse:
    """Reissue, revoke (once confirmed), share or unshare one seat's link. To htmx: that seat's
    row with what was done (or why not); without JavaScript: back to the table's page."""
    if action not in t.SEAT_ACTIONS:
        raise Http404(_("There is no such action."))
    error = ""
    notice = ""
    try:
        if action == "revoke" and request.POST.get("confirm") != "1":
            raise Refused(_("confirm that the link is to be revoked: tap Yes, revoke"), "confirm")
        link = t.tournament_seat_link_change(
            tournament_id=tournament_id,
            round=round,
            table=table,
            seat=seat,
            action=action,  # one of SEAT_ACTIONS, checked above
            user=request.user,
        )
        notice = _done(action, link)
    except Refused as refused:
        error = sentence(refused.message)
    if not request.htmx:
        if error:
            context = _table_context(request, tournament_id, round, table, errors={seat: error})
            return render(request, TEMPLATE, context, status=REFUSED)
        messages.success(request, notice)
        url = reverse("desk:table_seats", args=[tournament_id, round, table])
        return HttpResponseRedirect(f"{url}#seat-link-{seat}")
    found = _table_links(request, tournament_id, round, table)
    rows = _rows(request, tournament_id, table, found, errors={seat: error}, seat=seat)
    context = {
        "tid": tournament_id,
        "round": round,
        "table": table,
        "row": rows[0] if rows else None,
        "notice": notice,
    }
    if context["row"] is None:
        raise Http404(_("Table %(table)s has no seat %(seat)s.") % {"table": table, "seat": seat})
    return render(request, f"{TEMPLATE}#seat", context, status=REFUSED if error else 200)


@desk_view
@never_cache  # links are credentials: no cache keeps a copy
@require_GET
def print_seat_links(
    request: DeskRequest, tournament_id: uuid.UUID, round: int, table: int
) -> HttpResponse:
    """A page to print: the table's seat links (``?seat=n``: that seat's alone), one code
    each, to hand a player their fresh link after a reissue."""
    found = _table_links(request, tournament_id, round, table)
    seat = to_int(request.GET.get("seat"))
    rows = _rows(request, tournament_id, table, found, seat=seat)
    if seat is not None and not rows:
        raise Http404(_("Table %(table)s has no seat %(seat)s.") % {"table": table, "seat": seat})
    summary = _summary(request, tournament_id, round)
    context = {
        "t": heading(summary),
        "tid": tournament_id,
        "round": round,
        "table": table,
        "rows": rows,
        "one": seat is not None,
        "paper": _on_paper(summary),
    }
    return render(request, "desk/print_seat_links.html", context)

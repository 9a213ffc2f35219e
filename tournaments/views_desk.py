"""The organizer desk: the pages a club organizer runs a Swiss tournament from.

Thin views: parse the request (tournaments.forms_desk), call a service (tournaments.services),
render. Every write is a POST. With htmx it answers with the panel it changed (a
django-template-partials partial of ``desk/dashboard.html``) and refreshes the tournament's
status line and round panel out of band, so every form on the page carries the current version;
without JavaScript it redirects back to the dashboard with a message (POST/redirect/GET). A
refused action comes back with the organizer's input still in the form and the reason next to
it; a concurrent change (a co-organizer, a background task) re-renders the panel as it stands
now.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from functools import update_wrapper
from typing import Any, Concatenate, ParamSpec

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.text import capfirst
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget
from django_htmx.middleware import HtmxDetails

from engine.cards import ROUNDS_PER_GAME
from games.gametypes import GAME_TYPES
from games.services import Conflict, GameNotFound, NotAllowed, Refused
from tournaments import desk_qr, desk_rows, domain, notes, standings
from tournaments import services as t
from tournaments.forms_desk import (
    CONFIRMATION_LABELS,
    PAIRING_LABELS,
    PUBLISH_LABELS,
    ROLE_LABELS,
    ROUND1_LABELS,
    AddPlayerForm,
    PublicForm,
    RegisterListForm,
    RoleForm,
    ScheduleForm,
    SwapForm,
    TournamentForm,
    described,
)
from tournaments.models import TournamentProjection, TournamentRole, TournamentTable
from tournaments.services import TournamentChange

SWAP_NOTE = notes.SENTENCES["swapped"].partition("{")[0]
"""How a round's notes word a swap made by hand (the ``swapped`` code, tournaments.notes)."""
REFUSED = 422
"""A refused action or a form to correct (not 400: in development django-htmx's debug script
replaces the whole page with the response of an htmx request answered 400, 403, 404 or 500)."""
CONFLICT = "Someone else changed this tournament meanwhile; here it is as it stands now."
TEMPLATE = "desk/dashboard.html"
ROLE_NAMES = {domain.ORGANIZER: "Organizer", domain.SCOREKEEPER: "Scorekeeper"}
SHEET_ROUNDS = {"trick-n-chef": ROUNDS_PER_GAME}
"""Score boxes on a table's sheet: one per round of the game (3 unless the game type says)."""

P = ParamSpec("P")


class DeskRequest(HttpRequest):
    """A request through django-htmx's middleware (for the type checker)."""

    htmx: HtmxDetails


DeskView = Callable[Concatenate[DeskRequest, P], HttpResponse]


def desk_view(view: DeskView[P]) -> DeskView[P]:
    """Logged-in users only (an htmx request whose session ran out goes to the login page as a
    whole page); a refused permission is the 403 page, an unknown tournament a 404."""

    def wrapper(request: DeskRequest, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            if request.htmx:
                back = request.htmx.current_url_abs_path or reverse("desk:home")
                return HttpResponseClientRedirect(f"{reverse('login')}?next={back}")
            return redirect_to_login(request.get_full_path())
        try:
            return view(request, *args, **kwargs)
        except NotAllowed as refusal:
            return _forbidden(request, refusal.message)
        except GameNotFound:
            raise Http404("There is no such tournament.") from None

    update_wrapper(wrapper, view)
    return wrapper


def _forbidden(request: DeskRequest, message: str) -> HttpResponse:
    """The 403 page; to htmx, the same page with its notice put in place of the main content
    (in development, django-htmx's debug script shows the whole page instead)."""
    response = render(request, "desk/forbidden.html", {"message": _sentence(message)}, status=403)
    if request.htmx:
        response["HX-Reselect"] = ".forbidden"
        return reswap(retarget(response, "#main"), "innerHTML")
    return response


def _sentence(message: str) -> str:
    """A service's message as a sentence: capital first, full stop last."""
    text = capfirst(message.strip()) or ""
    return text if text.endswith((".", "!", "?", ")")) else f"{text}."


def _version(request: HttpRequest) -> int | None:
    try:
        return int(request.POST["expected_version"])
    except (KeyError, ValueError):
        return None


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _dashboard(tournament_id: uuid.UUID, anchor: str = "") -> str:
    url = reverse("desk:dashboard", args=[tournament_id])
    return f"{url}#{anchor}" if anchor else url


def table_link(game_id: str) -> str:
    """The scorekeeper's page for a table's game."""
    try:
        return reverse("table:enter", args=[game_id])
    except NoReverseMatch:  # the scorekeeper pages live at /table/<game id>/
        return f"/table/{game_id}/"


def qr_label(table: int) -> str:
    return f"QR code of table {table}'s link"


# ----------------------------------------------------------------------------- who is asking


def _user_pk(request: HttpRequest) -> int:
    """The logged-in user's id (desk_view lets no one else in)."""
    return int(request.user.pk or 0)


def _my_roles(request: HttpRequest, tournament_id: uuid.UUID) -> set[str]:
    roles = set(
        TournamentRole.objects.filter(tournament_id=tournament_id, user_id=_user_pk(request))
        .values_list("role", flat=True)
        .distinct()
    )
    if getattr(request.user, "is_staff", False):
        roles.add(domain.ORGANIZER)
    return roles


def _tournament(
    request: HttpRequest, tournament_id: uuid.UUID
) -> tuple[TournamentProjection, dict[str, Any], set[str]]:
    """The tournament as this user sees it, and their roles in it; the desk is for its
    organizers and scorekeepers."""
    projection, summary = t.tournament_get(tournament_id=tournament_id, user=request.user)
    roles = _my_roles(request, tournament_id)
    if not roles:
        raise NotAllowed(
            "only the organizers and scorekeepers of this tournament use its desk; "
            "ask an organizer to invite you"
        )
    return projection, summary, roles


# ----------------------------------------------------------------------------- what pages show


def _status_line(summary: Mapping[str, Any]) -> str:
    planned = summary["settings"]["rounds"]
    rounds = summary["rounds"]
    if summary["status"] == "finished":
        return "Finished"
    if not rounds:
        return f"Registration · {planned} round{'s' if planned != 1 else ''} planned"
    last = rounds[-1]
    state = {"proposed": "proposed", "published": "in play", "closed": "closed"}[last["status"]]
    return f"Round {last['round']} of {planned} · {state}"


def _players(summary: Mapping[str, Any], current: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    check_in = summary["settings"]["check_in"]
    where: dict[str, tuple[str, str]] = {}
    if current is not None:
        for table in current["tables"]:
            for seat, entry in enumerate(table["seats"], start=1):
                where[entry["player"]] = (str(table["table"]), f"seat {seat}")
        for entry in current["byes"]:
            where[entry["player"]] = ("bye", "")
    return [
        {
            **p,
            "number": n,
            "ready": not p["dropped"] and (p["checked_in"] or not check_in),
            "seated": where.get(p["id"], ("", "")),
        }
        for n, p in enumerate(summary["players"], start=1)
    ]


def _counts(players: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    return {
        "registered": len(players),
        "checked_in": sum(1 for p in players if p["checked_in"] and not p["dropped"]),
        "dropped": sum(1 for p in players if p["dropped"]),
        "late": sum(1 for p in players if p["late"]),
        "ready": sum(1 for p in players if p["ready"]),
    }


def _earlier_seats(
    rounds: Sequence[Mapping[str, Any]], before: int, largest: int
) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """Who sat at a short table, and who had a bye, in the played rounds before ``before``."""
    small: dict[str, list[int]] = defaultdict(list)
    byes: dict[str, list[int]] = defaultdict(list)
    for rnd in rounds:
        if rnd["round"] >= before or rnd["status"] == "proposed":
            continue
        for table in rnd["tables"]:
            if len(table["seats"]) < largest:
                for entry in table["seats"]:
                    small[entry["player"]].append(rnd["round"])
        for entry in rnd["byes"]:
            byes[entry["player"]].append(rnd["round"])
    return small, byes


def _rounds_text(numbers: Sequence[int]) -> str:
    if len(numbers) == 1:
        return f"round {numbers[0]}"
    return f"rounds {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"


TABLE_STATUS = {
    "proposed": "Proposed",
    "playing": "In progress",
    "finished": "Finished: to confirm",
    "confirmed": "Confirmed",
}


def _round_view(
    request: HttpRequest,
    summary: Mapping[str, Any],
    rnd: Mapping[str, Any],
    *,
    pick: str | None = None,
    with_qr: bool = False,
) -> dict[str, Any]:
    """A round as the desk shows it: tables with seats in order, their spread and repeats, the
    short tables and byes with who had one before, results and what is missing. Each table's QR
    code is an image (``qr_src``) or, ``with_qr``, drawn inline (``qr``: printing)."""
    largest = max(GAME_TYPES[summary["game_type"]].table_sizes)
    small_before, byes_before = _earlier_seats(summary["rounds"], rnd["round"], largest)
    site = request.build_absolute_uri("/")[:-1]  # the links, made once: 250 tables
    game_placeholder = "00000000-0000-0000-0000-000000000000"
    link_parts = table_link(game_placeholder).split(game_placeholder)
    qr_parts = reverse("desk:qr", args=[summary["id"], game_placeholder]).split(game_placeholder)
    names = {p["id"]: p["name"] for p in summary["players"]}
    tables = []
    for table in rnd["tables"]:
        seats = [
            {
                **entry,
                "seat": seat,
                "first": seat == 1,
                "picked": entry["player"] == pick,
            }
            for seat, entry in enumerate(table["seats"], start=1)
        ]
        small = len(seats) < largest
        if rnd["status"] == "proposed":
            status = "proposed"
        elif table["confirmed"]:
            status = "confirmed"
        elif table["result"] is not None:
            status = "finished"
        else:
            status = "playing"
        game = table["game"]
        link = f"{link_parts[0]}{game}{link_parts[1]}" if game else ""
        url = f"{site}{link}" if link else ""
        tables.append(
            {
                "number": table["table"],
                "seats": seats,
                "size": len(seats),
                "small": small,
                "small_before": [
                    f"{s['name']} ({_rounds_text(small_before[s['player']])})"
                    for s in seats
                    if small and small_before.get(s["player"])
                ],
                "spread": table.get("spread"),
                "points_spread": table.get("points_spread"),
                "repeats": [f"{a} and {b}" for a, b in table.get("repeats", [])],
                "game": table["game"],
                "link": link,
                "url": url,
                "qr": "",
                "qr_src": f"{qr_parts[0]}{game}{qr_parts[1]}" if game else "",
                "qr_label": qr_label(table["table"]),
                "status": status,
                "status_label": TABLE_STATUS[status],
                "result": sorted(table["result"] or [], key=lambda r: (r["place"], r["name"])),
                "confirmed": table["confirmed"],
            }
        )
    if with_qr:
        drawings = desk_qr.svgs(table["url"] for table in tables if table["url"])
        for table in tables:
            if table["url"]:
                table["qr"] = desk_qr.inline(drawings[table["url"]], table["qr_label"])
    by_status = defaultdict(list)
    for table in tables:
        by_status[table["status"]].append(table["number"])
    return {
        "number": rnd["round"],
        "status": rnd["status"],
        "method": rnd["method"],
        "tables": tables,
        "byes": [
            {
                "name": b["name"],
                "before": _rounds_text(byes_before[b["player"]])
                if byes_before.get(b["player"])
                else "",
            }
            for b in rnd["byes"]
        ],
        "cost": rnd["cost"],
        "lower_bound": rnd["lower_bound"],
        "best": rnd["cost"].get("total") == rnd["lower_bound"],
        "notes": rnd["notes"],
        "swaps": [n for n in rnd["notes"] if n.startswith(SWAP_NOTE)],
        "missing": rnd["missing"],
        "playing": by_status["playing"],
        "to_confirm": by_status["finished"],
        "pick": pick,
        "pick_name": names.get(pick or "", ""),
        "seated": [
            (s["player"], f"{s['name']} (table {table['number']}, seat {s['seat']})")
            for table in tables
            for s in table["seats"]
        ],
    }


def _standings(summary: Mapping[str, Any], projection: TournamentProjection) -> dict[str, Any]:
    data = projection.standings or {}
    columns = [c for c in data.get("columns", []) if c["key"] != "rank"]
    rows = []
    for row in data.get("rows", []):
        cells = [
            _figure(
                row["tiebreaks"][c["key"]]
                if c["key"] in row["tiebreaks"]
                else row.get(c["key"], "")
            )
            for c in columns
        ]
        rows.append(
            {
                "rank": row["rank"],
                "player": row["player"],
                "name": row["name"],
                "dropped": row["dropped"],
                "cells": cells,
            }
        )
    return {"columns": columns, "rows": rows, "rows_html": desk_rows.standings_rows(rows)}


def _figure(value: Any) -> Any:
    """6.0 shows as 6, 8.63 as 8.63 (as on the public standings)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _settings_view(summary: Mapping[str, Any]) -> list[tuple[str, str]]:
    s = summary["settings"]
    preset = standings.PRESETS.get(s["scoring"])
    bye = s["bye_points"]
    return [
        ("Swiss rounds", str(s["rounds"])),
        ("Scoring", preset.name if preset else s["scoring"]),
        (
            "Tie-breaks",
            ", ".join(
                standings.TIEBREAKS[k].title for k in s["tiebreaks"] if k in standings.TIEBREAKS
            )
            or "none",
        ),
        ("Pairing", PAIRING_LABELS.get(s["pairing"], (s["pairing"], ""))[0]),
        ("Publishing", PUBLISH_LABELS.get(s["publish"], (s["publish"], ""))[0]),
        ("Round 1", ROUND1_LABELS.get(s["round1"], (s["round1"], ""))[0]),
        (
            "Confirms results",
            CONFIRMATION_LABELS.get(s["confirmation"], (s["confirmation"], ""))[0],
        ),
        ("Check-in", "yes" if s["check_in"] else "no"),
        ("Points for a bye", "the scoring's average" if bye is None else f"{bye:g}"),
    ]


def _page(
    request: DeskRequest,
    tournament_id: uuid.UUID,
    *,
    pick: str | None = None,
    errors: Mapping[str, str] | None = None,
    notice: str = "",
    conflict: bool = False,
    row: str | None = None,
    **forms: Any,
) -> dict[str, Any]:
    """Everything the dashboard and its panels show."""
    projection, summary, roles = _tournament(request, tournament_id)
    organizer = domain.ORGANIZER in roles
    rounds = summary["rounds"]
    planned = summary["settings"]["rounds"]
    current = rounds[-1] if rounds else None
    players = _players(summary, current)
    if summary["status"] == "finished":
        stage = "finished"
    elif current is None:
        stage = "unpaired"
    else:
        stage = current["status"]
    next_round = len(rounds) + 1 if len(rounds) < planned else None
    round_view = (
        _round_view(
            request,
            summary,
            current,
            pick=pick if organizer and stage == "proposed" else None,
        )
        if current is not None
        else None
    )
    settings = summary["settings"]
    scheduled = [
        (int(number), datetime.fromisoformat(at)) for number, at in summary["scheduled"].items()
    ]
    context: dict[str, Any] = {
        "t": summary,
        "tid": tournament_id,
        "version": summary["version"],
        "organizer": organizer,
        "scorekeeper": domain.SCOREKEEPER in roles,
        "status_line": _status_line(summary),
        "players": players,
        "counts": _counts(players),
        "check_in": settings["check_in"],
        "stage": stage,
        "rnd": round_view,
        "earlier": [
            {"number": r["round"], "status": r["status"], "tables": len(r["tables"])}
            for r in rounds[:-1]
        ],
        "next_round": next_round,
        "last_planned": current is not None and current["round"] >= planned,
        "scheduled": scheduled,
        "next_scheduled": next((at for n, at in scheduled if n == len(rounds) + 1), None),
        "roles": [
            {
                "user": r["user"],
                "roles": [(role, ROLE_NAMES.get(role, role)) for role in r["roles"]],
            }
            for r in summary["roles"]
        ],
        "settings_view": _settings_view(summary),
        "standings": _standings(summary, projection)
        if rounds and summary["standings_visible"]
        else None,
        "errors": dict(errors or {}),
        "notice": notice,
        "conflict": CONFLICT if conflict else "",
        "timezone": timezone.get_current_timezone_name(),
        "list_form": forms.get("list_form") or RegisterListForm(prefix="list"),
        "add_form": forms.get("add_form") or AddPlayerForm(prefix="add"),
        "role_form": forms.get("role_form") or RoleForm(prefix="role"),
        "public_form": forms.get("public_form")
        or PublicForm(
            prefix="public",
            initial={
                key: settings[key]
                for key in ("standings_hidden_from", "standings_revealed", "downloads_released")
            },
        ),
        "schedule_form": forms.get("schedule_form") or ScheduleForm(prefix="schedule"),
        "swap_form": forms.get("swap_form")
        or SwapForm(
            seated=round_view["seated"] if round_view else [],
            auto_id="swap_%s",
            initial={"a": round_view["pick"] if round_view else None},
        ),
    }
    errors = context["errors"]
    for p in players:
        p["error"] = errors.get(f"player-{p['id']}", "")
    for table in round_view["tables"] if round_view else []:
        table["error"] = errors.get(f"table-{table['number']}", "")
    links = desk_rows.RowLinks.of(tournament_id, get_token(request))
    if round_view is not None and stage in ("published", "closed"):
        round_view["cards_html"] = desk_rows.safe(
            desk_rows.table_cards(
                round_view,
                tournament_id=tournament_id,
                version=summary["version"],
                csrf_field=links.csrf_field,
            )
        )
    context["player_rows"] = desk_rows.safe(
        desk_rows.player_rows(players, links, check_in=settings["check_in"])
    )
    if row is not None:
        context["p"] = next((p for p in players if p["id"] == row), None)
        if context["p"] is not None:
            context["row_html"] = desk_rows.safe(
                desk_rows.player_row(context["p"], links, check_in=settings["check_in"])
            )
    return context


# ----------------------------------------------------------------------------- answering

ALSO_REFRESHED: Mapping[str, tuple[str, ...]] = {
    "player_row": ("player_counts", "status", "round"),
    "round": ("status",),
}
"""Besides the panel an action changed, what else changes with it (swapped out of band); by
default the status line and the round panel, whose forms carry the tournament's version."""


def _respond(
    request: DeskRequest,
    tournament_id: uuid.UUID,
    panel: str | None,
    *,
    status: int = 200,
    oob: bool = True,
    **page: Any,
) -> HttpResponse:
    """The panel (htmx) or the whole dashboard."""
    context = _page(request, tournament_id, **page)
    if request.htmx and panel:
        if panel == "player_row" and context.get("p") is None:
            panel = "players"
        html = str(render_to_string(f"{TEMPLATE}#{panel}", context, request))
        if oob:
            for other in ALSO_REFRESHED.get(panel, ("status", "round")):
                if other == panel:
                    continue
                refreshed = {**context, "oob": True, "conflict": ""}
                if other != "player_counts":  # where a row's change is announced
                    refreshed["notice"] = ""
                # In a <template>: parsed on its own, whatever the main part is (after a
                # table row, the HTML parser would take a <form> out of its panel).
                html += "<template>" + render_to_string(f"{TEMPLATE}#{other}", refreshed, request)
                html += "</template>"
        return HttpResponse(html, status=status)
    return render(request, TEMPLATE, context, status=status)


Done = str | Callable[[TournamentChange], str]


def _write(
    request: DeskRequest,
    tournament_id: uuid.UUID,
    action: Callable[[], TournamentChange | None],
    *,
    panel: str,
    done: Done,
    error_at: str | None = None,
    anchor: str | None = None,
    **page: Any,
) -> HttpResponse:
    """Run a service; answer with the changed panel (htmx) or redirect with a message. A refusal
    comes back next to what caused it, with the forms as they were typed."""
    try:
        change = action()
    except Conflict:
        return _respond(request, tournament_id, panel, status=409, conflict=True, **page)
    except Refused as refused:
        errors = {error_at or panel: _sentence(refused.message)}
        return _respond(request, tournament_id, panel, status=REFUSED, errors=errors, **page)
    if change is None:  # nothing to do: the tournament already is as asked
        message = done if isinstance(done, str) else "Nothing to change."
    else:
        message = done(change) if callable(done) else done
    if request.htmx:
        if panel == "player_row" and change is not None:
            answer = _player_answer(request, tournament_id, change, message, page.get("row"))
            if answer is not None:
                return answer
        page = {k: v for k, v in page.items() if not k.endswith("_form")}
        return _respond(request, tournament_id, panel, notice=message, **page)
    messages.success(request, message)
    return HttpResponseRedirect(_dashboard(tournament_id, anchor or f"{panel}-panel"))


ROW_TEMPLATES = {
    "player_row": TEMPLATE,
    "player_counts": TEMPLATE,
    "status": TEMPLATE,
    "versions": TEMPLATE,
}


def _player_answer(
    request: DeskRequest,
    tournament_id: uuid.UUID,
    change: TournamentChange,
    notice: str,
    player: str | None,
) -> HttpResponse | None:
    """A player's check-in, drop or reinstatement, to htmx, once paired: their row, and out of
    band the counts, the status line, the standings' mark of a drop, and the version in the
    round panel's forms; not the round panel itself (250 tables, 1,000 standings: a player's
    change alters nothing else there). Built from the change's own state, without reading the
    tournament again.

    Only when the round panel the page shows is the tournament as it was just before this change
    (the page sends the version it shows, page_version): otherwise someone else changed it too,
    and the panel keeps its older version, so that its next action is refused as a conflict and
    shows the round as it stands, instead of acting on what the organizer has not seen. None:
    answer the usual way (before round 1 the round panel shows the counts, and is small)."""
    summary = change.state
    rounds = summary["rounds"]
    if not rounds or player is None:
        return None
    players = _players(summary, rounds[-1])
    row = next((p for p in players if p["id"] == player), None)
    if row is None:
        return None
    row["error"] = ""
    seen = _int(request.POST.get("page_version"))
    fresh = seen is not None and seen + len(change.appended) == change.version
    context: dict[str, Any] = {
        "t": summary,
        "tid": tournament_id,
        "version": change.version,
        "organizer": True,  # the services let only organizers (and staff) change players
        "status_line": _status_line(summary),
        "check_in": summary["settings"]["check_in"],
        "counts": _counts(players),
        "p": row,
        "notice": notice,
        "errors": {},
        "version_forms": summary["status"] != "finished",
    }
    parts = ["player_counts", "status"]
    if fresh:
        parts.append("versions")
    links = desk_rows.RowLinks.of(tournament_id, get_token(request))
    html = desk_rows.player_row(row, links, check_in=context["check_in"])
    for part in parts:
        extra = {**context, "oob": True}
        if part != "player_counts":
            extra["notice"] = ""
        html += "<template>"
        html += render_to_string(f"{ROW_TEMPLATES[part]}#{part}", extra, request)
        html += "</template>"
    kinds = {kind for _, kind in change.appended}
    if summary["standings_visible"] and kinds & {domain.DROPPED, domain.REINSTATED}:
        mark = desk_rows.standing_name(row["id"], row["name"], row["dropped"], oob=True)
        html += f"<template>{mark}</template>"
    return HttpResponse(html)


def _invalid(
    request: DeskRequest, tournament_id: uuid.UUID, panel: str, **page: Any
) -> HttpResponse:
    """A form that did not parse: back with its errors and everything typed."""
    return _respond(request, tournament_id, panel, status=REFUSED, **page)


# ----------------------------------------------------------------------------- home


@desk_view
@require_GET
def home(request: DeskRequest) -> HttpResponse:
    return _home(request, TournamentForm(initial={"date": timezone.localdate()}))


def _home(request: DeskRequest, form: TournamentForm, status: int = 200) -> HttpResponse:
    mine: dict[uuid.UUID, set[str]] = defaultdict(set)
    for tournament_id, role in TournamentRole.objects.filter(user_id=_user_pk(request)).values_list(
        "tournament_id", "role"
    ):
        mine[tournament_id].add(role)
    everything = getattr(request.user, "is_staff", False)
    listed = t.tournament_list() if everything else t.tournament_list().filter(pk__in=list(mine))
    rows = [
        {
            "id": p.stream_id,
            "name": p.name,
            "date": p.date,
            "status": p.status,
            "state": "Finished"
            if p.status == "finished"
            else f"Round {p.current_round} of {p.rounds_planned}"
            if p.current_round
            else "Registration",
            "roles": [ROLE_NAMES.get(r, r) for r in sorted(mine.get(p.stream_id, set()))]
            or ["Staff"],
        }
        for p in listed
    ]
    context = {
        "active": [r for r in rows if r["status"] != "finished"],
        "finished": [r for r in rows if r["status"] == "finished"],
        "form": form,
        "scoring": described(form["scoring"], _preset_labels()),
        "pairing": described(form["pairing"], PAIRING_LABELS),
        "publish": described(form["publish"], PUBLISH_LABELS),
        "round1": described(form["round1"], ROUND1_LABELS),
        "confirmation": described(form["confirmation"], CONFIRMATION_LABELS),
        "tiebreak_help": [(tb.title, tb.description) for tb in standings.TIEBREAKS.values()],
    }
    return render(request, "desk/home.html", context, status=status)


def _preset_labels() -> dict[str, tuple[str, str]]:
    return {key: (p.name, p.description) for key, p in standings.PRESETS.items()}


@desk_view
@require_POST
def create(request: DeskRequest) -> HttpResponse:
    form = TournamentForm(request.POST)
    if not form.is_valid():
        return _home(request, form, status=REFUSED)
    try:
        change = t.tournament_create(user=request.user, **form.service_arguments())
    except Refused as refused:
        form.add_error(None, _sentence(refused.message))
        return _home(request, form, status=REFUSED)
    messages.success(request, f"{form.cleaned_data['name']} is created. Register the players next.")
    return HttpResponseRedirect(_dashboard(change.tournament_id, "players-panel"))


# ----------------------------------------------------------------------------- the dashboard


@desk_view
@require_GET
def dashboard(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    return _respond(request, tournament_id, None, pick=request.GET.get("pick"))


@desk_view
@require_GET
def round_panel(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """The round panel alone (htmx: choosing the first player of a swap)."""
    pick = request.GET.get("pick")
    if not request.htmx:
        query = f"?pick={pick}" if pick else ""
        return HttpResponseRedirect(reverse("desk:dashboard", args=[tournament_id]) + query)
    return _respond(request, tournament_id, "round", pick=pick, oob=False)


# ----------------------------------------------------------------------------- players


def _registered(change: TournamentChange) -> str:
    count = len(change.appended)
    names = [p["name"] for p in change.state["players"][-count:]]
    late = change.state["players"][-1]["late"] if count else False
    shown = ", ".join(names[:6]) + (f" and {count - 6} more" if count > 6 else "")
    text = f"Registered {count} player{'s' if count != 1 else ''}: {shown}."
    if late:
        text += " As late entries they are seated from the next pairing, with no points so far."
    return text


@desk_view
@require_POST
def register(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    form = RegisterListForm(request.POST, request.FILES, prefix="list")
    if not form.is_valid():
        return _invalid(request, tournament_id, "players", list_form=form)
    return _write(
        request,
        tournament_id,
        lambda: t.tournament_register(
            tournament_id=tournament_id,
            user=request.user,
            text=form.cleaned_data["players_text"],
            checked_in=form.cleaned_data["here"],
        ),
        panel="players",
        done=_registered,
        error_at="register",
        list_form=form,
    )


@desk_view
@require_POST
def add_player(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    form = AddPlayerForm(request.POST, prefix="add")
    if not form.is_valid():
        return _invalid(request, tournament_id, "players", add_form=form)
    return _write(
        request,
        tournament_id,
        lambda: t.tournament_register(
            tournament_id=tournament_id,
            user=request.user,
            names=[form.cleaned_data["name"]],
            ratings=[form.cleaned_data["rating"]],
            checked_in=form.cleaned_data["here"],
        ),
        panel="players",
        done=_registered,
        error_at="add",
        add_form=form,
    )


def _active(
    history: Sequence[Mapping[str, Any]], kind: str, match: Callable[[Mapping[str, Any]], bool]
) -> Mapping[str, Any] | None:
    """The latest event of this kind that counts (not undone)."""
    return next(
        (
            e
            for e in reversed(history)
            if e["type"] == kind and e["undone_by"] is None and match(e["data"])
        ),
        None,
    )


def _undo_check_in(
    request: DeskRequest, tournament_id: uuid.UUID, player: str, name: str
) -> TournamentChange:
    """There is no check-out: a check-in is taken back by undoing it."""
    history = t.tournament_history(tournament_id=tournament_id, user=request.user)
    registered = _active(history, domain.REGISTERED, lambda d: d["player"] == player)
    since = registered["version"] if registered else 0
    checked = _active(history, domain.CHECKED_IN, lambda d: d["player"] == player)
    if checked is None or checked["version"] < since:
        raise Refused(
            f"{name} was checked in when registered, so there is no check-in to take back; "
            "drop them if they are not playing",
            "cannot_check_out",
        )
    return t.tournament_undo(
        tournament_id=tournament_id,
        version=checked["version"],
        reason=f"{name} is not here after all",
        user=request.user,
    )


@desk_view
@require_POST
def check_in(request: DeskRequest, tournament_id: uuid.UUID, player: str) -> HttpResponse:
    """One tap: the form says which state the organizer wants (so a double tap or a stale page
    does no harm)."""
    _, summary, _ = _tournament(request, tournament_id)
    found = next((p for p in summary["players"] if p["id"] == player), None)
    if found is None:
        raise Http404("There is no such player.")
    want = request.POST.get("checked_in", "1" if not found["checked_in"] else "0") == "1"
    name = found["name"]

    def action() -> TournamentChange | None:
        if want == found["checked_in"]:
            return None
        if want:
            return t.tournament_check_in(
                tournament_id=tournament_id, player=player, user=request.user
            )
        return _undo_check_in(request, tournament_id, player, name)

    return _write(
        request,
        tournament_id,
        action,
        panel="player_row",
        done=f"{name} is checked in." if want else f"{name} is no longer checked in.",
        error_at=f"player-{player}",
        anchor=f"player-{player}",
        row=player,
    )


def _player_change(
    service: Callable[..., TournamentChange], done: str
) -> DeskView[[uuid.UUID, str]]:
    @desk_view
    @require_POST
    def view(request: DeskRequest, tournament_id: uuid.UUID, player: str) -> HttpResponse:
        def action() -> TournamentChange:
            return service(tournament_id=tournament_id, player=player, user=request.user)

        def message(change: TournamentChange) -> str:
            name = next((p["name"] for p in change.state["players"] if p["id"] == player), player)
            return done.format(name=name)

        return _write(
            request,
            tournament_id,
            action,
            panel="player_row",
            done=message,
            error_at=f"player-{player}",
            anchor=f"player-{player}",
            row=player,
        )

    return view


drop = _player_change(t.tournament_drop, "{name} has dropped: not seated any more.")
reinstate = _player_change(t.tournament_reinstate, "{name} is back: seated from the next round.")


# ----------------------------------------------------------------------------- roles


@desk_view
@require_POST
def grant_role(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    form = RoleForm(request.POST, prefix="role")
    if not form.is_valid():
        return _invalid(request, tournament_id, "roles", role_form=form)
    username, role = form.cleaned_data["username"].strip(), form.cleaned_data["role"]
    return _write(
        request,
        tournament_id,
        lambda: t.tournament_set_role(
            tournament_id=tournament_id,
            username=username,
            role=role,
            grant=True,
            user=request.user,
        ),
        panel="roles",
        done=f"{username} is now a {ROLE_LABELS[role].lower()} of this tournament.",
        role_form=form,
    )


@desk_view
@require_POST
def revoke_role(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    username, role = request.POST.get("username", ""), request.POST.get("role", "")
    return _write(
        request,
        tournament_id,
        lambda: t.tournament_set_role(
            tournament_id=tournament_id,
            username=username,
            role=role,
            grant=False,
            user=request.user,
        ),
        panel="roles",
        done=f"{username} is no longer a {ROLE_NAMES.get(role, role).lower()}.",
    )


# ----------------------------------------------------------------------------- the round


@desk_view
@require_POST
def pair(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """Pair the next round (closing the one before first, if asked)."""
    number = _int(request.POST.get("round"))
    close_first = request.POST.get("close_first") == "1"
    expected = _version(request)

    def action() -> TournamentChange:
        version = expected
        if close_first and number is not None and number > 1:
            version = t.tournament_close_round(
                tournament_id=tournament_id,
                round=number - 1,
                user=request.user,
                expected_version=version,
            ).version
        return t.tournament_pair(
            tournament_id=tournament_id, round=number, user=request.user, expected_version=version
        )

    def message(change: TournamentChange) -> str:
        rnd = change.state["rounds"][-1]
        if rnd["status"] == "proposed":
            return f"Round {rnd['round']} is paired: check the tables, swap if needed, publish."
        return f"Round {rnd['round']} is paired and published."

    return _write(request, tournament_id, action, panel="round", done=message)


@desk_view
@require_POST
def swap(request: DeskRequest, tournament_id: uuid.UUID, round: int) -> HttpResponse:
    form = SwapForm(request.POST, auto_id="swap_%s")
    where = "swap_form" if request.POST.get("via") == "form" else "swap"  # the error goes there
    if not form.is_valid():
        return _respond(
            request, tournament_id, "round", status=REFUSED, errors={where: form.first_error()}
        )
    a, b = form.cleaned_data["a"], form.cleaned_data["b"]

    def message(change: TournamentChange) -> str:
        names = {p["id"]: p["name"] for p in change.state["players"]}
        return f"{names.get(a, a)} and {names.get(b, b)} swapped places."

    return _write(
        request,
        tournament_id,
        lambda: t.tournament_swap(
            tournament_id=tournament_id,
            round=round,
            a=a,
            b=b,
            user=request.user,
            expected_version=_version(request),
        ),
        panel="round",
        done=message,
        error_at=where,
    )


def _undo_latest(
    request: DeskRequest,
    tournament_id: uuid.UUID,
    kind: str,
    round: int,
    missing: str,
    reason: str,
) -> TournamentChange:
    history = t.tournament_history(tournament_id=tournament_id, user=request.user)
    paired = _active(history, domain.PAIRED, lambda d: d["round"] == round)
    event = (
        paired if kind == domain.PAIRED else _active(history, kind, lambda d: d["round"] == round)
    )
    if event is None or paired is None or event["version"] < paired["version"]:
        raise Refused(missing, "bad_undo")
    return t.tournament_undo(
        tournament_id=tournament_id,
        version=event["version"],
        reason=reason,
        user=request.user,
        expected_version=_version(request),
    )


@desk_view
@require_POST
def undo_pairing(request: DeskRequest, tournament_id: uuid.UUID, round: int) -> HttpResponse:
    return _write(
        request,
        tournament_id,
        lambda: _undo_latest(
            request,
            tournament_id,
            domain.PAIRED,
            round,
            f"round {round} has no proposed pairing to undo",
            "pairing discarded at the desk",
        ),
        panel="round",
        done=f"Round {round}'s proposal is discarded. Pairing again gives the same tables.",
    )


@desk_view
@require_POST
def undo_swap(request: DeskRequest, tournament_id: uuid.UUID, round: int) -> HttpResponse:
    return _write(
        request,
        tournament_id,
        lambda: _undo_latest(
            request,
            tournament_id,
            domain.PAIRING_CHANGED,
            round,
            f"round {round}'s proposal has no swap to undo",
            "swap undone at the desk",
        ),
        panel="round",
        done="The last swap is undone.",
    )


@desk_view
@require_POST
def publish(request: DeskRequest, tournament_id: uuid.UUID, round: int) -> HttpResponse:
    def message(change: TournamentChange) -> str:
        tables = len(change.state["rounds"][round - 1]["tables"])
        return (
            f"Round {round} is published: {tables} table{'s are' if tables != 1 else ' is'} "
            "open to the scorekeepers."
        )

    return _write(
        request,
        tournament_id,
        lambda: t.tournament_publish(
            tournament_id=tournament_id,
            round=round,
            user=request.user,
            expected_version=_version(request),
        ),
        panel="round",
        done=message,
    )


@desk_view
@require_POST
def confirm(request: DeskRequest, tournament_id: uuid.UUID, round: int, table: int) -> HttpResponse:
    def action() -> TournamentChange:
        try:
            return t.tournament_confirm(
                tournament_id=tournament_id,
                round=round,
                table=table,
                user=request.user,
                expected_version=_version(request),
            )
        except NotAllowed as refusal:  # a scorekeeper confirming a table they entered: say so
            raise Refused(refusal.message, refusal.code) from None  # by the table, not a 403

    return _write(
        request,
        tournament_id,
        action,
        panel="round",
        done=f"Table {table}'s result is confirmed.",
        error_at=f"table-{table}",
        anchor=f"table-{table}",
    )


@desk_view
@require_POST
def close_round(request: DeskRequest, tournament_id: uuid.UUID, round: int) -> HttpResponse:
    return _write(
        request,
        tournament_id,
        lambda: t.tournament_close_round(
            tournament_id=tournament_id,
            round=round,
            user=request.user,
            expected_version=_version(request),
        ),
        panel="round",
        done=f"Round {round} is closed.",
    )


@desk_view
@require_POST
def finish(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    return _write(
        request,
        tournament_id,
        lambda: t.tournament_finish(
            tournament_id=tournament_id, user=request.user, expected_version=_version(request)
        ),
        panel="round",
        done="The tournament is finished. Congratulations to the winners!",
    )


# ----------------------------------------------------------------------------- settings


@desk_view
@require_POST
def public_settings(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    form = PublicForm(request.POST, prefix="public")
    if not form.is_valid():
        return _invalid(request, tournament_id, "settings", public_form=form)
    _, summary, _ = _tournament(request, tournament_id)
    changes = form.changes(summary["settings"])

    def action() -> TournamentChange | None:
        if not changes:
            return None
        return t.tournament_change_settings(
            tournament_id=tournament_id, changes=changes, user=request.user
        )

    return _write(
        request,
        tournament_id,
        action,
        panel="settings",
        done="Saved: the public pages show this now." if changes else "Nothing to change.",
        public_form=form,
    )


@desk_view
@require_POST
def schedule(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    form = ScheduleForm(request.POST, prefix="schedule")
    number = _int(request.POST.get("round"))
    if not form.is_valid() or number is None:
        return _invalid(request, tournament_id, "settings", schedule_form=form)
    at: datetime = form.cleaned_data["at"]
    local = timezone.localtime(at)
    return _write(
        request,
        tournament_id,
        lambda: t.tournament_schedule(
            tournament_id=tournament_id, round=number, at=at, user=request.user
        ),
        panel="settings",
        done=f"Round {number} will be paired at {local:%H:%M} on {local:%d %B %Y}.",
        error_at="schedule",
        schedule_form=form,
    )


# ----------------------------------------------------------------------------- history

ACTIONS = {
    domain.CREATED: "Tournament created",
    domain.SETTINGS_CHANGED: "Settings changed",
    domain.REGISTERED: "Player registered",
    domain.CHECKED_IN: "Checked in",
    domain.DROPPED: "Dropped",
    domain.REINSTATED: "Reinstated",
    domain.ROLE_GRANTED: "Role given",
    domain.ROLE_REVOKED: "Role taken back",
    domain.PAIRED: "Round paired",
    domain.PAIRING_CHANGED: "Players swapped",
    domain.PUBLISHED: "Round published",
    domain.SCHEDULED: "Pairing scheduled",
    domain.RESULT_RECORDED: "Result recorded",
    domain.RESULT_WITHDRAWN: "Result withdrawn",
    domain.RESULT_CONFIRMED: "Result confirmed",
    domain.ROUND_CLOSED: "Round closed",
    domain.FINISHED: "Tournament finished",
    domain.UNDONE: "Undone",
}


def _describe(kind: str, data: Mapping[str, Any], names: Mapping[str, str]) -> str:
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
    if kind in (domain.CHECKED_IN, domain.DROPPED, domain.REINSTATED):
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


def _history_context(
    request: DeskRequest,
    tournament_id: uuid.UUID,
    errors: Mapping[int, str] | None = None,
    notice: str = "",
) -> dict[str, Any]:
    _, summary, _ = _tournament(request, tournament_id)
    history = t.tournament_history(tournament_id=tournament_id, user=request.user)
    names = {p["id"]: p["name"] for p in summary["players"]}
    rows = [
        {
            "version": e["version"],
            "action": ACTIONS.get(e["type"], e["type"].replace("_", " ")),
            "what": _describe(e["type"], e["data"], names),
            "by": e["by"] or "—",
            "at": datetime.fromisoformat(e["at"]),
            "undone_by": e["undone_by"],
            "undoable": e["type"] in domain.UNDOABLE and e["undone_by"] is None,
            "error": (errors or {}).get(e["version"], ""),
        }
        for e in reversed(history)
    ]
    return {"t": summary, "tid": tournament_id, "rows": rows, "notice": notice}


@desk_view
@require_GET
def history(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    return render(request, "desk/history.html", _history_context(request, tournament_id))


@desk_view
@require_POST
def undo(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    version = _int(request.POST.get("version"))
    if version is None:
        raise Http404("There is no such action.")
    try:
        t.tournament_undo(tournament_id=tournament_id, version=version, user=request.user)
    except Refused as refused:
        context = _history_context(
            request, tournament_id, errors={version: _sentence(refused.message)}
        )
        template = "desk/history.html#history" if request.htmx else "desk/history.html"
        return render(request, template, context, status=REFUSED)
    done = f"Action #{version} is undone."
    if request.htmx:
        context = _history_context(request, tournament_id, notice=done)
        return render(request, "desk/history.html#history", context)
    messages.success(request, done)
    return HttpResponseRedirect(reverse("desk:history", args=[tournament_id]))


# ----------------------------------------------------------------------------- printing


def _printable(
    request: DeskRequest, tournament_id: uuid.UUID, round: int, *, with_qr: bool
) -> dict[str, Any]:
    _, summary, _ = _tournament(request, tournament_id)
    found = next((r for r in summary["rounds"] if r["round"] == round), None)
    if found is None:
        raise Http404(f"Round {round} is not paired yet.")
    view = _round_view(request, summary, found, with_qr=with_qr)
    widest = max((table["size"] for table in view["tables"]), default=0)
    for table in view["tables"]:
        table["pad"] = range(widest - table["size"])
    seated = sorted(
        (
            {"name": s["name"], "table": table["number"], "seat": s["seat"]}
            for table in view["tables"]
            for s in table["seats"]
        ),
        key=lambda s: str(s["name"]).casefold(),
    )
    return {
        "t": summary,
        "tid": tournament_id,
        "rnd": view,
        "seated": seated,
        "seat_columns": range(1, widest + 1),
        "game_rounds": range(1, SHEET_ROUNDS.get(summary["game_type"], ROUNDS_PER_GAME) + 1),
    }


@desk_view
@require_GET
def print_pairings(request: DeskRequest, tournament_id: uuid.UUID, round: int) -> HttpResponse:
    context = _printable(request, tournament_id, round, with_qr=False)
    return render(request, "desk/print_pairings.html", context)


@desk_view
@require_GET
def print_sheets(request: DeskRequest, tournament_id: uuid.UUID, round: int) -> HttpResponse:
    context = _printable(request, tournament_id, round, with_qr=True)
    return render(request, "desk/print_sheets.html", context)


QR_CACHE_SECONDS = 7 * 24 * 3600
"""How long a browser keeps a table's QR code without asking again (a drawing never changes:
a new link or a new way of drawing is a new ETag)."""


@desk_view
@require_GET
def qr(request: DeskRequest, tournament_id: uuid.UUID, game: uuid.UUID) -> HttpResponse:
    """A table's QR code as an SVG image, for the desk (the tournament's organizers and
    scorekeepers, and staff). Two small queries, not the tournament's whole state: a page of
    250 tables asks for 250 of these; once per browser, then from its cache (or a 304)."""
    if not _my_roles(request, tournament_id):
        raise NotAllowed(
            "only the organizers and scorekeepers of this tournament use its desk; "
            "ask an organizer to invite you"
        )
    if not TournamentTable.objects.filter(tournament_id=tournament_id, game_id=game).exists():
        raise Http404("There is no such table.")
    url = request.build_absolute_uri(table_link(str(game)))
    tag = desk_qr.etag(url)
    response = get_conditional_response(request, etag=tag) or HttpResponse(
        desk_qr.svg(url), content_type="image/svg+xml"
    )
    response["ETag"] = tag
    response["Content-Security-Policy"] = "default-src 'none'"  # a picture, nothing to run
    patch_cache_control(response, private=True, max_age=QR_CACHE_SECONDS, immutable=True)
    return response

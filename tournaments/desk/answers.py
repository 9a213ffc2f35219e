"""How the desk answers: the dashboard's context (every panel), one panel to htmx with what else
changed out of band, the result of a write (the changed panel, or a redirect with a message
without JavaScript), and a player's change answered with their row alone.

Every write is a POST. With htmx it answers with the panel it changed (a
django-template-partials partial of ``desk/dashboard.html``) and refreshes the tournament's
status line and round panel out of band, so every form on the page carries the current version;
without JavaScript it redirects back to the dashboard with a message (POST/redirect/GET). A
refused action comes back with the organizer's input still in the form and the reason next to
it; a concurrent change (a co-organizer, a background task) re-renders the panel as it stands
now.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from django.conf import settings as django_settings
from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.gametypes import GAME_TYPES
from games.services import Conflict, Refused
from tournaments import domain, selectors
from tournaments.desk import rows
from tournaments.desk.forms import (
    AddPlayerForm,
    ClockForm,
    DelayForm,
    PublicForm,
    RegisterListForm,
    RoleForm,
    ScheduleForm,
    SwapForm,
    TeamForm,
    delay_minutes,
)
from tournaments.desk.http import (
    REFUSED,
    DeskRequest,
    dashboard_url,
    links,
    sentence,
    site_address,
    to_int,
    tournament_address,
    tournament_seen,
)
from tournaments.desk.presenters import dashboard as dashboard_panel
from tournaments.desk.presenters import round as round_panel
from tournaments.desk.presenters import settings as settings_panel
from tournaments.public.clock import round_clock
from tournaments.services import TournamentChange

if TYPE_CHECKING:
    from tournaments.desk.confirm import Ask

CONFLICT = gettext_lazy(
    "Someone else changed this tournament meanwhile; here it is as it stands now."
)
TEMPLATE = "desk/dashboard.html"

ALSO_REFRESHED: Mapping[str, tuple[str, ...]] = {
    "player_row": ("player_counts", "status", "round"),
    "round": ("status",),
}
"""Besides the panel an action changed, what else changes with it (swapped out of band); by
default the status line and the round panel, whose forms carry the tournament's version."""


def page(
    request: DeskRequest,
    tournament_id: uuid.UUID,
    *,
    pick: str | None = None,
    errors: Mapping[str, str] | None = None,
    notice: str = "",
    conflict: bool = False,
    row: str | None = None,
    asking: Ask | None = None,
    **forms: Any,
) -> dict[str, Any]:
    """Everything the dashboard and its panels show. ``asking``: the question the round panel
    asks first (a tournaments.desk.confirm.Ask)."""
    seen = tournament_seen(request, tournament_id)
    summary, organizer = seen.summary, seen.organizer
    errors = dict(errors or {})
    settings = summary["settings"]
    rounds = summary["rounds"]
    planned = settings["rounds"]
    current = rounds[-1] if rounds else None
    stage = dashboard_panel.stage(summary)
    players = dashboard_panel.player_rows(
        summary["players"], current, check_in=settings["check_in"], errors=errors
    )
    round_view = (
        round_panel.round_view(
            summary,
            current,
            links(request, tournament_id),
            pick=pick if organizer and stage == "proposed" else None,
            errors=errors,
            # Where each table's game stands (one query), as the public round page says it.
            progress=selectors.game_progress(
                user=request.user, game_ids=(table["game"] for table in current["tables"])
            )
            if stage == "published"
            else None,
            standings=seen.standings if stage == "proposed" else None,
        )
        if current is not None
        else None
    )
    row_links = rows.RowLinks.of(tournament_id, get_token(request))
    if round_view is not None and stage in ("published", "closed"):
        cards = rows.table_cards(
            round_view,
            tournament_id=tournament_id,
            version=summary["version"],
            csrf_field=row_links.csrf_field,
            organizer=organizer,
        )
        round_view = replace(round_view, cards_html=rows.safe(cards))
    standings = None
    if rounds and seen.standings is not None:
        standings = dashboard_panel.standings_view(seen.standings)
        standings = replace(standings, rows_html=rows.standings_rows(standings.rows))
    scheduled = settings_panel.scheduled(summary)
    delay = round_panel.delay_view(summary, current)
    context: dict[str, Any] = {
        "t": dashboard_panel.heading(summary),
        "tid": tournament_id,
        "version": summary["version"],
        "organizer": organizer,
        "scorekeeper": domain.SCOREKEEPER in seen.roles,
        "status_line": dashboard_panel.status_line(summary),
        "players": players,
        "counts": dashboard_panel.counts(summary["players"], check_in=settings["check_in"]),
        "check_in": settings["check_in"],
        "stage": stage,
        "rnd": round_view,
        "earlier": round_panel.earlier_rounds(summary),
        "next_round": len(rounds) + 1 if len(rounds) < planned else None,
        "last_planned": current is not None and current["round"] >= planned,
        "scheduled": scheduled,
        "next_scheduled": next((at for n, at in scheduled if n == len(rounds) + 1), None),
        "roles": settings_panel.role_rows(summary),
        "settings_view": settings_panel.settings_view(settings, summary["game_type"]),
        "standings": standings,
        "errors": errors,
        "notice": notice,
        "conflict": str(CONFLICT) if conflict else "",
        "asking": asking,
        "timezone": timezone.get_current_timezone_name(),
        "list_form": forms.get("list_form") or RegisterListForm(prefix="list"),
        "add_form": forms.get("add_form") or AddPlayerForm(prefix="add"),
        "team_form": forms.get("team_form") or TeamForm(prefix="team"),
        "teams": GAME_TYPES[summary["game_type"]].teams,
        "role_form": forms.get("role_form") or RoleForm(prefix="role"),
        "public_form": forms.get("public_form")
        or PublicForm(
            prefix="public",
            initial={
                key: settings.get(key)
                for key in (
                    "standings_hidden_from",
                    "standings_revealed",
                    "downloads_released",
                    "time_zone",
                    "rank_not_checked_in",
                )
            }
            | {"relay_delay": delay_minutes(settings.get("relay_delay", 0))},
        ),
        "schedule_form": forms.get("schedule_form") or ScheduleForm(prefix="schedule"),
        "clock": round_clock(summary),
        # Called by the template (the whole page only): one query, not for every htmx answer.
        "short_url": lambda: tournament_address(request, tournament_id),
        "address_notice": dashboard_panel.address_notice(
            getattr(django_settings, "PUBLIC_URL", ""), site_address(request)
        )
        if organizer
        else "",
        "clock_form": forms.get("clock_form") or ClockForm(prefix="clock"),
        "delay": delay,
        "delay_form": forms.get("delay_form")
        or DelayForm(
            prefix="delay",
            initial={"minutes": None if delay is None else delay_minutes(delay.seconds)},
        ),
        "swap_form": forms.get("swap_form")
        or SwapForm(
            seated=list(round_view.seated) if round_view else [],
            auto_id="swap_%s",
            initial={"a": round_view.pick if round_view else None},
        ),
        # Called by the template if it renders the players panel (the whole page, or that
        # panel to htmx): not built for the round's or the settings' answers (1,000 rows).
        "player_rows": lambda: rows.safe(
            rows.player_rows(players, row_links, check_in=settings["check_in"])
        ),
    }
    if row is not None:
        context["p"] = next((p for p in players if p.id == row), None)
        if context["p"] is not None:
            context["row_html"] = rows.safe(
                rows.player_row(context["p"], row_links, check_in=settings["check_in"])
            )
    return context


def respond(
    request: DeskRequest,
    tournament_id: uuid.UUID,
    panel: str | None,
    *,
    status: int = 200,
    oob: bool = True,
    **page_args: Any,
) -> HttpResponse:
    """The panel (htmx) or the whole dashboard."""
    context = page(request, tournament_id, **page_args)
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


def invalid(
    request: DeskRequest, tournament_id: uuid.UUID, panel: str, **page_args: Any
) -> HttpResponse:
    """A form that did not parse: back with its errors and everything typed."""
    return respond(request, tournament_id, panel, status=REFUSED, **page_args)


Done = str | Callable[[TournamentChange], str]


def write(
    request: DeskRequest,
    tournament_id: uuid.UUID,
    action: Callable[[], TournamentChange | None],
    *,
    panel: str,
    done: Done,
    error_at: str | Callable[[Refused], str] | None = None,
    anchor: str | None = None,
    **page_args: Any,
) -> HttpResponse:
    """Run a service; answer with the changed panel (htmx) or redirect with a message. A refusal
    comes back next to what caused it (``error_at``, or a function of the refusal), with the
    forms as they were typed."""
    try:
        change = action()
    except Conflict:
        return respond(request, tournament_id, panel, status=409, conflict=True, **page_args)
    except Refused as refused:
        where = error_at(refused) if callable(error_at) else error_at
        errors = {where or panel: sentence(refused.message)}
        return respond(request, tournament_id, panel, status=REFUSED, errors=errors, **page_args)
    if change is None:  # nothing to do: the tournament already is as asked
        message = done if isinstance(done, str) else _("Nothing to change.")
    else:
        message = done(change) if callable(done) else done
    if request.htmx:
        if panel == "player_row" and change is not None:
            answer = player_answer(request, tournament_id, change, message, page_args.get("row"))
            if answer is not None:
                return answer
        page_args = {k: v for k, v in page_args.items() if not k.endswith("_form")}
        return respond(request, tournament_id, panel, notice=message, **page_args)
    messages.success(request, message)
    return HttpResponseRedirect(dashboard_url(tournament_id, anchor or f"{panel}-panel"))


def player_name(change: TournamentChange, player: str) -> str:
    """A player's name after a change (their id if unknown)."""
    return next((p["name"] for p in change.state["players"] if p["id"] == player), player)


def player_answer(
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
    tournament again: that player's row, the counts and the status line, nothing more.

    Only when the round panel the page shows is the tournament as it was just before this change
    (the page sends the version it shows, page_version): otherwise someone else changed it too,
    and the panel keeps its older version, so that its next action is refused as a conflict and
    shows the round as it stands, instead of acting on what the organizer has not seen. None:
    answer the usual way (before round 1 the round panel shows the counts, and is small)."""
    summary = change.state
    rounds = summary["rounds"]
    if not rounds or player is None:
        return None
    check_in = summary["settings"]["check_in"]
    found = dashboard_panel.player_rows(
        summary["players"], rounds[-1], check_in=check_in, only=player
    )
    if not found:
        return None
    row = found[0]
    seen = to_int(request.POST.get("page_version"))
    fresh = seen is not None and seen + len(change.appended) == change.version
    context: dict[str, Any] = {
        "version": change.version,
        "organizer": True,  # the services let only organizers (and staff) change players
        "t": dashboard_panel.heading(summary),
        "status_line": dashboard_panel.status_line(summary),
        "check_in": check_in,
        "counts": dashboard_panel.counts(summary["players"], check_in=check_in),
        "notice": notice,
        "version_forms": summary["status"] != "finished",
        "oob": True,
    }
    parts = ["player_counts", "status"]
    if fresh:
        parts.append("versions")
    html = rows.player_row(
        row, rows.RowLinks.of(tournament_id, get_token(request)), check_in=check_in
    )
    for part in parts:
        extra = context if part == "player_counts" else {**context, "notice": ""}
        html += "<template>"
        html += render_to_string(f"{TEMPLATE}#{part}", extra, request)
        html += "</template>"
    kinds = {kind for _, kind in change.appended}
    if summary["standings_visible"] and kinds & {domain.DROPPED, domain.REINSTATED}:
        mark = rows.standing_name(row.id, row.name, row.dropped, oob=True)
        html += f"<template>{mark}</template>"
    return HttpResponse(html)

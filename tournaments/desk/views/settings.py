"""The roles panel (scorekeepers, co-organizers) and the settings panel (what the public sees,
when the next round is paired)."""

from __future__ import annotations

import uuid
from datetime import datetime

from django.http import HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_POST

from tournaments import services as t
from tournaments.desk.answers import invalid, write
from tournaments.desk.forms import ROLE_LABELS, PublicForm, RoleForm, ScheduleForm
from tournaments.desk.http import DeskRequest, desk_view, to_int, tournament_seen
from tournaments.desk.presenters import ROLE_NAMES
from tournaments.services import TournamentChange


@desk_view
@require_POST
def grant_role(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    form = RoleForm(request.POST, prefix="role")
    if not form.is_valid():
        return invalid(request, tournament_id, "roles", role_form=form)
    username, role = form.cleaned_data["username"].strip(), form.cleaned_data["role"]
    return write(
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
    return write(
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


@desk_view
@require_POST
def public_settings(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    form = PublicForm(request.POST, prefix="public")
    if not form.is_valid():
        return invalid(request, tournament_id, "settings", public_form=form)
    summary = tournament_seen(request, tournament_id).summary
    changes = form.changes(summary["settings"])

    def action() -> TournamentChange | None:
        if not changes:
            return None
        return t.tournament_change_settings(
            tournament_id=tournament_id, changes=changes, user=request.user
        )

    return write(
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
    number = to_int(request.POST.get("round"))
    if not form.is_valid() or number is None:
        return invalid(request, tournament_id, "settings", schedule_form=form)
    at: datetime = form.cleaned_data["at"]
    local = timezone.localtime(at)
    return write(
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

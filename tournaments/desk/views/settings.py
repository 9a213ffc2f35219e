"""The roles panel (scorekeepers, co-organizers) and the settings panel (what the public sees,
when the next round is paired)."""

from __future__ import annotations

import uuid
from datetime import datetime

from django.http import HttpResponse
from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments import domain
from tournaments import services as t
from tournaments.desk.answers import invalid, write
from tournaments.desk.forms import PublicForm, RoleForm, ScheduleForm
from tournaments.desk.http import DeskRequest, desk_view, to_int, tournament_seen
from tournaments.services import TournamentChange

GRANTED = {
    domain.SCOREKEEPER: gettext_lazy("%(username)s is now a scorekeeper of this tournament."),
    domain.ORGANIZER: gettext_lazy("%(username)s is now a co-organizer of this tournament."),
}
REVOKED = {
    domain.SCOREKEEPER: gettext_lazy("%(username)s is no longer a scorekeeper."),
    domain.ORGANIZER: gettext_lazy("%(username)s is no longer an organizer."),
}
"""What the roles panel says once a role is given or taken back (one sentence per role: the
role's word takes its own grammar in each language)."""


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
        done=GRANTED[role] % {"username": username},
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
        done=str(REVOKED.get(role, _("%(username)s no longer holds this role.")))
        % {"username": username},
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
        done=_("Saved: the public pages show this now.") if changes else _("Nothing to change."),
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
        done=_("Round %(round)s will be paired at %(time)s on %(date)s.")
        % {
            "round": number,
            "time": date_format(local, "H:i"),
            "date": date_format(local, _("d E Y")),
        },
        error_at="schedule",
        schedule_form=form,
    )

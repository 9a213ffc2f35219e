"""The history page: every action, who and when; undoing one."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.services import Refused
from tournaments import services as t
from tournaments.desk.confirm import confirmed
from tournaments.desk.history import history_rows
from tournaments.desk.http import REFUSED, DeskRequest, desk_view, sentence, to_int, tournament_seen
from tournaments.desk.presenters.dashboard import heading


def _context(
    request: DeskRequest,
    tournament_id: uuid.UUID,
    errors: Mapping[int, str] | None = None,
    notice: str = "",
    asking: int | None = None,
) -> dict[str, Any]:
    summary = tournament_seen(request, tournament_id).summary
    history = t.tournament_history(tournament_id=tournament_id, user=request.user)
    return {
        "t": heading(summary),
        "tid": tournament_id,
        "rows": history_rows(history, summary["players"], errors),
        "notice": notice,
        "asking": asking,
    }


@desk_view
@require_GET
def history(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    return render(request, "desk/history.html", _context(request, tournament_id))


@desk_view
@require_POST
def undo(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    version = to_int(request.POST.get("version"))
    if version is None:
        raise Http404(_("There is no such action."))
    if not confirmed(request):  # asked first, in the page, as every irreversible desk action
        context = _context(request, tournament_id, asking=version)
        template = "desk/history.html#history" if request.htmx else "desk/history.html"
        return render(request, template, context)
    try:
        t.tournament_undo(tournament_id=tournament_id, version=version, user=request.user)
    except Refused as refused:
        context = _context(request, tournament_id, errors={version: sentence(refused.message)})
        template = "desk/history.html#history" if request.htmx else "desk/history.html"
        return render(request, template, context, status=REFUSED)
    done = _("Action #%(version)s is undone.") % {"version": version}
    if request.htmx:
        context = _context(request, tournament_id, notice=done)
        return render(request, "desk/history.html#history", context)
    messages.success(request, done)
    return HttpResponseRedirect(reverse("desk:history", args=[tournament_id]))

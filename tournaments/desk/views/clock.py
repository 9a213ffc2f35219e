"""The round's clock: the organizer sets when the round ends (or for how many minutes it runs),
or stops it. Every public page, the big screen and the desk show it."""

from __future__ import annotations

import uuid
from datetime import datetime

from django.http import HttpResponse
from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import services as t
from tournaments.desk import confirm as ask
from tournaments.desk.answers import invalid, write
from tournaments.desk.forms import ClockForm
from tournaments.desk.http import DeskRequest, desk_view
from tournaments.services import TournamentChange


@desk_view
@require_POST
def set_clock(request: DeskRequest, tournament_id: uuid.UUID, round: int) -> HttpResponse:
    if request.POST.get("stop"):
        if answer := ask.ask_first(
            request, tournament_id, lambda: ask.stop_clock(tournament_id, round)
        ):
            return answer
        return write(
            request,
            tournament_id,
            lambda: t.tournament_set_clock(
                tournament_id=tournament_id, round=round, stop=True, user=request.user
            ),
            panel="round",
            done=_("The clock of round %(round)s is stopped.") % {"round": round},
            error_at="clock",
        )
    form = ClockForm(request.POST, prefix="clock")
    if not form.is_valid():
        return invalid(request, tournament_id, "round", clock_form=form)
    minutes = form.cleaned_data.get("minutes")

    def action() -> TournamentChange:
        return t.tournament_set_clock(
            tournament_id=tournament_id,
            round=round,
            ends_at=form.cleaned_data.get("when"),
            minutes=minutes,
            user=request.user,
        )

    def done(change: TournamentChange) -> str:
        rnd = change.state["rounds"][round - 1]
        ends = timezone.localtime(datetime.fromisoformat(rnd["ends_at"]))
        return _("Round %(round)s ends at %(time)s: every page shows the clock.") % {
            "round": round,
            "time": date_format(ends, "H:i"),
        }

    return write(
        request,
        tournament_id,
        action,
        panel="round",
        done=done,
        error_at="clock",
        clock_form=form,
    )

"""A round's spectators' delay (the relay's, docs/relay.md): the organizer sets how many minutes
late spectators see the round's tables, or gives the round back the tournament's delay. The
officials and each table's own seats are never delayed. The tournament's delay is a setting
(tournaments.desk.views.settings, the public view's form)."""

from __future__ import annotations

import uuid

from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import services as t
from tournaments.desk.answers import invalid, write
from tournaments.desk.forms import DelayForm
from tournaments.desk.http import DeskRequest, desk_view
from tournaments.desk.presenters.common import delay_sentence
from tournaments.services import TournamentChange

TOURNAMENTS = "tournament"
"""The posted field of the button that gives the round back the tournament's delay."""


@desk_view
@require_POST
def set_delay(request: DeskRequest, tournament_id: uuid.UUID, round: int) -> HttpResponse:
    if request.POST.get(TOURNAMENTS):
        return write(
            request,
            tournament_id,
            lambda: t.tournament_set_delay(
                tournament_id=tournament_id, round=round, seconds=None, user=request.user
            ),
            panel="round",
            done=lambda change: " ".join(
                (
                    _("Round %(round)s has the tournament's delay again.") % {"round": round},
                    delay_sentence(round, _effective(change, round)),
                )
            ),
            error_at="delay",
        )
    form = DelayForm(request.POST, prefix="delay")
    if not form.is_valid():
        return invalid(request, tournament_id, "round", delay_form=form)
    seconds = form.cleaned_data["minutes"] * 60
    return write(
        request,
        tournament_id,
        lambda: t.tournament_set_delay(
            tournament_id=tournament_id, round=round, seconds=seconds, user=request.user
        ),
        panel="round",
        done=delay_sentence(round, seconds),
        error_at="delay",
        delay_form=form,
    )


def _effective(change: TournamentChange, number: int) -> int:
    """Round ``number``'s delay after the change: its own, else the tournament's."""
    own = change.state["rounds"][number - 1].get("relay_delay")
    return int(change.state["settings"].get("relay_delay", 0) if own is None else own)

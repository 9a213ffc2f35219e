"""The desk's home (the user's tournaments, a new one) and a tournament's dashboard."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_GET, require_POST

from games.services import Refused
from tournaments import services as t
from tournaments import standings
from tournaments.desk import selectors
from tournaments.desk.answers import respond
from tournaments.desk.forms import (
    CONFIRMATION_LABELS,
    PAIRING_LABELS,
    PUBLISH_LABELS,
    ROUND1_LABELS,
    TournamentForm,
    described,
    tiebreaks_note,
)
from tournaments.desk.http import REFUSED, DeskRequest, dashboard_url, desk_view, sentence, user_pk
from tournaments.desk.presenters.common import ROLE_NAMES


@desk_view
@require_GET
def home(request: DeskRequest) -> HttpResponse:
    return _home(request, TournamentForm(initial={"date": timezone.localdate()}))


def _home(request: DeskRequest, form: TournamentForm, status: int = 200) -> HttpResponse:
    mine = selectors.roles_by_tournament(user_id=user_pk(request))
    everything = getattr(request.user, "is_staff", False)
    listed = t.tournament_list() if everything else t.tournament_list().filter(pk__in=list(mine))
    rows = [
        {
            "id": p.stream_id,
            "name": p.name,
            "date": p.date,
            "status": p.status,
            "state": pgettext("tournament status", "Finished")
            if p.status == "finished"
            else _("Round %(round)s of %(planned)s")
            % {"round": p.current_round, "planned": p.rounds_planned}
            if p.current_round
            else pgettext("tournament status", "Registration"),
            "roles": [str(ROLE_NAMES.get(r, r)) for r in sorted(mine.get(p.stream_id, set()))]
            or [_("Staff")],
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
        "tiebreaks_note": tiebreaks_note(),
        "tiebreak_help": [(_(tb.title), _(tb.description)) for tb in standings.TIEBREAKS.values()],
    }
    return render(request, "desk/home.html", context, status=status)


def _preset_labels() -> dict[str, tuple[str, str]]:
    return {key: (_(p.name), _(p.description)) for key, p in standings.PRESETS.items()}


@desk_view
@require_POST
def create(request: DeskRequest) -> HttpResponse:
    form = TournamentForm(request.POST)
    if not form.is_valid():
        return _home(request, form, status=REFUSED)
    try:
        change = t.tournament_create(user=request.user, **form.service_arguments())
    except Refused as refused:
        form.add_error(None, sentence(refused.message))
        return _home(request, form, status=REFUSED)
    messages.success(
        request,
        _("%(name)s is created. Register the players next.") % {"name": form.cleaned_data["name"]},
    )
    return HttpResponseRedirect(dashboard_url(change.tournament_id, "players-panel"))


@desk_view
@require_GET
def dashboard(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    return respond(request, tournament_id, None, pick=request.GET.get("pick"))


@desk_view
@require_GET
def round_panel(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """The round panel alone (htmx: choosing the first player of a swap)."""
    pick = request.GET.get("pick")
    if not request.htmx:
        query = f"?pick={pick}" if pick else ""
        return HttpResponseRedirect(reverse("desk:dashboard", args=[tournament_id]) + query)
    return respond(request, tournament_id, "round", pick=pick, oob=False)

"""Project-level pages that belong to no app: the home page lists the tournaments."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date as Date

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments import services
from tournaments.public.presenters import TOURNAMENT_STATUS

TOURNAMENTS_PER_PAGE = 20


@dataclass(frozen=True, slots=True)
class TournamentItem:
    id: str
    name: str
    date: Date
    status: str
    status_label: str
    round_now: int
    rounds_planned: int


def home(request: HttpRequest) -> HttpResponse:
    """The tournaments, newest first, with their status and current round."""
    page = Paginator(services.tournament_list(), TOURNAMENTS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    items = [
        TournamentItem(
            id=str(t.stream_id),
            name=t.name,
            date=t.date,
            status=t.status,
            status_label=TOURNAMENT_STATUS.get(t.status, t.status),
            round_now=t.current_round,
            rounds_planned=t.rounds_planned,
        )
        for t in page
    ]
    return render(request, "home.html", {"page": page, "tournaments": items})

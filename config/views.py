"""Project-level pages that belong to no app: the home page lists the tournaments; the
language chooser's answer."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date as Date

from django.conf import settings
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import check_for_language
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments import services
from tournaments.public.words import WORDS

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
            status_label=WORDS.status("tournament", t.status),
            round_now=t.current_round,
            rounds_planned=t.rounds_planned,
        )
        for t in page
    ]
    return render(request, "home.html", {"page": page, "tournaments": items})


@never_cache
@require_GET
def choose_language(request: HttpRequest) -> HttpResponse:
    """The language chooser (templates/_language.html): keep ``language`` in the language cookie
    and go back to ``next`` (a path of this site), or to the home page.

    A GET form, not Django's set_language (a POST with a CSRF token): the chooser is part of
    pages rendered once for everyone (the public standings: shared, cached, gzipped, no CSRF
    token in them), and works the same on every page. Choosing a language is a preference a
    forged link could at worst switch back and forth, like Accept-Language itself."""
    next_url = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = "/"
    response = HttpResponseRedirect(next_url)
    language = request.GET.get("language", "")
    if language in dict(settings.LANGUAGES) and check_for_language(language):
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,  # type: ignore[arg-type]
        )
    return response

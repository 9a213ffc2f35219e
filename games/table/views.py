"""The scorekeeper's table page, shared by every game (docs/scorekeeping.md): the views that
find a game's type and dispatch to its pages (games.pages), and what every game's page uses.

``enter``, ``results``, ``undo`` and ``event`` look the game's type up and answer with its pages
module; a game's other entry addresses (Trick-n-Chef's deal, pick, play and take) come from its
pages' ``table_urls`` (games/urls_table.py). Every action is a POST carrying the version the page
was rendered at and a fresh idempotency key; refusals come back in the rules' words.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from games import services
from games.models import GameProjection
from games.pages import GamePages, pages_for
from games.projection import withdrawn_results

CONFLICT = gettext_noop("Someone else changed this table; here it is as it stands now.")
KEY_REUSED = gettext_noop(
    "This form was already sent (with other content); here is the table as it stands now."
)
BAD_FORM = gettext_noop(
    "The form arrived incomplete; here is the table as it stands now: tap again."
)


class HtmxHttpRequest(HttpRequest):
    """A request that went through django_htmx's middleware (for the type checker)."""

    htmx: HtmxDetails


View = Callable[..., HttpResponse]


def table_login_required(view: View) -> View:
    """Like login_required, back to the table page after the login; an htmx request whose
    session expired is sent there as a whole page, not swapped into the panel."""

    @wraps(view)
    def wrapper(request: HtmxHttpRequest, game_id: uuid.UUID) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, game_id)
        back = request.path if request.method == "GET" else page_url(game_id)
        if request.htmx:
            login = redirect_to_login(back)
            return HttpResponseClientRedirect(login["Location"])
        return redirect_to_login(back)

    return wrapper


def page_url(game_id: uuid.UUID) -> str:
    """The table page of a game."""
    return reverse("table:enter", args=[game_id])


# ----------------------------------------------------------------------------- views


# Each game's pages (games.pages) answer the table page, its results form and its undo: these
# views only find the game's type and dispatch.


@table_login_required
@require_GET
def enter(request: HtmxHttpRequest, game_id: uuid.UUID) -> HttpResponse:
    return _pages(request, game_id).enter(request, game_id)


@table_login_required
@require_http_methods(["GET", "POST"])
def results(request: HtmxHttpRequest, game_id: uuid.UUID) -> HttpResponse:
    return _pages(request, game_id).results(request, game_id)


@table_login_required
@require_POST
def undo(request: HtmxHttpRequest, game_id: uuid.UUID) -> HttpResponse:
    return _pages(request, game_id).undo(request, game_id)


@table_login_required
@require_POST
def event(request: HtmxHttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """A play-by-play entry of a game whose entries have no addresses of their own (its pages'
    ``table_urls``)."""
    return _pages(request, game_id).event(request, game_id)


def _pages(request: HttpRequest, game_id: uuid.UUID) -> GamePages:
    try:
        game = services.game_get(game_id=game_id, user=request.user)
    except services.GameNotFound:
        raise Http404("there is no such game") from None
    return pages_for(game.game_type)


# ----------------------------------------------------------------------------- results


def correctable(game: GameProjection) -> bool:
    """Whether the game's results form opens as a correction of the results recorded."""
    return game.results_only and game.status != GameProjection.Status.VOID


def withdrawn_entry(request: HttpRequest, game: GameProjection) -> dict[str, Any] | None:
    """The results entry a correction took back, while nothing has been entered since (read
    from the game's log: games.projection.withdrawn_results); None otherwise, and for a game
    whose log holds nothing but its start."""
    if game.version < 3 or game.results_only:  # a start, an entry, a retraction at least
        return None
    _, events = services.game_events(game_id=game.stream_id, user=request.user)
    return withdrawn_results((e.type, e.data) for e in events)


def results_closed(game: GameProjection) -> str | None:
    """Why results cannot be entered for this game now (None if they can)."""
    if game.status == GameProjection.Status.VOID:
        return _("This game was voided: nothing more can be recorded.")
    if game.results_only:
        return _("Results were already entered for this game (undo them on the table page first).")
    if game.status == GameProjection.Status.FINISHED:
        return _("This game was recorded play by play to the end: its scores come from the plays.")
    return None

"""The club's time zone: every time a page about a tournament shows, and every time its forms
take, is in the tournament's zone (its ``time_zone`` setting), else the site's (settings.TIME_ZONE,
from TNC_TIME_ZONE). The middleware activates it (django.utils.timezone.activate) for each
request about a tournament: the desk's, the public pages', and a tournament table's pages (not
the API's, whose times stay UTC).

A request asks the cache, not the database, for the zone: the public standings page answers
with one query (the tournament's version), and this must not add one. A tournament's entry is
dropped when its settings change (or an undo may have changed them), after the commit; entries
also expire after ``TTL`` seconds, for a cache that is each process's own memory.
"""

from __future__ import annotations

import uuid
import zoneinfo
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

_View = TypeVar("_View", bound=Callable[..., HttpResponse])

TTL = 60
"""Seconds a cached zone is trusted (a changed zone shows everywhere within this)."""

API_PREFIX = "/api/"
"""The API's times stay in UTC (ISO 8601): a program reads them, not a club."""
_KEY = "tnc:tz:{kind}:{id}"
_SITE = ""
"""What the cache holds for "the site's zone" (a cache miss is None)."""


def site_zone() -> str:
    return str(settings.TIME_ZONE)


def _tournament_zone(tournament_id: uuid.UUID) -> str:
    from tournaments.services import TournamentNotFound, tournament_state

    try:
        state = tournament_state(tournament_id)
    except TournamentNotFound:  # the view answers 404; the site's zone meanwhile
        return _SITE
    if state.settings is None:
        return _SITE
    return state.settings.time_zone or _SITE


def _game_tournament(game_id: uuid.UUID) -> str:
    from tournaments.models import TournamentTable

    found = TournamentTable.objects.filter(game_id=game_id).values_list("tournament_id", flat=True)
    tournament_id = found.first()
    return "" if tournament_id is None else str(tournament_id)


def _cached(kind: str, key: uuid.UUID, compute: Callable[[], str]) -> str:
    name = _KEY.format(kind=kind, id=key)
    found = cache.get(name)
    if isinstance(found, str):
        return found
    value = compute()
    cache.set(name, value, TTL)
    return value


def zone_name(tournament_id: uuid.UUID | str | None) -> str:
    """The time zone of this tournament (its setting, else the site's), by name."""
    if tournament_id is None:
        return site_zone()
    tid = uuid.UUID(str(tournament_id))
    return _cached("t", tid, lambda: _tournament_zone(tid)) or site_zone()


def game_zone_name(game_id: uuid.UUID | str) -> str:
    """The time zone of the tournament this game is a table of (the site's for a lone game)."""
    gid = uuid.UUID(str(game_id))
    tournament = _cached("g", gid, lambda: _game_tournament(gid))
    return zone_name(tournament or None)


def forget(tournament_id: uuid.UUID | str) -> None:
    """Drop a tournament's cached zone (its settings changed): now, and again once the
    transaction commits (a request meanwhile may have cached the zone before the change)."""
    name = _KEY.format(kind="t", id=uuid.UUID(str(tournament_id)))
    cache.delete(name)
    transaction.on_commit(lambda: cache.delete(name))


def activate(name: str) -> None:
    """Make ``name`` the current time zone (the site's if this machine does not know it)."""
    try:
        timezone.activate(zoneinfo.ZoneInfo(name))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        timezone.activate(zoneinfo.ZoneInfo(site_zone()))


def zone_when_rendering(view: _View) -> _View:
    """Mark a view about a tournament that activates its zone itself
    (:func:`activate_tournament_zone`), only before it renders: the public standings answer
    most visits from what is already rendered (a 304, the shared page as cached), where the
    zone's cache round trip was a third of the request."""
    view.zone_when_rendering = True  # type: ignore[attr-defined]
    return view


def activate_tournament_zone(tournament_id: uuid.UUID | str) -> None:
    """What the middleware does for a view about a tournament, for a view that does it itself
    (:func:`zone_when_rendering`)."""
    activate(zone_name(tournament_id))


class TournamentTimeZoneMiddleware:
    """Activate the tournament's time zone for a view about a tournament (its ``tournament_id``)
    or one of its tables (``game_id``); the site's zone for every other request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(
        self,
        request: HttpRequest,
        view: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> None:
        if request.path.startswith(API_PREFIX):
            timezone.deactivate()  # the API speaks UTC, whatever the club's zone
        elif getattr(view, "zone_when_rendering", False):
            timezone.deactivate()  # the view activates the tournament's when it renders
        elif kwargs.get("tournament_id") is not None:
            activate(zone_name(kwargs["tournament_id"]))
        elif kwargs.get("game_id") is not None:
            activate(game_zone_name(kwargs["game_id"]))
        else:
            timezone.deactivate()

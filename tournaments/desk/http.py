"""The desk's request handling shared by its views: who may come in (desk_view), the 403 page,
reading posted numbers, the tournament as the asking user sees it, and the links the pages
make."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import update_wrapper
from typing import Any, Concatenate, ParamSpec

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget
from django_htmx.middleware import HtmxDetails

from games.services import GameNotFound, NotAllowed
from tournaments import domain
from tournaments import services as t
from tournaments.desk import selectors
from tournaments.desk.presenters.dashboard import Links
from tournaments.desk.words import sentence as sentence  # where the views import it from

REFUSED = 422
"""A refused action or a form to correct (not 400: in development django-htmx's debug script
replaces the whole page with the response of an htmx request answered 400, 403, 404 or 500)."""
NOT_STAFF = gettext_lazy(
    "only the organizers and scorekeepers of this tournament use its desk; "
    "ask an organizer to invite you"
)

P = ParamSpec("P")


class DeskRequest(HttpRequest):
    """A request through django-htmx's middleware (for the type checker)."""

    htmx: HtmxDetails


DeskView = Callable[Concatenate[DeskRequest, P], HttpResponse]


def desk_view(view: DeskView[P]) -> DeskView[P]:
    """Logged-in users only (an htmx request whose session ran out goes to the login page as a
    whole page); a refused permission is the 403 page, an unknown tournament a 404."""

    def wrapper(request: DeskRequest, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            if request.htmx:
                back = request.htmx.current_url_abs_path or reverse("desk:home")
                return HttpResponseClientRedirect(f"{reverse('login')}?next={back}")
            return redirect_to_login(request.get_full_path())
        try:
            return view(request, *args, **kwargs)
        except NotAllowed as refusal:
            return forbidden(request, refusal.message)
        except GameNotFound:
            raise Http404(_("There is no such tournament.")) from None

    update_wrapper(wrapper, view)
    return wrapper


def forbidden(request: DeskRequest, message: str) -> HttpResponse:
    """The 403 page; to htmx, the same page with its notice put in place of the main content
    (in development, django-htmx's debug script shows the whole page instead)."""
    response = render(request, "desk/forbidden.html", {"message": sentence(message)}, status=403)
    if request.htmx:
        response["HX-Reselect"] = ".forbidden"
        return reswap(retarget(response, "#main"), "innerHTML")
    return response


def posted_version(request: HttpRequest) -> int | None:
    """The tournament version the form was made at (expected_version)."""
    return to_int(request.POST.get("expected_version"))


def to_int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def dashboard_url(tournament_id: uuid.UUID, anchor: str = "") -> str:
    url = reverse("desk:dashboard", args=[tournament_id])
    return f"{url}#{anchor}" if anchor else url


def table_link(game_id: str) -> str:
    """The scorekeeper's page for a table's game."""
    try:
        return reverse("table:enter", args=[game_id])
    except NoReverseMatch:  # the scorekeeper pages live at /table/<game id>/
        return f"/table/{game_id}/"


def seat_link(token: str) -> str:
    """A seat's page for its phone (``seat:page``, /seat/<token>/): a credential, for the
    tournament's organizers' pages only (the score sheets, the seat links page)."""
    try:
        return reverse("seat:page", args=[token])
    except NoReverseMatch:  # the phones' pages live at /seat/<token>/ (games.phone)
        return f"/seat/{token}/"


_GAME = "00000000-0000-0000-0000-000000000000"
_TOKEN = "0.TOKEN:SIGNATURE"


def site_address(request: HttpRequest) -> str:
    """The address the QR codes and printed links use: the PUBLIC_URL setting, or else the
    address this request came to (which phones may not reach: the desk says so)."""
    configured: str = getattr(settings, "PUBLIC_URL", "")
    return configured or request.build_absolute_uri("/")[:-1]


def tournament_address(request: HttpRequest, tournament_id: uuid.UUID) -> str:
    """The tournament's public page as a player types it: the site's address and the short
    one, ``/t/<code>/`` (its ``/t/<id>/`` if it has no code)."""
    code = t.tournament_short_code(tournament_id=tournament_id)
    if code:
        return site_address(request) + reverse("public:short", args=[code])
    return site_address(request) + reverse("public:tournament", args=[tournament_id])


def links(request: HttpRequest, tournament_id: uuid.UUID | str) -> Links:
    """The tables' links of this tournament on this site (reversed once, not per table)."""
    return site_links(site_address(request), tournament_id)


def site_links(site: str, tournament_id: uuid.UUID | str) -> Links:
    """:func:`links` for a site given without a request (a task's: the PUBLIC_URL setting)."""
    head, tail = table_link(_GAME).split(_GAME)
    qr_head, qr_tail = reverse("desk:qr", args=[tournament_id, _GAME]).split(_GAME)
    seat_head, seat_tail = seat_link(_TOKEN).split(_TOKEN)
    # The image is kept a week by the browser: a new address is a new image.
    at = hashlib.sha256(site.encode()).hexdigest()[:8]
    return Links(
        site,
        (head, tail),
        (qr_head, f"{qr_tail}?at={at}"),
        (seat_head, seat_tail),
    )


# ----------------------------------------------------------------------------- who is asking


def user_pk(request: HttpRequest) -> int:
    """The logged-in user's id (desk_view lets no one else in)."""
    return int(request.user.pk or 0)


def my_roles(request: HttpRequest, tournament_id: uuid.UUID) -> set[str]:
    """This user's roles in the tournament (staff count as organizers)."""
    roles = selectors.roles_in(tournament_id=tournament_id, user_id=user_pk(request))
    if getattr(request.user, "is_staff", False):
        roles.add(domain.ORGANIZER)
    return roles


def require_desk_role(request: HttpRequest, tournament_id: uuid.UUID) -> set[str]:
    """This user's roles; none: NotAllowed (the desk is for organizers and scorekeepers)."""
    roles = my_roles(request, tournament_id)
    if not roles:
        raise NotAllowed(str(NOT_STAFF))
    return roles


@dataclass(frozen=True, slots=True)
class Seen:
    """The tournament as this user sees it (the services' summary), their roles in it, and the
    standings when they may see them."""

    summary: Mapping[str, Any]
    roles: frozenset[str]
    standings: Mapping[str, Any] | None

    @property
    def organizer(self) -> bool:
        return domain.ORGANIZER in self.roles


def tournament_seen(request: HttpRequest, tournament_id: uuid.UUID) -> Seen:
    """The tournament as this user sees it, for its organizers and scorekeepers only."""
    read = t.tournament_get_with_standings(tournament_id=tournament_id, user=request.user)
    return Seen(read.summary, frozenset(require_desk_role(request, tournament_id)), read.standings)

"""Who may do what: the users' roles and what the public sees."""

from __future__ import annotations

import uuid
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from games.services import GameError, NotAllowed, Refused, User
from tournaments.domain import ORGANIZER, SCOREKEEPER, Refusal, TournamentState
from tournaments.domain.words import Say


def said(say: Say) -> str:
    """Words of the pure modules (a refusal's, an undo's) in the active language: the
    request's, as LocaleMiddleware chose it (English in a task)."""
    return say(translation)


def _refused(refusal: Refusal) -> GameError:
    """The domain's refusal as the services' error (a permission refusal is a 403), in the
    requester's language; the code stays."""
    if refusal.code == "forbidden":
        return NotAllowed(said(refusal.say))
    return Refused(said(refusal.say), refusal.code)


def _user_id(user: User | None) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return int(user.pk)


def _is_staff(user: User | None) -> bool:
    return bool(user is not None and user.is_authenticated and getattr(user, "is_staff", False))


def _require(state: TournamentState, user: User | None, *roles: str, system: bool = False) -> None:
    """Only the given roles (or staff, or the system's own tasks) may do this."""
    if system:
        return
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("log in to change a tournament"))
    if _is_staff(user) or any(state.has_role(_user_id(user), role) for role in roles):
        return
    if set(roles) == {ORGANIZER, SCOREKEEPER}:
        raise NotAllowed(_("only an organizer or a scorekeeper of this tournament can do this"))
    if set(roles) == {SCOREKEEPER}:
        raise NotAllowed(_("only a scorekeeper of this tournament can do this"))
    raise NotAllowed(_("only an organizer of this tournament can do this"))


def _metadata(user: User | None, request_id: str, system: bool) -> dict[str, Any]:
    known = user is not None and user.is_authenticated
    return {
        "by": "system"
        if system and not known
        else (user.get_username() if known and user else None),
        "by_id": _user_id(user),
        "request_id": request_id or uuid.uuid4().hex,
    }


def _sees_proposals(state: TournamentState, user: User | None, system: bool = False) -> bool:
    """Organizers (and staff) see a round as soon as it is proposed; others once published."""
    return system or _is_staff(user) or state.has_role(_user_id(user), ORGANIZER)


def standings_visible(state: TournamentState, user: User | None) -> bool:
    """The public sees the standings unless the organizer hid them for the last rounds (until
    they are revealed); organizers always do."""
    config = state.config
    hidden = (
        config.standings_hidden_from is not None
        and len([r for r in state.rounds if r.status != "proposed"]) >= config.standings_hidden_from
        and not config.standings_revealed
    )
    return not hidden or _sees_proposals(state, user)


def downloads_allowed(state: TournamentState, user: User | None) -> bool:
    """CSV and record downloads: public once released; organizers always."""
    return state.config.downloads_released or _sees_proposals(state, user)

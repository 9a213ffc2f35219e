"""Creating a tournament and changing its settings."""

from __future__ import annotations

import dataclasses
import secrets
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import store
from games.gametypes import DEFAULT_GAME_TYPE, GAME_TYPES
from games.models import Stream
from games.services import NotAllowed, Refused, User
from tournaments import domain, standings
from tournaments import events as tournament_events
from tournaments.domain import Refusal, TournamentState
from tournaments.models import TournamentProjection
from tournaments.services.access import _refused, _user_id
from tournaments.services.codes import short_code_assign
from tournaments.services.writes import TournamentChange, _act, _append


def tournament_create(
    *,
    user: User | None,
    name: str,
    date: str,
    rounds: int,
    game_type: str = DEFAULT_GAME_TYPE,
    table_size: int | None = None,
    time_zone: str | None = None,
    scoring: str = "scaled",
    tiebreaks: Sequence[str] | None = None,
    pairing: str = "manual",
    publish: str = "manual",
    round1: str = "random",
    confirmation: str = "organizer",
    check_in: bool = True,
    bye_points: float | None = None,
    seed: int | None = None,
    standings_hidden_from: int | None = None,
    standings_revealed: bool = False,
    downloads_released: bool = False,
    rank_not_checked_in: bool = False,
    relay_delay: int = 0,
    request_id: str = "",
) -> TournamentChange:
    """A new tournament; its creator is its first organizer. ``table_size``: the organizer's
    preferred table size, one the game type allows (None: the game's largest).
    ``relay_delay``: how many seconds spectators wait to see its tables (docs/relay.md)."""
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("log in to create a tournament"))
    settings: dict[str, Any] = {
        "name": " ".join(str(name).split()),
        "date": str(date),
        "rounds": rounds,
        "game_type": game_type,
        "scoring": scoring,
        "tiebreaks": list(tiebreaks if tiebreaks is not None else domain.Settings.tiebreaks),
        "pairing": pairing,
        "publish": publish,
        "round1": round1,
        "confirmation": confirmation,
        "check_in": bool(check_in),
        "bye_points": bye_points,
        "seed": secrets.randbelow(10**9) if seed is None else int(seed),
        "standings_hidden_from": standings_hidden_from,
        "standings_revealed": bool(standings_revealed),
        "downloads_released": bool(downloads_released),
    }
    if table_size is not None:  # stored only when chosen: a default tournament is as before
        settings["table_size"] = table_size
    if time_zone is not None:  # the same: without it, the site's zone (TNC_TIME_ZONE)
        settings["time_zone"] = time_zone
    if rank_not_checked_in:  # the same
        settings["rank_not_checked_in"] = True
    if relay_delay:  # the same
        settings["relay_delay"] = relay_delay
    try:
        domain.check_settings(settings, GAME_TYPES)
    except Refusal as refusal:
        raise _refused(refusal) from None
    _check_scoring(settings)
    event = tournament_events.TournamentCreated(
        settings=settings,
        organizer={"id": _user_id(user), "username": user.get_username()},
    )
    with transaction.atomic():
        stream = store.create_stream(Stream.Kind.TOURNAMENT)
        projection = TournamentProjection(stream=stream, created_by_id=_user_id(user))
        change = _append(
            projection,
            TournamentState(),
            [event],
            user=user,
            request_id=request_id,
            system=False,
        )
        short_code_assign(tournament_id=stream.id)  # its short address, /t/<code>/
        return change


def _check_scoring(settings: Mapping[str, Any]) -> None:
    if settings.get("scoring") not in standings.PRESETS:
        raise Refused(
            _("unknown scoring preset %(preset)s (presets: %(presets)s)")
            % {"preset": repr(settings.get("scoring")), "presets": ", ".join(standings.PRESETS)},
            "bad_settings",
        )
    unknown = [t for t in settings.get("tiebreaks", ()) if t not in standings.TIEBREAKS]
    if unknown:
        raise Refused(
            ngettext(
                "unknown tie-break %(unknown)s (tie-breaks: %(tiebreaks)s)",
                "unknown tie-breaks %(unknown)s (tie-breaks: %(tiebreaks)s)",
                len(unknown),
            )
            % {
                "unknown": ", ".join(map(repr, unknown)),
                "tiebreaks": ", ".join(standings.TIEBREAKS),
            },
            "bad_settings",
        )


SETTINGS_ANY_TIME = frozenset(
    {
        "name",
        "date",
        "pairing",
        "publish",
        "confirmation",
        "rounds",
        "standings_hidden_from",
        "standings_revealed",
        "downloads_released",
        "rank_not_checked_in",
        "table_size",
        "time_zone",
        "relay_delay",
    }
)
SETTINGS_BEFORE_START = frozenset({"scoring", "tiebreaks", "round1", "check_in", "bye_points"})


def tournament_change_settings(
    *,
    tournament_id: uuid.UUID,
    changes: Mapping[str, Any],
    user: User | None,
    request_id: str = "",
    expected_version: int | None = None,
) -> TournamentChange:
    def decide(projection: TournamentProjection, state: TournamentState) -> list[Any]:
        unknown = set(changes) - SETTINGS_ANY_TIME - SETTINGS_BEFORE_START
        if unknown:
            raise Refusal(
                "bad_settings",
                _("cannot change %(settings)s") % {"settings": ", ".join(sorted(unknown))},
            )
        if state.rounds and set(changes) & SETTINGS_BEFORE_START:
            fixed = ", ".join(sorted(set(changes) & SETTINGS_BEFORE_START))
            raise Refusal(
                "bad_settings",
                _("%(settings)s cannot change once round 1 is paired") % {"settings": fixed},
            )
        merged = {**dataclasses.asdict(state.config), **changes}
        domain.check_settings(merged, GAME_TYPES)
        if "rounds" in changes and changes["rounds"] < len(state.rounds):
            raise Refusal(
                "bad_settings",
                ngettext(
                    "%(rounds)s round is already paired",
                    "%(rounds)s rounds are already paired",
                    len(state.rounds),
                )
                % {"rounds": len(state.rounds)},
            )
        _check_scoring(merged)
        return [tournament_events.SettingsChanged(changes=dict(changes))]

    return _act(
        tournament_id,
        decide,
        user=user,
        request_id=request_id,
        expected_version=expected_version,
    )

"""Players (registration, check-in, drops) and the roles of users."""

from __future__ import annotations

import csv
import dataclasses
import io
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from games.gametypes import GAME_TYPES
from games.names import BadName, clean_names, is_blank
from games.services import Refused, User
from tournaments import domain
from tournaments.domain import Refusal, TournamentState
from tournaments.models import TournamentProjection
from tournaments.services.writes import TournamentChange, _act


def parse_player_list(text: str) -> tuple[list[str], list[int | None] | None]:
    """Names from a pasted list (one per line) or a CSV file (a ``name`` column, optionally a
    ``rating`` column; without a header, the first column is the name)."""
    lines = [line for line in text.splitlines() if not is_blank(line)]
    if not lines:
        return [], None
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    header = [cell.strip().casefold() for cell in rows[0]]
    if "name" in header:
        col = header.index("name")
        rating_col = header.index("rating") if "rating" in header else None
        names, ratings = [], []
        for number, row in enumerate(rows[1:], start=2):
            if col >= len(row) or is_blank(row[col]):
                raise Refused(_("line %(line)s has no name") % {"line": number}, "bad_players")
            names.append(row[col])
            value = (
                row[rating_col].strip() if rating_col is not None and rating_col < len(row) else ""
            )
            if value and not value.lstrip("-").isdigit():
                raise Refused(
                    _("line %(line)s: the rating %(rating)s is not a number")
                    % {"line": number, "rating": repr(value)},
                    "bad_players",
                )
            ratings.append(int(value) if value else None)
        return names, (ratings if rating_col is not None else None)
    if all(len(row) == 1 for row in rows):
        return [row[0] for row in rows], None
    return [row[0] for row in rows if row], None


def tournament_register(
    *,
    tournament_id: uuid.UUID,
    user: User | None,
    names: Sequence[str] = (),
    text: str = "",
    ratings: Sequence[int | None] | None = None,
    members: Sequence[Sequence[str]] | None = None,
    checked_in: bool = False,
    request_id: str = "",
    expected_version: int | None = None,
) -> TournamentChange:
    """Register players: names, or a pasted list / CSV text. After round 1 they are late
    entries, seated from the next pairing. In a team game (Crazy Kitchen) each name is a team's
    and ``members`` gives each team's players, in the same order."""

    def decide(projection: TournamentProjection, state: TournamentState) -> list[Any]:
        listed, rated = parse_player_list(text) if text else (list(names), ratings)
        team_members = GAME_TYPES[state.config.game_type].team_members
        try:  # one spelling for one name (games.names), before the domain compares them
            listed = clean_names(listed)
            players = None if members is None else [clean_names(list(m)) for m in members]
        except BadName as error:
            raise Refused(str(error), "bad_players") from None
        events = domain.decide_register(state, listed, rated, players, team_members)
        return [dataclasses.replace(e, checked_in=checked_in) for e in events]

    return _act(
        tournament_id, decide, user=user, request_id=request_id, expected_version=expected_version
    )


def _player_action(kind: str) -> Callable[..., TournamentChange]:
    def service(
        *,
        tournament_id: uuid.UUID,
        player: str,
        user: User | None,
        request_id: str = "",
        expected_version: int | None = None,
    ) -> TournamentChange:
        def decide(projection: TournamentProjection, state: TournamentState) -> list[Any]:
            return [domain.decide_player_change(state, player, kind)]

        return _act(
            tournament_id,
            decide,
            user=user,
            request_id=request_id,
            expected_version=expected_version,
        )

    return service


tournament_check_in = _player_action(domain.CHECKED_IN)
tournament_check_out = _player_action(domain.CHECKED_OUT)
_drop = _player_action(domain.DROPPED)


def tournament_drop(
    *,
    tournament_id: uuid.UUID,
    player: str,
    user: User | None,
    request_id: str = "",
    expected_version: int | None = None,
    at_open_table: bool = True,
) -> TournamentChange:
    """Drop a player: not seated any more. ``at_open_table=False`` (the desk, until the
    organizer confirms) refuses it with a warning when the player's table is still being
    played (``at_open_table``): the drop does not end that game."""
    if at_open_table:
        return _drop(
            tournament_id=tournament_id,
            player=player,
            user=user,
            request_id=request_id,
            expected_version=expected_version,
        )

    def decide(projection: TournamentProjection, state: TournamentState) -> list[Any]:
        domain.check_drop_at_open_table(state, player)
        return [domain.decide_player_change(state, player, domain.DROPPED)]

    return _act(
        tournament_id, decide, user=user, request_id=request_id, expected_version=expected_version
    )


tournament_reinstate = _player_action(domain.REINSTATED)


def tournament_set_role(
    *,
    tournament_id: uuid.UUID,
    username: str,
    role: str,
    grant: bool,
    user: User | None,
    request_id: str = "",
    expected_version: int | None = None,
) -> TournamentChange:
    """Organizers assign scorekeepers (and co-organizers) by username."""

    def decide(projection: TournamentProjection, state: TournamentState) -> list[Any]:
        target = get_user_model().objects.filter(username=username).first()
        if target is None:
            raise Refusal("unknown_user", _("there is no user %(user)s") % {"user": repr(username)})
        return [domain.decide_role(state, int(target.pk), username, role, grant)]

    return _act(
        tournament_id, decide, user=user, request_id=request_id, expected_version=expected_version
    )

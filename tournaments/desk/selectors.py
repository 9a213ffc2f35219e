"""What the desk reads straight from the database, beside the tournament's services: small
indexed queries on the projections (tournaments.models), each one function. Views and presenters
call these instead of the ORM (the public pages have selectors of their own)."""

from __future__ import annotations

import uuid
from collections import defaultdict

from tournaments.models import TournamentRole, TournamentTable


def roles_in(*, tournament_id: uuid.UUID, user_id: int) -> set[str]:
    """The roles a user holds in one tournament (organizer, scorekeeper); empty: none."""
    return set(
        TournamentRole.objects.filter(tournament_id=tournament_id, user_id=user_id)
        .values_list("role", flat=True)
        .distinct()
    )


def roles_by_tournament(*, user_id: int) -> dict[uuid.UUID, set[str]]:
    """Every tournament a user holds a role in, with those roles (the desk's home page)."""
    mine: dict[uuid.UUID, set[str]] = defaultdict(set)
    for tournament_id, role in TournamentRole.objects.filter(user_id=user_id).values_list(
        "tournament_id", "role"
    ):
        mine[tournament_id].add(role)
    return dict(mine)


def has_table(*, tournament_id: uuid.UUID, game_id: uuid.UUID) -> bool:
    """Whether a game is a published table of this tournament (a QR code's link)."""
    return TournamentTable.objects.filter(tournament_id=tournament_id, game_id=game_id).exists()

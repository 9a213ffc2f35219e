"""Tournaments' short addresses (/t/<code>/: tournaments.shortcodes): assigned when a tournament
is created, backfilled for those without one (the migration, a rebuild after a restore), and
looked up."""

from __future__ import annotations

import uuid

from django.db import IntegrityError, transaction

from games.models import Stream
from tournaments import shortcodes
from tournaments.models import TournamentCode


def short_code_assign(*, tournament_id: uuid.UUID) -> str:
    """The tournament's short code: the one it has, or the first of its candidates that no
    other tournament holds, kept from now on."""
    for code in shortcodes.candidates(tournament_id):
        kept = tournament_short_code(tournament_id=tournament_id)
        if kept:
            return kept
        try:
            with transaction.atomic():  # a savepoint: a taken code leaves the caller's work intact
                TournamentCode.objects.create(stream_id=tournament_id, code=code)
        except IntegrityError:
            continue  # another tournament holds it (or this one got one meanwhile: see above)
        return code
    raise AssertionError("unreachable: the candidates never end")  # pragma: no cover


def short_codes_backfill() -> int:
    """Give a code to every tournament without one, the oldest first; how many were given."""
    missing = (
        Stream.objects.filter(kind=Stream.Kind.TOURNAMENT, short_code__isnull=True)
        .order_by("created_at", "id")
        .values_list("id", flat=True)
    )
    given = 0
    for tournament_id in list(missing):
        short_code_assign(tournament_id=tournament_id)
        given += 1
    return given


def tournament_short_code(*, tournament_id: uuid.UUID) -> str:
    """The tournament's short code ("" if it has none)."""
    found = TournamentCode.objects.filter(stream_id=tournament_id).values_list("code", flat=True)
    return found.first() or ""


def tournament_by_short_code(code: str) -> uuid.UUID | None:
    """The tournament whose short code ``code`` is (in any case), or None."""
    normalized = shortcodes.normalized(code)
    if normalized is None:
        return None
    found = TournamentCode.objects.filter(code=normalized).values_list("stream_id", flat=True)
    return found.first()

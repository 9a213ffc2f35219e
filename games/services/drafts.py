"""What a seat's phone compares to know whether to redraw (its poll's ETag): the table's version
and the last change of the private drafts it sees (games.models.DealDraft: Trick-n-Chef's hands
being tapped), in one SQL text for every reader (the phone frame, a game's deals,
games.services.poll): :func:`table_stamp`, :func:`table_stamped`.
"""

from __future__ import annotations

import datetime
import uuid
from typing import Any

from django.db import connection
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from games.models import DealDraft, GameProjection
from games.services.errors import GameNotFound

Stamp = tuple[int, str]
"""The table's version and the last change of a draft the seat sees (``""``: none)."""


def stamp_text(value: datetime.datetime | str | None) -> str:
    """A draft's ``updated_at`` as the stamp holds it (raw SQL on SQLite gives text)."""
    if value is None:
        return ""
    if isinstance(value, str):
        parsed = parse_datetime(value)
        if parsed is None:
            return value
        value = parsed if parsed.tzinfo else parsed.replace(tzinfo=datetime.UTC)
    return value.isoformat()


def drafts_last_sql(game: str, seat: str) -> str:
    """SQL for the stamp's second part: the last change of a draft that a seat's phone sees
    change (its own hand, and the others' once complete), for the game whose id is the column
    ``game`` and the seat ``seat`` (a column or ``%s``). Its first parameter is ``True``. One
    text for every reader of the stamp (:func:`table_stamp`, :func:`table_stamped`,
    games.services.poll): their ETags must agree, or every poll would redraw."""
    return (
        f"(SELECT MAX(d.updated_at) FROM {DealDraft._meta.db_table} d"
        f" WHERE d.game_id = {game} AND (d.full = %s OR d.seat = {seat}))"
    )


def _game_key(game_id: uuid.UUID) -> Any:
    return GameProjection._meta.pk.get_db_prep_value(game_id, connection)


def table_stamp(game_id: uuid.UUID, seat: int) -> Stamp | None:
    """What a seat's phone shows of the table, as a stamp its poll compares, in one query (None:
    no such game): the game's version and the last change of a draft it sees change: its own,
    and the others' once they are complete (the others' drafts in progress show as "tapping":
    their taps do not redraw every phone of the table)."""
    # Raw SQL, the same statement every time (psycopg prepares it): every tap's answer and
    # every poll that found a change read it (games.services.poll reads it with the link).
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT g.version, {drafts_last_sql('g.stream_id', '%s')}"
            f" FROM {GameProjection._meta.db_table} g WHERE g.stream_id = %s",
            [True, seat, _game_key(game_id)],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    return row[0], stamp_text(row[1])


def table_stamped(game_id: uuid.UUID, seat: int) -> tuple[GameProjection, Stamp]:
    """The game and :func:`table_stamp` for ``seat`` in one query: a phone's panel and its ETag
    are then of one moment, for one round trip. No permission check here."""
    games = GameProjection.objects.raw(
        f"SELECT g.*, {drafts_last_sql('g.stream_id', '%s')} AS drafts_last"
        f" FROM {GameProjection._meta.db_table} g WHERE g.stream_id = %s",
        [True, seat, _game_key(game_id)],
    )
    game = next(iter(games), None)
    if game is None:
        raise GameNotFound(_("there is no game %(game)s") % {"game": game_id})
    return game, (game.version, stamp_text(game.drafts_last))  # type: ignore[attr-defined]

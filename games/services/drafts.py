"""The stamp of a table's deal drafts (games.models.DealDraft), which a seat's phone compares
to know whether to redraw: one SQL text for every reader (a game's deals, games.services.poll).
"""

from __future__ import annotations

import datetime

from django.utils.dateparse import parse_datetime

from games.models import DealDraft


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
    text for every reader of the stamp (deal_stamp, deal_table_stamped,
    games.services.poll): their ETags must agree, or every poll would redraw."""
    return (
        f"(SELECT MAX(d.updated_at) FROM {DealDraft._meta.db_table} d"
        f" WHERE d.game_id = {game} AND (d.full = %s OR d.seat = {seat}))"
    )

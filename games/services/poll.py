"""A seat phone's poll in one query: is the link still good, and has what it shows changed?

Every phone of every table asks this twice a second (static/js/seat.js), and nearly every answer
is "nothing changed" (304). :func:`seat_poll` answers it with a single prepared statement: the
table's seat links (the phone's own, to check its nonce and revocation; the shared ones, for the
seats it may enter), the game's version and the last change of a deal draft the focus seat sees.
It is :func:`games.services.seat_open` and the deal drafts' stamp (games.services.drafts, as
games.services.drafts.table_stamp reads it) in one round trip, and gives exactly their answers
(the same refusals, the same stamp), so an ETag made by either path matches the other.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.db import InterfaceError, OperationalError, connection

from games import seats
from games.models import GameProjection, SeatLink
from games.seats import SeatAccess
from games.services.drafts import drafts_last_sql, stamp_text
from games.services.errors import GameNotFound, NotAllowed
from games.services.seats import REVOKED, UNKNOWN

Stamp = tuple[int, str]


@dataclass(frozen=True, slots=True)
class SeatPoll:
    access: SeatAccess
    stamp: Stamp
    """As :func:`games.services.drafts.table_stamp` gives it for the focus seat."""


def _sql() -> str:
    link = SeatLink._meta.db_table
    game = GameProjection._meta.db_table
    return (
        f"SELECT o.id, o.seat, o.player, o.nonce, o.shared, o.revoked_at, o.game_id, g.version,"
        f" {drafts_last_sql('o.game_id', 'COALESCE(%s, mine.seat)')}"
        f" FROM {link} mine"
        f" JOIN {link} o ON o.game_id = mine.game_id"
        f" JOIN {game} g ON g.stream_id = mine.game_id"
        f" WHERE mine.id = %s ORDER BY o.seat"
    )


def _rows(sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    """The poll's rows, in one round trip. Django checks a kept connection before each request's
    first query (CONN_HEALTH_CHECKS: a ``SELECT 1``), which would double the round trips of a
    poll; on PostgreSQL the poll's own statement is the check instead: it runs on the kept
    connection, and if that connection died (a restarted server) it is closed and the statement
    runs once more on a new one, so a poll never fails where the health check would have saved
    it. After it, the request's other queries need no check either."""
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return list(cursor.fetchall())
    for attempt in (1, 2):
        try:
            with connection.wrap_database_errors:
                connection.ensure_connection()
                with connection.connection.cursor() as cursor:
                    cursor.execute(sql, params)
                    rows = list(cursor.fetchall())
        except (OperationalError, InterfaceError):
            if attempt == 2 or connection.in_atomic_block:
                raise
            connection.close()  # a dead kept connection: the next attempt opens a new one
            continue
        connection.health_check_done = True  # type: ignore[attr-defined]  # proven good for this request
        return rows
    raise AssertionError("unreachable")


def seat_poll(token: str, focus: int | None) -> SeatPoll:
    """The token's access and the stamp of what its phone shows with ``focus`` (None: its own
    seat). Refuses as :func:`games.services.seat_open` does: :class:`GameNotFound` for a token
    this site did not make or a link that is gone, :class:`NotAllowed` for a revoked or
    reissued one."""
    try:
        link_id, nonce = seats.read_token(token)
    except seats.BadToken:
        raise GameNotFound(UNKNOWN) from None
    rows = _rows(_sql(), [True, focus, link_id])
    mine = next((row for row in rows if row[0] == link_id), None)
    if mine is None:
        raise GameNotFound(UNKNOWN)
    if mine[3] != nonce or mine[5] is not None:
        raise NotAllowed(REVOKED, "seat_link_revoked")
    others = tuple((row[1], row[2]) for row in rows if row[4] and row[0] != link_id)
    game_id = mine[6] if isinstance(mine[6], uuid.UUID) else uuid.UUID(str(mine[6]))
    access = SeatAccess(
        game_id=game_id,
        seat=mine[1],
        player=mine[2],
        acts_for=((mine[1], mine[2]), *others),
        link_id=link_id,
    )
    return SeatPoll(access, (mine[7], stamp_text(mine[8])))

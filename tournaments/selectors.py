"""Read-only queries for the tournament pages: what the views need beyond the services'
summaries, as typed read models, so that views call services and selectors, never the ORM.

Like the services, each selector decides nothing about the page; unlike them, it only reads
and holds no transaction.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from games import services as games
from games.services.relay import seen_games


@dataclass(frozen=True, slots=True)
class GameProgress:
    """Where a tournament table's game stands, as a tables list shows it."""

    status: str
    """The game's status (games.projection: not_started, in_progress, finished, void)."""
    round: int | None
    """The round in play (None or 0 before the first deal)."""
    trick: int | None
    """The trick in play in that round (None before its first card)."""


def game_progress(*, user: Any, game_ids: Iterable[str | None]) -> dict[str, GameProgress]:
    """Progress of those of the games ``user`` may see, by game id, in one query (a round's
    tables, or one player's games); a game the user may not see is absent. A game the relay's
    delay holds back from ``user`` is where it stood the delay ago (games.services.relay)."""
    ids = [uuid.UUID(g) for g in game_ids if g]
    if not ids:
        return {}
    found = (
        games.game_list(user=user)
        .filter(stream_id__in=ids)
        .defer(None)  # the list defers the summary: here it is what we need
        .only("stream_id", "status", "summary", "version", "updated_at", "game_type", "created_by")
    )
    progress = {}
    for game in seen_games(found, user).values():
        state = (game.summary or {}).get("state") or {}
        progress[str(game.stream_id)] = GameProgress(
            status=game.status, round=state.get("round"), trick=state.get("trick")
        )
    return progress

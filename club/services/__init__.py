"""The club's services: its writes (members, leagues), its consumer of the log (entries,
ratings, statistics) and its reads (the season, ratings and member pages). Views and tasks
call these; they own the transactions."""

from __future__ import annotations

from club.services.rebuild import club_rebuild
from club.services.sync import club_sync

__all__ = ["club_rebuild", "club_sync"]

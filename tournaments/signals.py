"""Signals other apps listen to (the club's consumer): sent after a commit, never inside one."""

from __future__ import annotations

from django.dispatch import Signal

tournament_appended = Signal()
"""Sent once the transaction that appended a tournament's events has committed, with
``tournament_id`` (uuid.UUID) and ``types`` (the appended events' types, a tuple). A nudge
only: a listener that misses one (a process killed after the commit) must catch up from the
log on its own (the club's consumer tracks its position in it)."""

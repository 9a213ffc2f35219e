"""Signals other apps listen to (sent after the transaction commits, never inside it)."""

from __future__ import annotations

from django.dispatch import Signal

game_status_changed = Signal()
"""Sent with ``game_id`` (UUID), ``status`` and ``version`` when a game becomes finished, stops
being finished (a correction), or is voided."""

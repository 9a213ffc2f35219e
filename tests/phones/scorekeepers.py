"""What a table's scorekeeper enters, in the phone tests, where a game's phones enter something
that is no choice among legal moves (a mixed table: issue 25, item 6): Trick-n-Chef's phones
enter the hands dealt at the table (a grid of the deck, ``form[data-hand]``), which no random
player can make up; its scorekeeper records the next deal the engine draws. Each entry:
``(game type, the record so far, a seed)`` -> the event to record, or None (nothing to enter
now). The one module of tests/phones/ that knows a game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def tricknchef_deal(kind: Any, record: str, seed: int) -> dict[str, Any] | None:
    """Trick-n-Chef's next deal, drawn by its engine (None: the table waits for no deal)."""
    from engine.tricknchef.events import RoundStarted, to_json
    from engine.tricknchef.simulate import play_on

    following = play_on(kind.read_record(record), seed)
    return to_json(following[0]) if following and isinstance(following[0], RoundStarted) else None


SCOREKEEPER: dict[str, Callable[[Any, str, int], dict[str, Any] | None]] = {
    "trick-n-chef": tricknchef_deal
}

__all__ = ["SCOREKEEPER", "tricknchef_deal"]

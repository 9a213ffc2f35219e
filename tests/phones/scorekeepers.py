"""What a table's scorekeeper enters, in the phone tests, where a game's phones enter something
that is no choice among legal moves (a mixed table: issue 25, item 6): Trick-n-Chef's phones
enter the hands dealt at the table (a grid of the deck, ``form[data-hand]``), which no random
player can make up; its scorekeeper records the next deal the engine draws. Food Truck's round
start (the market laid out and the Company cards turned over, ``round_started``) is entered by
the scorekeeper only; the engine draws it. Each entry:
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


def foodtruck_round(kind: Any, record: str, seed: int) -> dict[str, Any] | None:
    """Food Truck's next round start, drawn by its engine (None: no round to start now)."""
    import random

    from engine.foodtruck.events import to_json
    from engine.foodtruck.replay import replay_lines
    from engine.foodtruck.simulate import round_start
    from engine.foodtruck.state import Phase

    state = replay_lines(record.splitlines())
    if state.phase is not Phase.ROUND_START:
        return None
    return to_json(round_start(state, random.Random(seed)))


Scorekeeper = Callable[[Any, str, int], "dict[str, Any] | None"]
"""``(game type, the record so far, a seed)`` -> the event the scorekeeper enters, or None."""


def scorekeeper_enters(
    scorekeeper: Scorekeeper,
    game_type: str,
    game_id: Any,
    version: int,
    owner: Any,
    seed: int,
) -> bool:
    """The table's scorekeeper (``owner``, the table's organizer) reads the record so far as
    the export gives it and appends what ``scorekeeper`` says is entered now (with what the
    rules force after it), at ``version``. False: nothing to enter now."""
    from django.test import Client

    from games import services
    from games.gametypes import GAME_TYPES

    exporter = Client()
    exporter.force_login(owner)
    record = exporter.get(f"/api/games/{game_id}/record/").content.decode()
    entry = scorekeeper(GAME_TYPES[game_type], record, seed)
    if entry is None:
        return False
    services.game_append(
        game_id=game_id, expected_version=version, events=[entry], user=owner, forced=True
    )
    return True


SCOREKEEPER: dict[str, Scorekeeper] = {
    "trick-n-chef": tricknchef_deal,
    "food-truck": foodtruck_round,
}

__all__ = ["SCOREKEEPER", "Scorekeeper", "foodtruck_round", "scorekeeper_enters", "tricknchef_deal"]

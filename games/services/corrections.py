"""A results correction in one step: the results entered are retracted and the corrected ones
entered, in one transaction (docs/scorekeeping.md, "Correcting results").

Nothing is edited: the log holds the retraction (``events_retracted``, with its reason) and the
new ``results_entered``, as an undo followed by a new entry would; only both or neither are
written, so a table is never left without results halfway through a correction. Each event is
appended by the service that owns it (games.services.writes: ``game_correct`` and
``game_enter_results``, with their checks and the game's policy), under a key of its own
derived from the request's, so a retry of the whole correction replays both."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.services.common import GameChange, User
from games.services.errors import Refused
from games.services.reads import game_get
from games.services.writes import game_correct, game_enter_results


def game_correct_results(
    *,
    game_id: uuid.UUID,
    expected_version: int,
    reason: str = "",
    scores: Mapping[str, Any] | None = None,
    totals: Mapping[str, Any] | None = None,
    entry: Mapping[str, Any] | None = None,
    user: User | None = None,
    request_id: str = "",
    idempotency_key: str | None = None,
) -> GameChange:
    """Retract the game's results entry and enter the corrected one (the game's own ``entry``,
    or Trick-n-Chef's ``scores`` and ``totals``, as :func:`game_enter_results` takes them).
    Refused when the game holds no results entry now."""
    key = idempotency_key
    with transaction.atomic():
        game = game_get(game_id=game_id, user=user)
        if not game.results_only and game.version == expected_version:
            nothing = _("there are no results to correct: enter them instead")
            raise Refused(nothing, "bad_correction")
        game_correct(
            game_id=game_id,
            expected_version=expected_version,
            retract=1,
            reason=reason,
            user=user,
            request_id=request_id,
            idempotency_key=f"{key}:retract" if key else None,
        )
        return game_enter_results(
            game_id=game_id,
            expected_version=expected_version + 1,
            scores=scores,
            totals=totals,
            entry=entry,
            user=user,
            request_id=request_id,
            idempotency_key=f"{key}:results" if key else None,
        )

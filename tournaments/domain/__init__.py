"""A tournament as the fold of its stream's events, and the decisions that make new ones (pure).

Every organizer action is an event in the tournament's stream; the state here is what they add
up to. Decisions (``decide_*``) check an action against the state and return the event to append
(or raise :class:`Refusal` with a code and the organizer's words); :func:`apply` folds an event
into the state and never validates (eventsourcing's aggregate pattern, as in ``engine/``).

A mistaken action is undone by a new event (``action_undone``) naming the version it undoes;
the fold skips undone events, and the history keeps both.

Nothing here knows a game's rules: table sizes, placements and the start of a game come from the
game type (games.gametypes), looked up by the tournament's ``game_type``.

The package is one room per part: ``state`` (the data and the event kinds), ``fold`` (applying
events), ``snapshot`` (the stored JSON), ``decisions`` (checking actions). Callers import from
here.
"""

from __future__ import annotations

from tournaments.domain.decisions import (
    MAX_TOURNAMENT_NAME,
    check_can_pair,
    check_clock,
    check_close,
    check_confirm,
    check_drop_at_open_table,
    check_finish,
    check_publish,
    check_settings,
    check_undo,
    decide_player_change,
    decide_register,
    decide_role,
    decide_swap,
    open_table,
    seated_players,
    undo_refusals,
)
from tournaments.domain.fold import (
    PLAYERS_MARKED,
    STANDINGS_UNCHANGED,
    _labels,
    apply,
    apply_event,
    fold,
)
from tournaments.domain.snapshot import SNAPSHOT_SCHEMA, SnapshotVersionError, from_json, to_json
from tournaments.domain.state import (
    CHECKED_IN,
    CHECKED_OUT,
    CLOCK_SET,
    CONFIRMATION_MODES,
    CREATED,
    DROPPED,
    FINISHED,
    MAX_NAME,
    ORGANIZER,
    PAIRED,
    PAIRING_CHANGED,
    PAIRING_MODES,
    PUBLISH_MODES,
    PUBLISHED,
    REGISTERED,
    REINSTATED,
    RESULT_CONFIRMED,
    RESULT_RECORDED,
    RESULT_WITHDRAWN,
    ROLE_GRANTED,
    ROLE_REVOKED,
    ROLES,
    ROUND1_METHODS,
    ROUND_CLOSED,
    SCHEDULED,
    SCOREKEEPER,
    SETTINGS_CHANGED,
    UNDOABLE,
    UNDONE,
    Placement,
    Player,
    Refusal,
    Round,
    Settings,
    Table,
    TournamentState,
)

__all__ = [
    "ORGANIZER",
    "SCOREKEEPER",
    "CHECKED_IN",
    "CLOCK_SET",
    "CHECKED_OUT",
    "CONFIRMATION_MODES",
    "CREATED",
    "DROPPED",
    "FINISHED",
    "MAX_NAME",
    "MAX_TOURNAMENT_NAME",
    "PAIRED",
    "PAIRING_CHANGED",
    "PAIRING_MODES",
    "PLAYERS_MARKED",
    "PUBLISHED",
    "PUBLISH_MODES",
    "Placement",
    "Player",
    "REGISTERED",
    "REINSTATED",
    "RESULT_CONFIRMED",
    "RESULT_RECORDED",
    "RESULT_WITHDRAWN",
    "ROLES",
    "ROLE_GRANTED",
    "ROLE_REVOKED",
    "ROUND1_METHODS",
    "ROUND_CLOSED",
    "Refusal",
    "Round",
    "SCHEDULED",
    "SETTINGS_CHANGED",
    "SNAPSHOT_SCHEMA",
    "STANDINGS_UNCHANGED",
    "Settings",
    "SnapshotVersionError",
    "Table",
    "TournamentState",
    "UNDOABLE",
    "UNDONE",
    "_labels",
    "apply",
    "apply_event",
    "check_can_pair",
    "check_clock",
    "check_close",
    "check_confirm",
    "check_finish",
    "check_publish",
    "check_settings",
    "check_drop_at_open_table",
    "check_undo",
    "open_table",
    "undo_refusals",
    "decide_player_change",
    "decide_register",
    "decide_role",
    "decide_swap",
    "fold",
    "from_json",
    "seated_players",
    "to_json",
]

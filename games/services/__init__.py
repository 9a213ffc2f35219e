"""Game services: every change to a game, each in one transaction (HackSoft-style services).

Each write: (1) an idempotency key seen before returns the first result and writes nothing;
(2) the projection is read and the expected version compared; (3) the game type's referee checks
the new events against the current state; (4) the events are appended; (5) the projection is
updated from the engine incrementally (a full replay only after a correction, a void or a
results entry). Any refusal leaves the log and the projections exactly as they were.

Views call these and map :class:`GameError` codes to HTTP statuses; they never touch models.

The package is one room per responsibility: ``writes`` (the changes), ``reads`` (projections,
logs and records, with hidden hands), ``maintenance`` (rebuild and compare projections),
``errors`` (the refusals), ``common`` (what they share). Callers import from here.
"""

from __future__ import annotations

from games.services.common import MAX_KEY, MAX_NAME, GameChange, User
from games.services.corrections import game_correct_results
from games.services.errors import (
    Conflict,
    GameError,
    GameNotFound,
    KeyReused,
    NotAllowed,
    Overtaken,
    Refused,
)
from games.services.maintenance import (
    Difference,
    Digest,
    Rebuilder,
    as_stored,
    projections_digest,
    projections_rebuild,
    rebuild_all,
    register_digest,
    register_rebuilder,
    stream_origin,
    streams_projected,
)
from games.services.poll import SeatPoll, seat_poll
from games.services.reads import (
    ShownEvent,
    game_check_write,
    game_events,
    game_export_record,
    game_get,
    game_get_seen,
    game_list,
    game_may_export,
    game_placements_at,
    game_play_statistics,
    game_sees_hands,
    game_view,
    log_read,
)
from games.services.seats import (
    SeatLinkView,
    has_phones,
    seat_link_reissue,
    seat_link_revoke,
    seat_link_share,
    seat_links,
    seat_links_issue,
    seat_links_of,
    seat_open,
)
from games.services.undo import (
    SeatUndo,
    UndoRequest,
    game_undo_requests,
    seat_undo,
    seat_undo_options,
    seat_undo_request,
    undo_request_answer,
)
from games.services.writes import (
    QUEUED_EARLY,
    game_append,
    game_correct,
    game_create,
    game_enter_results,
    game_import_record,
    game_publish,
    game_void,
)

__all__ = [
    "SeatUndo",
    "UndoRequest",
    "game_undo_requests",
    "seat_undo",
    "seat_undo_options",
    "seat_undo_request",
    "undo_request_answer",
    "SeatPoll",
    "seat_poll",
    "QUEUED_EARLY",
    "Conflict",
    "Overtaken",
    "Difference",
    "Digest",
    "GameChange",
    "GameError",
    "GameNotFound",
    "KeyReused",
    "MAX_KEY",
    "MAX_NAME",
    "NotAllowed",
    "Rebuilder",
    "Refused",
    "SeatLinkView",
    "ShownEvent",
    "User",
    "as_stored",
    "game_append",
    "game_check_write",
    "game_correct",
    "game_correct_results",
    "game_create",
    "game_enter_results",
    "game_events",
    "game_export_record",
    "game_get",
    "game_get_seen",
    "game_import_record",
    "game_list",
    "game_may_export",
    "game_publish",
    "game_sees_hands",
    "game_placements_at",
    "game_play_statistics",
    "game_view",
    "game_void",
    "log_read",
    "projections_digest",
    "projections_rebuild",
    "rebuild_all",
    "register_digest",
    "register_rebuilder",
    "seat_link_reissue",
    "seat_link_revoke",
    "seat_link_share",
    "seat_links",
    "seat_links_issue",
    "has_phones",
    "seat_links_of",
    "seat_open",
    "stream_origin",
    "streams_projected",
]

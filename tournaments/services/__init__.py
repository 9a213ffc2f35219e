"""Tournament services: every organizer action is an event in the tournament's stream.

Each service: lock the tournament's row, check who is asking (roles are events too), let the
domain decide (tournaments.domain), append to the stream (games.store, optimistic), fold the new
events into the state and save the projections, all in one transaction
(:mod:`tournaments.services.writes`). Games for a published round are created through
games.services; their results come back through the games' outbox of status changes
(:mod:`games.outbox`), handled by :func:`tournament_sync_pending`
(:mod:`tournaments.services.sync`) in a Celery task nudged at each change and swept
periodically.

Without ``expected_version`` a service re-reads and re-decides on a concurrent change (up to a
few times), which suits the organizer's buttons and the background tasks; with it, a concurrent
change is a :class:`~games.services.Conflict` the client handles.

The package, one module per responsibility:

- :mod:`~tournaments.services.writes`: the shared write path (lock, decide, append, save).
- :mod:`~tournaments.services.snapshots`: the deciding state (snapshot + tail, cached).
- :mod:`~tournaments.services.access`: who may do what, what the public sees.
- :mod:`~tournaments.services.summary`: the tournament as the API and the pages show it.
- :mod:`~tournaments.services.setup`: creating a tournament, changing its settings.
- :mod:`~tournaments.services.players`: registration, check-in, drops, roles.
- :mod:`~tournaments.services.rounds`: pairing, publishing, closing, advancing, undo.
- :mod:`~tournaments.services.seats`: the tables' seat links, for the organizers.
- :mod:`~tournaments.services.sync`: game results reaching the tournament, confirmations.
- :mod:`~tournaments.services.reads`: reads for the pages and the API (standings kept current).
- :mod:`~tournaments.services.rebuild`: rebuilding and fingerprinting the projections.
- :mod:`~tournaments.services.codes`: the tournaments' short addresses (/t/<code>/).

Callers use the names exported here (``services.tournament_*``), not the modules.
"""

from __future__ import annotations

from games.services import Conflict, GameError, GameNotFound, NotAllowed, Refused
from tournaments.services.access import downloads_allowed, standings_visible
from tournaments.services.codes import (
    short_code_assign,
    short_codes_backfill,
    tournament_by_short_code,
    tournament_short_code,
)
from tournaments.services.players import (
    parse_player_list,
    tournament_check_in,
    tournament_check_out,
    tournament_drop,
    tournament_register,
    tournament_reinstate,
    tournament_set_role,
)
from tournaments.services.reads import (
    TournamentRead,
    public_standings,
    tournament_check_downloads,
    tournament_get,
    tournament_get_with_standings,
    tournament_history,
    tournament_list,
    tournament_of_game,
    tournament_public_version,
    tournament_standings,
    tournament_state,
    tournament_version,
    tournaments_held,
)
from tournaments.services.rebuild import tournaments_digest, tournaments_rebuild
from tournaments.services.rounds import (
    ALREADY_DONE,
    tournament_advance,
    tournament_close_round,
    tournament_finish,
    tournament_pair,
    tournament_publish,
    tournament_run_schedules,
    tournament_schedule,
    tournament_set_clock,
    tournament_set_delay,
    tournament_swap,
    tournament_undo,
)
from tournaments.services.seats import (
    SEAT_ACTIONS,
    SeatAction,
    tournament_seat_link_change,
    tournament_seat_links,
)
from tournaments.services.setup import (
    SETTINGS_ANY_TIME,
    SETTINGS_BEFORE_START,
    tournament_change_settings,
    tournament_create,
)
from tournaments.services.sync import (
    SYNC_BATCH,
    ConfirmedTables,
    tournament_confirm,
    tournament_confirm_finished,
    tournament_sync_game,
    tournament_sync_pending,
)
from tournaments.services.writes import (
    ATTEMPTS,
    TournamentChange,
    TournamentNotFound,
    _projection,
)

__all__ = [
    "ALREADY_DONE",
    "ATTEMPTS",
    "SEAT_ACTIONS",
    "SETTINGS_ANY_TIME",
    "SETTINGS_BEFORE_START",
    "SYNC_BATCH",
    "ConfirmedTables",
    "Conflict",
    "GameError",
    "GameNotFound",
    "NotAllowed",
    "Refused",
    "SeatAction",
    "TournamentChange",
    "TournamentNotFound",
    "_projection",
    "downloads_allowed",
    "parse_player_list",
    "short_code_assign",
    "short_codes_backfill",
    "standings_visible",
    "tournament_advance",
    "tournament_by_short_code",
    "tournament_change_settings",
    "tournament_check_downloads",
    "tournament_check_in",
    "tournament_check_out",
    "tournament_close_round",
    "tournament_confirm",
    "tournament_confirm_finished",
    "tournament_create",
    "tournament_drop",
    "tournament_finish",
    "TournamentRead",
    "tournament_get",
    "tournament_get_with_standings",
    "tournament_history",
    "tournament_list",
    "tournament_of_game",
    "tournament_pair",
    "tournament_publish",
    "tournament_register",
    "tournament_reinstate",
    "tournament_run_schedules",
    "tournament_schedule",
    "tournament_set_clock",
    "tournament_set_delay",
    "tournament_seat_link_change",
    "tournament_seat_links",
    "tournament_set_role",
    "tournament_short_code",
    "tournament_standings",
    "tournament_state",
    "tournament_swap",
    "tournament_sync_game",
    "tournament_sync_pending",
    "tournament_undo",
    "public_standings",
    "tournament_public_version",
    "tournament_version",
    "tournaments_held",
    "tournaments_digest",
    "tournaments_rebuild",
]

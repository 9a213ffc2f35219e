"""What a tournament is at a version: its settings, players, rounds and roles (pure data), the
event kinds and the refusal a decision raises."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from tournaments.domain.words import ENGLISH, Say, gettext_lazy, said
from tournaments.results import Placement

CREATED: Final = "tournament_created"
SETTINGS_CHANGED: Final = "settings_changed"
REGISTERED: Final = "player_registered"
CHECKED_IN: Final = "player_checked_in"
CHECKED_OUT: Final = "player_checked_out"
DROPPED: Final = "player_dropped"
REINSTATED: Final = "player_reinstated"
ROLE_GRANTED: Final = "role_granted"
ROLE_REVOKED: Final = "role_revoked"
PAIRED: Final = "round_paired"
PAIRING_CHANGED: Final = "pairing_changed"
PUBLISHED: Final = "round_published"
SCHEDULED: Final = "pairing_scheduled"
CLOCK_SET: Final = "round_clock_set"
DELAY_SET: Final = "round_delay_set"
RESULT_RECORDED: Final = "result_recorded"
RESULT_WITHDRAWN: Final = "result_withdrawn"
RESULT_CONFIRMED: Final = "result_confirmed"
ROUND_CLOSED: Final = "round_closed"
FINISHED: Final = "tournament_finished"
UNDONE: Final = "action_undone"

ORGANIZER, SCOREKEEPER = "organizer", "scorekeeper"
ROLES: Final = (ORGANIZER, SCOREKEEPER)

PAIRING_MODES: Final = ("manual", "auto", "scheduled")
PUBLISH_MODES: Final = ("manual", "auto")
ROUND1_METHODS: Final = ("random", "order", "rating")
CONFIRMATION_MODES: Final = ("auto", "organizer", "second_person")
"""auto: a finished game's result counts at once. organizer: an organizer confirms it, or a
scorekeeper who did not enter that game. second_person: someone (organizer or scorekeeper) who
did not enter that game must confirm it."""

UNDOABLE: Final = frozenset(
    {
        REGISTERED,
        CHECKED_IN,
        CHECKED_OUT,
        DROPPED,
        REINSTATED,
        ROLE_GRANTED,
        ROLE_REVOKED,
        PAIRED,
        PAIRING_CHANGED,
        SCHEDULED,
        CLOCK_SET,
        DELAY_SET,
        RESULT_CONFIRMED,
        ROUND_CLOSED,
        FINISHED,
        SETTINGS_CHANGED,
    }
)

MAX_NAME = 100


class Refusal(Exception):
    """An action the tournament's rules do not allow now, in the organizer's words.

    ``say`` gives the words in the reader's language (``refusal.say(translator)``, see
    :mod:`tournaments.domain.words`); ``message`` is them in English. ``code`` never changes.
    """

    def __init__(self, code: str, say: Say | str) -> None:
        self.say: Say = said(say) if isinstance(say, str) else say
        self.message = self.say(ENGLISH)
        super().__init__(self.message)
        self.code = code


@dataclass
class Settings:
    name: str
    date: str
    rounds: int
    game_type: str
    scoring: str = "scaled"
    tiebreaks: tuple[str, ...] = ("victory_points", "opponents_average", "first_places")
    pairing: str = "manual"
    publish: str = "manual"
    round1: str = "random"
    confirmation: str = "organizer"
    check_in: bool = True
    bye_points: float | None = None
    seed: int = 0
    standings_hidden_from: int | None = None
    """From this round on the public does not see the standings, until they are revealed."""
    standings_revealed: bool = False
    downloads_released: bool = False
    """CSV and record downloads are public once the organizer releases them."""
    rank_not_checked_in: bool = False
    """Rank players who never checked in and have played no game (by default, when the
    tournament uses check-in, they are listed apart from the standings)."""
    table_size: int | None = None
    """The organizer's preferred table size, one of the game type's sizes (None: the game's
    largest). Tables of this size are "full"; the next smaller size the game allows fills in."""
    relay_delay: int = 0
    """How many seconds spectators wait to see a table's plays and results (0 to 3600: the
    relay's delay, docs/relay.md); a round may have its own (``Round.delay``)."""
    time_zone: str | None = None
    """The club's time zone (an IANA name such as ``Europe/Paris``) every time of this
    tournament is shown and typed in; None: the site's (settings.TIME_ZONE, TNC_TIME_ZONE)."""


@dataclass
class Player:
    id: str
    name: str
    order: int
    rating: int | None = None
    late: bool = False
    checked_in: bool = False
    dropped: bool = False
    members: tuple[str, ...] = ()
    """A team's players (a team game's entrant is a team); empty for a player."""

    def __post_init__(self) -> None:
        self.members = tuple(self.members)  # a list when read back from JSON


@dataclass
class Table:
    number: int
    seats: tuple[str, ...]
    game: str | None = None
    result: tuple[Placement, ...] | None = None
    result_version: int | None = None
    entered_by: tuple[int, ...] = ()
    confirmed_by: int | None = None
    confirmed: bool = False


@dataclass
class Round:
    number: int
    status: str  # proposed | published | closed
    tables: list[Table]
    byes: tuple[str, ...]
    method: str
    seed: int
    cost: dict[str, Any] = field(default_factory=dict)
    lower_bound: float = 0.0
    notes: tuple[dict[str, Any], ...] = ()
    """Codes with parameters (:mod:`tournaments.notes` turns them into words)."""
    scheduled_at: str | None = None
    ends_at: str | None = None
    """When the round's play ends (its clock, an ISO time), if the organizer set one."""
    details: list[dict[str, Any]] = field(default_factory=list)
    """Per table: standing spread, points spread, pairs who met before (transparency)."""
    delay: int | None = None
    """The relay's delay of this round in seconds (None: the tournament's ``relay_delay``)."""

    def table(self, number: int) -> Table:
        for table in self.tables:
            if table.number == number:
                return table
        raise Refusal(
            "unknown_table",
            gettext_lazy("round %(round)s has no table %(table)s", round=self.number, table=number),
        )

    @property
    def missing(self) -> list[int]:
        """Tables whose result does not count yet."""
        return [t.number for t in self.tables if not t.confirmed]


@dataclass
class TournamentState:
    version: int = 0
    settings: Settings | None = None
    status: str = "registration"  # registration | running | finished
    players: dict[str, Player] = field(default_factory=dict)
    roles: dict[int, set[str]] = field(default_factory=dict)
    usernames: dict[int, str] = field(default_factory=dict)
    rounds: list[Round] = field(default_factory=list)
    undone: set[int] = field(default_factory=set)
    scheduled: dict[int, str] = field(default_factory=dict)

    @property
    def config(self) -> Settings:
        if self.settings is None:
            raise Refusal("not_found", gettext_lazy("this stream is not a tournament"))
        return self.settings

    def player(self, player_id: str) -> Player:
        try:
            return self.players[player_id]
        except KeyError:
            raise Refusal(
                "unknown_player",
                gettext_lazy("there is no player %(player)s", player=repr(player_id)),
            ) from None

    def round(self, number: int) -> Round:
        if not 1 <= number <= len(self.rounds):
            raise Refusal(
                "unknown_round",
                gettext_lazy("round %(round)s has not been paired", round=number),
            )
        return self.rounds[number - 1]

    def relay_delay(self, number: int) -> int:
        """How many seconds spectators wait to see round ``number``'s tables: the round's own
        delay, else the tournament's."""
        rnd = self.rounds[number - 1] if 1 <= number <= len(self.rounds) else None
        if rnd is not None and rnd.delay is not None:
            return rnd.delay
        return self.config.relay_delay

    @property
    def last_round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def by_name(self, name: str) -> Player | None:
        folded = name.strip().casefold()
        return next((p for p in self.players.values() if p.name.casefold() == folded), None)

    def has_role(self, user_id: int | None, role: str) -> bool:
        return user_id is not None and role in self.roles.get(user_id, set())

    def table_of_game(self, game_id: str) -> tuple[Round, Table] | None:
        for rnd in self.rounds:
            for table in rnd.tables:
                if table.game == game_id:
                    return rnd, table
        return None

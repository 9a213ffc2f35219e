"""What the event store, the pages and the tournaments know of a game: the :class:`GameType`
protocol, and the game-neutral :class:`Placement` every game's result comes to.

The store and the tournament code never import a rules engine directly; they ask the game's type
(looked up by key in :data:`games.gametypes.GAME_TYPES`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class Placement:
    """One entrant's result in a finished game, the same for every game: the rank at the table
    (1, 1, 3 when two share first place), the game's points and the game's own tie-break values
    (higher is better, the same length at every table of the game)."""

    player: str
    """The entrant's name at the table (a team's name in a team game)."""
    seat: int
    rank: int
    points: int
    tiebreaks: tuple[int, ...] = ()
    round_scores: tuple[int, ...] = ()
    """The points of each round, where the game has a fixed number of rounds that score."""

    @property
    def total(self) -> int:
        """The game's points (Trick-n-Chef's word: the three rounds' total)."""
        return self.points

    @property
    def last_round(self) -> int | None:
        """Trick-n-Chef's tie-break (its first and only one); None for a game without one."""
        return self.tiebreaks[0] if self.tiebreaks else None


@dataclass(frozen=True, slots=True)
class StandingsRule:
    """How a tournament ranks this game's entrants over its rounds, as data the tournaments' pure
    rules read (tournaments.placement: they know no game by name). The words are English msgids
    marked with gettext_noop, translated where shown."""

    kind: str
    """``"match"`` (two entrants a table: a win, a draw or a loss) or ``"place"`` (placement
    points by place)."""
    tiebreaks: tuple[str, ...]
    """The standings' criteria after the points, in order (tournaments.placement's keys:
    ``point_difference``, ``points_scored``, ``game_tiebreaks``, ``game_points``,
    ``first_places``)."""
    game_points: tuple[str, str]
    """The title and description of the game's own points added up over the games."""
    entrant: str = "Player"
    """What the standings call an entrant (a column title: "Team" for a team game)."""
    points: str = "Points"
    """The title of the standings' points (placement points; a match game's match points)."""
    order: str = ""
    """How the game ranks its entrants, in words, for the new tournament's form (beside the
    tie-breaks it offers, which are the Swiss standings'): a clause with ``%(game)s``."""


@dataclass(frozen=True, slots=True)
class DemoTournament:
    """A game's tournament in the demo (tournaments.demo, what ``bin/run`` shows a new user):
    its name, its entrants (a team game's: each team's name -> its players) and the table size
    its pairing prefers (None: the tournament's own default)."""

    name: str
    entrants: Sequence[str] | Mapping[str, Sequence[str]]
    table_size: int | None = None


@dataclass(frozen=True, slots=True)
class Described:
    """A statistic's words in the active language (a game's ``statistics`` hook,
    games.statistics_words): made when asked, so every field is already translated."""

    label: str
    """What the figure is: "Tricks won", "Chefs taken: green Chef", "Score from seat 3"."""
    per: str
    """What its sample counts, as a column title: "Deals", "Coins placed", "Games"."""
    rate: bool
    """Whether ``value / sample`` is worth showing (tricks a deal; a share of coins placed)."""
    words: Callable[[int, int], str]
    """``(value, sample)`` -> the figure over its sample in words, plural-aware: "31 in 12
    deals", "31 за 12 раздач", "12ディールで31"."""

    def sample_words(self, value: int, sample: int) -> str:
        return self.words(value, sample)


class GameType(Protocol):
    key: str
    name: str
    table_sizes: tuple[int, ...]
    """The numbers of entrants a table may have (teams: 2, the two teams)."""
    teams: bool
    """Whether the entrants at a table are teams of named players."""
    team_members: tuple[int, int] | None
    """A team game: the fewest and the most players a team may have (None: not a team game)."""
    first_player_rule: bool
    """Whether a tournament table's round 1 is started by seat 1 (the pairing chose it) and the
    tournament checks it (Trick-n-Chef's ``round_started``); the other games have no such
    event."""
    record_types: frozenset[str]
    """The event types of this game's record format (what scorekeepers append)."""
    tiebreak_names: tuple[str, ...]
    """What the game's tie-break values (:attr:`Placement.tiebreaks`, in order) are, as English
    msgids marked with gettext_noop ("deal 3"); the pages translate them to say what split
    entrants equal on points (tournaments.public.presenters.tie_notes). Empty: the game has no
    tie-break (equal points share the place)."""
    standings_rule: StandingsRule | None
    """How a tournament ranks the game's entrants (None: by the victory points' totals and the
    tie-breaks of tournaments.standings, the Swiss standings the club has always used)."""
    tiebreak_as_last_round: bool
    """Whether the API, the exports and the tournament's summary give the game's one tie-break
    value as ``last_round`` (Trick-n-Chef's deal 3, as its results have always been given) rather
    than as ``tiebreaks``: a published field kept as it is."""
    refusals: str
    """The module of the game's refusal sentences (``games/<game>/refusals.py``: ``SENTENCES`` by
    code, and optionally ``NAMER`` and ``say_message``), imported by name by the shared lookup
    (games.refusals.say)."""
    api: str
    """The module of the game's API serializers (``games/<game>/api.py``: ``API``, a
    games.api.serializers.gameapi.GameAPI), imported by name by the shared serializers and the
    schema (games.api.serializers.gameapi.api_of)."""
    pages: str
    """The module of the game's web pages (table page, replay, score sheet): imported by name
    when a page is asked for (games.pages.pages_for), so the game types stay free of Django's
    views."""
    phone: str | None
    """The module of the game's seat-phone panel (``games/<game>/phone.py``: ``PANEL``, a
    games.phone.panel.Panel), imported by name by the phone frame (games.phone.panel.panel_for);
    None: the game has no phones yet, and its seat links open a page that says the table's
    scorekeeper enters it."""
    hands: str | None
    """The module of the game's rule of hidden hands (games/tricknchef/hands.py: ``CARD_TYPES``,
    ``ROUND_STARTED``, ``held_cards``, ``round_in_progress``, ``redact``, ``finished_rounds``):
    what a reader who is not one of the table's officials may not see while it is played,
    applied by games.services' reads; None: nothing in its record is secret."""
    queued_taps: str | None
    """The module of the game's rule for a tap its phones queued offline and sent late
    (``check_slot``: games/tricknchef/queue.py), read by games.services.game_append; None: its
    phones queue no taps."""
    statistics: str | None
    """The module of the words of the game's statistics (``games/<game>/statistics.py``:
    ``describe(code) -> Described | None``, ``describe_feat(code) -> str | None``,
    ``feat_round(code, round) -> str | None``), read through games.statistics_words; None: the
    game mines no statistics, and its codes are shown as they are."""
    demo: DemoTournament | None
    """The game's tournament in the demo, beside the club night of the default game (None:
    none)."""

    def start(self, players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
        """The record's first event (as its JSON object) for a new table. ``players``: the
        entrants' names in seat order; ``options``: the game's own (Trick-n-Chef's ``suits``,
        Crazy Kitchen's ``members`` of each team)."""
        ...

    def table_options(self, players: int) -> dict[str, Any]:
        """Options for ``start`` at a tournament table of this many entrants."""
        ...

    def new_state(self) -> Any: ...

    def parse(self, obj: Mapping[str, Any]) -> Any:
        """A record event from its JSON object; raises engine.RuleViolation."""
        ...

    def step(self, state: Any, event: Any) -> None:
        """Check and apply; raises engine.RuleViolation and leaves ``state`` as it was."""
        ...

    def encode(self, event: Any) -> dict[str, Any]:
        """The event's JSON object in canonical form (with its ``type``)."""
        ...

    def forced(self, state: Any) -> Any | None:
        """The next event when the rules leave its player no choice (None: a choice, or the
        game waits for no player)."""
        ...

    def read_record(self, data: bytes | str) -> list[Any]:
        """Parse and check a whole record file; raises engine.InvalidRecord at the first bad
        line."""
        ...

    def write_record(self, events: Sequence[Mapping[str, Any]]) -> str:
        """A record file from the events' JSON objects."""
        ...

    def snapshot(self, state: Any) -> dict[str, Any]: ...

    def restore(self, data: Mapping[str, Any]) -> Any: ...

    def summary(self, state: Any) -> dict[str, Any]:
        """The game's summary (what ``python -m engine replay`` prints), with ``players``: the
        entrants' names in seat order, and ``ranking`` once finished."""
        ...

    def finished(self, state: Any) -> bool: ...

    def results(self, state: Any, entry: Mapping[str, Any]) -> dict[str, Any]:
        """Check a results-only entry (the game's own shape) for the game started in ``state``;
        return the summary it gives (raises engine.RuleViolation)."""
        ...

    def placements(self, summary: Mapping[str, Any]) -> list[Placement]: ...

    def phone_seats(
        self, players: Sequence[str], summary: Mapping[str, Any]
    ) -> list[tuple[int, str]]:
        """The seats that get a phone (a seat link), as ``(seat, entrant)``: ``players`` in seat
        order, ``summary`` the game's as it stands. Most games give every seat one
        (:func:`every_seat`); a team game gives one per team (its head chef's), and none to a
        record its phones cannot enter."""
        ...

    def demo_record(self, seed: int, players: Sequence[str]) -> list[dict[str, Any]]:
        """A random legal whole game for a demo table the tournament started (``players``: its
        entrants in seat order): the events after its start, as JSON objects, with the table's
        names (the same for the same arguments)."""
        ...


def every_seat(players: Sequence[str]) -> list[tuple[int, str]]:
    """Every seat gets a phone (:meth:`GameType.phone_seats`' default)."""
    return list(enumerate(players, start=1))


def neutral_placements(summary: Mapping[str, Any], name_key: str = "player") -> list[Placement]:
    """The placements of a summary whose ``ranking`` is game-neutral already
    (``[{player, rank, points, tiebreaks}]``), seats from ``players``."""
    players = list(summary["players"])
    return [
        Placement(
            player=entry[name_key],
            seat=players.index(entry[name_key]) + 1,
            rank=entry["rank"],
            points=entry["points"],
            tiebreaks=tuple(entry.get("tiebreaks") or ()),
        )
        for entry in summary["ranking"]
    ]

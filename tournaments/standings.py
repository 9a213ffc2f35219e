"""Standings of a Swiss tournament: a pure computation (docs/standings.md).

Frozen input records in (players, game results, byes, settings), plain rows out. No ORM and no
Django: the tournament services read the models, build these records and call :func:`compute`.

How it counts:

- Tournament points come from each player's place at the table through a scoring preset
  (:data:`PRESETS`). Players who share a place split the points of the places they cover.
- All points are added up exactly (:class:`fractions.Fraction`), and ranking compares the exact
  values. The rows carry them as floats rounded to 2 decimals (half away from zero), ready to
  show: two rows can show the same figures and still have different ranks when the exact values
  differ beyond the second decimal. The rank is authoritative.
- Tie-breaks (:data:`TIEBREAKS`) are applied in the order the settings give; players equal on
  points and every tie-break share a rank (competition ranking: 1, 2, 2, 4) and are listed by
  name (ignoring case), then id.

Titles and descriptions (presets, tie-breaks, columns) are English msgids marked with
``gettext_noop``: they are stored as they are (the standings' JSON) and translated where they
are shown (``gettext(title)``, ``{% translate title %}``).

Wrong input raises :class:`StandingsError` (a :class:`ValueError` with a stable ``code``) whose
message is meant for the organizer as is.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tournaments.domain.words import gettext_noop
from tournaments.results import Placement

__all__ = [
    "PRESETS",
    "TIEBREAKS",
    "Bye",
    "GameResult",
    "Placement",
    "Player",
    "Preset",
    "Row",
    "Settings",
    "StandingsError",
    "TieBreak",
    "columns",
    "compute",
    "display",
    "table_points",
]


class StandingsError(ValueError):
    """Input the standings cannot be computed from, described in the organizer's words.

    ``code`` is stable (for services and tests); ``message`` is shown as is.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


# --- input records ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameResult:
    round: int
    table: int
    placements: tuple[Placement, ...]  # everyone at the table (2 or more players)


@dataclass(frozen=True, slots=True)
class Bye:
    round: int
    player: str


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str
    dropped: bool = False


@dataclass(frozen=True, slots=True)
class Settings:
    preset: str = "scaled"  # key of PRESETS
    tiebreaks: tuple[str, ...] = ("victory_points", "opponents_average", "first_places")
    bye_points: float | None = None  # None: the preset's average at the largest table seen
    bye_victory_points: int = 0


# --- output ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Row:
    rank: int
    player: str
    name: str
    dropped: bool
    points: float  # rounded to 2 decimals; ranking used the exact value
    tiebreaks: tuple[tuple[str, float], ...]  # (key, value) in the settings' order, rounded
    games: int
    byes: int
    first_places: int
    victory_points: int

    def value(self, key: str) -> str | int | float:
        """The value of the column ``key`` (one of the keys :func:`columns` returns)."""
        for tiebreak, value in self.tiebreaks:
            if tiebreak == key:
                return value
        if key in _ROW_COLUMNS:
            result: str | int | float = getattr(self, key)
            return result
        raise KeyError(key)


# --- scoring presets -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Preset:
    """A way to turn a place at a table into tournament points."""

    key: str
    name: str
    description: str
    rule: Callable[[int, int], Fraction]  # (place, table size) -> points, no shared places

    def points(self, place: int, size: int) -> Fraction:
        """Points for ``place`` (1 = first) at a table of ``size`` players, nobody sharing."""
        if size < 2:
            raise StandingsError("table_too_small", "a game needs at least 2 players")
        if not 1 <= place <= size:
            raise StandingsError(
                "bad_places", f"there is no place {place} at a table of {size} players"
            )
        return self.rule(place, size)

    def table(self, size: int) -> tuple[Fraction, ...]:
        """Points for places 1, 2, ..., ``size`` at a table of ``size`` players."""
        return tuple(self.points(place, size) for place in range(1, size + 1))

    def average(self, size: int) -> Fraction:
        """The average points of a table of ``size`` players (the default worth of a bye)."""
        return sum(self.table(size), Fraction(0)) / size


def _scaled(place: int, size: int) -> Fraction:
    return Fraction(6 * (size - place), size - 1)


def _wins(place: int, size: int) -> Fraction:
    return Fraction(1 if place == 1 else 0)


def _placement(place: int, size: int) -> Fraction:
    return Fraction(size - place)


PRESETS: dict[str, Preset] = {
    preset.key: preset
    for preset in (
        Preset(
            "scaled",
            gettext_noop("Scaled"),
            gettext_noop(
                "First place is worth 6 points and last place 0 at every table; the places "
                "between are evenly spaced (6, 4, 2, 0 with 4 players; 6, 3, 0 with 3). Fair "
                "between tables of different sizes: every table hands out 3 points per player on "
                "average."
            ),
            _scaled,
        ),
        Preset(
            "wins",
            gettext_noop("Wins"),
            gettext_noop(
                "1 point for first place, nothing for the other places. A win is worth the same "
                "at every table, but a win is easier at a small table: an average player expects "
                "1/3 of a point at a table of 3 and 1/4 at a table of 4."
            ),
            _wins,
        ),
        Preset(
            "placement",
            gettext_noop("Placement"),
            gettext_noop(
                "One point for every player finishing below you (3, 2, 1, 0 with 4 players; 2, "
                "1, 0 with 3). Simple, but it favours big tables: a win at a table of 4 is worth "
                "3 points and only 2 at a table of 3."
            ),
            _placement,
        ),
    )
}


def table_points(preset: str, places: Sequence[int]) -> list[Fraction]:
    """Points for each place of one table, in the order given; shared places split the points
    of the places they cover (two players sharing 1st at a table of 4 under "scaled" get
    (6 + 4) / 2 = 5 each)."""
    scoring = _preset(preset)
    problem = _places_problem(places)
    if problem is not None:
        raise StandingsError("bad_places", problem)
    shared = Counter(places)
    size = len(places)
    return [_split(scoring, size, place, shared[place]) for place in places]


def _split(preset: Preset, size: int, place: int, shared: int) -> Fraction:
    """Points of each of ``shared`` players sharing ``place``: they cover places ``place`` to
    ``place + shared - 1`` and split those places' points evenly."""
    covered = range(place, place + shared)
    return sum((preset.rule(p, size) for p in covered), Fraction(0)) / shared


def _places_problem(places: Sequence[int]) -> str | None:
    """What is wrong with these places for one table, or None if they are a competition ranking
    (1, 2, 3; 1, 1, 3; 1, 2, 2, 4; ...)."""
    size = len(places)
    if size < 2:
        return f"a game needs at least 2 players, this one has {size}"
    ordered = sorted(places)
    valid = all(
        place == index + 1 or (index > 0 and place == ordered[index - 1])
        for index, place in enumerate(ordered)
    )
    if valid:
        return None
    # The nearest valid reading: equal places stay shared, and each place is 1 + the number of
    # players strictly ahead (1, 1, 2 -> 1, 1, 3).
    suggestion = [1 + sum(1 for other in ordered if other < place) for place in ordered]
    return (
        f"places {_listing(ordered)} are not possible for {size} players: players who share a "
        f"place use up the places below it (did you mean {_listing(suggestion)}?)"
    )


def _listing(numbers: Sequence[int]) -> str:
    return ", ".join(str(n) for n in numbers)


# --- tie-breaks ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TieBreak:
    """A criterion that orders players equal on tournament points (higher is better)."""

    key: str
    title: str
    description: str


TIEBREAKS: dict[str, TieBreak] = {
    tiebreak.key: tiebreak
    for tiebreak in (
        TieBreak(
            "victory_points",
            gettext_noop("Victory points"),
            gettext_noop(
                "The game scores added up over all games (a bye adds the bye's victory points)."
            ),
        ),
        TieBreak(
            "opponents_average",
            gettext_noop("Opponents' average"),
            gettext_noop(
                "The average tournament points of the opponents met, each counted once per game "
                "played against them, with their current totals. 0 for a player with no game."
            ),
        ),
        TieBreak(
            "first_places",
            gettext_noop("First places"),
            gettext_noop("The number of games won (a shared first place counts)."),
        ),
        TieBreak(
            "games",
            gettext_noop("Games"),
            gettext_noop(
                "Games played (byes not included). Shown for information: it is not a default "
                "tie-break, since it would rank late entrants below everyone they tie with."
            ),
        ),
    )
}

_ROW_COLUMNS: dict[str, str] = {
    "rank": gettext_noop("Rank"),
    "name": gettext_noop("Player"),
    "points": gettext_noop("Points"),
}
_INFO_COLUMNS: dict[str, str] = {
    "victory_points": TIEBREAKS["victory_points"].title,
    "first_places": TIEBREAKS["first_places"].title,
    "games": TIEBREAKS["games"].title,
    "byes": gettext_noop("Byes"),
}
_ROW_COLUMNS.update(_INFO_COLUMNS)


def columns(settings: Settings) -> list[tuple[str, str]]:
    """(key, title) of every column to show, in order: rank, player, points, the tie-breaks in
    the settings' order, then victory points, first places, games and byes where they are not
    tie-breaks already. ``Row.value(key)`` gives a row's value for each."""
    tiebreaks = _tiebreaks(settings.tiebreaks)
    shown = [(key, _ROW_COLUMNS[key]) for key in ("rank", "name", "points")]
    shown += [(key, TIEBREAKS[key].title) for key in tiebreaks]
    shown += [(key, title) for key, title in _INFO_COLUMNS.items() if key not in tiebreaks]
    return shown


# --- the computation -------------------------------------------------------------------------


_BYE = "a bye"  # where a player with a bye "sits" (see _Count._seat)


@dataclass(slots=True)
class _Tally:
    """One player's running totals."""

    points: Fraction = Fraction(0)
    victory_points: int = 0
    games: int = 0
    byes: int = 0
    first_places: int = 0
    opponents_met: int = 0  # once per opponent per game
    tables_total: Fraction = Fraction(0)  # sum over games of the table's total points


def compute(
    players: Sequence[Player],
    results: Sequence[GameResult],
    byes: Sequence[Bye],
    settings: Settings,
) -> list[Row]:
    """The standings: one row per player, best first."""
    preset = _preset(settings.preset)
    tiebreaks = _tiebreaks(settings.tiebreaks)
    bye_points = _bye_points_setting(settings)
    count = _Count(players)
    largest = count.games(results, preset)
    if bye_points is None:
        bye_points = preset.average(max(largest, 2))
    count.byes(byes, bye_points, settings.bye_victory_points)
    count.opponents()
    return count.rows(tiebreaks)


class _Count:
    """The running totals of one computation. Games are counted in one pass (each table checked
    as it comes), then byes; opponents' averages once every player's points are known."""

    def __init__(self, players: Sequence[Player]) -> None:
        self.players = players
        self.label = _labeller(players)
        self.tallies = {player.id: _Tally() for player in players}
        self.seated: dict[tuple[int, str], str] = {}  # (round, player) -> "table 3" / "a bye"
        self.tables: list[list[_Tally]] = []  # the players of each game

    def games(self, results: Sequence[GameResult], preset: Preset) -> int:
        """Counts the games; returns the size of the largest table (0 with no games)."""
        tables_seen: set[tuple[int, int]] = set()
        shares: dict[tuple[int, ...], Counter[int]] = {}  # sorted places -> players per place
        split: dict[tuple[int, int, int], Fraction] = {}  # (size, place, shared) -> points
        largest = 0
        for result in results:
            where = f"table {result.table}"
            if (result.round, result.table) in tables_seen:
                raise StandingsError(
                    "duplicate_table", f"Round {result.round}, {where} has two results"
                )
            tables_seen.add((result.round, result.table))
            at_table = [self._seat(result.round, p.player, where) for p in result.placements]
            pattern = tuple(sorted(p.place for p in result.placements))
            counts = shares.get(pattern)
            if counts is None:
                problem = _places_problem(pattern)
                if problem is not None:
                    raise StandingsError("bad_places", f"Round {result.round}, {where}: {problem}")
                counts = shares[pattern] = Counter(pattern)
            size = len(pattern)
            largest = max(largest, size)
            for placement, tally in zip(result.placements, at_table, strict=True):
                place = placement.place
                shared = counts[place]
                points = split.get((size, place, shared))
                if points is None:
                    points = split[size, place, shared] = _split(preset, size, place, shared)
                tally.points += points
                tally.victory_points += placement.victory_points
                tally.games += 1
                tally.opponents_met += size - 1
                if place == 1:
                    tally.first_places += 1
            self.tables.append(at_table)
        return largest

    def byes(self, byes: Sequence[Bye], points: Fraction, victory_points: int) -> None:
        for bye in byes:
            tally = self._seat(bye.round, bye.player, _BYE)
            tally.points += points
            tally.victory_points += victory_points
            tally.byes += 1

    def _seat(self, round_no: int, player: str, where: str) -> _Tally:
        """The tally of ``player``, recorded as sitting at ``where`` ("table 3" or "a bye") in
        round ``round_no``: nobody sits twice in a round."""
        tally = self.tallies.get(player)
        if tally is None:
            if where == _BYE:
                problem = f"Round {round_no}: player {player!r} has a bye but is not registered"
            else:
                problem = f"Round {round_no}, {where}: player {player!r} is not registered"
            raise StandingsError("unknown_player", f"{problem} in this tournament")
        already = self.seated.get((round_no, player))
        if already is not None:
            name = self.label(player)
            if already == where == _BYE:
                problem = f"Round {round_no}: {name} has two byes"
            elif already == where:
                problem = f"Round {round_no}, {where}: {name} is listed twice"
            elif where == _BYE:
                problem = f"Round {round_no}: {name} has a bye and {already}"
            else:
                problem = f"Round {round_no}: {name} is at {where} and {already}"
            raise StandingsError("seated_twice", problem)
        self.seated[round_no, player] = where
        return tally

    def opponents(self) -> None:
        """Points are final: each player's opponents add up to the table's total less their
        own, so each table is summed once."""
        for at_table in self.tables:
            total = sum((tally.points for tally in at_table), Fraction(0))
            for tally in at_table:
                tally.tables_total += total

    def rows(self, tiebreaks: tuple[str, ...]) -> list[Row]:
        ranked: list[tuple[tuple[Fraction | int, ...], Player, _Tally]] = []
        for player in self.players:
            tally = self.tallies[player.id]
            values: dict[str, Fraction | int] = {
                "victory_points": tally.victory_points,
                "opponents_average": _opponents_average(tally),
                "first_places": tally.first_places,
                "games": tally.games,
            }
            ranked.append(((tally.points, *(values[key] for key in tiebreaks)), player, tally))
        ranked.sort(key=lambda entry: (tuple(-v for v in entry[0]), *_alphabetical(entry[1])))

        rows: list[Row] = []
        rank = 0
        previous: tuple[Fraction | int, ...] | None = None
        for position, (order, player, tally) in enumerate(ranked, start=1):
            if order != previous:
                rank, previous = position, order
            shown = zip(tiebreaks, order[1:], strict=True)
            rows.append(
                Row(
                    rank=rank,
                    player=player.id,
                    name=player.name,
                    dropped=player.dropped,
                    points=display(tally.points),
                    tiebreaks=tuple((key, display(value)) for key, value in shown),
                    games=tally.games,
                    byes=tally.byes,
                    first_places=tally.first_places,
                    victory_points=tally.victory_points,
                )
            )
        return rows


def _alphabetical(player: Player) -> tuple[str, str, str]:
    """Order of players sharing a rank: by name ignoring case, then as written, then by id."""
    return player.name.casefold(), player.name, player.id


def _opponents_average(tally: _Tally) -> Fraction:
    if tally.opponents_met == 0:
        return Fraction(0)
    return (tally.tables_total - tally.games * tally.points) / tally.opponents_met


def _bye_points_setting(settings: Settings) -> Fraction | None:
    """``settings.bye_points`` checked and exact, or None for the preset's default (the
    average points of a table of the largest size in the results; of 2 players while there
    are no results yet)."""
    if settings.bye_points is None:
        return None
    if not math.isfinite(settings.bye_points) or settings.bye_points < 0:
        raise StandingsError(
            "bad_bye_points",
            f"points for a bye must be a number of 0 or more, not {settings.bye_points}",
        )
    # Through the decimal text: a bye worth 0.1 counts as exactly 1/10.
    return Fraction(str(float(settings.bye_points)))


def _preset(key: str) -> Preset:
    preset = PRESETS.get(key)
    if preset is None:
        raise StandingsError(
            "unknown_preset",
            f"there is no scoring preset {key!r}; choose one of {_choices(PRESETS)}",
        )
    return preset


def _tiebreaks(keys: Sequence[str]) -> tuple[str, ...]:
    for index, key in enumerate(keys):
        if key not in TIEBREAKS:
            raise StandingsError(
                "unknown_tiebreak",
                f"there is no tie-break {key!r}; choose among {_choices(TIEBREAKS)}",
            )
        if key in keys[:index]:
            raise StandingsError(
                "duplicate_tiebreak", f"the tie-break {key!r} is listed more than once"
            )
    return tuple(keys)


def _choices(options: Iterable[str]) -> str:
    return ", ".join(repr(key) for key in options)


def _labeller(players: Sequence[Player]) -> Callable[[str], str]:
    """How messages name a player: by name, with the id when two players share the name.
    Also refuses two players with the same id."""
    names: dict[str, str] = {}
    for player in players:
        if player.id in names:
            raise StandingsError("duplicate_player", f"player id {player.id!r} is registered twice")
        names[player.id] = player.name
    homonyms = {name for name, count in Counter(names.values()).items() if count > 1}

    def label(player_id: str) -> str:
        name = names[player_id]
        return f"{name} ({player_id})" if name in homonyms else name

    return label


def display(value: Fraction | int) -> float:
    """Rounded to 2 decimals, halves away from zero (69/8 = 8.625 shows as 8.63)."""
    if isinstance(value, int):
        return float(value)
    # floor(|n/d| * 100 + 1/2) in integers (Fraction arithmetic is slow, and every figure of
    # every row goes through here)
    num, den = value.numerator, value.denominator
    hundredths = (200 * abs(num) + den) // (2 * den)
    return math.copysign(hundredths / 100, num) if hundredths else 0.0

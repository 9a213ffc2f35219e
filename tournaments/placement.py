"""Placement points and standings for every game type: a pure computation (docs/pairing.md,
"Placement points per game").

Every game hands the tournament the same game-neutral result per entrant at a table: a rank
(competition ranking: 1, 1, 3), the game's points and the game's own tie-break values
(:class:`Result`). This module turns those into placement points and ranks entrants over
rounds. Frozen records in, plain rows out; no Django, no ORM.

Two kinds of rule (:class:`GameRule`, each game type's as its type says: :func:`rule_of`):

- **match** (Crazy Kitchen, two entrants a table): a win, a draw (both rank 1) or a loss, worth
  :class:`MatchPoints` (2/1/0 by default); standings: match points, then point difference
  (points scored minus points conceded), then points scored.
- **place** (Food Truck, Chefs): placement points by place through a scale of
  :data:`tournaments.standings.PRESETS` ("scaled" by default: first 6, last 0, evenly spaced,
  at every table size); shared places split the points of the places they cover; standings:
  placement points, then the game's tie-break values (added up position by position, compared
  in order), then the game's points, then first places.

Entrants equal on everything share a rank (1, 2, 2, 4) and are listed by id. All sums are exact
(:class:`fractions.Fraction`). Wrong input raises :class:`tournaments.standings.StandingsError`
with a stable code and a message for the organizer.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction

from tournaments.domain.words import gettext_noop
from tournaments.standings import PRESETS, TIEBREAKS, StandingsError, TieBreak, table_points

__all__ = [
    "BYE_COUNTS",
    "MATCH",
    "PLACE",
    "Bye",
    "GameRule",
    "MatchPoints",
    "PlacementSettings",
    "Result",
    "Row",
    "TableResult",
    "bye_value",
    "columns",
    "criteria",
    "placement_points",
    "provide_rules",
    "ranked_here",
    "rule_of",
    "standings",
]

MATCH = "match"
PLACE = "place"


@dataclass(frozen=True, slots=True)
class GameRule:
    game: str
    """The game type's key (games.gametypes.GAME_TYPES)."""
    kind: str
    """:data:`MATCH` or :data:`PLACE`."""
    tiebreaks: tuple[str, ...]
    """The standings' tie-break keys after placement points, in order."""
    entrant: str = gettext_noop("Player")
    """What the standings call an entrant (a column title: "Team" for a team game)."""
    points: str = gettext_noop("Points")
    """The title of the standings' points (placement points; a match game's match points)."""
    game_points: TieBreak = TIEBREAKS["victory_points"]
    """The title and description of the game's own points, added up over the games."""


RuleSource = Callable[[str], GameRule | None]
"""The rule of a game type by its key (None: a game ranked by :mod:`tournaments.standings`),
as the game's type says it (games.gametypes, ``GameType.standings_rule``): provided at
start-up (tournaments.apps), so that this pure module names no game."""

_source: RuleSource = lambda game: None  # noqa: E731


def provide_rules(source: RuleSource) -> None:
    """Install where the games' rules come from (at start-up: TournamentsConfig.ready)."""
    global _source
    _source = source


def rule_of(game: str) -> GameRule | None:
    """The rule of a game type (None: the game is ranked by :mod:`tournaments.standings`)."""
    return _source(game)


def ranked_here(game: str) -> bool:
    """Whether this module ranks the game's entrants (a game type with a standings rule)."""
    return rule_of(game) is not None


OWN_POINTS: tuple[str, ...] = ("game_points", "points_scored")
"""The criteria that add up the game's own points: a place game's over its games, a match
game's over its matches; the game's rule names them (:attr:`GameRule.game_points`)."""

BYE_COUNTS: tuple[str, ...] = ("win", "draw", "loss")
"""What a bye may count as in a match game (:attr:`PlacementSettings.bye`)."""

_CRITERIA: dict[str, TieBreak] = {
    criterion.key: criterion
    for criterion in (
        TieBreak(
            "point_difference",
            gettext_noop("Point difference"),
            gettext_noop(
                "Points scored minus points conceded, over all matches (a bye adds nothing)."
            ),
        ),
        TieBreak(
            "game_tiebreaks",
            gettext_noop("Game tie-breaks"),
            gettext_noop(
                "The game's own tie-break values, added up over all games and compared in order."
            ),
        ),
        TieBreak(
            "first_places",
            gettext_noop("First places"),
            gettext_noop("The number of games won (a shared first place counts; a bye does not)."),
        ),
    )
}
_INFO: dict[str, str] = {
    "wins": gettext_noop("Wins"),
    "draws": gettext_noop("Draws"),
    "losses": gettext_noop("Losses"),
    "games": TIEBREAKS["games"].title,
    "byes": gettext_noop("Byes"),
}


_GAME_TIEBREAK_TITLES = (
    gettext_noop("Game tie-break 1"),
    gettext_noop("Game tie-break 2"),
    gettext_noop("Game tie-break 3"),
)


def criteria(game: str) -> tuple[TieBreak, ...]:
    """The standings' criteria after points, in the order they apply: key, title and
    description (English msgids, translated where shown)."""
    rule = game_rule(game)
    return tuple(
        # the game's own points added up (a match game's points scored), in the game's words
        replace(rule.game_points, key=key) if key in OWN_POINTS else _CRITERIA[key]
        for key in rule.tiebreaks
    )


def columns(game: str, width: int = 0) -> list[tuple[str, str]]:
    """(key, title) of every column to show, in order: rank, entrant, points, the criteria in
    their order, then the other figures (a match game's wins, draws and losses; games; byes).
    The game's own tie-breaks (``width`` values a result) show one column each
    (``game_tiebreak_1``, ...); none when the game has none."""
    rule = game_rule(game)
    shown = [("rank", gettext_noop("Rank")), ("name", rule.entrant), ("points", rule.points)]
    for criterion in criteria(game):
        if criterion.key == "game_tiebreaks":
            shown += [
                (f"game_tiebreak_{n}", _GAME_TIEBREAK_TITLES[min(n, 3) - 1])
                for n in range(1, width + 1)
            ]
        else:
            shown.append((criterion.key, criterion.title))
    info = ("wins", "draws", "losses", "games", "byes") if rule.kind == MATCH else ("games", "byes")
    shown += [(key, _INFO[key]) for key in info]
    return shown


# --- input records ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Result:
    """One entrant's game-neutral result at one table."""

    entrant: str
    rank: int
    """1 = first; shared ranks repeat (competition ranking 1, 1, 3)."""
    points: int
    """The game's points (Crazy Kitchen: the team's total; Food Truck: victory points; Chefs:
    the chef's position)."""
    tiebreaks: tuple[int, ...] = ()
    """The game's own tie-break values, higher is better, the same length at every table."""


@dataclass(frozen=True, slots=True)
class TableResult:
    round: int
    table: int
    results: tuple[Result, ...]


@dataclass(frozen=True, slots=True)
class Bye:
    round: int
    entrant: str


@dataclass(frozen=True, slots=True)
class MatchPoints:
    win: int = 2
    draw: int = 1
    loss: int = 0


@dataclass(frozen=True, slots=True)
class PlacementSettings:
    match_points: MatchPoints = field(default_factory=MatchPoints)
    """Match games: points for a win, a draw and a loss."""
    bye: str = "win"
    """Match games: a bye counts as a "win", a "draw" or a "loss" (points, and the count of
    wins/draws/losses); it adds nothing to point difference or points scored."""
    scale: str = "scaled"
    """Place games: the key of :data:`tournaments.standings.PRESETS`."""
    bye_points: Fraction | None = None
    """Place games: placement points for a bye; None: the scale's average at the largest
    table in the results (3 under "scaled" at any size). A bye adds no game points."""

    @classmethod
    def of(cls, scoring: str, bye_points: float | None) -> PlacementSettings:
        """From a tournament's settings: its scoring preset is the place games' scale, its
        points for a bye (a number of 0 or more, taken as written) the place games' bye; match
        games keep their defaults (2/1/0, a bye counts as a win)."""
        if bye_points is None:
            return cls(scale=scoring)
        if not math.isfinite(bye_points) or bye_points < 0:
            raise StandingsError(
                "bad_bye_points",
                f"points for a bye must be a number of 0 or more, not {bye_points}",
            )
        return cls(scale=scoring, bye_points=Fraction(str(float(bye_points))))


# --- output ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Row:
    rank: int
    entrant: str
    points: Fraction
    """Placement (or match) points, exact."""
    tiebreaks: tuple[tuple[str, Fraction | tuple[int, ...]], ...]
    """(key, value) in the game's order (see :class:`GameRule`)."""
    games: int
    byes: int
    wins: int
    """Match games: wins (a bye counted as a win included). Place games: first places (shared
    included)."""
    draws: int
    losses: int


# --- placement points of one table -----------------------------------------------------------


def game_rule(game: str) -> GameRule:
    rule = rule_of(game)
    if rule is None:
        raise StandingsError(
            "unknown_game", f"unknown game {game!r}: its type gives no placement rule"
        )
    return rule


def _check_match(table: TableResult) -> None:
    if len(table.results) != 2:
        raise StandingsError(
            "not_two_entrants",
            f"round {table.round}, table {table.table}: a match has 2 entrants, "
            f"not {len(table.results)}",
        )
    a, b = table.results
    expected = (1, 1) if a.points == b.points else (1, 2) if a.points > b.points else (2, 1)
    if (a.rank, b.rank) != expected:
        raise StandingsError(
            "rank_against_points",
            f"round {table.round}, table {table.table}: the ranks {a.rank} and {b.rank} do not "
            f"follow the points {a.points} and {b.points} (more points wins, equal is a draw)",
        )


def placement_points(
    game: str, table: TableResult, settings: PlacementSettings | None = None
) -> dict[str, Fraction]:
    """Points each entrant at ``table`` earns (by entrant id)."""
    settings = settings or PlacementSettings()
    rule = game_rule(game)
    ids = [r.entrant for r in table.results]
    if len(set(ids)) != len(ids):
        raise StandingsError(
            "entrant_twice", f"round {table.round}, table {table.table}: an entrant is listed twice"
        )
    if rule.kind == MATCH:
        _check_match(table)
        a, b = table.results
        mp = settings.match_points
        if a.rank == b.rank:
            return {a.entrant: Fraction(mp.draw), b.entrant: Fraction(mp.draw)}
        return {r.entrant: Fraction(mp.win if r.rank == 1 else mp.loss) for r in table.results}
    points = table_points(settings.scale, [r.rank for r in table.results])
    return dict(zip(ids, points, strict=True))


# --- standings over rounds -------------------------------------------------------------------


@dataclass(slots=True)
class _Tally:
    points: Fraction = Fraction(0)
    games: int = 0
    byes: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    scored: int = 0
    conceded: int = 0
    game_points: int = 0
    game_tiebreaks: list[int] = field(default_factory=list)


def bye_value(
    game: str, tables: Iterable[TableResult], settings: PlacementSettings | None = None
) -> Fraction:
    """What a bye is worth in ``game`` with these results: a match game's points for what the
    settings count a bye as; a place game's points for a bye, or the scale's average at the
    largest table of ``tables`` (2 entrants when there is none)."""
    settings = settings or PlacementSettings()
    rule = game_rule(game)
    tables = list(tables)
    if rule.kind == MATCH:
        mp = settings.match_points
        values = {"win": mp.win, "draw": mp.draw, "loss": mp.loss}
        if settings.bye not in values:
            raise StandingsError(
                "bad_bye", f"a bye counts as a win, a draw or a loss, not {settings.bye!r}"
            )
        return Fraction(values[settings.bye])
    if settings.bye_points is not None:
        return Fraction(settings.bye_points)
    if settings.scale not in PRESETS:
        raise StandingsError("unknown_preset", f"unknown scale {settings.scale!r}")
    largest = max((len(t.results) for t in tables), default=2)
    return PRESETS[settings.scale].average(max(largest, 2))


def standings(
    game: str,
    entrants: Iterable[str],
    tables: Iterable[TableResult],
    byes: Iterable[Bye] = (),
    settings: PlacementSettings | None = None,
) -> tuple[Row, ...]:
    """Rank ``entrants`` over every table result and bye given (any order)."""
    settings = settings or PlacementSettings()
    rule = game_rule(game)
    listed = list(entrants)
    if len(set(listed)) != len(listed):
        raise StandingsError("entrant_twice", "an entrant is listed twice")
    tally = {e: _Tally() for e in listed}
    table_list = sorted(tables, key=lambda t: (t.round, t.table))
    bye_list = sorted(byes, key=lambda b: (b.round, b.entrant))
    seen: Counter[tuple[int, str]] = Counter()
    widths = {len(r.tiebreaks) for t in table_list for r in t.results}
    if len(widths) > 1:
        raise StandingsError(
            "tiebreak_lengths", "every result of a game needs the same number of tie-break values"
        )
    width = widths.pop() if widths else 0
    for t in table_list:
        earned = placement_points(game, t, settings)
        for result in t.results:
            seen[(t.round, result.entrant)] += 1
            if result.entrant not in tally:
                raise StandingsError(
                    "unknown_entrant",
                    f"round {t.round}, table {t.table}: {result.entrant!r} is not an entrant",
                )
            mine = tally[result.entrant]
            mine.points += earned[result.entrant]
            mine.games += 1
            mine.game_points += result.points
            if not mine.game_tiebreaks:
                mine.game_tiebreaks = [0] * width
            for k, value in enumerate(result.tiebreaks):
                mine.game_tiebreaks[k] += value
            if rule.kind == MATCH:
                other = next(r for r in t.results if r is not result)
                mine.scored += result.points
                mine.conceded += other.points
                if result.rank == other.rank:
                    mine.draws += 1
                elif result.rank == 1:
                    mine.wins += 1
                else:
                    mine.losses += 1
            elif result.rank == 1:
                mine.wins += 1
    bye_points = bye_value(game, table_list, settings)
    for bye in bye_list:
        seen[(bye.round, bye.entrant)] += 1
        if bye.entrant not in tally:
            raise StandingsError(
                "unknown_entrant", f"round {bye.round}: {bye.entrant!r} (bye) is not an entrant"
            )
        mine = tally[bye.entrant]
        mine.points += bye_points
        mine.byes += 1
        if rule.kind == MATCH:
            counts = {"win": "wins", "draw": "draws", "loss": "losses"}
            attribute = counts[settings.bye]
            setattr(mine, attribute, getattr(mine, attribute) + 1)
    twice = sorted(key for key, count in seen.items() if count > 1)
    if twice:
        round_, entrant = twice[0]
        raise StandingsError(
            "entrant_twice_in_round", f"round {round_}: {entrant!r} has more than one result"
        )

    def values(e: str) -> tuple[tuple[str, Fraction | tuple[int, ...]], ...]:
        mine = tally[e]
        table: dict[str, Fraction | tuple[int, ...]] = {
            "point_difference": Fraction(mine.scored - mine.conceded),
            "points_scored": Fraction(mine.scored),
            "game_tiebreaks": tuple(mine.game_tiebreaks or [0] * width),
            "game_points": Fraction(mine.game_points),
            "first_places": Fraction(mine.wins),
        }
        return tuple((key, table[key]) for key in rule.tiebreaks)

    def key(e: str) -> tuple[object, ...]:
        return (tally[e].points, *(value for _, value in values(e)))

    order = sorted(listed, key=lambda e: e)
    order.sort(key=key, reverse=True)
    rows: list[Row] = []
    for position, e in enumerate(order, start=1):
        rank = rows[-1].rank if rows and key(rows[-1].entrant) == key(e) else position
        mine = tally[e]
        rows.append(
            Row(
                rank=rank,
                entrant=e,
                points=mine.points,
                tiebreaks=values(e),
                games=mine.games,
                byes=mine.byes,
                wins=mine.wins,
                draws=mine.draws,
                losses=mine.losses,
            )
        )
    return tuple(rows)

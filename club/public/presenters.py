"""The club's public pages' records: the season table by division, the league's rules in
words, ratings and rating changes as numbers in the reader's language, a game's statistics and
feats in its own words (games.statistics_words: the code itself while the game has none).
Made from club.services.reads' records; the words are said in the active language."""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import dataclass

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from club import domain, season
from club.services import reads
from games import statistics_words
from games.gametypes import GAME_TYPES
from games.places import place_words

MINUS = "\u2212"


def game_name(game_type: str) -> str:
    """The game's name, from the registry (an unknown key as it is)."""
    kind = GAME_TYPES.get(game_type)
    return kind.name if kind is not None else game_type


def decimal(value: float, digits: int = 1) -> str:
    """A number in the active language's format (its decimal separator), a minus sign for
    negatives."""
    text = number_format(round(abs(value), digits), digits)
    return f"{MINUS}{text}" if round(value, digits) < 0 else text


def signed(value: float, digits: int = 1) -> str:
    """A change: "+1.2", "−0.4", "0.0"."""
    if round(value, digits) > 0:
        return "+" + decimal(value, digits)
    return decimal(value, digits)


# --- the season --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cell:
    """One tournament's result of a member: nothing (did not take part), or place and points,
    counted or dropped."""

    played: bool
    place: str = ""
    points: int = 0
    counted: bool = True


@dataclass(frozen=True, slots=True)
class SeasonRow:
    rank: int | None
    shared: bool
    member: str
    name: str
    linked: bool
    """Hidden members have no public page: their row names them "Hidden member", unlinked."""
    total: int
    played: int
    cells: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class SeasonTable:
    anchor: str
    """The table's caption's id."""
    division: str
    rows: tuple[SeasonRow, ...]


@dataclass(frozen=True, slots=True)
class SeasonPage:
    tables: tuple[SeasonTable, ...]
    waiting: tuple[SeasonRow, ...]
    dropped_any: bool


def season_page(view: reads.SeasonView) -> SeasonPage:
    """The season's tables (one per division, in the league's order of divisions; the ranks are
    each division's, as club.season ranks them), and the members not ranked yet apart."""
    rules = view.league.rules
    order = [t.id for t in view.tournaments]

    def group(row: season.Row) -> str:
        return row.division if rules.divisions else ""

    counts: dict[tuple[str, int], int] = {}
    for row in view.rows:
        if row.rank is not None:
            counts[(group(row), row.rank)] = counts.get((group(row), row.rank), 0) + 1

    def shaped(row: season.Row) -> SeasonRow:
        results = {r.tournament: r for r in row.results}
        cells = tuple(
            Cell(True, place_words(r.place, False), r.points, r.counted)
            if (r := results.get(t)) is not None
            else Cell(False)
            for t in order
        )
        return SeasonRow(
            rank=row.rank,
            shared=row.rank is not None and counts.get((group(row), row.rank), 0) > 1,
            member=row.member,
            name=view.names.get(row.member, row.member),
            linked=row.member not in view.hidden,
            total=row.total,
            played=row.played,
            cells=cells,
        )

    groups: dict[str, list[SeasonRow]] = {d: [] for d in rules.divisions}
    waiting = []
    for row in view.rows:
        if row.rank is None:
            waiting.append(shaped(row))
        else:
            groups.setdefault(group(row), []).append(shaped(row))
    kept = [(d, rows) for d, rows in groups.items() if rows] or [("", [])]
    tables = tuple(
        SeasonTable(f"season-{n}", d, tuple(rows)) for n, (d, rows) in enumerate(kept, start=1)
    )
    dropped = any(not r.counted for row in view.rows for r in row.results)
    return SeasonPage(tables=tables, waiting=tuple(waiting), dropped_any=dropped)


def rule_sentences(rules: domain.LeagueRules, finished: int) -> list[str]:
    """The league's rules in words: which results count, who is ranked."""
    out = []
    if rules.best is None and not rules.drop_worst:
        out.append(_("Every result counts."))
    if rules.best is not None:
        out.append(
            ngettext(
                "Only each member's best %(best)s result counts.",
                "Only each member's best %(best)s results count.",
                rules.best,
            )
            % {"best": rules.best}
        )
    if rules.drop_worst:
        out.append(
            ngettext(
                "Each member's %(drop)s worst result is dropped.",
                "Each member's %(drop)s worst results are dropped.",
                rules.drop_worst,
            )
            % {"drop": rules.drop_worst}
        )
    if rules.best is not None or rules.drop_worst:
        limit = season.counted_limit(rules, finished)
        out.append(
            ngettext(
                "So far: the best %(limit)s of %(count)s finished tournament count.",
                "So far: the best %(limit)s of %(count)s finished tournaments count.",
                finished,
            )
            % {"limit": limit, "count": finished}
        )
    out.append(
        ngettext(
            "A member is ranked once they have taken part in %(count)s tournament; a missed "
            "tournament scores nothing.",
            "A member is ranked once they have taken part in %(count)s tournaments; a missed "
            "tournament scores nothing.",
            rules.min_events,
        )
        % {"count": rules.min_events}
    )
    return out


def points_table(rules: domain.LeagueRules) -> list[tuple[str, int]]:
    """(place in words, points) for every place the rules name."""
    return [(place_words(n, False), p) for n, p in enumerate(rules.points, start=1)]


def points_beyond(rules: domain.LeagueRules) -> str:
    last = len(rules.points)
    return ngettext(
        "A place after place %(last)s scores %(points)s point.",
        "A place after place %(last)s scores %(points)s points.",
        rules.points_beyond,
    ) % {"last": last, "points": rules.points_beyond}


# --- ratings -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatingLine:
    rank: int
    member: str
    name: str
    ordinal: str
    mu: str
    sigma: str
    games: int
    provisional: bool
    linked: bool


def rating_lines(
    rows: Sequence[reads.RatingRow], visible: Set[str] | None = None
) -> list[RatingLine]:
    return [
        RatingLine(
            rank=rank,
            member=r.member,
            name=r.name,
            ordinal=decimal(r.ordinal),
            mu=decimal(r.mu),
            sigma=decimal(r.sigma),
            games=r.games,
            provisional=r.provisional,
            linked=visible is None or r.member in visible,
        )
        for rank, r in enumerate(rows, start=1)
    ]


@dataclass(frozen=True, slots=True)
class StepLine:
    tournament: str
    tournament_name: str
    round: int
    table: int
    place: int
    size: int
    before: str
    after: str
    change: str
    up: bool


def step_lines(steps: Sequence[reads.RatingStep]) -> list[StepLine]:
    return [
        StepLine(
            tournament=s.tournament,
            tournament_name=s.tournament_name,
            round=s.round,
            table=s.table,
            place=s.place,
            size=s.size,
            before=decimal(s.ordinal_before),
            after=decimal(s.ordinal),
            change=signed(s.change),
            up=s.change >= 0,
        )
        for s in steps
    ]


@dataclass(frozen=True, slots=True)
class StatisticLine:
    code: str
    label: str
    words: str
    """The value over its sample, in the game's words: "31 in 12 deals"."""
    games: int


@dataclass(frozen=True, slots=True)
class FeatLine:
    code: str
    label: str
    value: int
    where: str | None
    """Where in the game, in its words ("deal 2"); None for a whole game's feat."""
    tournament_name: str


@dataclass(frozen=True, slots=True)
class GamePart:
    game_type: str
    name: str
    rating: RatingLine | None
    steps: tuple[StepLine, ...]
    statistics: tuple[StatisticLine, ...]
    feats: tuple[FeatLine, ...]


def member_games(view: reads.MemberView) -> list[GamePart]:
    out = []
    for g in view.games:
        kind = g.game_type
        rating = rating_lines([g.rating])[0] if g.rating is not None else None
        out.append(
            GamePart(
                game_type=g.game_type,
                name=game_name(g.game_type),
                rating=rating,
                steps=tuple(step_lines(g.steps)),
                statistics=tuple(
                    StatisticLine(
                        s.code,
                        statistics_words.label(kind, s.code),
                        statistics_words.sample_words(kind, s.code, s.value, s.sample),
                        s.games,
                    )
                    for s in g.statistics
                ),
                feats=tuple(
                    FeatLine(
                        code,
                        statistics_words.describe_feat(kind, code),
                        value,
                        statistics_words.feat_round(kind, code, rnd),
                        tournament,
                    )
                    for code, value, rnd, tournament in g.feats
                ),
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class RecordLine:
    code: str
    label: str
    value: int
    member: str
    name: str
    linked: bool
    tournament: str
    tournament_name: str
    where: str | None


@dataclass(frozen=True, slots=True)
class RecordGame:
    game_type: str
    name: str
    records: tuple[RecordLine, ...]


def record_games(records: Sequence[reads.ClubRecord], visible: Set[str]) -> list[RecordGame]:
    by_game: dict[str, list[RecordLine]] = {}
    for r in records:
        by_game.setdefault(r.game_type, []).append(
            RecordLine(
                code=r.code,
                label=statistics_words.describe_feat(r.game_type, r.code),
                value=r.value,
                member=r.member,
                name=r.name,
                linked=r.member in visible,
                tournament=r.tournament,
                tournament_name=r.tournament_name,
                where=statistics_words.feat_round(r.game_type, r.code, r.round),
            )
        )
    return [
        RecordGame(kind, game_name(kind), tuple(lines)) for kind, lines in sorted(by_game.items())
    ]

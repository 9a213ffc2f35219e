"""A season's table (pure): league rules applied to the places members took in the league's
tournaments (docs/season.md, "Leagues").

Each finished tournament of the league gives every member who took part (played at least one
game: a no-show takes no place) the points of their place (``LeagueRules.points``; a team's
place counts for each of its members). A member's results are the season's finished
tournaments, a tournament they missed counting as nothing; of these, at most
``K = min(best, M - drop_worst)`` count (M: the finished tournaments), the best first; the
others are dropped, missed ones before played ones. A member is ranked once they took part in
``min_events`` tournaments; ranked members are ordered by their total, then by their counted
results compared best first; members equal on both share a place (competition ranking).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from club.domain import LeagueRules


@dataclass(frozen=True, slots=True)
class SeasonTournament:
    id: str
    name: str
    date: str
    finished: bool


@dataclass(frozen=True, slots=True)
class Result:
    tournament: str
    place: int
    points: int
    counted: bool


@dataclass(frozen=True, slots=True)
class Row:
    rank: int | None
    """None: not ranked yet (fewer than the minimum events)."""
    member: str
    division: str
    total: int
    played: int
    results: tuple[Result, ...]
    """In the season's order of tournaments (date, then name)."""


def points_for(rules: LeagueRules, place: int) -> int:
    if 1 <= place <= len(rules.points):
        return rules.points[place - 1]
    return rules.points_beyond


def counted_limit(rules: LeagueRules, finished: int) -> int:
    limit = finished - rules.drop_worst
    if rules.best is not None:
        limit = min(limit, rules.best)
    return max(limit, 0)


def table(
    rules: LeagueRules,
    tournaments: Sequence[SeasonTournament],
    places: Mapping[str, Mapping[str, int]],
    divisions: Mapping[str, str] | None = None,
) -> list[Row]:
    """The season's rows. ``places``: tournament id -> {member id: place} for the members who
    took part; ``divisions``: member id -> division. Ranked rows first (by rank), then the
    members not ranked yet (by total); every row's division is its member's ("" for none)."""
    order = sorted(tournaments, key=lambda t: (t.date, t.name, t.id))
    finished = [t for t in order if t.finished]
    limit = counted_limit(rules, len(finished))
    members: set[str] = set()
    for t in finished:
        members.update(places.get(t.id, {}))
    rows: list[Row] = []
    for member in members:
        played = [(t, places[t.id][member]) for t in finished if member in places.get(t.id, {})]
        scored = [
            (points_for(rules, place), index, t.id) for index, (t, place) in enumerate(played)
        ]
        best_first = sorted(scored, key=lambda s: (-s[0], s[1]))
        counted_ids = {tid for _, _, tid in best_first[:limit]}
        results = tuple(
            Result(
                tournament=t.id,
                place=place,
                points=points_for(rules, place),
                counted=t.id in counted_ids,
            )
            for t, place in played
        )
        total = sum(r.points for r in results if r.counted)
        rows.append(
            Row(
                rank=None,
                member=member,
                division=(divisions or {}).get(member, ""),
                total=total,
                played=len(played),
                results=results,
            )
        )
    return _ranked(rows, rules)


def _key(row: Row) -> tuple[int, tuple[int, ...]]:
    counted = sorted((r.points for r in row.results if r.counted), reverse=True)
    return (-row.total, tuple(-p for p in counted))


def _ranked(rows: list[Row], rules: LeagueRules) -> list[Row]:
    ranked = sorted(
        (r for r in rows if r.played >= rules.min_events), key=lambda r: (_key(r), r.member)
    )
    waiting = sorted(
        (r for r in rows if r.played < rules.min_events), key=lambda r: (_key(r), r.member)
    )
    out: list[Row] = []
    by_division: dict[str, list[Row]] = {}
    for row in ranked:
        by_division.setdefault(row.division if rules.divisions else "", []).append(row)
    for group in by_division.values():
        previous: tuple[int, tuple[int, ...]] | None = None
        rank = 0
        for position, row in enumerate(group, start=1):
            key = _key(row)
            if key != previous:
                rank, previous = position, key
            out.append(_with_rank(row, rank))
    order = {d: i for i, d in enumerate(rules.divisions)}
    out.sort(key=lambda r: (order.get(r.division, len(order)), r.rank or 0, r.member))
    return out + waiting


def _with_rank(row: Row, rank: int) -> Row:
    return Row(
        rank=rank,
        member=row.member,
        division=row.division,
        total=row.total,
        played=row.played,
        results=row.results,
    )

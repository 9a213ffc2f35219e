"""The club's reads: leagues and their season tables, ratings, members' pages, the club's
records and the results the ratings come from. Public reads show a hidden member as hidden
(their games stay, their name does not); the club's officials see every name."""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.utils.translation import gettext as _

from club import domain, ratings, season
from club.models import GameFeat, GameStatistic, Member, MemberEntry, Rating, RatingChange
from club.services import sync
from club.services.state import CLUB_ID, club_state
from club.services.state import forget as forget_club
from games.models import Stream
from games.recent import Recent
from games.services import GameNotFound, User
from tournaments.models import TournamentProjection


def is_official(user: User | None) -> bool:
    return bool(user is not None and user.is_authenticated and getattr(user, "is_staff", False))


def shown_name(member: Member | None, *, official: bool = False) -> str:
    """How a page names a member: their display name, else their latest registered name;
    "Hidden member" for one hidden from public pages (unless the reader is an official)."""
    if member is None:
        return _("Unknown member")
    if member.hidden and not official:
        return _("Hidden member")
    return member.shown


def hidden_members() -> frozenset[str]:
    """The members hidden from public pages (the club's decision, as of now)."""
    return frozenset(club_state().hidden)


class LeagueNotFound(GameNotFound):
    """No league of that id (a 404)."""


class MemberNotFound(GameNotFound):
    """No member of that id, or one hidden from public pages (a 404)."""


# --- leagues ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LeagueTournament:
    id: str
    name: str
    date: str
    game_type: str
    status: str


@dataclass(frozen=True, slots=True)
class SeasonView:
    league: domain.League
    tournaments: tuple[LeagueTournament, ...]
    rows: tuple[season.Row, ...]
    names: Mapping[str, str]
    """member id -> the name pages show (hidden members as hidden)."""
    hidden: frozenset[str]
    generation: tuple[tuple[int, int], tuple[int, int, int]]
    """What the view was made from (club.services.reads.version): an ETag's matter."""


def league_list() -> list[domain.League]:
    return sorted(club_state().leagues.values(), key=lambda league: league.id)


def league_get(league_id: int) -> domain.League:
    found = club_state().leagues.get(league_id)
    if found is None:
        raise LeagueNotFound(_("there is no league %(league)s") % {"league": league_id})
    return found


_VERSION_SQL = (
    "SELECT e.version, e.id, p.generation, p.tx, p.event FROM (SELECT 1 AS one) AS one"
    " LEFT JOIN (SELECT version, id FROM games_event WHERE stream_id = %s"
    " ORDER BY version DESC LIMIT 1) AS e ON 1 = 1"
    " LEFT JOIN club_logposition AS p ON p.name = %s"
)


def version() -> tuple[tuple[int, int], tuple[int, int, int]]:
    """What every club page is made from, in one query (a page's ETag, asked at every visit):
    the club's stream (club.services.state.club_key) and where its consumer stands
    (club.services.sync.generation)."""
    stream = Stream._meta.pk.get_db_prep_value(CLUB_ID, connection)
    with connection.cursor() as cursor:
        cursor.execute(_VERSION_SQL, [stream, sync.NAME])
        row = cursor.fetchone()
    v, i, g, tx, e = (int(x or 0) for x in row)
    return (v, i), (g, tx, e)


_SEASONS: Recent[tuple[int, bool, tuple[tuple[int, int], tuple[int, int, int]]], SeasonView] = (
    Recent(64)
)


def forget() -> None:
    """Drop what this process keeps (the tests' rolled-back databases)."""
    _SEASONS.clear()
    forget_club()


def season_view(league_id: int, *, official: bool = False) -> SeasonView:
    """A league's season table now (kept per club version and consumer generation: the
    consumer's every write, and the club's every decision, make a new one)."""
    league = league_get(league_id)
    made = version()
    key = (league_id, official, made)
    kept = _SEASONS.get(key)
    if kept is not None:
        return kept
    # Finished for the season once its entries are too: the consumer made them from its final
    # standings as the public sees them (none while the relay's delay holds a result back).
    waiting = set(
        MemberEntry.objects.filter(tournament_id__in=list(league.tournaments), finished=False)
        .values_list("tournament_id", flat=True)
        .distinct()
    )
    tournaments = {
        str(t.stream_id): LeagueTournament(
            id=str(t.stream_id),
            name=t.name,
            date=t.date.isoformat(),
            game_type=t.game_type,
            status="running" if t.status == "finished" and t.stream_id in waiting else t.status,
        )
        for t in TournamentProjection.objects.filter(stream_id__in=league.tournaments).only(
            "stream_id", "name", "date", "game_type", "status"
        )
    }
    order = tuple(sorted(tournaments.values(), key=lambda t: (t.date, t.name, t.id)))
    places: dict[str, dict[str, int]] = defaultdict(dict)
    for tournament_id, member, place in MemberEntry.objects.filter(
        tournament_id__in=list(tournaments), place__isnull=False
    ).values_list("tournament_id", "member_id", "place"):
        best = places[str(tournament_id)].get(member)
        places[str(tournament_id)][member] = min(best or 999, int(place or 0))
    rows = season.table(
        league.rules,
        [season.SeasonTournament(t.id, t.name, t.date, t.status == "finished") for t in order],
        places,
        league.divisions,
    )
    members = {m.id: m for m in Member.objects.filter(id__in=[r.member for r in rows])}
    view = SeasonView(
        league=league,
        tournaments=order,
        rows=tuple(rows),
        names={r.member: shown_name(members.get(r.member), official=official) for r in rows},
        hidden=frozenset(m.id for m in members.values() if m.hidden),
        generation=made,
    )
    _SEASONS.put(key, view)
    return view


# --- ratings ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatingRow:
    member: str
    name: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    provisional: bool
    rank: int


def ratings_of(
    game_type: str, *, members: Sequence[str] | None = None, official: bool = False
) -> list[RatingRow]:
    """A game's ratings, best ordinal first (of these members only, if given)."""
    rows = Rating.objects.filter(game_type=game_type).select_related("member")
    if members is not None:
        rows = rows.filter(member_id__in=list(members))
    out = []
    for rank, r in enumerate(rows.order_by("-ordinal", "member_id"), start=1):
        out.append(
            RatingRow(
                member=r.member_id,
                name=shown_name(r.member, official=official),
                mu=r.mu,
                sigma=r.sigma,
                ordinal=r.ordinal,
                games=r.games,
                provisional=r.games < ratings.PROVISIONAL_GAMES,
                rank=rank,
            )
        )
    return out


def league_members(league: domain.League, game_type: str | None = None) -> list[str]:
    """The members who took part in the league's tournaments (of one game, if given)."""
    entries = MemberEntry.objects.filter(
        tournament_id__in=[uuid.UUID(t) for t in league.tournaments]
    )
    if game_type is not None:
        entries = entries.filter(game_type=game_type)
    return sorted(set(entries.values_list("member_id", flat=True)))


def league_game_types(league: domain.League) -> list[str]:
    return sorted(
        set(
            TournamentProjection.objects.filter(stream_id__in=league.tournaments).values_list(
                "game_type", flat=True
            )
        )
    )


def league_ratings(league_id: int, game_type: str, *, official: bool = False) -> list[RatingRow]:
    """The club's ratings of one game for the members who played it in the league (a rating
    is the club's: every rated game of that game counts, in the league or not)."""
    league = league_get(league_id)
    return ratings_of(game_type, members=league_members(league, game_type), official=official)


# --- members ---------------------------------------------------------------------------------


def member_get(member_id: str, *, official: bool = False) -> Member:
    """The member (a merged member's id gives the member they were merged into)."""
    found = Member.objects.filter(id=member_id).first()
    seen = set()
    while found is not None and found.merged_into and found.id not in seen:
        seen.add(found.id)
        found = Member.objects.filter(id=found.merged_into).first()
    if found is None or (found.hidden and not official):
        raise MemberNotFound(_("there is no member %(member)s") % {"member": member_id})
    return found


def member_list(*, official: bool = False) -> list[Member]:
    members = Member.objects.filter(merged_into="")
    if not official:
        members = members.filter(hidden=False)
    return list(members.order_by("name", "id"))


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    tournament: str
    tournament_name: str
    date: str
    game_type: str
    name: str
    team: str
    place: int | None
    games: int
    finished: bool
    player: str
    index: int


@dataclass(frozen=True, slots=True)
class Statistic:
    code: str
    value: int
    sample: int
    games: int


@dataclass(frozen=True, slots=True)
class RatingStep:
    seq: int
    game: str
    tournament: str
    tournament_name: str
    round: int
    table: int
    place: int
    size: int
    ordinal_before: float
    ordinal: float
    mu: float
    sigma: float
    games: int

    @property
    def change(self) -> float:
        return self.ordinal - self.ordinal_before


@dataclass(frozen=True, slots=True)
class MemberGame:
    game_type: str
    rating: RatingRow | None
    steps: tuple[RatingStep, ...]
    statistics: tuple[Statistic, ...]
    feats: tuple[tuple[str, int, int | None, str], ...]
    """(code, best value, round, tournament name)."""


@dataclass(frozen=True, slots=True)
class MemberView:
    member: Member
    name: str
    history: tuple[HistoryEntry, ...]
    games: tuple[MemberGame, ...]
    names: tuple[str, ...]
    """Every name the member registered under."""
    leagues: tuple[tuple[int, str], ...] = field(default=())


def member_view(member_id: str, *, official: bool = False) -> MemberView:
    """A member's page: history across tournaments and games, each game's rating with every
    rated game's change, the play log's statistics (summed, with their samples) and feats."""
    member = member_get(member_id, official=official)
    entries = list(
        MemberEntry.objects.filter(member=member)
        .select_related("tournament")
        .defer("tournament__state", "tournament__standings")  # big JSON, not shown here
        .order_by("-date", "tournament__name")
    )
    history = tuple(
        HistoryEntry(
            tournament=str(e.tournament_id),
            tournament_name=e.tournament.name,
            date=e.date.isoformat(),
            game_type=e.game_type,
            name=e.name,
            team=e.team,
            place=e.place,
            games=e.games,
            finished=e.finished,
            player=e.player,
            index=e.index,
        )
        for e in entries
    )
    names = {t.stream_id: t.name for t in (e.tournament for e in entries)}
    steps: dict[str, list[RatingStep]] = defaultdict(list)
    for c in RatingChange.objects.filter(member=member).order_by("game_type", "seq"):
        steps[c.game_type].append(
            RatingStep(
                seq=c.seq,
                game=str(c.game_id),
                tournament=str(c.tournament_id),
                tournament_name=names.get(c.tournament_id, ""),
                round=c.round,
                table=c.table,
                place=c.place,
                size=c.size,
                ordinal_before=c.mu_before - 3 * c.sigma_before,
                ordinal=c.mu - 3 * c.sigma,
                mu=c.mu,
                sigma=c.sigma,
                games=c.games,
            )
        )
    stats: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    for game_type, code, value, sample in GameStatistic.objects.filter(
        entry__member=member
    ).values_list("game_type", "code", "value", "sample"):
        total = stats[game_type][code]
        total[0] += value
        total[1] += sample
        total[2] += 1
    feats: dict[str, dict[str, tuple[int, int | None, str]]] = defaultdict(dict)
    for game_type, code, value, rnd, tournament in (
        GameFeat.objects.filter(entry__member=member)
        .order_by("-value")
        .values_list("game_type", "code", "value", "round", "entry__tournament__name")
    ):
        feats[game_type].setdefault(code, (value, rnd, tournament))
    kinds = sorted(set(steps) | set(stats) | {e.game_type for e in entries})
    games_ = tuple(
        MemberGame(
            game_type=kind,
            rating=next(
                (r for r in ratings_of(kind, official=official) if r.member == member.id), None
            )
            if kind in steps
            else None,
            steps=tuple(steps.get(kind, ())),
            statistics=tuple(
                Statistic(code, v[0], v[1], v[2]) for code, v in sorted(stats[kind].items())
            )
            if kind in stats
            else (),
            feats=tuple((code, *best) for code, best in sorted(feats[kind].items()))
            if kind in feats
            else (),
        )
        for kind in kinds
    )
    state = club_state()
    tournaments = {e.tournament for e in history}
    leagues = tuple(
        (league.id, league.name)
        for league in sorted(state.leagues.values(), key=lambda x: x.id)
        if tournaments.intersection(league.tournaments)
    )
    return MemberView(
        member=member,
        name=shown_name(member, official=official),
        history=history,
        games=games_,
        names=tuple(sorted({e.name for e in entries})),
        leagues=leagues,
    )


@dataclass(frozen=True, slots=True)
class Meeting:
    game: str
    game_type: str
    tournament: str
    tournament_name: str
    round: int
    table: int
    place: int
    other_place: int


@dataclass(frozen=True, slots=True)
class HeadToHead:
    member: Member
    other: Member
    meetings: tuple[Meeting, ...]

    @property
    def ahead(self) -> int:
        return sum(1 for m in self.meetings if m.place < m.other_place)

    @property
    def behind(self) -> int:
        return sum(1 for m in self.meetings if m.place > m.other_place)

    @property
    def level(self) -> int:
        return sum(1 for m in self.meetings if m.place == m.other_place)


def head_to_head(member_id: str, other_id: str, *, official: bool = False) -> HeadToHead:
    """Every rated game two members played at the same table, and who finished ahead."""
    member = member_get(member_id, official=official)
    other = member_get(other_id, official=official)
    theirs = {
        c.game_id: c.place
        for c in RatingChange.objects.filter(member=other).only("game_id", "place")
    }
    mine = (
        RatingChange.objects.filter(member=member, game_id__in=list(theirs))
        .select_related("tournament")
        .defer("tournament__state", "tournament__standings")
    )
    meetings = tuple(
        Meeting(
            game=str(c.game_id),
            game_type=c.game_type,
            tournament=str(c.tournament_id),
            tournament_name=c.tournament.name,
            round=c.round,
            table=c.table,
            place=c.place,
            other_place=theirs[c.game_id],
        )
        for c in mine.order_by("seq")
    )
    return HeadToHead(member=member, other=other, meetings=meetings)


# --- the club's records and the results export -----------------------------------------------


@dataclass(frozen=True, slots=True)
class ClubRecord:
    game_type: str
    code: str
    value: int
    member: str
    name: str
    tournament: str
    tournament_name: str
    round: int | None
    game: str


def club_records(*, official: bool = False) -> list[ClubRecord]:
    """Each feat's best value in the club (the earliest of equal bests), by game and code."""
    best: dict[tuple[str, str], ClubRecord] = {}
    feats = (
        GameFeat.objects.select_related("entry__member", "entry__tournament")
        .defer("entry__tournament__state", "entry__tournament__standings")
        .order_by("game_type", "code", "-value", "entry__date", "id")
    )
    for f in feats:
        key = (f.game_type, f.code)
        if key in best:
            continue
        best[key] = ClubRecord(
            game_type=f.game_type,
            code=f.code,
            value=f.value,
            member=f.entry.member_id,
            name=shown_name(f.entry.member, official=official),
            tournament=str(f.entry.tournament_id),
            tournament_name=f.entry.tournament.name,
            round=f.round,
            game=str(f.game_id),
        )
    return list(best.values())


def results_export(game_type: str | None = None) -> list[dict[str, Any]]:
    """The results the ratings are computed from, in rating order per game: each game's teams
    (members' ids) and places, from the tournaments' standing results and the entries (not
    from the ratings' own tables), so another tool can rate them again."""
    kinds = (
        [game_type]
        if game_type
        else sorted(set(MemberEntry.objects.values_list("game_type", flat=True)))
    )
    out: list[dict[str, Any]] = []
    for kind in kinds:
        found, where = sync.rated_games(kind)
        for game in found:
            tournament_id, data = where[game.game]
            out.append(
                {
                    "game_type": kind,
                    "seq": game.seq,
                    "game": game.game,
                    "tournament": str(tournament_id),
                    "round": int(data.get("round", 0)),
                    "table": int(data.get("table", 0)),
                    "rated": ratings.rateable(game),
                    "teams": [
                        {"members": list(team), "place": place}
                        for team, place in zip(game.teams, game.places, strict=True)
                    ],
                }
            )
    return out


def tournament_names(ids: Sequence[uuid.UUID | str]) -> dict[str, str]:
    return {
        str(k): v
        for k, v in TournamentProjection.objects.filter(stream_id__in=list(ids)).values_list(
            "stream_id", "name"
        )
    }

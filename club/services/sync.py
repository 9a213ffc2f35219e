"""The club's tracked consumer of the log: members' entries, ratings and play statistics kept
up to date from the tournaments' and the club's events, exactly once.

It reads the log in commit order after its position (club.models.LogPosition, ``club``), only
the event types that can change what the club shows (:data:`RELEVANT` and the club's own), and
in one transaction updates the projections and moves its position past what it handled. A
consumer killed half-way leaves the position where it was; two consumers take turns on the
position row's lock. A nudge (tournaments.signals.tournament_appended, the club's writes) runs
it at once; the beat's sweep (``club.sync``) catches whatever a lost nudge left.

Ratings are kept incrementally while results only arrive; a withdrawn or re-recorded result
(a correction) or a change of who an entry belongs to (a merge, a split) re-rates that game, or
every game, from scratch (club.ratings.rate_all), from the results the consumer has passed.

The relay's delay (docs/relay.md): the club shows no result before the public sees it. The
consumer stops before the first result the delay still holds back (its position stays there,
so nothing is lost and nothing handled twice, in the log's order) and the beat's sweep takes it
once it has reached the public; the entries are made from the tournament as the public sees it
(a tournament holding a result back is not finished for the club yet).
"""

from __future__ import annotations

import dataclasses
import uuid
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date as Date
from datetime import timedelta
from typing import Any, Final

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from club import domain, ratings
from club.models import (
    GameFeat,
    GameStatistic,
    LogPosition,
    Member,
    MemberEntry,
    Rating,
    RatingChange,
)
from club.services.state import CLUB_ID, club_state
from games import services as games
from games import store
from games.models import Event
from games.services.relay import LONGEST
from games.store import Cursor, cursor_of
from tournaments.models import TournamentProjection
from tournaments.services.reads import public_standings, tournaments_held
from tournaments.services.writes import _state as tournament_state_of

NAME: Final = "club"
RECORDED: Final = "result_recorded"
WITHDRAWN: Final = "result_withdrawn"
RELEVANT: Final = frozenset(
    {
        "tournament_created",
        "settings_changed",
        "player_registered",
        "player_checked_in",
        "player_checked_out",
        "player_dropped",
        "player_reinstated",
        RECORDED,
        WITHDRAWN,
        "result_confirmed",
        "round_closed",
        "tournament_finished",
        "action_undone",
    }
)
"""The tournament events that can change an entry, a place, a rating or a statistic."""
NUDGED_BY: Final = frozenset(
    {
        "player_registered",
        RECORDED,
        WITHDRAWN,
        "round_closed",
        "tournament_finished",
        "action_undone",
    }
)
"""The tournament events whose commit runs the consumer at once (a result, a registration, a
place made final); the others it follows wait for the next of these or the beat's sweep (a
check-in changes nothing the club shows until a result or the tournament's end does)."""
IDENTITY: Final = frozenset({"members_merged", "entry_assigned"})
FOLLOWED: Final = RELEVANT | frozenset(domain.EVENT_TYPES)
BATCH: Final = 2000


@dataclass
class SyncReport:
    events: int = 0
    tournaments: int = 0
    rated: int = 0
    rerated: set[str] = field(default_factory=set)

    def __str__(self) -> str:
        again = ", ".join(sorted(self.rerated)) or "none"
        return (
            f"{self.events} events, {self.tournaments} tournaments refreshed, "
            f"{self.rated} games rated, re-rated from scratch: {again}"
        )


def _position(*, lock: bool) -> LogPosition:
    rows = LogPosition.objects.all()
    if lock:
        rows = rows.select_for_update()
    found = rows.filter(name=NAME).first()
    if found is None:
        LogPosition.objects.get_or_create(name=NAME)
        found = rows.get(name=NAME)
    return found


def generation() -> tuple[int, int, int]:
    """Where the consumer stands (its writes counted, its position in the log): what the
    club's pages were made from (their cache key)."""
    found = LogPosition.objects.filter(name=NAME).values_list("generation", "tx", "event").first()
    return (int(found[0]), int(found[1]), int(found[2])) if found else (0, 0, 0)


def club_sync(*, limit: int = BATCH) -> SyncReport:
    """Handle what the log holds after the consumer's position (in batches of ``limit``
    events, each in its own transaction); what was done."""
    report = SyncReport()
    while True:
        with transaction.atomic():
            position = _position(lock=True)
            batch = store.read_all(
                after=Cursor(position.tx, position.event), limit=limit, types=FOLLOWED
            )
            read = len(batch)
            batch = _public(batch)
            if not batch:
                break
            _handle(batch, report)
            position.tx, position.event = batch[-1].tx_id, batch[-1].id
            position.generation += 1
            position.save()
        report.events += len(batch)
        if len(batch) < read or read < limit:
            break
    return report


def _public(batch: Sequence[Event]) -> list[Event]:
    """The batch up to (not including) the first result the relay's delay still holds back
    from the public (docs/relay.md): the rest waits for the sweep after it has reached it."""
    since = timezone.now() - timedelta(seconds=LONGEST)
    recent = {e.stream_id for e in batch if e.type == RECORDED and e.recorded_at > since}
    held = tournaments_held(sorted(recent, key=str)) if recent else {}
    if not held:
        return list(batch)
    for n, event in enumerate(batch):
        found = held.get(event.stream_id, {})
        if event.type == RECORDED and found.get(str(event.data.get("game"))) == event.data.get(
            "game_version"
        ):
            return list(batch[:n])
    return list(batch)


def _handle(batch: Sequence[Event], report: SyncReport) -> None:
    ids = {e.stream_id for e in batch}
    kinds = dict(
        TournamentProjection.objects.filter(stream_id__in=ids).values_list("stream_id", "game_type")
    )
    club = club_state()  # at least as new as the batch (its last committed event)
    mine = [e for e in batch if e.stream_id == CLUB_ID]
    ours = [e for e in batch if e.stream_id in kinds]
    identity = any(e.type in IDENTITY for e in mine)
    dirty = (
        set(TournamentProjection.objects.values_list("stream_id", flat=True))
        if identity
        else {e.stream_id for e in ours}
    )
    touched: set[str] = set()
    for tournament_id in sorted(dirty, key=str):
        touched |= refresh_entries(tournament_id, club)
    report.tournaments += len(dirty)
    if mine:  # the club's decisions may name, hide or merge anyone
        refresh_members(club)
    elif touched:
        refresh_members(club, only=touched)
    results = [e for e in ours if e.type in (RECORDED, WITHDRAWN)]
    again = set(rated_game_types()) if identity else _needs_rerating(results, kinds)
    report.rated += _rate_new(
        [e for e in results if e.type == RECORDED and kinds[e.stream_id] not in again], kinds
    )
    for game_type in sorted(again):
        report.rated += rerate(game_type, until=cursor_of(batch[-1]))
    report.rerated |= again
    final = {str(e.data.get("game")): e for e in results}  # each game as its result now stands
    games_touched = [uuid.UUID(game) for game in final]
    GameStatistic.objects.filter(game_id__in=games_touched).delete()
    GameFeat.objects.filter(game_id__in=games_touched).delete()
    for event in final.values():
        if event.type == RECORDED:
            _statistics(event, kinds[event.stream_id])


def rated_game_types() -> set[str]:
    """Every game type the club's tournaments play (a merge or a split re-rates them all)."""
    return set(TournamentProjection.objects.values_list("game_type", flat=True).distinct())


def _needs_rerating(results: Sequence[Event], kinds: Mapping[uuid.UUID, str]) -> set[str]:
    """The game types whose ratings an incremental step cannot keep: a result withdrawn, or
    recorded again for a game already rated (or twice in the batch)."""
    again: set[str] = set()
    seen: set[str] = set()
    recorded = [uuid.UUID(str(e.data.get("game"))) for e in results if e.type == RECORDED]
    rated = set(
        str(g)
        for g in RatingChange.objects.filter(game_id__in=recorded).values_list("game_id", flat=True)
    )
    for event in results:
        game = str(event.data.get("game"))
        if event.type == WITHDRAWN or game in rated or game in seen:
            again.add(kinds[event.stream_id])
        seen.add(game)
    return again


# --- entries and members ---------------------------------------------------------------------


def _names(player: Any) -> list[tuple[int, str, str]]:
    """An entrant's people: (index, name, team) -- a player alone, or a team's members."""
    if player.members:
        return [(i, name, player.name) for i, name in enumerate(player.members, start=1)]
    return [(0, player.name, "")]


def refresh_entries(tournament_id: uuid.UUID, club: domain.ClubState) -> set[str]:
    """A tournament's entries as its state and the club's decisions make them now; the
    members whose entries changed (before and after)."""
    projection = TournamentProjection.objects.filter(stream_id=tournament_id).first()
    if projection is None:
        return set()
    state = tournament_state_of(projection)
    if state.settings is None:
        return set()
    standings, held = public_standings(projection, state)  # as the public sees it
    rows = {str(r["player"]): r for r in standings.get("rows", [])}
    apart = {str(p["player"]) for p in standings.get("not_checked_in", [])}
    finished = state.status == "finished" and not held  # its final places are not out yet
    day = Date.fromisoformat(state.config.date)
    wanted: dict[tuple[str, int], dict[str, Any]] = {}
    for player in state.players.values():
        row = rows.get(player.id)
        played = int(row["games"]) if row else 0
        took_part = row is not None and player.id not in apart and (played or row["byes"])
        for index, name, team in _names(player):
            member = club.member_of((str(tournament_id), player.id, index), name)
            wanted[(player.id, index)] = {
                "name": name,
                "team": team,
                "member_id": member,
                "game_type": state.config.game_type,
                "date": day,
                "finished": finished,
                "place": int(row["rank"]) if took_part and row else None,
                "games": played,
            }
    known = set(
        Member.objects.filter(id__in={w["member_id"] for w in wanted.values()}).values_list(
            "id", flat=True
        )
    )
    Member.objects.bulk_create(
        [
            Member(id=w["member_id"], name=w["name"])
            for w in {w["member_id"]: w for w in wanted.values()}.values()
            if w["member_id"] not in known
        ]
    )
    existing = {
        (e.player, e.index): e for e in MemberEntry.objects.filter(tournament_id=tournament_id)
    }
    changed, new = [], []
    touched: set[str] = set()
    for key, values in wanted.items():
        entry = existing.pop(key, None)
        if entry is None:
            new.append(
                MemberEntry(tournament_id=tournament_id, player=key[0], index=key[1], **values)
            )
            touched.add(values["member_id"])
        elif any(getattr(entry, k) != v for k, v in values.items()):
            touched |= {entry.member_id, values["member_id"]}
            for k, v in values.items():
                setattr(entry, k, v)
            changed.append(entry)
    MemberEntry.objects.bulk_create(new)
    MemberEntry.objects.bulk_update(
        changed, list(next(iter(wanted.values()), {}).keys()) or ["name"]
    )
    if existing:
        touched |= {e.member_id for e in existing.values()}
        MemberEntry.objects.filter(id__in=[e.id for e in existing.values()]).delete()
    return touched


def refresh_members(club: domain.ClubState, only: set[str] | None = None) -> None:
    """Members' names (their latest entry's), display names, hidden flags and merges: every
    member's, or ``only`` these (the members whose entries changed)."""
    latest: dict[str, str] = {}
    entries = MemberEntry.objects.order_by("date", "tournament_id", "id")
    members = Member.objects.all()
    if only is not None:
        entries = entries.filter(member_id__in=sorted(only))
        members = members.filter(id__in=sorted(only))
    for member, name in entries.values_list("member_id", "name"):
        latest[member] = name
    changed = []
    orphans = []
    for m in members:
        values = {
            "name": latest.get(m.id, m.name),
            "display_name": club.display.get(m.id, ""),
            "hidden": m.id in club.hidden,
            "merged_into": club.canonical(m.id) if m.id in club.merged else "",
        }
        if m.id not in latest and not values["merged_into"]:
            orphans.append(m.id)
            continue
        if any(getattr(m, k) != v for k, v in values.items()):
            for k, v in values.items():
                setattr(m, k, v)
            changed.append(m)
    Member.objects.bulk_update(changed, ["name", "display_name", "hidden", "merged_into"])
    if orphans:  # a member left with no entry (split off entirely, or undone): gone
        RatingChange.objects.filter(member_id__in=orphans).delete()
        Member.objects.filter(id__in=orphans).delete()


# --- ratings ---------------------------------------------------------------------------------


People = dict[tuple[uuid.UUID, str], list[tuple[int, str]]]
"""(tournament id, entrant id) -> the entrant's (index, member id): who sat for an entrant."""


def _people(entries: Any) -> People:
    people: People = defaultdict(list)
    for tournament_id, player, index, member in entries.values_list(
        "tournament_id", "player", "index", "member_id"
    ):
        people[(tournament_id, player)].append((index, member))
    return people


def _numbered(
    game_type: str,
    results: Sequence[tuple[uuid.UUID, Mapping[str, Any]]],
    people: People,
    after: int = 0,
) -> tuple[list[ratings.RatedGame], dict[str, tuple[uuid.UUID, Mapping[str, Any]]]]:
    """Recorded results (tournament id, event data), in order, as games to rate: each game's
    teams of members and places, and its place in the ratings' order (after ``after``); a game
    that cannot be rated (club.ratings.rateable) takes no place: its ``seq`` is 0. Also where
    each game was played."""
    games_: list[ratings.RatedGame] = []
    where: dict[str, tuple[uuid.UUID, Mapping[str, Any]]] = {}
    seq = after
    for tournament_id, data in results:
        placements = data.get("placements", ())
        game = ratings.RatedGame(
            seq=0,
            game=str(data["game"]),
            game_type=game_type,
            teams=tuple(
                tuple(m for _, m in sorted(people.get((tournament_id, str(p["player"])), [])))
                for p in placements
            ),
            places=tuple(int(p["place"]) for p in placements),
        )
        if ratings.rateable(game):
            seq += 1
            game = dataclasses.replace(game, seq=seq)
        games_.append(game)
        where[game.game] = (tournament_id, data)
    return games_, where


def _rate_new(recorded: Sequence[Event], kinds: Mapping[uuid.UUID, str]) -> int:
    """New results (games not rated yet) rated incrementally, in the order they were recorded:
    per game type, its current ratings and the tournaments' entries read once and every change
    written together (a season's first sync, or a rebuild, rates thousands of games in a
    batch); the number of games rated."""
    by_type: dict[str, list[Event]] = defaultdict(list)
    for event in recorded:
        by_type[kinds[event.stream_id]].append(event)
    rated = 0
    for game_type, found in by_type.items():
        people = _people(MemberEntry.objects.filter(tournament_id__in={e.stream_id for e in found}))
        last = RatingChange.objects.filter(game_type=game_type).aggregate(s=Max("seq"))["s"] or 0
        numbered, where = _numbered(
            game_type, [(e.stream_id, e.data) for e in found], people, after=last
        )
        todo = [game for game in numbered if game.seq]
        members = {m for game in todo for team in game.teams for m in team}
        current = {
            r.member_id: ratings.Rating(mu=r.mu, sigma=r.sigma, games=r.games)
            for r in Rating.objects.filter(game_type=game_type, member_id__in=members)
        }
        model = ratings.Ratings(current)
        _write([c for game in todo for c in model.rate(game)], where)
        rated += len(todo)
    return rated


def _write(
    changes: Sequence[ratings.Change], where: Mapping[str, tuple[uuid.UUID, Mapping[str, Any]]]
) -> None:
    RatingChange.objects.bulk_create(
        [
            RatingChange(
                seq=c.seq,
                game_id=c.game,
                game_type=c.game_type,
                tournament_id=where[c.game][0],
                round=int(where[c.game][1].get("round", 0)),
                table=int(where[c.game][1].get("table", 0)),
                member_id=c.member,
                place=c.place,
                size=c.size,
                mu_before=c.before.mu,
                sigma_before=c.before.sigma,
                mu=c.after.mu,
                sigma=c.after.sigma,
                games=c.after.games,
            )
            for c in changes
        ],
        batch_size=2000,
    )
    final = {(c.game_type, c.member): c.after for c in changes}
    Rating.objects.bulk_create(
        [
            Rating(
                game_type=game_type,
                member_id=member,
                mu=r.mu,
                sigma=r.sigma,
                ordinal=r.ordinal,
                games=r.games,
            )
            for (game_type, member), r in final.items()
        ],
        update_conflicts=True,
        unique_fields=["game_type", "member"],
        update_fields=["mu", "sigma", "ordinal", "games"],
        batch_size=2000,
    )


def standing_results(
    until: Cursor | None = None,
) -> dict[str, tuple[uuid.UUID, Mapping[str, Any]]]:
    """Every game result that stands, by game id, in the order it was recorded (a result
    recorded again after a correction takes its new place): (tournament id, event data). As
    of ``until`` in the log, by default the consumer's position: the results it has taken in
    (never one the relay's delay still held back)."""
    if until is None:
        found = LogPosition.objects.filter(name=NAME).values_list("tx", "event").first()
        until = Cursor(*found) if found else store.START
    standing: dict[str, tuple[uuid.UUID, Mapping[str, Any]]] = {}
    events = (
        Event.objects.filter(type__in=(RECORDED, WITHDRAWN), stream__kind="tournament")
        .filter(Q(tx_id__lt=until.tx) | Q(tx_id=until.tx, id__lte=until.id))
        .order_by("tx_id", "id")
        .values_list("stream_id", "type", "data")
    )
    for tournament_id, kind, data in events.iterator(chunk_size=2000):
        game = str(data.get("game"))
        standing.pop(game, None)
        if kind == RECORDED:
            standing[game] = (tournament_id, data)
    return standing


def rated_games(
    game_type: str, until: Cursor | None = None
) -> tuple[list[ratings.RatedGame], dict[str, tuple[uuid.UUID, Mapping[str, Any]]]]:
    """The games of one type to rate, in order (a game that cannot be rated with ``seq`` 0),
    with where each was played: the results up to ``until`` in the log (standing_results)."""
    kinds = dict(TournamentProjection.objects.values_list("stream_id", "game_type"))
    people = _people(MemberEntry.objects.filter(game_type=game_type))
    results = [
        (tournament_id, data)
        for tournament_id, data in standing_results(until).values()
        if kinds.get(tournament_id) == game_type
    ]
    return _numbered(game_type, results, people)


def rerate(game_type: str, until: Cursor | None = None) -> int:
    """One game's ratings from scratch (the results up to ``until``, by default the consumer's
    position); the number of games rated."""
    found, where = rated_games(game_type, until)
    RatingChange.objects.filter(game_type=game_type).delete()
    Rating.objects.filter(game_type=game_type).delete()
    _, changes = ratings.rate_all(found)
    _write(changes, where)
    return len({c.game for c in changes})


# --- statistics ------------------------------------------------------------------------------


def _statistics(event: Event, game_type: str) -> None:
    """A recorded game's statistics and feats (what it had before is gone: _handle)."""
    data = event.data
    game = uuid.UUID(str(data.get("game")))
    version = data.get("game_version")
    if not isinstance(version, int):
        return
    mined = games.game_play_statistics(game_id=game, version=version)
    if not mined:
        return
    players = [str(p["player"]) for p in data.get("placements", ())]
    entries: dict[str, list[MemberEntry]] = defaultdict(list)
    for e in MemberEntry.objects.filter(tournament_id=event.stream_id, player__in=players):
        entries[e.name].append(e)
        if e.team:  # a team's figure counts for each of its members
            entries[e.team].append(e)
    stats: list[GameStatistic] = []
    feats: list[GameFeat] = []
    for name, found in mined.items():
        for entry in entries.get(name, ()):
            stats += [
                GameStatistic(
                    game_id=game,
                    game_type=game_type,
                    entry=entry,
                    code=s.code,
                    value=s.value,
                    sample=s.sample,
                )
                for s in found.statistics
            ]
            feats += [
                GameFeat(
                    game_id=game,
                    game_type=game_type,
                    entry=entry,
                    code=f.code,
                    value=f.value,
                    round=f.round,
                )
                for f in found.feats
            ]
    GameStatistic.objects.bulk_create(stats, ignore_conflicts=True)
    GameFeat.objects.bulk_create(feats, ignore_conflicts=True)

"""The club's stream: its events and their fold (pure: no Django).

The club is the site's one club. Its stream (kind ``club``) holds what the club's officials
decide about its members and its leagues; everything else a season shows comes from the
tournaments' own streams. Events are frozen dataclasses named in the past tense, stored by
their name in :data:`EVENT_TYPES` (docs/season.md, "The club's stream").

Members: a registration in a tournament (an *entry*: the tournament, the entrant's id in it and,
for a team, the index of the team member) belongs by default to the member of its normalised
name (:func:`name_key`), whose id is derived from that key (:func:`default_member`), so the same
name in any tournament is the same member with nothing stored. The organizer corrects that with
two events: :class:`MembersMerged` (every entry of one member now counts for another) and
:class:`EntryAssigned` (one entry counts for a given member: a split, when the member is new).
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from tournaments.domain.state import Refusal
from tournaments.domain.words import gettext_lazy

CLUB_STREAM_ID: Final = "6c0b5a1e-c1ab-5eed-8000-000000000001"
"""The club stream's id: the same on every site, so a restore finds it again."""


ClubRefusal = Refusal
"""A club decision that cannot be taken: a stable ``code`` and the words (tournaments.domain's
refusal, said in the reader's language where it is shown)."""


Entry = tuple[str, str, int]
"""(tournament id, entrant id in it, member index: 0 for a player, i for a team's i-th member,
counted from 1)."""

_SPACE = re.compile(r"\s+")


def name_key(name: str) -> str:
    """A name as the club compares names: Unicode-normalised (NFKC), case-folded, spaces
    collapsed, so "Olga  Petrova" and "olga petrova" are one member."""
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", name).casefold()).strip()


def member_id(seed: str) -> str:
    """A member's id: 12 hex digits of a hash, stable across rebuilds and restores."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()[:12]


def default_member(name: str) -> str:
    """The member a name belongs to when no event said otherwise."""
    return member_id("name:" + name_key(name))


def split_member(entry: Entry) -> str:
    """The new member a split makes of one entry."""
    tournament, player, index = entry
    return member_id(f"split:{tournament}:{player}:{index}")


# --- events ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MembersMerged:
    member: str
    into: str


@dataclass(frozen=True, slots=True)
class EntryAssigned:
    tournament: str
    player: str
    index: int
    member: str


@dataclass(frozen=True, slots=True)
class MemberNamed:
    member: str
    display_name: str
    """Empty: shown under the name they registered with again."""


@dataclass(frozen=True, slots=True)
class MemberHidden:
    member: str
    hidden: bool


@dataclass(frozen=True, slots=True)
class LeagueCreated:
    league: int
    name: str
    rules: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class LeagueChanged:
    league: int
    changes: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class TournamentLinked:
    league: int
    tournament: str


@dataclass(frozen=True, slots=True)
class TournamentUnlinked:
    league: int
    tournament: str


@dataclass(frozen=True, slots=True)
class DivisionAssigned:
    league: int
    member: str
    division: str
    """Empty: the member is in no division again."""


ClubEvent = (
    MembersMerged
    | EntryAssigned
    | MemberNamed
    | MemberHidden
    | LeagueCreated
    | LeagueChanged
    | TournamentLinked
    | TournamentUnlinked
    | DivisionAssigned
)

EVENT_TYPES: Final[dict[str, type[Any]]] = {
    "members_merged": MembersMerged,
    "entry_assigned": EntryAssigned,
    "member_named": MemberNamed,
    "member_hidden": MemberHidden,
    "league_created": LeagueCreated,
    "league_changed": LeagueChanged,
    "tournament_linked": TournamentLinked,
    "tournament_unlinked": TournamentUnlinked,
    "division_assigned": DivisionAssigned,
}
TYPE_NAMES: Final[dict[type[Any], str]] = {c: n for n, c in EVENT_TYPES.items()}


def type_name(event: ClubEvent) -> str:
    return TYPE_NAMES[type(event)]


def to_data(event: ClubEvent) -> dict[str, Any]:
    data = dataclasses.asdict(event)
    for key in ("rules", "changes"):
        if key in data:
            data[key] = dict(data[key])
    return data


def parse(kind: str, data: Mapping[str, Any]) -> ClubEvent:
    cls = EVENT_TYPES.get(kind)
    if cls is None:
        raise ValueError(f"unknown club event type {kind!r}")
    names = {f.name for f in dataclasses.fields(cls)}
    event: ClubEvent = cls(**{k: v for k, v in data.items() if k in names})
    return event


# --- league rules ----------------------------------------------------------------------------

DEFAULT_POINTS: Final = (25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
"""Points by tournament place, first place first (a place beyond the list scores
``LeagueRules.points_beyond``)."""


@dataclass(frozen=True, slots=True)
class LeagueRules:
    points: tuple[int, ...] = DEFAULT_POINTS
    points_beyond: int = 0
    """Points for a place beyond the list (taking part counts for something, if wanted)."""
    best: int | None = None
    """Count only a member's best N results (None: all)."""
    drop_worst: int = 0
    """Drop a member's X worst results (applied after ``best``)."""
    min_events: int = 1
    """A member is ranked once they took part in this many of the season's tournaments."""
    divisions: tuple[str, ...] = ()
    """The season's divisions, in order (none: one table)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "points": list(self.points),
            "points_beyond": self.points_beyond,
            "best": self.best,
            "drop_worst": self.drop_worst,
            "min_events": self.min_events,
            "divisions": list(self.divisions),
        }


RULE_KEYS: Final = frozenset(LeagueRules.__dataclass_fields__)


def league_rules(data: Mapping[str, Any], base: LeagueRules | None = None) -> LeagueRules:
    """League rules from their JSON form (as given to the API or a form), checked: raises
    :class:`ClubRefusal` saying which value is wrong."""
    rules = base or LeagueRules()
    unknown = set(data) - RULE_KEYS
    if unknown:
        raise ClubRefusal(
            "unknown_rule",
            gettext_lazy("unknown league rule: %(rules)s", rules=", ".join(sorted(unknown))),
        )
    changes: dict[str, Any] = {}
    if "points" in data:
        points = data["points"]
        if (
            not isinstance(points, list | tuple)
            or not points
            or len(points) > 200
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in points)
            or any(p < 0 or p > 10_000 for p in points)
        ):
            raise ClubRefusal(
                "bad_points",
                gettext_lazy(
                    "points per place must be a list of whole numbers from 0 to 10000, "
                    "first place first"
                ),
            )
        changes["points"] = tuple(points)
    for key, low, none_ok in (
        ("points_beyond", 0, False),
        ("best", 1, True),
        ("drop_worst", 0, False),
        ("min_events", 1, False),
    ):
        if key in data:
            value = data[key]
            if value is None and none_ok:
                changes[key] = None
                continue
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= 1000:
                raise ClubRefusal(
                    "bad_" + key,
                    gettext_lazy(
                        "%(rule)s must be a whole number from %(low)s to 1000", rule=key, low=low
                    ),
                )
            changes[key] = value
    if "divisions" in data:
        divisions = data["divisions"]
        if not isinstance(divisions, list | tuple) or not all(
            isinstance(d, str) and d.strip() and len(d) <= 40 for d in divisions
        ):
            raise ClubRefusal(
                "bad_divisions",
                gettext_lazy("divisions must be a list of names (1 to 40 characters)"),
            )
        cleaned = tuple(d.strip() for d in divisions)
        if len(set(cleaned)) != len(cleaned) or len(cleaned) > 20:
            raise ClubRefusal(
                "bad_divisions", gettext_lazy("division names must differ (20 at most)")
            )
        changes["divisions"] = cleaned
    return dataclasses.replace(rules, **changes)


# --- the fold --------------------------------------------------------------------------------


@dataclass(slots=True)
class League:
    id: int
    name: str
    rules: LeagueRules
    tournaments: list[str] = field(default_factory=list)
    divisions: dict[str, str] = field(default_factory=dict)
    """member id -> division name."""


@dataclass(slots=True)
class ClubState:
    version: int = 0
    assigned: dict[Entry, str] = field(default_factory=dict)
    merged: dict[str, str] = field(default_factory=dict)
    """member -> the member it was merged into (followed to the end by :meth:`canonical`)."""
    display: dict[str, str] = field(default_factory=dict)
    hidden: set[str] = field(default_factory=set)
    leagues: dict[int, League] = field(default_factory=dict)
    identity_version: int = 0
    """The version of the last event that changed who an entry belongs to."""

    def canonical(self, member: str) -> str:
        seen = {member}
        while member in self.merged:
            member = self.merged[member]
            if member in seen:  # a cycle cannot be decided; stop where it closes
                break
            seen.add(member)
        return member

    def member_of(self, entry: Entry, name: str) -> str:
        """The member an entry (registered under ``name``) counts for."""
        return self.canonical(self.assigned.get(entry) or default_member(name))


def apply(state: ClubState, version: int, event: ClubEvent) -> None:
    """Fold one event into the state (in place); never validates (the decisions did)."""
    state.version = version
    if isinstance(event, MembersMerged):
        state.merged[event.member] = event.into
        state.identity_version = version
    elif isinstance(event, EntryAssigned):
        state.assigned[(event.tournament, event.player, event.index)] = event.member
        state.merged.pop(event.member, None)  # a member given an entry is a member again
        state.identity_version = version
    elif isinstance(event, MemberNamed):
        if event.display_name:
            state.display[event.member] = event.display_name
        else:
            state.display.pop(event.member, None)
    elif isinstance(event, MemberHidden):
        if event.hidden:
            state.hidden.add(event.member)
        else:
            state.hidden.discard(event.member)
    elif isinstance(event, LeagueCreated):
        state.leagues[event.league] = League(event.league, event.name, league_rules(event.rules))
    elif isinstance(event, LeagueChanged):
        league = state.leagues[event.league]
        changes = dict(event.changes)
        if "name" in changes:
            league.name = str(changes.pop("name"))
        league.rules = league_rules(changes, league.rules)
    elif isinstance(event, TournamentLinked):
        league = state.leagues[event.league]
        if event.tournament not in league.tournaments:
            league.tournaments.append(event.tournament)
    elif isinstance(event, TournamentUnlinked):
        league = state.leagues[event.league]
        if event.tournament in league.tournaments:
            league.tournaments.remove(event.tournament)
    elif isinstance(event, DivisionAssigned):
        league = state.leagues[event.league]
        if event.division:
            league.divisions[event.member] = event.division
        else:
            league.divisions.pop(event.member, None)


def fold(events: Iterable[tuple[int, str, Mapping[str, Any]]]) -> ClubState:
    state = ClubState()
    for version, kind, data in events:
        apply(state, version, parse(kind, data))
    return state


# --- decisions -------------------------------------------------------------------------------


def decide_merge(state: ClubState, member: str, into: str, known: set[str]) -> MembersMerged:
    """Merge ``member`` into ``into``; ``known``: the members that exist (have entries)."""
    member, into = state.canonical(member), state.canonical(into)
    for who in (member, into):
        if who not in known:
            raise ClubRefusal(
                "no_member", gettext_lazy("there is no member %(member)s", member=who)
            )
    if member == into:
        raise ClubRefusal("same_member", gettext_lazy("a member cannot be merged into themselves"))
    return MembersMerged(member=member, into=into)


def decide_split(
    state: ClubState, entry: Entry, name: str, entries_of_member: int
) -> EntryAssigned:
    """Give one entry a member of its own (the same name was two people)."""
    if entries_of_member < 2 and state.member_of(entry, name) == default_member(name):
        raise ClubRefusal(
            "nothing_to_split",
            gettext_lazy("this is the member's only entry: there is nothing to split off"),
        )
    return EntryAssigned(
        tournament=entry[0], player=entry[1], index=entry[2], member=split_member(entry)
    )


def new_league_id(state: ClubState) -> int:
    return max(state.leagues, default=0) + 1


def league(state: ClubState, league_id: int) -> League:
    found = state.leagues.get(league_id)
    if found is None:
        raise ClubRefusal(
            "no_league", gettext_lazy("there is no league %(league)s", league=league_id)
        )
    return found

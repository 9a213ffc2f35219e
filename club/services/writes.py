"""The club's writes: merges and splits of members, display names, hiding, leagues and their
tournaments. Each is decided on the club's state under the club row's lock and appended to the
club's stream in one transaction; the consumer (club.services.sync) runs once it commits.

Who may: the club's officials, the site's staff users (``is_staff``; docs/season.md).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from club import domain
from club.models import Member, MemberEntry
from club.services.state import CLUB_ID, club_projection, fold_club
from games import store
from games.queue import send
from games.services import NotAllowed, Refused, User
from games.store import NewEvent
from tournaments.models import TournamentProjection
from tournaments.services.access import _refused


@dataclass(frozen=True, slots=True)
class ClubChange:
    version: int
    events: tuple[str, ...]
    league: int | None = None


def _official(user: User | None) -> None:
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("log in as one of the club's officials to change the club"))
    if not getattr(user, "is_staff", False):
        raise NotAllowed(_("only the club's officials (staff users) may change the club"))


def _act(
    decide: Callable[[domain.ClubState], Sequence[domain.ClubEvent]],
    *,
    user: User | None,
    request_id: str = "",
    league: int | None = None,
) -> ClubChange:
    _official(user)
    with transaction.atomic():
        projection = club_projection(lock=True)
        state = fold_club()
        try:
            decided = list(decide(state))
        except domain.ClubRefusal as refusal:
            raise _refused(refusal) from None
        if not decided:
            return ClubChange(version=state.version, events=(), league=league)
        rows = store.append(
            CLUB_ID,
            state.version,
            [NewEvent(domain.type_name(e), domain.to_data(e)) for e in decided],
            metadata={
                "by": getattr(user, "username", ""),
                "by_id": getattr(user, "id", None),
                "request_id": request_id,
            },
        )
        projection.version = rows[-1].version
        projection.save(update_fields=["version"])
        transaction.on_commit(_nudge)
    return ClubChange(version=rows[-1].version, events=tuple(r.type for r in rows), league=league)


def _nudge() -> None:
    from club.tasks import sync

    send(sync)


def _known_members() -> set[str]:
    return set(Member.objects.filter(merged_into="").values_list("id", flat=True))


def member_merge(*, member: str, into: str, user: User | None) -> ClubChange:
    """Every entry of ``member`` counts for ``into`` from now on (the same person registered
    under two names)."""
    known = _known_members()
    return _act(lambda s: [domain.decide_merge(s, member, into, known)], user=user)


def member_split(
    *, tournament: uuid.UUID, player: str, index: int = 0, user: User | None
) -> ClubChange:
    """One entry gets a member of its own (two people who share a name)."""
    entry = MemberEntry.objects.filter(tournament_id=tournament, player=player, index=index).first()
    if entry is None:
        raise Refused(_("there is no such entry in that tournament"), "no_entry")
    count = MemberEntry.objects.filter(member_id=entry.member_id).count()
    key = (str(tournament), player, index)
    return _act(lambda s: [domain.decide_split(s, key, entry.name, count)], user=user)


def _member(member: str) -> Member:
    found = Member.objects.filter(id=member, merged_into="").first()
    if found is None:
        raise Refused(_("there is no member %(member)s") % {"member": member}, "no_member")
    return found


def member_change(
    *,
    member: str,
    user: User | None,
    display_name: str | None = None,
    hidden: bool | None = None,
) -> ClubChange:
    """A member's display name ("" to use their registered name again) or their hiding from
    public pages."""
    _official(user)
    _member(member)
    events: list[domain.ClubEvent] = []
    if display_name is not None:
        name = display_name.strip()
        if len(name) > 100:
            raise Refused(_("a display name has 100 characters at most"), "bad_display_name")
        events.append(domain.MemberNamed(member=member, display_name=name))
    if hidden is not None:
        events.append(domain.MemberHidden(member=member, hidden=bool(hidden)))
    if not events:
        raise Refused(_("say what to change: a display name or hidden"), "nothing_to_change")
    return _act(lambda s: events, user=user)


def _league_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 100:
        raise Refused(_("a league needs a name of 1 to 100 characters"), "bad_name")
    return name.strip()


def league_create(*, name: str, rules: dict[str, Any], user: User | None) -> ClubChange:
    """A new league (a season): its name and its rules (club.domain.LeagueRules)."""
    _official(user)
    title = _league_name(name)
    try:
        checked = domain.league_rules(rules)
    except domain.ClubRefusal as refusal:
        raise _refused(refusal) from None
    made: dict[str, int] = {}

    def decide(state: domain.ClubState) -> list[domain.ClubEvent]:
        made["id"] = domain.new_league_id(state)
        return [domain.LeagueCreated(league=made["id"], name=title, rules=checked.to_json())]

    change = _act(decide, user=user)
    return ClubChange(version=change.version, events=change.events, league=made["id"])


def league_change(
    *, league: int, user: User | None, name: str | None = None, rules: dict[str, Any] | None = None
) -> ClubChange:
    _official(user)
    changes: dict[str, Any] = dict(rules or {})

    def decide(state: domain.ClubState) -> list[domain.ClubEvent]:
        found = domain.league(state, league)
        domain.league_rules(changes, found.rules)  # checked (raises ClubRefusal)
        if name is not None:
            changes["name"] = _league_name(name)
        if not changes:
            return []
        return [domain.LeagueChanged(league=league, changes=changes)]

    return _act(decide, user=user, league=league)


def league_link(*, league: int, tournament: uuid.UUID, user: User | None) -> ClubChange:
    """The tournament counts for the league's season."""
    if not TournamentProjection.objects.filter(stream_id=tournament).exists():
        raise Refused(_("there is no such tournament"), "no_tournament")

    def decide(state: domain.ClubState) -> list[domain.ClubEvent]:
        found = domain.league(state, league)
        if str(tournament) in found.tournaments:
            return []
        return [domain.TournamentLinked(league=league, tournament=str(tournament))]

    return _act(decide, user=user, league=league)


def league_unlink(*, league: int, tournament: uuid.UUID, user: User | None) -> ClubChange:
    def decide(state: domain.ClubState) -> list[domain.ClubEvent]:
        found = domain.league(state, league)
        if str(tournament) not in found.tournaments:
            raise domain.ClubRefusal("not_linked", _("that tournament is not part of this league"))
        return [domain.TournamentUnlinked(league=league, tournament=str(tournament))]

    return _act(decide, user=user, league=league)


def league_division(*, league: int, member: str, division: str, user: User | None) -> ClubChange:
    """Put a member in one of the league's divisions ("" : in none)."""
    _member(member)

    def decide(state: domain.ClubState) -> list[domain.ClubEvent]:
        found = domain.league(state, league)
        if division and division not in found.rules.divisions:
            raise domain.ClubRefusal("no_division", _("this league has no such division"))
        return [domain.DivisionAssigned(league=league, member=member, division=division)]

    return _act(decide, user=user, league=league)

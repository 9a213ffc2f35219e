"""Seat links: issue, reissue, revoke and share a game's seat links, and open one (games.seats).

Managing the links is the game's organizer's (at a tournament: its organizers, through
games.policy.SEATS; a game of its own: its creator or staff). Opening one needs nothing but the
token: that is the point of a link on a phone without an account.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Subquery
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import policy, seats
from games.gametypes import GAME_TYPES
from games.models import GameProjection, SeatLink
from games.seats import SeatAccess
from games.services.common import User, _projection
from games.services.errors import GameNotFound, NotAllowed, Refused

REVOKED = gettext_noop(
    "This seat link was revoked or replaced by a new one: ask the organizer for your seat's "
    "link (or scan the new code on the score sheet)."
)
UNKNOWN = gettext_noop(
    "This is not a seat link of this site: scan the code on your table's score sheet again."
)


@dataclass(frozen=True, slots=True)
class SeatLinkView:
    """One seat's link, as its organizer sees it."""

    seat: int
    player: str
    token: str
    """Empty when the link is revoked."""
    shared: bool
    revoked: bool
    opened: bool
    """A phone has opened it."""


def _may_manage(game_id: uuid.UUID, user: User | None) -> GameProjection:
    """The game, if ``user`` manages its seat links (else NotAllowed)."""
    game = _projection(game_id)
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("log in as the organizer to manage seat links"))
    if policy.decide(game, user, policy.SEATS):
        return game
    if not getattr(user, "is_staff", False) and game.created_by_id != user.pk:
        raise NotAllowed(_("only the game's organizer manages its seat links"))
    return game


def has_phones(game_type: str) -> bool:
    """Whether the game's seats get phone links: a game without phones (``GameType.phone``
    None) has none, its table's scorekeeper enters it (the desk says so instead)."""
    kind = GAME_TYPES.get(game_type)
    return kind is not None and kind.phone is not None


def _view(link: SeatLink) -> SeatLinkView:
    revoked = link.revoked_at is not None
    return SeatLinkView(
        seat=link.seat,
        player=link.player,
        token="" if revoked else seats.make_token(link.pk, link.nonce),
        shared=link.shared,
        revoked=revoked,
        opened=link.opened_at is not None,
    )


def seat_links_issue(*, game_id: uuid.UUID, user: User | None = None) -> list[SeatLinkView]:
    """Every seat that gets a phone (``GameType.phone_seats``: every seat, or a team game's
    head chefs') gets a link (those that have one keep it); the links, by seat.
    ``user`` None: the system issuing them (a tournament publishing its round)."""
    game = _projection(game_id) if user is None else _may_manage(game_id, user)
    if not has_phones(game.game_type):
        return []
    phones = GAME_TYPES[game.game_type].phone_seats(list(game.players), game.summary or {})
    with transaction.atomic():
        have = set(SeatLink.objects.filter(game_id=game_id).values_list("seat", flat=True))
        SeatLink.objects.bulk_create(
            [
                SeatLink(game_id=game_id, seat=seat, player=player, nonce=seats.new_nonce())
                for seat, player in phones
                if seat not in have
            ],
            ignore_conflicts=True,  # a concurrent issue of the same seat: either row is the link
        )
    return seat_links(game_id=game_id, user=None)


def seat_links(*, game_id: uuid.UUID, user: User | None) -> list[SeatLinkView]:
    """The game's seat links (the organizer's: ``user`` None only for the system)."""
    game = _projection(game_id) if user is None else _may_manage(game_id, user)
    if not has_phones(game.game_type):
        return []
    return [_view(link) for link in SeatLink.objects.filter(game_id=game_id).order_by("seat")]


def seat_links_of(game_ids: list[uuid.UUID]) -> dict[uuid.UUID, list[SeatLinkView]]:
    """The links of many games at once, for a caller that already checked its user may see
    them (the desk's score sheets)."""
    out: dict[uuid.UUID, list[SeatLinkView]] = {game_id: [] for game_id in game_ids}
    kinds = GameProjection.objects.filter(stream_id__in=game_ids).values_list(
        "stream_id", "game_type"
    )
    with_phones = [game_id for game_id, game_type in kinds if has_phones(game_type)]
    for link in SeatLink.objects.filter(game_id__in=with_phones).order_by("game_id", "seat"):
        out[link.game_id].append(_view(link))
    return out


def _link(game_id: uuid.UUID, seat: int) -> SeatLink:
    link = SeatLink.objects.select_for_update().filter(game_id=game_id, seat=seat).first()
    if link is None:
        raise Refused(
            _("seat %(seat)s of this game has no link yet") % {"seat": seat}, "no_seat_link"
        )
    return link


def seat_link_reissue(*, game_id: uuid.UUID, seat: int, user: User | None) -> SeatLinkView:
    """A new link for the seat: the old one stops working at once."""
    _may_manage(game_id, user)
    with transaction.atomic():
        link = _link(game_id, seat)
        link.nonce = seats.new_nonce()
        link.revoked_at = None
        link.opened_at = None
        link.save(update_fields=["nonce", "revoked_at", "opened_at"])
    return _view(link)


def seat_link_revoke(*, game_id: uuid.UUID, seat: int, user: User | None) -> SeatLinkView:
    """The seat's link stops working at once (reissue gives the seat a new one)."""
    _may_manage(game_id, user)
    with transaction.atomic():
        link = _link(game_id, seat)
        if link.revoked_at is None:
            link.revoked_at = timezone.now()
            link.save(update_fields=["revoked_at"])
    return _view(link)


def seat_link_share(
    *, game_id: uuid.UUID, seat: int, shared: bool, user: User | None
) -> SeatLinkView:
    """Let the table's other phones enter for this seat (a player without a phone), or stop."""
    _may_manage(game_id, user)
    with transaction.atomic():
        link = _link(game_id, seat)
        if link.shared != shared:
            link.shared = shared
            link.save(update_fields=["shared"])
    return _view(link)


def seat_open(token: str, *, opened: bool = False) -> SeatAccess:
    """What the token lets its phone do now; ``opened``: the phone opened the page (remembered
    for the desk: this seat has a phone). One query when the link holds."""
    try:
        link_id, nonce = seats.read_token(token)
    except seats.BadToken:
        raise GameNotFound(_(UNKNOWN)) from None
    table = list(
        SeatLink.objects.filter(
            game_id=Subquery(SeatLink.objects.filter(pk=link_id).values("game_id")[:1])
        )
        .only("id", "game_id", "seat", "player", "nonce", "shared", "revoked_at", "opened_at")
        .order_by("seat")
    )
    mine = next((link for link in table if link.pk == link_id), None)
    if mine is None:
        raise GameNotFound(_(UNKNOWN))
    if mine.nonce != nonce or mine.revoked_at is not None:
        raise NotAllowed(_(REVOKED), "seat_link_revoked")
    if opened and mine.opened_at is None:
        SeatLink.objects.filter(pk=mine.pk).update(opened_at=timezone.now())
    others = tuple((link.seat, link.player) for link in table if link.shared and link is not mine)
    return SeatAccess(
        game_id=mine.game_id,
        seat=mine.seat,
        player=mine.player,
        acts_for=((mine.seat, mine.player), *others),
        link_id=mine.pk,
    )

"""Seat links: a phone bound to one seat of one game, without an account.

A seat link is ``/seat/<token>/``. The token names a :class:`~games.models.SeatLink` row and the
nonce it had when the link was issued, signed with the site's secret (Django's signing, its own
salt): nobody can make one up, and the row decides whether it still holds. Reissuing a link
draws a new nonce and revoking it stamps the row, so an old link stops working on its next
request. The token is a credential: it is never shown on a public page, in an API read or in a
download; only the table's officials (who print the score sheets) and the seat's phone see it.

:class:`SeatAccess` is what a valid token grants: entering the seat's own hand and its own
plays, and those of the table's seats the organizer shared (a seat without a phone).
"""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass

from django.core import signing

SALT = "games.seat-link"
NONCE_BYTES = 9


def new_nonce() -> str:
    return secrets.token_urlsafe(NONCE_BYTES)


def make_token(link_id: int, nonce: str) -> str:
    """The link's token: ``<id>.<nonce>:<signature>``, URL-safe."""
    return signing.Signer(salt=SALT, algorithm="sha256").sign(f"{link_id}.{nonce}")


class BadToken(Exception):
    """The token was not made by this site (or is damaged)."""


def read_token(token: str) -> tuple[int, str]:
    """The ``(link id, nonce)`` a token names, if this site signed it."""
    try:
        value = signing.Signer(salt=SALT, algorithm="sha256").unsign(token)
    except signing.BadSignature:
        raise BadToken(token) from None
    link, _, nonce = value.partition(".")
    if not link.isdigit() or not nonce:
        raise BadToken(token)
    return int(link), nonce


@dataclass(frozen=True, slots=True)
class SeatAccess:
    """What one opened seat link lets its phone do."""

    game_id: uuid.UUID
    seat: int
    """The link's own seat (1-based)."""
    player: str
    """The seat's player, as the game names them."""
    acts_for: tuple[tuple[int, str], ...]
    """Every ``(seat, player)`` this phone may enter for: its own seat first, then the seats
    the organizer shared with the table's phones."""
    link_id: int

    @property
    def players(self) -> frozenset[str]:
        return frozenset(player for _, player in self.acts_for)

    def may_enter_for(self, player: str) -> bool:
        return player in self.players

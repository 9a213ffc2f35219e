"""Hidden hands: what a reader who is not one of a game's officials sees of it (pure: no ORM).

While a round is being played, the cards its players still hold are secret: a phone under the
table must not read them off the API. Only the game's officials (a tournament's organizers and
the scorekeepers of its tables, staff; a game of its own: its creator and staff) see them. The
services decide, once per stream, whether a reader sees a game's hands; this module says what
the others see. The stored log is never changed: redaction happens as events are read.

For such a reader, in the events from the first ``round_started`` of the round in progress on
(earlier rounds are over and show everything):

* ``round_started`` keeps its shape, but each hand lists only the cards that are no longer
  held (played since), and the event gains ``"hands_hidden": true`` and ``"held"``: how many of
  each hand's cards are not shown;
* ``card_played`` of a card still held (a play taken back by a correction) shows
  ``"card": null`` and ``"card_hidden": true``.

Once the round's last trick is played (or the game is finished or voided) nothing is hidden.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

ROUND_STARTED: Final = "round_started"
CARD_PLAYED: Final = "card_played"
CARD_TYPES: Final = frozenset({ROUND_STARTED, CARD_PLAYED})
"""The only events that name cards."""


@dataclass(frozen=True, slots=True)
class Hidden:
    """What one reader may not see of one game stream."""

    cards: frozenset[str]
    """The cards the players still hold in the round being played."""
    since: int
    """The version of that round's first ``round_started``: events before it show everything."""


def held_cards(snapshot: Mapping[str, Any] | None) -> frozenset[str]:
    """The cards still held at the table (an engine snapshot's hands); none between rounds."""
    if not snapshot:
        return frozenset()
    hands: Mapping[str, Sequence[str]] = snapshot.get("hands") or {}
    return frozenset(card for hand in hands.values() for card in hand)


def round_in_progress(
    snapshot: Mapping[str, Any] | None, starts: Iterable[tuple[int, int]]
) -> Hidden | None:
    """What to hide of a game being played, from its snapshot and the ``(version, round)`` of
    every ``round_started`` in its stream (retracted ones included: a deal taken back may still
    be the real one). None when no card is held."""
    cards = held_cards(snapshot)
    if not cards or snapshot is None:
        return None
    current = int(snapshot.get("round") or 0)
    versions = [version for version, number in starts if number >= current]
    return Hidden(cards=cards, since=min(versions, default=0))


def redact(version: int, kind: str, data: Mapping[str, Any], hidden: Hidden | None) -> Any:
    """An event's data as a reader who does not see the hands reads it (``data`` itself when
    nothing in it is secret)."""
    if hidden is None or version < hidden.since or kind not in CARD_TYPES:
        return data
    if kind == ROUND_STARTED:
        hands: Mapping[str, Sequence[str]] = data.get("hands") or {}
        shown = {
            player: [c for c in cards if c not in hidden.cards] for player, cards in hands.items()
        }
        held = {player: len(cards) - len(shown[player]) for player, cards in hands.items()}
        return {**data, "hands": shown, "hands_hidden": True, "held": held}
    if data.get("card") in hidden.cards:
        return {**data, "card": None, "card_hidden": True}
    return data


def finished_rounds(record: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """A game's record up to the end of its last finished round: what may be exported while a
    round is being played (a prefix of a record is a valid record, in progress)."""
    last = max((i for i, e in enumerate(record) if e.get("type") == ROUND_STARTED), default=None)
    return list(record if last is None else record[:last])

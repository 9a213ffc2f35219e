"""The material of Trick-n-Chef: suits, card codes, stars (rules.md section 1).

A card is identified everywhere by its record code: the suit letter and the value, e.g. ``G1``,
``R10``. The lookup tables below are built once so the hot paths of the engine never parse a code.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

Suit = str
"""One of :data:`SUITS`."""
Card = str
"""A card code such as ``"R7"``; see :data:`CARD_SUIT` for the valid ones."""

SUITS: Final[tuple[Suit, ...]] = ("green", "red", "yellow", "blue")
"""All suits, in the canonical order the engine reports them in."""

SUIT_LETTER: Final[dict[Suit, str]] = {"green": "G", "red": "R", "yellow": "Y", "blue": "B"}
DISH: Final[dict[Suit, str]] = {
    "green": "sushi",
    "red": "burger",
    "yellow": "pizza",
    "blue": "noodles",
}
VALUES: Final[range] = range(1, 11)

CHEFS_PER_SUIT: Final = 5  # R1.3
CENTRE_CHEFS_PER_SUIT: Final = CHEFS_PER_SUIT - 1  # R3.2: one per suit is set aside for the picks
TOTAL_COINS: Final = 20  # R1.4
CARDS_PER_HAND: Final = 10  # R2.1
TRICKS_PER_ROUND: Final = 10  # R2.1
ROUNDS_PER_GAME: Final = 3  # R2.1
PLAYER_COUNTS: Final = (3, 4)  # R1.5
COIN_STEP: Final = 2  # R1.4: each coin is worth +2 or -2


def stars(value: int) -> int:
    """R1.2: 1-3 -> 1 star, 4-6 -> 2, 7-9 -> 3, 10 -> 4."""
    if not 1 <= value <= 10:
        raise ValueError(f"no card has the value {value}")
    return 4 if value == 10 else (value - 1) // 3 + 1


def card_code(suit: Suit, value: int) -> Card:
    return f"{SUIT_LETTER[suit]}{value}"


ALL_CARDS: Final[tuple[Card, ...]] = tuple(card_code(s, v) for s in SUITS for v in VALUES)
CARD_SUIT: Final[dict[Card, Suit]] = {card_code(s, v): s for s in SUITS for v in VALUES}
CARD_VALUE: Final[dict[Card, int]] = {card_code(s, v): v for s in SUITS for v in VALUES}
CARD_STARS: Final[dict[Card, int]] = {c: stars(v) for c, v in CARD_VALUE.items()}
CARD_ORDER: Final[dict[Card, int]] = {c: i for i, c in enumerate(ALL_CARDS)}


def deck(suits: tuple[Suit, ...] | list[Suit]) -> tuple[Card, ...]:
    """The cards in play for these suits, in canonical order."""
    return tuple(c for c in ALL_CARDS if CARD_SUIT[c] in suits)


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards in canonical order (suit order, then value), for stable output."""
    return sorted(cards, key=CARD_ORDER.__getitem__)


def describe(card: Card) -> str:
    """``"R7"`` -> ``"red 7"``: how a scorekeeper says it."""
    return f"{CARD_SUIT[card]} {CARD_VALUE[card]}"

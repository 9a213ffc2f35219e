"""Trick-n-Chef's cards, suits, dishes and coins in the reader's language: the one namer every
page of the game uses.

"Y8" is a record's code (a format, never translated); a page says "yellow 8", "jaune 8",
"жёлтая 8", "黄の8". The colour is translated with the card around it (``pgettext``), because a
colour agrees with the card in French and Russian (une carte jaune / verte, жёлтая карта): the
French colours are the feminine ones (verte, bleue), as for "carte".
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext, pgettext_lazy

from engine.tricknchef.cards import CARD_STARS, CARD_SUIT, CARD_VALUE, COIN_STEP, Card
from games.words import word_list

CARD_NAMES: dict[str, Promise] = {
    "green": pgettext_lazy("a card: its colour and value", "green %(value)s"),
    "red": pgettext_lazy("a card: its colour and value", "red %(value)s"),
    "yellow": pgettext_lazy("a card: its colour and value", "yellow %(value)s"),
    "blue": pgettext_lazy("a card: its colour and value", "blue %(value)s"),
}

SUIT_NAMES: dict[str, Promise] = {
    "green": pgettext_lazy("a suit (colour)", "green"),
    "red": pgettext_lazy("a suit (colour)", "red"),
    "yellow": pgettext_lazy("a suit (colour)", "yellow"),
    "blue": pgettext_lazy("a suit (colour)", "blue"),
}

DISH_NAMES: dict[str, Promise] = {
    "green": pgettext_lazy("the green suit's dish", "sushi"),
    "red": pgettext_lazy("the red suit's dish", "burger"),
    "yellow": pgettext_lazy("the yellow suit's dish", "pizza"),
    "blue": pgettext_lazy("the blue suit's dish", "noodles"),
}

CHEF_NAMES: dict[str, Promise] = {
    "green": pgettext_lazy("a Chef token of a suit", "green Chef"),
    "red": pgettext_lazy("a Chef token of a suit", "red Chef"),
    "yellow": pgettext_lazy("a Chef token of a suit", "yellow Chef"),
    "blue": pgettext_lazy("a Chef token of a suit", "blue Chef"),
}


def card_name(card: Card) -> str:
    """``"Y8"`` -> "yellow 8" in the active language; anything not a card is left as it is."""
    suit = CARD_SUIT.get(card)
    if suit is None:
        return card
    return str(CARD_NAMES[suit]) % {"value": CARD_VALUE[card]}


def suit_name(suit: str) -> str:
    name = SUIT_NAMES.get(suit)
    return str(name) if name is not None else suit


def dish_name(suit: str) -> str:
    name = DISH_NAMES.get(suit)
    return str(name) if name is not None else suit


def chef_name(suit: str) -> str:
    name = CHEF_NAMES.get(suit)
    return str(name) if name is not None else suit


def card_list(cards: Iterable[Card]) -> str:
    return word_list(card_name(c) for c in cards)


def suit_list(suits: Iterable[str]) -> str:
    return word_list(suit_name(s) for s in suits)


def stars_words(stars: int) -> str:
    return ngettext("%(count)d star", "%(count)d stars", stars) % {"count": stars}


CARD_LABELS: dict[str, Promise] = {
    "green": pgettext_lazy(
        "a card: its colour, dish, value and stars", "green sushi %(value)s, %(stars)s"
    ),
    "red": pgettext_lazy(
        "a card: its colour, dish, value and stars", "red burger %(value)s, %(stars)s"
    ),
    "yellow": pgettext_lazy(
        "a card: its colour, dish, value and stars", "yellow pizza %(value)s, %(stars)s"
    ),
    "blue": pgettext_lazy(
        "a card: its colour, dish, value and stars", "blue noodles %(value)s, %(stars)s"
    ),
}
"""A card's whole name with its dish, one message a suit: the colour agrees with the dish, not
with the card ("красный бургер", "зелёное суши", "жёлтая пицца", "синяя лапша")."""


def card_label(card: Card) -> str:
    """A card drawing's accessible name: "red burger 9, 3 stars"."""
    suit = CARD_SUIT[card]
    return str(CARD_LABELS[suit]) % {
        "value": CARD_VALUE[card],
        "stars": stars_words(CARD_STARS[card]),
    }


def coin_count(coins: int) -> str:
    """2 -> "2 coins +2"; -1 -> "1 coin −2" (the side each coin shows)."""
    count = abs(coins)
    side = "+2" if coins > 0 else "−2"
    return ngettext("%(count)d coin %(side)s", "%(count)d coins %(side)s", count) % {
        "count": count,
        "side": side,
    }


def coin_words(coins: int) -> str:
    """0 -> "no coins"; 2 -> "2 coins +2 (+4)"; -1 -> "1 coin −2 (−2)"."""
    if coins == 0:
        return gettext("no coins")
    shift = f"+{COIN_STEP * coins}" if coins > 0 else f"−{COIN_STEP * -coins}"
    return gettext("%(coins)s (%(shift)s)") % {"coins": coin_count(coins), "shift": shift}

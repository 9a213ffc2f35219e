"""Template helpers to draw Trick-n-Chef cards (tricknchef/card.html): the ``cards`` library
(registered in the settings' TEMPLATES OPTIONS)."""

from __future__ import annotations

from typing import Any

from django import template

from engine.tricknchef.cards import CARD_STARS, CARD_SUIT, CARD_VALUE, SUIT_LETTER
from games.tricknchef.cardnames import (
    card_label,
    card_name,
    chef_name,
    coin_count,
    dish_name,
    suit_name,
)

register = template.Library()


@register.filter
def card_info(card: str) -> dict[str, Any]:
    suit = CARD_SUIT[card]
    stars = CARD_STARS[card]
    return {
        "suit": suit,
        "value": CARD_VALUE[card],
        "letter": SUIT_LETTER[suit],
        "stars": stars,
        "stars_text": "★" * stars,
        "label": card_label(card),
    }


@register.filter
def coins_text(coins: int) -> str:
    """+2 coins shown as "+4" (each coin is worth 2)."""
    return f"+{2 * coins}" if coins > 0 else f"−{-2 * coins}"


@register.filter
def coins_label(coins: int) -> str:
    return coin_count(coins)


@register.filter(name="suit_name")
def suit_name_filter(suit: str) -> str:
    """ "yellow" in the page's language (games/cardnames.py)."""
    return suit_name(suit)


@register.filter(name="dish_name")
def dish_name_filter(suit: str) -> str:
    """The suit's dish ("pizza" for yellow) in the page's language."""
    return dish_name(suit)


@register.filter(name="chef_name")
def chef_name_filter(suit: str) -> str:
    """ "yellow Chef" in the page's language."""
    return chef_name(suit)


@register.filter(name="card_name")
def card_name_filter(card: str) -> str:
    """ "Y8" -> "yellow 8" in the page's language."""
    return card_name(card)
